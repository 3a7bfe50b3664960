"""Bot strength and tournament throughput: duplicate tournaments with ``run_tournament``.

Run with the project venv::

    .venv/bin/python benchmarks/strength.py                  # full run (~26 minutes, + ~1.7 h of pimc)
    .venv/bin/python benchmarks/strength.py --quick          # smoke run (~1.5 minutes, ~6 with the pimc sections)
    .venv/bin/python benchmarks/strength.py --json out.json  # also write every figure as JSON
    .venv/bin/python benchmarks/strength.py --only greedy,throughput

Sections (``--only``, comma-separated):

* ``greedy``: ``greedy`` against ``random``, 4 seats (``A B A B``), every permutation of the
  line-up per board (6 deals a board), ``--greedy-boards`` boards on ``--workers`` workers.
* ``throughput``: ``greedy`` against ``greedy``, the same tournament of ``--tp-boards`` boards
  on 1 and on 2 workers, ``--tp-repeats`` times each (interleaved 1, 2, 1, 2, ...); the best
  run of each counts. Deals per second of wall time, tournament start to finish (the worker
  processes' start included), and the speed-up.
* ``calibrate``: how many ISMCTS iterations a time budget buys here: ``ismcts:ms=M`` decides
  ``--calib-decisions`` sampled positions (non-forced decisions of seeded greedy deals) in
  ``--workers`` processes at once, as in the tournaments.
* ``ismcts``: ``ismcts:ms=M,workers=1`` against ``greedy`` for each M in ``--ms``, 4 seats,
  ``--seating rotations`` (``A B A B`` and ``B A B A``: 2 deals a board), on ``--workers``
  workers, time-boxed: boards are played until ``--ms-seconds`` have passed, then the
  tournament is stopped and the boards that finished are reported (``--ms-boards N`` plays
  exactly N boards instead). Every budget uses the same seed, so the same boards.
* ``iterations``: the same with ``ismcts:iterations=N`` for each N in ``--iterations``
  (``--it-seconds`` each): a proxy for how strength grows with the budget.
* ``pimc``: ``pimc:ms=M`` (the compiled search bot; ``expert`` was ``pimc:ms=150`` until 2026-12-05) against
  ``greedy`` for each M in ``--pimc-ms`` (default 10,20,50,100,400) and each preset in
  ``--presets`` (default pagat,gamerules), 4 seats, rotations, time-boxed like ``ismcts``
  (``--pimc-seconds`` each, or exactly ``--pimc-boards`` boards), every budget and preset on
  the same seed. The kernels' disk cache is filled first, so that a worker's first decisions
  are not greedy's for long (a ``pimc`` with a time budget plays greedy's move until its
  process has loaded them, about a second).
* ``pimc-iterations``: the same with ``pimc:iterations=N`` for each N in
  ``--pimc-iterations`` (default 100,300,1000): repeatable whatever the load.

A bot's chips per deal come with a 95% confidence interval (1.96 standard errors of its
per-board means, as ``paiute tournament`` reports them). With two bots the tournament is
zero-sum except for dead deals, so the margin between them is about twice a bot's figure.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import shlex
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from paiute import Deal, RuleSet, SeededChance
from paiute.analysis.tournament import TournamentResult, parallel_map, run_tournament
from paiute.players import make_player
from paiute.players.base import MAX_ITERATIONS, MAX_MS

SECTIONS = ("greedy", "throughput", "calibrate", "ismcts", "iterations", "pimc", "pimc-iterations")
PLAYERS = 4
# Boards asked for in a time-boxed tournament: more than any time box here can play.
TIME_BOX_BOARDS = 1_000_000


# -- the machine --------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def _loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc (Linux)."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _reap_workers() -> list[int]:
    """Stop any pool workers a stopped tournament left running, and return their ids.

    A safety net: ``run_tournament``'s stop flag cancels the boards not started and
    :mod:`paiute.parallel` stops the boards in flight, but a stray worker would take the CPU
    from the next tournament (and delay the exit). The workers are the children of this
    process's forkserver (this process's children); after a finished tournament there are
    none, so only strays are stopped.
    """
    if not Path("/proc/self/stat").exists():
        return []
    tree = _children()
    strays = [pid for child in tree.get(os.getpid(), []) for pid in tree.get(child, [])]
    for pid in strays:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in strays):
        time.sleep(0.05)
    return strays


# -- one tournament -----------------------------------------------------------------------------


def tournament(
    bots: list[str],
    *,
    boards: int | None,
    seconds: float | None,
    seed: int,
    workers: int,
    seating: str,
    rules: RuleSet | None = None,
) -> dict[str, Any]:
    """Play one tournament (``boards`` boards, or as many as ``seconds`` allow) and return its
    figures: ``run_tournament``'s JSON plus the timing and the load around it."""
    stop = threading.Event()
    timer = None
    if boards is None:
        assert seconds is not None
        timer = threading.Timer(seconds, stop.set)
        timer.daemon = True
    load_before = _loadavg()
    started = time.perf_counter()
    last = [started]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] >= 30:
            last[0] = now
            shown = f"{done}/{total}" if boards is not None else f"{done}"
            log(f"  {' vs '.join(bots)}: {shown} deals, {now - started:.0f} s")

    if timer is not None:
        timer.start()
    try:
        result: TournamentResult = run_tournament(
            bots,
            deals=boards if boards is not None else TIME_BOX_BOARDS,
            players=PLAYERS,
            seed=seed,
            workers=workers,
            rules=rules if rules is not None else RuleSet(),
            seating=seating,
            stop=stop,
            progress=progress,
        )
    finally:
        if timer is not None:
            timer.cancel()
    reaped = _reap_workers() if boards is None else []
    wall = time.perf_counter() - started
    data = result.to_json()
    indices = [board.index for board in result.boards]
    data.update(
        {
            "workers": result.workers,
            "elapsed_s": round(result.elapsed, 3),
            "deals_per_s": result.deals / result.elapsed if result.elapsed else None,
            "worker_s_per_deal": result.elapsed * workers / result.deals if result.deals else None,
            "time_box_s": seconds if boards is None else None,
            "boards_played": f"{len(indices)} (indices {min(indices)}..{max(indices)})" if indices else "0",
            "load_before": load_before,
            "load_after": _loadavg(),
            "wall_s": round(wall, 3),
            "stopped_workers": len(reaped),
        }
    )
    if boards is None:  # a time box stops the tournament on purpose: not an interruption
        data["boards_requested"] = None
    return data


