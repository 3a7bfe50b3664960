"""The ``guarded`` player (the ``expert`` level) against ``greedy`` (``hard``): its margin at
every table size and preset, and its time a decision beside greedy's.

Run with the project venv (issue 11; docs/guarded.md has the figures)::

    .venv/bin/python benchmarks/guarded.py                          # 2-5 seats, both presets
    .venv/bin/python benchmarks/guarded.py --seats 4 --boards 10000 --seed 20261218
    .venv/bin/python benchmarks/guarded.py --boards 20 --positions 20 --json out.json  # a smoke run

* **Margin**: a duplicate tournament (``paiute.analysis.tournament.run_tournament``, the code of
  ``paiute tournament``) of ``guarded`` against ``greedy`` for each ``--seats`` and
  ``--presets``, every rotation of the line-up playing each board (``seating="rotations"``),
  ``--boards`` boards on ``--workers`` processes, every tournament on the same ``--seed``. The
  figure is ``guarded``'s chips per deal (per seat it holds) with its 95% interval (1.96
  standard errors of the per-board means). ``--lineup``: ``alternate`` seats ``guarded`` and
  ``greedy`` in turn (A B A B); ``one`` seats one ``guarded`` among ``greedy`` bots (its
  figure is then its edge over the field: the table is zero-sum); ``field`` seats one
  ``greedy`` among ``guarded`` bots, the table a person meets when every bot is at the
  ``expert`` level, and the figure is what that ``greedy`` seat *loses* a deal (among
  ``greedy`` bots it would lose nothing); ``auto`` (the default) is ``alternate`` at an even
  table and ``one`` at an odd one, where alternating would seat two ``guarded`` side by side,
  one guarding against the other, which a tournament scores as one bot.
* **Time a decision**: both players decide the same ``--positions`` positions (every
  non-forced decision of seeded greedy deals at four seats, both presets), in this process,
  one after the other; the mean and the 99th percentile in milliseconds, and their ratio.
  Peak RSS of this process is printed with them.

No figure here is asserted by a test (machines are noisy); the machine's load is printed
beside each.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from paiute import Deal, RuleSet, SeededChance
from paiute.analysis.tournament import run_tournament
from paiute.players import make_player

BOTS = ("guarded", "greedy")


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def lineup(seats: int, kind: str, bot: str = "guarded") -> list[str]:
    """The bots of a tournament at ``seats`` seats (see ``--lineup`` in the module).

    >>> lineup(3, "auto"), lineup(4, "auto"), lineup(4, "one")
    (['guarded', 'greedy', 'greedy'], ['guarded', 'greedy'], ['guarded', 'greedy', 'greedy', 'greedy'])
    >>> lineup(3, "field")
    ['greedy', 'guarded', 'guarded']
    """
    if kind == "field":
        return ["greedy"] + [bot] * (seats - 1)
    if kind == "one" or (kind == "auto" and seats % 2):
        return [bot] + ["greedy"] * (seats - 1)
    return [bot, "greedy"]


def margin(
    preset: str, seats: int, boards: int, seed: int, workers: int, kind: str = "auto", bot: str = "guarded"
) -> dict[str, Any]:
    """``bot``'s chips per deal against ``greedy`` at ``seats`` seats (see the module)."""
    load, started = _load(), time.perf_counter()
    bots = lineup(seats, kind, bot)
    result = run_tournament(
        bots,
        deals=boards,
        players=seats,
        seed=seed,
        workers=workers,
        rules=RuleSet.from_preset(preset),
        seating="rotations",
    )
    first = result.standings[0]  # the bot measured, or with ``field`` the greedy seat it plays
    assert first.ci95 is not None  # at least two boards
    chips, ci95 = first.chips_per_deal, first.ci95
    if kind == "field":  # what the greedy seat loses
        chips, ci95 = -chips, (-ci95[1], -ci95[0])
    shown = kind if kind != "auto" else ("one" if len(bots) == seats and seats > 2 else "alternate")
    return {
        "preset": preset,
        "seats": seats,
        "lineup": shown,
        "boards": len(result.boards),
        "deals": result.deals,
        "chips_per_deal": chips,
        "ci95": ci95,
        "wall_s": round(time.perf_counter() - started, 1),
        "load": [load, _load()],
    }


def positions(count: int, seed: int) -> list[Any]:
    """``count`` observations of non-forced decisions of seeded greedy deals, four seats,
    the presets in turn."""
    found: list[Any] = []
    game = 0
    while len(found) < count and game < 10 * count + 10:  # bounded
        rules = RuleSet.from_preset(("pagat", "gamerules")[game % 2])
        deal = Deal.new(rules, 4, game % 4, SeededChance(seed + game))
        players = [make_player("greedy", seed=seed + 10 * game + seat) for seat in range(4)]
        while not deal.is_over and len(found) < count:
            observation = deal.observation(deal.current_seat)
            if len(observation.legal_actions) > 1:
                found.append(observation)
            deal.apply(players[deal.current_seat].act(observation))
        game += 1
    return found


