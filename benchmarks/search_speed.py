"""Search speed: playouts per CPU-second of ``ismcts`` and of the compiled estimator behind
``pimc``, side by side in one run, each case in a fresh child process (its peak RSS is its
own), on the same positions.

    .venv/bin/python benchmarks/search_speed.py                  # ~1 minute with the kernels cached
    .venv/bin/python benchmarks/search_speed.py --seconds 5 --json out.json

Cases (every one searches the same positions, taken from greedy self-play, 4 seats, pagat):

* ``ismcts``: ``ismcts:iterations=N,workers=1`` deciding; one tree iteration ends in one
  playout, so iterations are playouts.
* ``python_estimator``: ``estimate_actions(core="python")``, greedy playouts in the engine.
* ``pimc_estimator``: ``estimate_actions(core="compiled")`` with inference, every legal action
  played out on each determinization: what ``pimc`` runs per decision (the position built
  from the observation included); the playouts played by the compiled playout policy.
* ``pimc_estimator_greedy``: the same with ``policy="greedy"``: the playouts played by the
  exact compiled greedy (:mod:`paiute.compiled.greedy`).
* ``pimc_decision``, ``pimc_decision_greedy``: ``pimc:iterations=N`` whole decisions
  (greedy's own move included), with each policy.

The child times ``time.process_time()`` (CPU of the child) after one warm-up pass (which
loads, or the first time compiles, the kernels: that time is reported apart, as
``start_s``), pinned to the last CPU. The load average is printed at the start and the end.

A shared virtual machine's speed drifts by a third within a minute, more than the gains
worth measuring, so ``--rounds R`` runs the whole list of cases R times, one after another,
and reports each case's median rate over the rounds and its ratio to ``ismcts`` *within*
each round (median, lowest and highest): a drift that slows a round slows both sides of its
ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

CASES = (
    "ismcts",
    "python_estimator",
    "pimc_estimator",
    "pimc_estimator_greedy",
    "pimc_decision",
    "pimc_decision_greedy",
)


def _positions(count: int, seed: int) -> list[Any]:
    from paiute import Deal, RuleSet, SeededChance
    from paiute.players.greedy import GreedyPlayer

    observations = []
    deal_seed = seed
    while len(observations) < count:
        deal = Deal.new(RuleSet(), 4, 0, SeededChance(deal_seed), balances=[0] * 4, pot=4)
        bots = [GreedyPlayer(seed=seat) for seat in range(4)]
        step = 0
        while not deal.is_over and len(observations) < count:
            seat = deal.current_seat
            observation = deal.observation(seat)
            if len(observation.legal_actions) > 1 and step % 5 == 2:
                observations.append(observation)
            deal.apply(bots[seat].act(observation))
            step += 1
        deal_seed += 1
    return observations


def _child(case: str, seconds: float, positions: int, seed: int) -> dict[str, Any]:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    started = time.perf_counter()
    from paiute.players import make_player
    from paiute.players.evaluate import estimate_actions

    observations = _positions(positions, seed)

    def once(observation: Any) -> int:
        if case == "ismcts":
            player = make_player("ismcts:iterations=200,workers=1,seed=1")
            player.act(observation)
            stats = player.last_search  # type: ignore[attr-defined]
            return int(stats.iterations)
        if case == "python_estimator":
            return estimate_actions(observation, playouts=2, seed=1, core="python").playouts
        if case == "pimc_estimator":
            return estimate_actions(observation, playouts=400, seed=1, core="compiled").playouts
        if case == "pimc_estimator_greedy":
            return estimate_actions(
                observation, playouts=100, seed=1, core="compiled", policy="greedy"
            ).playouts
        if case == "pimc_decision_greedy":
            player = make_player("pimc:iterations=100,seed=1,policy=greedy")
            player.act(observation)
            return int(player.last_search.playouts)  # type: ignore[attr-defined]
        player = make_player("pimc:iterations=400,seed=1")
        player.act(observation)
        return int(player.last_search.playouts)  # type: ignore[attr-defined]

    once(observations[0])  # warm-up: imports, and the compiled kernels loaded (or compiled)
    start_s = time.perf_counter() - started
    done = 0
    cpu = time.process_time()
    index = 0
    while time.process_time() - cpu < seconds:
        done += once(observations[index % len(observations)])
        index += 1
    cpu = time.process_time() - cpu
    return {
        "case": case,
        "playouts": done,
        "cpu_s": cpu,
        "rate": done / cpu,
        "decisions": index,
        "start_s": start_s,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="CPU-seconds per case and round (default 4)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of every case, interleaved (default 1)")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--only", default=",".join(CASES))
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.seconds, args.positions, args.seed)))
        return 0
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive, not {args.seconds}")
    cases = args.only.split(",")
    unknown = [case for case in cases if case not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r} (cases: {', '.join(CASES)})")
    if args.positions < 1:
        parser.error(f"--positions must be at least 1, not {args.positions}")
    load_start = os.getloadavg()
    rounds: list[dict[str, dict[str, Any]]] = []
    for _ in range(args.rounds):
        by_case = {}
        for case in cases:
            command = [sys.executable, __file__, "--child", case, "--seconds", str(args.seconds)]
            command += ["--positions", str(args.positions), "--seed", str(args.seed)]
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            by_case[case] = json.loads(output.strip().splitlines()[-1])
        rounds.append(by_case)
    load_end = os.getloadavg()
    print(
        f"load average at start {load_start[0]:.2f} {load_start[1]:.2f}, at end {load_end[0]:.2f} {load_end[1]:.2f}"
        f"; {args.rounds} round(s) of {args.seconds:g} CPU-s a case"
    )
    print(f"{'case':22} {'playouts/CPU-s':>15} {'x ismcts':>9} {'(range)':>15} {'peak RSS':>10} {'start':>8}")
    rows = []
    for case in cases:
        runs = [by_case[case] for by_case in rounds]
        ratios = sorted(r[case]["rate"] / r["ismcts"]["rate"] for r in rounds if "ismcts" in r)
        row = {
            "case": case,
            "rate": statistics.median(run["rate"] for run in runs),
            "ratio": statistics.median(ratios) if ratios else None,
            "ratio_range": [ratios[0], ratios[-1]] if ratios else None,
            "peak_rss_mib": max(run["peak_rss_mib"] for run in runs),
            "start_s": max(run["start_s"] for run in runs),
            "runs": runs,
        }
        rows.append(row)
        ratio = f"{row['ratio']:.1f}x" if ratios else "-"
        spread = f"{ratios[0]:.1f}-{ratios[-1]:.1f}x" if len(ratios) > 1 else ""
        print(
            f"{case:22} {row['rate']:15,.0f} {ratio:>9} {spread:>15} {row['peak_rss_mib']:8.1f} MiB"
            f" {row['start_s']:7.2f}s"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(
                {"load_start": load_start, "load_end": load_end, "rounds": args.rounds, "rows": rows},
                out,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