def _bot(data: dict[str, Any], index: int) -> dict[str, Any]:
    bot: dict[str, Any] = data["bots"][index]
    return bot


def _chips(bot: dict[str, Any]) -> str:
    ci = bot["ci95"]
    if ci is None:
        return f"{bot['chips_per_deal']:+.3f}"
    return f"{bot['chips_per_deal']:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _above_zero(bot: dict[str, Any]) -> bool | None:
    ci = bot["ci95"]
    return None if ci is None else ci[0] > 0


# -- calibration: iterations bought by a time budget ------------------------------------------


def _sample_observations(count: int, seed: int) -> list[Any]:
    """Observations of non-forced decisions from seeded greedy 4-seat deals (every third)."""
    observations: list[Any] = []
    game = 0
    while len(observations) < count:
        deal = Deal.new(RuleSet(), PLAYERS, game % PLAYERS, SeededChance(seed + game))
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


def _calibrate_task(task: tuple[str, list[Any]]) -> list[tuple[int, float]]:
    spec, observations = task
    player = make_player(spec, seed=1)
    out = []
    for observation in observations:
        player.act(observation)
        stats = player.last_search  # type: ignore[attr-defined]
        out.append((stats.iterations, stats.seconds))
    return out


def calibrate(budgets: list[int], decisions: int, workers: int, seed: int) -> list[dict[str, Any]]:
    observations = _sample_observations(decisions, seed)
    rows = []
    for ms in budgets:
        spec = f"ismcts:ms={ms},workers=1"
        load = _loadavg()
        tasks = [(spec, observations)] * workers  # the same positions in every process at once
        samples = [
            pair for _, result in parallel_map(_calibrate_task, tasks, workers=workers) for pair in result
        ]
        iterations = sorted(pair[0] for pair in samples)
        seconds = [pair[1] for pair in samples]
        rows.append(
            {
                "spec": spec,
                "processes": workers,
                "decisions": len(samples),
                "iterations_median": iterations[len(iterations) // 2],
                "iterations_min": iterations[0],
                "iterations_max": iterations[-1],
                "seconds_mean": sum(seconds) / len(seconds),
                "seconds_max": max(seconds),
                "load_before": load,
            }
        )
        log(f"  calibrate {spec}: median {rows[-1]['iterations_median']} iterations/decision")
    return rows


# -- the run ------------------------------------------------------------------------------------


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes everywhere (a smoke run)")
    parser.add_argument("--json", metavar="OUT", help="also write every figure as JSON to OUT")
    parser.add_argument("--only", help=f"comma-separated sections (default: all of {','.join(SECTIONS)})")
    parser.add_argument("--seed", type=int, default=20261129, help="tournament seed (default 20261129)")
    parser.add_argument("--workers", type=int, default=2, help="tournament workers (default 2)")
    parser.add_argument(
        "--greedy-boards", type=int, help="greedy vs random boards, 6 deals each (default 3334)"
    )
    parser.add_argument("--tp-boards", type=int, help="throughput boards, 6 deals each (default 400)")
    parser.add_argument("--tp-repeats", type=int, help="throughput runs per worker count (default 2)")
    parser.add_argument("--calib-decisions", type=int, help="positions per process in calibrate (default 12)")
    parser.add_argument("--ms", default="50,100,400", help="ismcts time budgets in ms (default 50,100,400)")
    parser.add_argument("--ms-seconds", type=float, help="time box per ms budget (default 360 s)")
    parser.add_argument("--ms-boards", type=int, help="play exactly this many boards per ms budget instead")
    parser.add_argument(
        "--iterations", default="50,200,800", help="ismcts iteration budgets (default 50,200,800)"
    )
    parser.add_argument("--it-seconds", type=float, help="time box per iteration budget (default 90 s)")
    parser.add_argument("--it-boards", type=int, help="play exactly this many boards per iteration budget")
    parser.add_argument(
        "--pimc-ms", default="10,20,50,100,400", help="pimc time budgets in ms (default 10,20,50,100,400)"
    )
    parser.add_argument(
        "--pimc-iterations", default="100,300,1000", help="pimc iteration budgets (default 100,300,1000)"
    )
    parser.add_argument(
        "--presets", default="pagat,gamerules", help="rules presets for pimc (default pagat,gamerules)"
    )
    parser.add_argument(
        "--pimc-seconds", type=float, help="time box per pimc budget and preset (default 360 s)"
    )
    parser.add_argument(
        "--pimc-boards", type=int, help="play exactly this many boards per pimc budget and preset"
    )
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "greedy_boards": 50 if quick else 3334,
        "tp_boards": 30 if quick else 400,
        "tp_repeats": 1 if quick else 2,
        "calib_decisions": 3 if quick else 12,
        "ms_seconds": 15.0 if quick else 360.0,
        "it_seconds": 10.0 if quick else 90.0,
        "pimc_seconds": 15.0 if quick else 360.0,
    }
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    counts = {
        "--workers": args.workers,
        "--greedy-boards": args.greedy_boards,
        "--tp-boards": args.tp_boards,
        "--tp-repeats": args.tp_repeats,
        "--calib-decisions": args.calib_decisions,
        "--ms-boards": args.ms_boards,
        "--it-boards": args.it_boards,
        "--pimc-boards": args.pimc_boards,
    }
    for option, count in counts.items():
        if count is not None and count < 1:
            parser.error(f"{option} must be at least 1, not {count}")
    for option, seconds in (
        ("--ms-seconds", args.ms_seconds),
        ("--it-seconds", args.it_seconds),
        ("--pimc-seconds", args.pimc_seconds),
    ):
        if not 0 < seconds < math.inf:  # NaN too
            parser.error(f"{option} must be a positive number of seconds, not {seconds}")
    args.sections = SECTIONS if args.only is None else tuple(s.strip() for s in args.only.split(","))
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)} (sections: {', '.join(SECTIONS)})")
    for option, attribute, text in (
        ("--ms", "ms_list", args.ms),
        ("--iterations", "it_list", args.iterations),
        ("--pimc-ms", "pimc_ms_list", args.pimc_ms),
        ("--pimc-iterations", "pimc_it_list", args.pimc_iterations),
    ):
        try:
            budgets = _ints(text)
        except ValueError:
            parser.error(f"{option} wants whole numbers separated by commas, not {text!r}")
        bound = MAX_MS if option.endswith("ms") else MAX_ITERATIONS
        if not budgets or not all(1 <= budget <= bound for budget in budgets):
            parser.error(f"{option} wants budgets from 1 to {bound:.0f}, not {text!r}")
        setattr(args, attribute, budgets)
    args.preset_list = [part.strip() for part in args.presets.split(",") if part.strip()]
    for preset in args.preset_list:
        try:
            RuleSet.from_preset(preset)
        except Exception as error:  # the rules' own one-line message
            parser.error(f"--presets: {error}")
    return args


