"""The learning curve's drawing (paiute.training.report)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy")
axes = pytest.importorskip("matplotlib.axes")

from paiute.training.report import plot_curve  # noqa: E402

POINTS = [
    {"deals": 0, "mean": -0.5, "low": -0.6, "high": -0.4},
    {"deals": 64, "mean": 0.1, "low": 0.0, "high": 0.2},
]


@pytest.mark.parametrize(
    ("players", "opponents", "label"),
    [
        (4, "greedy", "chips per deal against 3 greedy bots"),
        (3, "greedy", "chips per deal against 2 greedy bots"),
        (2, "random", "chips per deal against 1 random bot"),
        (4, ["greedy", "greedy", "greedy"], "chips per deal against 3 greedy bots"),
        (4, ["greedy", "random", "greedy"], "chips per deal against greedy, random, greedy, in seat order"),
    ],
)
def test_the_curves_axis_names_the_bots_the_evaluation_seats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, opponents: str | Sequence[str], label: str
) -> None:
    labels: list[str] = []
    set_ylabel = axes.Axes.set_ylabel

    def spy(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        labels.append(text)
        return set_ylabel(self, text, *args, **kwargs)

    monkeypatch.setattr(axes.Axes, "set_ylabel", spy)
    plot_curve(POINTS, tmp_path / "curve.png", "a run", players=players, opponents=opponents)
    assert labels == [label]
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_the_curves_zero_line_is_break_even_whoever_the_bots_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against ``random`` bots 0 chips a deal is break-even (R8), not greedy's level."""
    lines: list[str] = []
    axhline = axes.Axes.axhline

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        lines.append(kwargs.get("label", ""))
        return axhline(self, *args, **kwargs)

    monkeypatch.setattr(axes.Axes, "axhline", spy)
    plot_curve(POINTS, tmp_path / "curve.png", "a run", players=2, opponents="random")
    assert lines == ["break-even"]
