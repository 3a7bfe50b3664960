"""The ``learned`` player: its time per decision and its margins in duplicate tournaments.

Run with the project venv, one thread::

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/learned.py                 # ~10 CPU-minutes
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/learned.py --quick         # seconds
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/learned.py --only speed
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/learned.py --vs greedy:2000 --seed 7

Sections (``--only``):

* ``speed``: CPU time of ``act`` per decision, ``learned`` and ``greedy``, over every decision
  of ``--speed-deals`` seeded 4-seat deals of greedy self-play (the players decide the same
  positions; forced decisions, with one legal action, are counted apart), and how often
  learned leaves greedy's choice there. The weights are
  read once before the clock starts (a one-time cost per process, shown apart).
* ``tournaments``: ``learned`` against each ``OPPONENT:BOARDS`` of ``--vs`` (default random,
  greedy and ``pimc:iterations=300,z=0``), 4 seats ``A B A B``, seating rotations (2 deals a
  board), one worker. The margin is learned's chips per deal less the opponent's, with a 95%
  interval from the per-board differences (``paiute.analysis.tournament.margin``); learned's own chips
  per deal come with ``paiute tournament``'s interval.

The machine's load (``os.getloadavg``) is printed beside every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from paiute import Deal, RuleSet, SeededChance
from paiute.analysis.tournament import margin, run_tournament
from paiute.players import make_player

DEFAULT_VS = "random:400,greedy:2000,pimc:iterations=300;z=0:150"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def speed(deals: int, spec: str) -> dict[str, object]:
    learned, greedy = make_player(spec, seed=1), make_player("greedy:seed=1")
    times: dict[str, list[float]] = {"learned": [], "greedy": []}
    forced: dict[str, list[float]] = {"learned": [], "greedy": []}
    choices = departures = 0
    warm = Deal.new(RuleSet(), 4, 0, SeededChance(-1))
    warm.apply(warm.legal_actions()[0])  # draw: the discard that follows is a choice
    started = time.process_time()
    learned.act(warm.observation(warm.current_seat))  # reads the weights once, before timing
    first_ms = 1e3 * (time.process_time() - started)
    print(f"learned: first decision (reads the weights) {first_ms:.1f} ms   [{load()}]", flush=True)
    for seed in range(deals):
        deal = Deal.new(RuleSet(), 4, seed % 4, SeededChance(seed))
        while not deal.is_over:
            observation = deal.observation(deal.current_seat)
            picked = {}
            for name, player in (("learned", learned), ("greedy", greedy)):
                started = time.process_time()
                picked[name] = player.act(observation)
                spent = time.process_time() - started
                (forced if len(observation.legal_actions) == 1 else times)[name].append(spent)
            if len(observation.legal_actions) > 1:
                choices += 1
                departures += picked["learned"] is not picked["greedy"]
            deal.apply(picked["greedy"])
    result: dict[str, object] = {
        "deals": deals,
        "load": load(),
        "first_decision_ms": first_ms,
        "departures_from_greedy": departures / max(1, choices),
    }
    print(f"learned leaves greedy's choice in {departures} of {choices} decisions with a choice", flush=True)
    for name in ("learned", "greedy"):
        values = sorted(times[name])
        result[name] = {
            "decisions": len(values),
            "mean_ms": 1e3 * statistics.fmean(values),
            "median_ms": 1e3 * statistics.median(values),
            "p99_ms": 1e3 * values[int(0.99 * (len(values) - 1))],
            "forced_mean_ms": 1e3 * statistics.fmean(forced[name]) if forced[name] else 0.0,
        }
        row = result[name]
        assert isinstance(row, dict)
        print(
            f"{name:8} {row['decisions']} decisions with a choice: mean {row['mean_ms']:.3f} ms, "
            f"median {row['median_ms']:.3f} ms, p99 {row['p99_ms']:.3f} ms; forced "
            f"{row['forced_mean_ms']:.4f} ms   [{load()}]",
            flush=True,
        )
    return result


def tournaments(vs: str, seed: int, learned: str) -> list[dict[str, object]]:
    rows = []
    for item in filter(None, (part.strip() for part in vs.split(","))):
        spec, _, boards = item.rpartition(":")
        spec = spec.replace(";", ",")  # a spec's own options are separated by ';' here
        before = load()
        started = time.monotonic()
        result = run_tournament(
            [learned, spec], deals=int(boards), players=4, seed=seed, workers=1, seating="rotations"
        )
        wall = time.monotonic() - started
        difference, interval = margin(result)
        standing = result.standings[0]
        row: dict[str, object] = {
            "opponent": spec,
            "boards": len(result.boards),
            "deals": result.deals,
            "seed": seed,
            "margin": difference,
            "margin_ci95": interval,
            "learned_chips_per_deal": standing.chips_per_deal,
            "learned_ci95": standing.ci95,
            "learned_win_rate": standing.win_rate,
            "opponent_win_rate": result.standings[1].win_rate,
            "dead_rate": result.dead_rate,
            "wall_s": wall,
            "load_before": before,
            "load_after": load(),
        }
        low, high = interval if interval is not None else (float("nan"), float("nan"))
        print(
            f"{learned} vs {spec}: {len(result.boards)} boards ({result.deals} deals), margin "
            f"{difference:+.3f} [{low:+.3f}, {high:+.3f}] chips/deal; learned wins "
            f"{standing.win_rate:.1%} of its seats, {spec} {result.standings[1].win_rate:.1%}; "
            f"{wall:.0f} s   [{before} -> {load()}]",
            flush=True,
        )
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few deals of each section")
    parser.add_argument("--only", default="speed,tournaments")
    parser.add_argument("--speed-deals", type=int, default=200)
    parser.add_argument("--vs", default=DEFAULT_VS, help="OPPONENT:BOARDS,... (';' for ',' inside a spec)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--learned", default="learned", help="the learned player's spec (e.g. learned:weights=F)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.speed_deals, args.vs = 3, "random:3,greedy:3"
    print(f"benchmarks/learned.py {' '.join(sys.argv[1:])}   [{load()}]", flush=True)
    report: dict[str, object] = {}
    sections = {part.strip() for part in args.only.split(",")}
    if "speed" in sections:
        report["speed"] = speed(args.speed_deals, args.learned)
    if "tournaments" in sections:
        report["tournaments"] = tournaments(args.vs, args.seed, args.learned)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