def _write(path: str | None, report: dict[str, Any]) -> None:
    if path is None:
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(path).with_suffix(".tmp")
    temporary.write_text(json.dumps(report, indent=1) + "\n")
    temporary.replace(path)


def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "command": " ".join(
            shlex.quote(part) for part in [".venv/bin/python", "benchmarks/strength.py", *sys.argv[1:]]
        ),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cores": _cores(),
        "loadavg_start": _loadavg(),
        "seed": args.seed,
        "workers": args.workers,
        "players": PLAYERS,
        "rules": RuleSet().to_dict(),
    }
    started = time.perf_counter()
    sections = args.sections

    if "greedy" in sections:
        log(f"greedy vs random: {args.greedy_boards} boards x 6 seatings")
        report["greedy_vs_random"] = tournament(
            ["greedy", "random"],
            boards=args.greedy_boards,
            seconds=None,
            seed=args.seed,
            workers=args.workers,
            seating="permutations",
        )
        _write(args.json, report)

    if "throughput" in sections:
        runs = []
        for repeat in range(args.tp_repeats):
            for workers in (1, 2):
                log(
                    f"throughput: greedy vs greedy, {args.tp_boards} boards, {workers} worker(s), run {repeat + 1}"
                )
                data = tournament(
                    ["greedy", "greedy"],
                    boards=args.tp_boards,
                    seconds=None,
                    seed=args.seed + 1,
                    workers=workers,
                    seating="permutations",
                )
                runs.append(
                    {
                        key: data[key]
                        for key in (
                            "workers",
                            "boards",
                            "deals",
                            "elapsed_s",
                            "deals_per_s",
                            "load_before",
                            "load_after",
                        )
                    }
                )
        best = {w: max(r["deals_per_s"] for r in runs if r["workers"] == w) for w in (1, 2)}
        report["throughput"] = {
            "bots": ["greedy", "greedy"],
            "seating": "permutations",
            "runs": runs,
            "best_deals_per_s": {str(w): best[w] for w in best},
            "speedup": best[2] / best[1],
        }
        _write(args.json, report)

    if "calibrate" in sections:
        log("calibrate: iterations per decision under a time budget")
        report["calibrate"] = calibrate(args.ms_list, args.calib_decisions, args.workers, args.seed)
        _write(args.json, report)

    for section, budgets, key, seconds, boards in (
        ("ismcts", args.ms_list, "ms", args.ms_seconds, args.ms_boards),
        ("iterations", args.it_list, "iterations", args.it_seconds, args.it_boards),
    ):
        if section not in sections:
            continue
        rows = []
        for budget in budgets:
            spec = f"ismcts:{key}={budget},workers=1"
            size = f"{boards} boards" if boards else f"time box {seconds:.0f} s"
            log(f"{spec} vs greedy: rotations, {size}")
            data = tournament(
                [spec, "greedy"],
                boards=boards,
                seconds=None if boards else seconds,
                seed=args.seed + 2,
                workers=args.workers,
                seating="rotations",
            )
            rows.append(data)
            report[f"ismcts_{section}"] = rows
            _write(args.json, report)

    for section, budgets, key in (
        ("pimc", args.pimc_ms_list, "ms"),
        ("pimc-iterations", args.pimc_it_list, "iterations"),
    ):
        if section not in sections:
            continue
        _warm_pimc()
        rows = []
        for preset in args.preset_list:
            for budget in budgets:
                spec = f"pimc:{key}={budget}"
                size = (
                    f"{args.pimc_boards} boards"
                    if args.pimc_boards
                    else f"time box {args.pimc_seconds:.0f} s"
                )
                log(f"{spec} vs greedy ({preset}): rotations, {size}")
                data = tournament(
                    [spec, "greedy"],
                    boards=args.pimc_boards,
                    seconds=None if args.pimc_boards else args.pimc_seconds,
                    seed=args.seed + 3,
                    workers=args.workers,
                    seating="rotations",
                    rules=RuleSet.from_preset(preset),
                )
                data["preset"] = preset
                rows.append(data)
                report[section.replace("-", "_")] = rows
                _write(args.json, report)

    report["loadavg_end"] = _loadavg()
    report["total_wall_s"] = round(time.perf_counter() - started, 1)
    return report


