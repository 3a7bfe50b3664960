"""Learning curves and the final duplicate tournament, shared by the baselines.

A run writes into its folder: ``curve.jsonl`` (one JSON object per evaluation, appended and
flushed as it is made, so a crash loses nothing written), ``curve.png`` (drawn from it) and
``results.json`` (the final tournament: the agent's margin against each bot, with its 95%
interval, R8.2's chips per deal).

Two measures:

* :func:`evaluate_vector` — the learning curve's: chips per deal of a policy in the learner's
  seat against compiled bots in the vector env, on fixed seeds (:data:`EVAL_SEED`). Against three ``greedy`` bots a
  ``greedy`` seat wins 0 on average (every seat plays alike and the chips a deal moves sum to
  0, R8), so the figure is the margin over greedy, with the luck of the cards in its interval.
* :func:`final_tournament` — the published one: a duplicate tournament
  (:func:`~paiute.analysis.tournament.run_tournament`) of the agent, by its dotted path,
  against each bot (:data:`FINAL_OPPONENTS`), the same boards played in every seating, so the
  luck cancels.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiute.analysis.tournament import margin, run_tournament
from paiute.rules import RuleSet

__all__ = [
    "EVAL_SEED",
    "FINAL_OPPONENTS",
    "Curve",
    "Margin",
    "evaluate_vector",
    "final_tournament",
    "plot_curve",
    "write_results",
]

#: The vector env's seed of the learning curve's evaluation deals: the same deals at every point
#: of every run, of either method, so that curves compare.
EVAL_SEED = 7_000_000
#: The bots the final tournament plays the agent against, one after the other.
FINAL_OPPONENTS = ("random", "greedy", "expert")

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.NDArray[np.int64]]


@dataclass(frozen=True)
class Margin:
    """Chips per deal against ``opponent``, with its 95% interval: over ``boards`` duplicate
    boards (``deals`` in all), or over ``deals`` deals of the vector env (``boards`` 0)."""

    opponent: str
    mean: float
    low: float
    high: float
    boards: int
    deals: int

    def __str__(self) -> str:
        sample = f"{self.boards:,} boards" if self.boards else f"{self.deals:,} deals"
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}] vs {self.opponent} ({sample})"


class Curve:
    """The learning curve of a run: ``curve.jsonl`` in ``folder``, a point per evaluation."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder) / "curve.jsonl"

    def points(self) -> list[dict[str, Any]]:
        """Every point written so far (none for a new run); a torn last line is dropped."""
        if not self.path.exists():
            return []
        points = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                points.append(json.loads(line))
            except json.JSONDecodeError:
                break
        return points

    def add(self, **point: Any) -> None:
        """Append one point and flush it to the disk."""
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(point, sort_keys=True) + "\n")
            file.flush()
            os.fsync(file.fileno())

    def truncate(self, deals: int) -> None:
        """Drop the points after ``deals`` training deals (a run resumed from a checkpoint)."""
        kept = [p for p in self.points() if p["deals"] <= deals]
        self.path.write_text("".join(json.dumps(p, sort_keys=True) + "\n" for p in kept), encoding="utf-8")


def plot_curve(
    points: Sequence[dict[str, Any]],
    path: str | os.PathLike[str],
    title: str,
    *,
    players: int,
    opponents: str | Sequence[str],
) -> None:
    """Draw the curve (chips per deal by training deals, with its interval) against the bots
    :func:`evaluate_vector` seats for ``players`` and ``opponents``, which the axis names."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4), dpi=110)
    x = [p["deals"] for p in points]
    axes.fill_between(x, [p["low"] for p in points], [p["high"] for p in points], alpha=0.25, lw=0)
    axes.plot(x, [p["mean"] for p in points], marker="o", ms=3, label="agent (95% interval)")
    # 0 is break-even: what a seat playing as the bots play wins on average (R8's chips sum to 0).
    axes.axhline(0.0, color="grey", lw=1, ls="--", label="break-even")
    axes.set_xlabel("training deals")
    axes.set_ylabel("chips per deal against " + _bots_text(players, opponents))
    axes.set_title(title)
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _bots_text(players: int, opponents: str | Sequence[str]) -> str:
    """The bots as the vector env seats them: one spec at each of the ``players - 1`` other
    seats, or one spec each, in seat order.

    >>> _bots_text(3, "greedy")
    '2 greedy bots'
    >>> _bots_text(4, ["greedy", "greedy", "greedy"])
    '3 greedy bots'
    >>> _bots_text(4, ["greedy", "random", "greedy"])
    'greedy, random, greedy, in seat order'
    """
    specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(set(specs)) == 1:
        return f"{len(specs)} {specs[0]} bot" + ("" if len(specs) == 1 else "s")
    return ", ".join(specs) + ", in seat order"


def evaluate_vector(
    policy: Policy,
    *,
    deals: int,
    seed: int,
    players: int = 4,
    preset: str = "pagat",
    opponents: str | Sequence[str] = "greedy",
    tables: int = 256,
) -> Margin:
    """The mean chips per deal of ``policy`` in the learner's seat over the first ``deals``
    deals of the vector env seeded ``seed``, with a 95% interval (normal, over deals)."""
    import gymnasium

    import paiute.envs.gymnasium  # noqa: F401  (registers paiute/Paiute-v0)

    tables = max(1, min(tables, deals))
    envs = gymnasium.make_vec(
        "paiute/Paiute-v0", num_envs=tables, players=players, preset=preset, opponents=opponents
    )
    try:
        observations, info = envs.reset(seed=seed)
        chips: list[float] = []
        totals = np.zeros(tables)
        while len(chips) < deals:
            actions = policy(observations, info["action_mask"].astype(bool))
            observations, rewards, terminated, truncated, info = envs.step(actions)
            totals += rewards
            for row in np.flatnonzero(terminated | truncated):
                chips.append(float(totals[row]))
                totals[row] = 0.0
    finally:
        envs.close()
    sample = np.array(chips[:deals])
    mean = float(sample.mean())
    half = 1.96 * float(sample.std(ddof=1)) / math.sqrt(len(sample)) if len(sample) > 1 else math.inf
    return Margin(
        opponents if isinstance(opponents, str) else ",".join(opponents),
        mean,
        mean - half,
        mean + half,
        0,
        len(sample),
    )


def final_tournament(
    agent: str,
    *,
    boards: int,
    seed: int,
    opponents: Iterable[str] = FINAL_OPPONENTS,
    players: int = 4,
    preset: str = "pagat",
    workers: int | None = 1,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Margin]:
    """The agent (a player spec: a dotted path with its options) against each bot in a
    duplicate tournament of ``boards`` boards at ``players`` seats; ``progress(opponent,
    done, total)`` after each board."""
    rows = []
    for opponent in opponents:
        report = None if progress is None else (lambda done, total, o=opponent: progress(o, done, total))
        result = run_tournament(
            [agent, opponent],
            deals=boards,
            players=players,
            seed=seed,
            workers=workers,
            rules=RuleSet.from_preset(preset),
            progress=report,
        )
        mean, interval = margin(result)
        low, high = interval if interval is not None else (-math.inf, math.inf)
        rows.append(Margin(opponent, mean, low, high, len(result.boards), result.deals))
    return rows


def write_results(folder: str | os.PathLike[str], rows: Sequence[Margin], **about: Any) -> Path:
    """``results.json`` in ``folder``: the final tournament's rows and what made them."""
    path = Path(folder) / "results.json"
    data = {**about, "final_tournament": [asdict(row) for row in rows]}
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path
