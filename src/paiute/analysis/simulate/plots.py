"""PNG charts of a simulation or a comparison, with matplotlib (the ``sim`` extra).

matplotlib is imported only when :func:`plot` is called, and without pyplot: no display and
no global state.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paiute.analysis.odds import category_order
from paiute.analysis.simulate.comparison import Comparison
from paiute.analysis.simulate.facts import Estimate
from paiute.analysis.simulate.running import SimulationReport, require_sim_extra

__all__ = ["plot"]


def plot(result: SimulationReport | Comparison, directory: str | Path) -> list[Path]:
    """Write PNG charts of a run or a comparison into ``directory``; returns their paths.

    Uses matplotlib without pyplot (no display, no global state): the ``sim`` extra.
    """
    require_sim_extra("matplotlib", "--plot")
    from matplotlib.figure import Figure

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(figure: Figure, name: str) -> None:
        path = folder / name
        figure.tight_layout()
        figure.savefig(path, format="png", dpi=100)
        written.append(path)

    if isinstance(result, Comparison):
        _plot_comparison(result, save)
        return written
    report = result
    estimates = report.estimates()
    title = _title(report)

    figure = Figure(figsize=(10, 4))
    for axes, attribute, unit in zip(
        figure.subplots(1, 2), ("actions", "turns"), ("actions", "turns"), strict=True
    ):
        values = [getattr(deal, attribute) for deal in report.deals]
        axes.hist(values, bins=min(50, max(5, len(set(values)))), color="#4c72b0")
        axes.set_xlabel(f"deal length ({unit})")
        axes.set_ylabel("deals")
        if values:
            axes.axvline(statistics.median(values), color="black", linestyle="--", label="median")
            axes.legend()
    figure.suptitle(f"Deal length — {title}")
    save(figure, "deal_length.png")

    order = category_order(report.config.rules.royal_high)
    figure = Figure(figsize=(10, 4.5))
    axes = figure.subplots()
    width = 0.38
    for offset, (prefix, label) in zip(
        (-width / 2, width / 2), (("called", "called"), ("won", "wins the deal")), strict=True
    ):
        keys = [f"{prefix}.{category.value}" for category in order]
        _bars(
            axes,
            [i + offset for i in range(len(order))],
            [estimates[key] for key in keys],
            width,
            label,
            percent=True,
        )
    axes.set_xticks(range(len(order)), [category.title for category in order])
    axes.set_ylabel("share of deals (%)")
    axes.legend()
    axes.set_title(f"Categories called and winning — {title}")
    save(figure, "categories.png")

    figure = Figure(figsize=(10, 4.5))
    left, right = figure.subplots(1, 2)
    players = report.config.players
    keys = [f"edge.position.{p + 1}" for p in range(players)]
    _bars(left, list(range(players)), [estimates[key] for key in keys], 0.7, None)
    left.set_xticks(
        range(players), [("dealer" if p == players - 1 else f"pos {p + 1}") for p in range(players)]
    )
    left.axhline(0, color="black", linewidth=0.8)
    left.set_ylabel("chips per deal")
    left.set_title("edge by position (1 = dealer's left)")
    keys = [f"edge.seat.{s}" for s in range(players)]
    _bars(right, list(range(players)), [estimates[key] for key in keys], 0.7, None, color="#dd8452")
    right.set_xticks(range(players), [f"{s}\n{report.config.bots[s]}" for s in range(players)])
    right.axhline(0, color="black", linewidth=0.8)
    right.set_title("edge by seat (bot)")
    figure.suptitle(f"Chip edge, 95% intervals — {title}")
    save(figure, "edge.png")

    figure = Figure(figsize=(10, 4.5))
    axes = figure.subplots()
    keys = ["dead", "rebuilt", "first_call.first_turn", "overtaken", "tied"]
    labels = ["dead (R4.7)", "rebuilt (R4.6)", "1st call on\nfirst turn", "1st caller\novertaken", "tied"]
    _bars(axes, list(range(len(keys))), [estimates[key] for key in keys], 0.6, None, percent=True)
    axes.set_xticks(range(len(keys)), labels)
    axes.set_ylabel("%")
    axes.set_title(f"How deals end, 95% intervals — {title}")
    save(figure, "outcomes.png")
    return written


def _title(report: SimulationReport) -> str:
    bots = sorted(set(report.config.bots))
    return f"{report.completed} deals, {report.config.players} players, {'/'.join(bots)}"


def _bars(
    axes: Any,
    positions: Sequence[float],
    estimates: Sequence[Estimate],
    width: float,
    label: str | None,
    *,
    percent: bool = False,
    color: str | None = None,
) -> None:
    scale = 100.0 if percent else 1.0
    heights = [(e.value or 0.0) * scale for e in estimates]
    lows = [((e.value or 0.0) - (e.low if e.low is not None else e.value or 0.0)) * scale for e in estimates]
    highs = [
        ((e.high if e.high is not None else e.value or 0.0) - (e.value or 0.0)) * scale for e in estimates
    ]
    axes.bar(positions, heights, width, yerr=[lows, highs], capsize=3, label=label, color=color)


def _plot_comparison(result: Comparison, saver: Callable[[Any, str], None]) -> None:
    from matplotlib.figure import Figure

    base = result.reports[0]
    option = result.option
    values = [str(value) for value in result.values]
    estimates = [report.estimates() for report in result.reports]

    keys = ["dead", "overtaken", "tied", "first_call.first_turn"] + [
        f"won.{category.value}" for category in category_order(base.config.rules.royal_high)
    ]
    order = category_order(base.config.rules.royal_high)
    labels = ["dead\n(R4.7)", "1st caller\novertaken", "best call\ntied", "1st call on\nfirst turn"] + [
        f"wins with\n{category.title}" for category in order
    ]
    figure = Figure(figsize=(12, 5))
    axes = figure.subplots()
    width = 0.8 / len(values)
    for number, (value, estimate) in enumerate(zip(values, estimates, strict=True)):
        offset = (number - (len(values) - 1) / 2) * width
        _bars(
            axes,
            [i + offset for i in range(len(keys))],
            [estimate[key] for key in keys],
            width,
            f"{option}={value}",
            percent=True,
        )
    axes.set_xticks(range(len(keys)), labels, fontsize=8)
    axes.set_ylabel("%")
    axes.legend()
    axes.set_title(f"{option}: rates for each value, 95% intervals ({base.completed} deals each)")
    saver(figure, f"compare_{option}_rates.png")

    effects = result.effects()
    rate_keys = [fact.key for fact in base.facts if fact.kind == "rate"]
    figure = Figure(figsize=(10, max(4.0, 0.22 * len(rate_keys) * len(effects) + 1)))
    axes = figure.subplots()
    rows = []
    for value, effect in zip(values[1:], effects, strict=True):
        for key in rate_keys:
            diff = effect.get(key)
            if diff is None or diff.difference is None:
                continue
            rows.append((f"{key} [{value}]", diff))
    ys = list(range(len(rows)))
    axes.errorbar(
        [100 * d.difference for _, d in rows if d.difference is not None],
        ys,
        xerr=[
            [
                100 * (d.difference - (d.low if d.low is not None else d.difference))
                for _, d in rows
                if d.difference is not None
            ],
            [
                100 * ((d.high if d.high is not None else d.difference) - d.difference)
                for _, d in rows
                if d.difference is not None
            ],
        ],
        fmt="o",
        capsize=3,
    )
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_yticks(ys, [name for name, _ in rows], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlabel(f"difference from {option}={values[0]} (percentage points, 95% interval)")
    axes.set_title(f"Effect of {option}")
    saver(figure, f"compare_{option}_effects.png")

    figure = Figure(figsize=(10, 4))
    axes = figure.subplots()
    for value, report in zip(values, result.reports, strict=True):
        axes.hist(
            [deal.actions for deal in report.deals], bins=40, histtype="step", label=f"{option}={value}"
        )
    axes.set_xlabel("deal length (actions)")
    axes.set_ylabel("deals")
    axes.legend()
    axes.set_title(f"Deal length for each value of {option}")
    saver(figure, f"compare_{option}_length.png")