def _warm_pimc() -> None:
    """Fill the compiled kernels' disk cache (a minute the first time, a second after)."""
    from paiute.compiled import available, warm

    if not available():
        log("Numba is not installed: every pimc decision is greedy's")
        return
    log("pimc: filling the compiled kernels' disk cache")
    if not warm.prepare(block=True, timeout=900):
        log(f"pimc: the kernels could not be prepared ({warm.error()}): every decision is greedy's")


def print_report(report: dict[str, Any]) -> None:
    print(f"paiute bot strength and tournament throughput - {report['date']}")
    print(f"command: {report['command']}")
    print(
        f"Python {report['python']} - {report['platform']} - CPU {report['cpu']} ({report['cores']} cores) - "
        f"load avg start {report['loadavg_start']} end {report.get('loadavg_end')}"
    )
    print(
        f"{report['players']} seats, rules {report['rules']}, seed {report['seed']}, "
        f"tournament workers {report['workers']}; total wall time {report.get('total_wall_s')} s"
    )
    print("chips/deal: mean with 95% CI (1.96 standard errors of the per-board means)")

    data = report.get("greedy_vs_random")
    if data:
        print("\n== greedy vs random: duplicate, 4 seats (A B A B), every permutation (6 deals a board)")
        header = f"{'bot':<10} {'deals':>7} {'chips/deal [95% CI]':>28} {'win rate':>9} {'rating mu':>10}"
        print(header)
        print("-" * len(header))
        for bot in data["bots"]:
            print(
                f"{bot['bot']:<10} {bot['deals']:>7} {_chips(bot):>28} {bot['win_rate']:>9.1%} "
                f"{bot['rating']['mu']:>10.1f}"
            )
        greedy = _bot(data, 0)
        print(
            f"{data['boards']} boards, {data['deals']} deals, dead {data['dead_rate']:.1%}; "
            f"{data['elapsed_s']:.1f} s on {data['workers']} workers = {data['deals_per_s']:.0f} deals/s; "
            f"load {data['load_before']} -> {data['load_after']}"
        )
        verdict = "yes" if _above_zero(greedy) else "NO"
        print(
            f"verdict: greedy beats random, 95% CI above zero: {verdict} (>= 20,000 deals: "
            f"{'yes' if data['deals'] >= 20000 else 'no'})"
        )

    data = report.get("throughput")
    if data:
        print("\n== throughput: greedy vs greedy, 4 seats, every permutation, whole tournament wall time")
        header = f"{'workers':>7} {'boards':>7} {'deals':>7} {'seconds':>8} {'deals/s':>8}  load avg before -> after"
        print(header)
        print("-" * len(header))
        for run in data["runs"]:
            print(
                f"{run['workers']:>7} {run['boards']:>7} {run['deals']:>7} {run['elapsed_s']:>8.2f} "
                f"{run['deals_per_s']:>8.1f}  {run['load_before']} -> {run['load_after']}"
            )
        best = data["best_deals_per_s"]
        print(
            f"best: 1 worker {best['1']:.1f} deals/s, 2 workers {best['2']:.1f} deals/s; "
            f"speed-up 1 -> 2 workers {data['speedup']:.2f}x"
        )

    rows = report.get("calibrate")
    if rows:
        print(
            "\n== calibrate: ISMCTS iterations per decision bought by a time budget "
            f"({rows[0]['processes']} processes searching at once)"
        )
        header = (
            f"{'spec':<26} {'decisions':>9} {'iterations median (min-max)':>28} {'s/decision mean (max)':>22}"
        )
        print(header)
        print("-" * len(header))
        for row in rows:
            spread = f"{row['iterations_median']} ({row['iterations_min']}-{row['iterations_max']})"
            seconds = f"{row['seconds_mean']:.3f} ({row['seconds_max']:.3f})"
            print(f"{row['spec']:<26} {row['decisions']:>9} {spread:>28} {seconds:>22}")

    for section, title in (
        ("ismcts_ismcts", "time budgets"),
        ("ismcts_iterations", "iteration budgets (proxy)"),
    ):
        rows = report.get(section)
        if not rows:
            continue
        print(
            f"\n== ismcts vs greedy, {title}: duplicate, 4 seats, rotations (A B A B, B A B A: 2 deals a board)"
        )
        header = (
            f"{'ismcts bot':<26} {'boards':>6} {'deals':>6} {'ismcts chips/deal [95% CI]':>28} {'CI > 0':>6} "
            f"{'win ismcts/greedy':>17} {'seconds':>7} {'worker-s/deal':>13}"
        )
        print(header)
        print("-" * len(header))
        for data in rows:
            bot, other = _bot(data, 0), _bot(data, 1)
            above = {True: "yes", False: "no", None: "-"}[_above_zero(bot)]
            wins = f"{bot['win_rate']:.1%}/{other['win_rate']:.1%}"
            print(
                f"{bot['bot']:<26} {data['boards']:>6} {data['deals']:>6} {_chips(bot):>28} {above:>6} "
                f"{wins:>17} {data['elapsed_s']:>7.0f} {_num(data['worker_s_per_deal']):>13}"
            )
        for data in rows:
            box = f"time box {data['time_box_s']:.0f} s" if data["time_box_s"] else "fixed size"
            print(
                f"  {_bot(data, 0)['bot']}: {data['boards_played']}, {box}, dead {data['dead_rate']:.1%}, "
                f"load {data['load_before']} -> {data['load_after']}"
            )
        for data in rows:
            spec = _bot(data, 0)["spec"]
            if data["deals"] and data["worker_s_per_deal"]:
                hours = 20000 * data["worker_s_per_deal"] / 3600
                print(
                    f"  20,000 deals of {spec} vs greedy would take ~{hours:.1f} CPU-hours "
                    f"(~{hours / report['cores']:.1f} h on this machine's {report['cores']} cores)"
                )