def decision_times(observations: list[Any]) -> dict[str, Any]:
    """Milliseconds a decision for each bot, on the same positions, one bot after the other."""
    load = _load()
    timings: dict[str, Any] = {}
    for bot in BOTS:
        player = make_player(bot, seed=1)
        player.act(observations[0])  # the coefficients file is read once a process
        times = []
        for observation in observations:
            started = time.perf_counter()
            player.act(observation)
            times.append(1000.0 * (time.perf_counter() - started))
        times.sort()
        timings[bot] = {
            "mean_ms": statistics.fmean(times),
            "p99_ms": times[min(len(times) - 1, int(0.99 * len(times)))],
        }
    timings["ratio"] = timings["guarded"]["mean_ms"] / timings["greedy"]["mean_ms"]
    timings["positions"] = len(observations)
    timings["load"] = [load, _load()]
    timings["peak_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return timings


def _counts(text: str, option: str, parser: argparse.ArgumentParser) -> list[int]:
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        parser.error(f"{option} must be whole numbers separated by commas, not {text!r}")
    if not values or not all(2 <= value <= 8 for value in values):
        parser.error(f"{option} must be seat counts from 2 to 8 (R2.1), not {text!r}")
    return values


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", default="2,3,4,5", help="comma-separated seat counts (default 2,3,4,5)")
    parser.add_argument("--presets", default="pagat,gamerules", help="comma-separated (default both)")
    parser.add_argument("--boards", type=int, default=3000, help="boards a tournament (default 3000)")
    parser.add_argument("--seed", type=int, default=20261205, help="tournament seed (default 20261205)")
    parser.add_argument("--workers", type=int, default=2, help="tournament workers (default 2)")
    parser.add_argument("--bot", default="guarded", help="the spec measured against greedy (default guarded)")
    parser.add_argument(
        "--lineup",
        choices=("auto", "alternate", "one", "field"),
        default="auto",
        help="alternate: A B A B; one: one guarded among greedy; field: one greedy among guarded "
        "(the figure: what it loses); auto (default): alternate at even tables, one at odd",
    )
    parser.add_argument("--positions", type=int, default=400, help="positions timed (default 400; 0: none)")
    parser.add_argument("--json", metavar="OUT", help="also write every figure as JSON to OUT")
    args = parser.parse_args(argv)
    args.seat_counts = _counts(args.seats, "--seats", parser)
    args.preset_names = args.presets.split(",")
    try:
        make_player(args.bot)
    except ValueError as error:  # PlayerError: an unknown bot or a bad option, one line
        parser.error(f"--bot {args.bot!r}: {error}")
    for preset in args.preset_names:
        if preset not in ("pagat", "gamerules"):
            parser.error(f"unknown preset {preset!r} in --presets (pagat, gamerules)")
    if args.boards < 2 or args.workers < 1 or args.positions < 0:
        parser.error(
            "--boards must be at least 2 (an interval), --workers at least 1, --positions not negative"
        )
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report: dict[str, Any] = {
        "command": " ".join([".venv/bin/python", "benchmarks/guarded.py", *(argv or sys.argv[1:])]),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "seed": args.seed,
        "margins": [],
    }
    print(f"{args.bot} against greedy; Python {report['python']}, {report['cores']} cores, seed {args.seed}")
    measured = "greedy's loss a deal among them" if args.lineup == "field" else f"{args.bot}, chips/deal"
    print(f"| preset | seats | line-up | boards | deals | {measured} [95% CI] | wall | load |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |")
    for preset in args.preset_names:
        for seats in args.seat_counts:
            row = margin(preset, seats, args.boards, args.seed, args.workers, args.lineup, args.bot)
            report["margins"].append(row)
            low, high = row["ci95"]
            print(
                f"| {preset} | {seats} | {row['lineup']} | {row['boards']} | {row['deals']} | {row['chips_per_deal']:+.3f} "
                f"[{low:+.3f}, {high:+.3f}] | {row['wall_s']:.0f} s | {row['load'][0]:.1f}-{row['load'][1]:.1f} |",
                flush=True,
            )
    if args.positions:
        timing = decision_times(positions(args.positions, args.seed))
        report["decision_times"] = timing
        print(
            f"\ntime a decision, {timing['positions']} positions (both presets, 4 seats), one process: "
            f"guarded {timing['guarded']['mean_ms']:.2f} ms (p99 {timing['guarded']['p99_ms']:.2f}), "
            f"greedy {timing['greedy']['mean_ms']:.2f} ms (p99 {timing['greedy']['p99_ms']:.2f}), "
            f"ratio {timing['ratio']:.2f}; peak RSS {timing['peak_rss_mib']:.0f} MiB; "
            f"load {timing['load'][0]:.1f}-{timing['load'][1]:.1f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
