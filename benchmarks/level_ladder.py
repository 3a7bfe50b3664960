"""The level ladder: ``easy``, ``medium``, ``hard`` and ``expert`` on one rating scale.

Run with the project venv (issue 11: each level placed on one rating ladder, with the chips it
gains over the level below and a 95% interval)::

    .venv/bin/python benchmarks/level_ladder.py --boards 1000            # the README's table
    .venv/bin/python benchmarks/level_ladder.py --boards 1000 --iterations-mode  # repeatable
    .venv/bin/python benchmarks/level_ladder.py --boards 4 --four --json out.json  # a smoke run

Duplicate tournaments (``paiute.analysis.tournament.run_tournament``, the code of ``paiute
tournament``), 4 seats: each adjacent pair of levels (``easy-medium``, ``medium-hard``,
``hard-expert``) head to head ``A B A B`` with ``seating="rotations"`` (``A B A B`` and
``B A B A``: 2 deals a board), ``--boards`` boards each, every pair on the same seed, so the
same boards; with ``--four`` also all four levels at one table (4 rotations a board).

* **Rating**: one openskill Plackett-Luce ladder (:func:`paiute.analysis.tournament.rate_ladder`, the
  model and updates ``run_tournament`` rates a tournament with) over every deal that was not
  dead of every tournament, so levels that never met (``easy`` and ``expert``) are on one
  scale through the ones between. Shown as ``mu`` with ``mu +- 1.96 sigma`` and the
  ``ordinal`` (``mu - 3 sigma``). Ratings of several tournaments depend on their order here
  (weakest pair first); the chips are the figure to trust.
* **Gain over the level below**: in that pair's tournament, the upper level's chips per deal
  (per seat it holds, as ``paiute tournament`` reports it) with its 95% confidence interval
  (1.96 standard errors of the per-board means). The pair's table is zero-sum except for dead
  deals, so the lower level loses about as much.
* ``--iterations-mode``: a level whose spec has a time budget (``ms=M``, the ``pimc`` levels)
  is replaced by the same spec with an iteration budget (``iterations=N``) of equal average
  cost, ``N`` the mean number of determinizations that ``ms=M`` bought over
  ``--calib-decisions`` sampled positions measured here first (printed as a mapping). A run
  on iteration budgets is a function of the seed only, however loaded the machine.
* ``--spec LEVEL=SPEC`` stands a level in with another spec (the tests use tiny budgets).
* ``--pair-boards LEVEL=N`` plays ``N`` boards (instead of ``--boards``) in the tournament of
  ``LEVEL`` against the level below: a gain of a hundredth of a chip needs some 10,000 boards
  for its interval to clear zero, the others far fewer.

A ``pimc`` level with a time budget plays ``greedy``'s move until the compiled kernels are
loaded in its process (:mod:`paiute.compiled.warm`); this script fills the disk cache before
the tournaments, so a worker loses only its first second or so to that.
The machine's load (``os.getloadavg``) is printed beside every figure.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from paiute import Deal, RuleSet, SeededChance
from paiute.analysis.tournament import TournamentResult, rate_ladder, run_tournament
from paiute.players import LEVELS, make_player, parse_spec

ORDER = ("easy", "medium", "hard", "expert")
PLAYERS = 4
Z95 = 1.959963984540054


def _loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# -- iteration budgets of equal cost ----------------------------------------------------------


def _positions(count: int, seed: int, rules: RuleSet) -> list[Any]:
    """Observations of non-forced decisions from seeded greedy 4-seat deals (every third)."""
    observations: list[Any] = []
    game = 0
    while len(observations) < count and game < 10 * count + 10:  # bounded
        deal = Deal.new(rules, PLAYERS, game % PLAYERS, SeededChance(seed + game))
        players = [make_player("greedy", seed=seed + game * 10 + seat) for seat in range(PLAYERS)]
        step = 0
        while not deal.is_over and len(observations) < count:
            observation = deal.observation(deal.current_seat)
            if len(observation.legal_actions) > 1:
                if step % 3 == 0:
                    observations.append(observation)
                step += 1
            deal.apply(players[deal.current_seat].act(observation))
        game += 1
    return observations


def with_iterations(spec: str, iterations: int) -> str:
    """``spec`` with its ``ms`` budget replaced by ``iterations``.

    >>> with_iterations("pimc:ms=150,z=0", 900)
    'pimc:iterations=900,z=0'
    """
    name, options = parse_spec(spec)
    parts = [
        f"iterations={iterations}" if key == "ms" else f"{key}={value}" for key, value in options.items()
    ]
    return f"{name}:{','.join(parts)}"


def calibrate(specs: dict[str, str], decisions: int, seed: int, rules: RuleSet) -> dict[str, dict[str, Any]]:
    """For each level whose spec has ``ms=``: the mean determinizations it buys per decision
    here, over ``decisions`` positions, and the spec with that iteration budget instead."""
    from paiute.compiled import warm

    timed = {level: spec for level, spec in specs.items() if "ms" in parse_spec(spec)[1]}
    if not timed:
        return {}
    if not warm.prepare(block=True, timeout=900):
        raise SystemExit(
            f"--iterations-mode needs the compiled kernels: {warm.error() or 'Numba is not installed'}"
        )
    observations = _positions(decisions, seed, rules)
    mapping: dict[str, dict[str, Any]] = {}
    for level, spec in timed.items():
        player = make_player(spec, seed=1)
        load = _loadavg()
        counts, seconds = [], []
        for observation in observations:
            player.act(observation)
            stats = player.last_search  # type: ignore[attr-defined]
            if stats is not None and stats.compiled:
                counts.append(stats.determinizations)
                seconds.append(stats.seconds)
        if not counts:
            raise SystemExit(f"{spec}: no position was searched, cannot measure its iteration budget")
        iterations = max(1, round(statistics.fmean(counts)))
        mapping[level] = {
            "spec": spec,
            "iterations_spec": with_iterations(spec, iterations),
            "decisions": len(counts),
            "mean": statistics.fmean(counts),
            "median": statistics.median(counts),
            "min": min(counts),
            "max": max(counts),
            "seconds_mean": statistics.fmean(seconds),
            "load": load,
        }
    return mapping


# -- the tournaments ------------------------------------------------------------------------------


def tournament(
    bots: list[str], boards: int, seed: int, workers: int, rules: RuleSet
) -> tuple[TournamentResult, dict[str, Any]]:
    load = _loadavg()
    started = time.perf_counter()
    result = run_tournament(
        bots, deals=boards, players=PLAYERS, seed=seed, workers=workers, rules=rules, seating="rotations"
    )
    data = result.to_json()
    data.update(
        {"load_before": load, "load_after": _loadavg(), "wall_s": round(time.perf_counter() - started, 2)}
    )
    return result, data


def run(args: argparse.Namespace) -> dict[str, Any]:
    rules = RuleSet.from_preset(args.preset)
    specs = {level: args.specs.get(level, LEVELS[level]) for level in ORDER}
    report: dict[str, Any] = {
        "command": " ".join(
            shlex.quote(p) for p in [".venv/bin/python", "benchmarks/level_ladder.py", *args.argv]
        ),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "loadavg_start": _loadavg(),
        "preset": args.preset,
        "seed": args.seed,
        "boards": args.boards,
        "pair_boards": dict(args.pair_boards),
        "workers": args.workers,
        "levels": dict(specs),
    }
    if args.iterations_mode:
        log(f"calibrating iteration budgets on {args.calib_decisions} positions")
        mapping = calibrate(specs, args.calib_decisions, args.seed, rules)
        report["iterations_mapping"] = mapping
        for level, row in mapping.items():
            specs[level] = row["iterations_spec"]
    else:
        from paiute.compiled import available, warm

        if available() and any(parse_spec(spec)[0] == "pimc" for spec in specs.values()):
            log("filling the compiled kernels' disk cache (a minute the first time)")
            warm.prepare(block=True, timeout=900)
    report["specs"] = dict(specs)
    names = {spec: level for level, spec in specs.items()}
    results: list[TournamentResult] = []
    pairs = []
    for lower, upper in itertools.pairwise(ORDER):
        bots = [specs[upper], specs[lower]]
        boards = args.pair_boards.get(upper, args.boards)
        log(f"{upper} ({bots[0]}) vs {lower} ({bots[1]}): {boards} boards x 2 rotations")
        result, data = tournament(bots, boards, args.seed, args.workers, rules)
        results.append(result)
        pairs.append({"upper": upper, "lower": lower, **data})
    report["pairs"] = pairs
    if args.four:
        bots = [specs[level] for level in ORDER]
        log(f"all four at one table: {args.boards} boards x 4 rotations")
        result, data = tournament(bots, args.boards, args.seed, args.workers, rules)
        results.append(result)
        report["four"] = data
    report["ratings"] = rate_ladder(results, names)
    report["loadavg_end"] = _loadavg()
    return report


# -- the report ----------------------------------------------------------------------------------


def _chips(bot: dict[str, Any]) -> str:
    ci = bot["ci95"]
    if ci is None:
        return f"{bot['chips_per_deal']:+.3f} (one board: no interval)"
    return f"{bot['chips_per_deal']:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]"


def markdown(report: dict[str, Any]) -> str:
    """The ladder as a Markdown table, ready for the README."""
    specs = report["specs"]
    ratings = report["ratings"]
    pairs = {pair["upper"]: pair for pair in report["pairs"]}
    lines = [
        "| level | bot | rating mu [mu ± 1.96 sigma] | ordinal | gain over the level below, chips/deal [95% CI] | boards | load |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for level in ORDER:
        rating = ratings.get(level)
        shown = "-"
        ordinal = "-"
        if rating is not None:
            half = Z95 * rating["sigma"]
            shown = f"{rating['mu']:.2f} [{rating['mu'] - half:.2f}, {rating['mu'] + half:.2f}]"
            ordinal = f"{rating['ordinal']:.2f}"
        pair = pairs.get(level)
        gain, boards, load = "-", "-", "-"
        if pair is not None:
            upper = pair["bots"][0]
            gain = f"{_chips(upper)} over {pair['lower']}"
            boards = str(pair["boards"])
            load = f"{pair['load_before'][0]:.1f}-{pair['load_after'][0]:.1f}" if pair["load_before"] else "-"
        lines.append(f"| {level} | `{specs[level]}` | {shown} | {ordinal} | {gain} | {boards} | {load} |")
    return "\n".join(lines)


def print_report(report: dict[str, Any]) -> None:
    print(f"paiute level ladder - {report['date']}")
    print(f"command: {report['command']}")
    print(
        f"Python {report['python']}, {report['cores']} cores, preset {report['preset']}, seed {report['seed']}, "
        f"{report['boards']} boards a tournament"
        + "".join(
            f" ({n} for {level} over the level below)" for level, n in report.get("pair_boards", {}).items()
        )
        + f", {report['workers']} workers; "
        f"load avg start {report['loadavg_start']} end {report['loadavg_end']}"
    )
    mapping = report.get("iterations_mapping")
    if mapping is not None:
        print("\niteration budgets of equal average cost (measured here):")
        for level, row in mapping.items():
            print(
                f"  {level}: {row['spec']} -> {row['iterations_spec']} (mean {row['mean']:.1f} determinizations "
                f"a decision, median {row['median']:.0f}, {row['min']}-{row['max']}, {row['decisions']} "
                f"positions, {1000 * row['seconds_mean']:.1f} ms each; load {row['load']})"
            )
        if not mapping:
            print("  (no level has a time budget)")
    print("\nhead to head, 4 seats A B A B, rotations (2 deals a board):")
    for pair in report["pairs"]:
        upper, lower = pair["bots"]
        print(
            f"  {pair['upper']} vs {pair['lower']}: {pair['upper']} {_chips(upper)}, {pair['lower']} {_chips(lower)} "
            f"chips/deal; {pair['deals']} deals, dead {pair['dead_rate']:.1%}, {pair['wall_s']:.0f} s, "
            f"load {pair['load_before']} -> {pair['load_after']}"
        )
    four = report.get("four")
    if four is not None:
        print(
            f"  all four at one table ({four['deals']} deals, load {four['load_before']} -> {four['load_after']}): "
            + ", ".join(f"{level} {_chips(bot)}" for level, bot in zip(ORDER, four["bots"], strict=True))
        )
    print()
    print(markdown(report))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=500, help="boards a tournament (default 500)")
    parser.add_argument("--seed", type=int, default=20261202, help="tournament seed (default 20261202)")
    parser.add_argument("--workers", type=int, default=2, help="tournament workers (default 2)")
    parser.add_argument("--preset", default="pagat", help="rules preset (default pagat)")
    parser.add_argument(
        "--iterations-mode",
        action="store_true",
        help="replace each ms budget by an iteration budget of equal average cost, measured first",
    )
    parser.add_argument(
        "--calib-decisions",
        type=int,
        default=40,
        help="positions measured for --iterations-mode (default 40)",
    )
    parser.add_argument(
        "--pair-boards",
        dest="pair_boards_items",
        action="append",
        default=[],
        metavar="LEVEL=N",
        help="boards of the tournament of LEVEL against the level below (a small gain needs more)",
    )
    parser.add_argument("--four", action="store_true", help="also all four levels at one table")
    parser.add_argument("--spec", action="append", default=[], metavar="LEVEL=SPEC", help="stand a level in")
    parser.add_argument("--json", metavar="OUT", help="also write every figure as JSON to OUT")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.boards < 1 or args.workers < 1 or args.calib_decisions < 1:
        parser.error("--boards, --workers and --calib-decisions must be at least 1")
    try:
        RuleSet.from_preset(args.preset)
    except Exception as error:  # the rules' own message, one line
        parser.error(str(error))
    args.pair_boards = {}
    for item in args.pair_boards_items:
        level, sep, count = item.partition("=")
        level = level.strip()
        if not sep or level not in ORDER[1:] or not count.strip().isdigit() or int(count) < 1:
            parser.error(
                f"--pair-boards {item!r}: expected LEVEL=N with LEVEL one of {', '.join(ORDER[1:])} and N at least 1"
            )
        args.pair_boards[level] = int(count)
    args.specs = {}
    for item in args.spec:
        level, sep, spec = item.partition("=")
        if not sep or level.strip() not in ORDER or not spec.strip():
            parser.error(f"--spec {item!r}: expected LEVEL=SPEC with LEVEL one of {', '.join(ORDER)}")
        try:
            make_player(spec.strip(), seed=0)
        except Exception as error:
            parser.error(f"--spec {item!r}: {error}")
        args.specs[level.strip()] = spec.strip()
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    print_report(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