def print_pimc(report: dict[str, Any]) -> None:
    for section, title in (("pimc", "time budgets"), ("pimc_iterations", "iteration budgets")):
        rows = report.get(section)
        if not rows:
            continue
        print(
            f"\n== pimc vs greedy, {title}: duplicate, 4 seats, rotations (A B A B, B A B A: 2 deals a board)"
        )
        header = (
            f"{'pimc bot':<22} {'preset':<10} {'boards':>6} {'deals':>6} {'margin: pimc chips/deal [95% CI]':>33} "
            f"{'CI > 0':>6} {'worker-s/deal':>13}  load before -> after"
        )
        print(header)
        print("-" * len(header))
        for data in rows:
            bot = _bot(data, 0)
            above = {True: "yes", False: "no", None: "-"}[_above_zero(bot)]
            print(
                f"{bot['bot']:<22} {data['preset']:<10} {data['boards']:>6} {data['deals']:>6} {_chips(bot):>33} "
                f"{above:>6} {_num(data['worker_s_per_deal']):>13}  {data['load_before']} -> {data['load_after']}"
            )
        for data in rows:
            box = f"time box {data['time_box_s']:.0f} s" if data["time_box_s"] else "fixed size"
            print(
                f"  {_bot(data, 0)['bot']} ({data['preset']}): {data['boards_played']}, {box}, dead {data['dead_rate']:.1%}"
            )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    _write(args.json, report)
    print_report(report)
    print_pimc(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
