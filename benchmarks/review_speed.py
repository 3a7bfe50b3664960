"""Game review speed: one 4-player deal (greedy in every seat) reviewed for every seat, at the
default budget (``paiute.analysis.review.DEFAULT_PLAYOUTS`` per decision), in one process.

    PYTHONPATH=src python benchmarks/review_speed.py [--deals N] [--playouts P] [--seed S]

Prints the wall-clock and CPU seconds per deal, the decisions reviewed and the load average
beside them (the wall figure depends on what else runs; the CPU figure much less). Target
(issue 12): under 30 s per deal.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from paiute import Match, RuleSet, SeededChance
from paiute.analysis.review import DEFAULT_PLAYOUTS, review_record
from paiute.players import make_player
from paiute.players.base import MAX_ITERATIONS
from paiute.record import Record


def deal_record(seed: int) -> Record:
    match = Match(RuleSet(), ["a", "b", "c", "d"], chance=SeededChance(seed))
    bots = [make_player(f"greedy:seed={seed * 4 + seat}") for seat in range(4)]
    deal = match.start_deal()
    while not deal.is_over:
        match.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
    return Record.from_match(match)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, not {args.deals}")
    if not 1 <= args.playouts <= MAX_ITERATIONS:
        parser.error(f"--playouts must be from 1 to {MAX_ITERATIONS}, not {args.playouts}")
    seconds: list[float] = []
    cpu: list[float] = []
    decisions: list[int] = []
    for index in range(args.deals):
        record = deal_record(args.seed + index)
        started, started_cpu = time.perf_counter(), time.process_time()
        review = review_record(record, playouts=args.playouts, seed=0, workers=1)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        decisions.append(len(review.decisions))
        print(
            f"deal {index}: {len(record.deals[0].actions)} actions, {decisions[-1]} decisions, "
            f"{seconds[-1]:.1f} s wall, {cpu[-1]:.1f} CPU-s"
        )
    load = os.getloadavg()
    print(
        f"review of a 4-player deal, all seats, {args.playouts} playouts per decision, one core: "
        f"median {statistics.median(seconds):.1f} s wall (max {max(seconds):.1f} s), "
        f"median {statistics.median(cpu):.1f} CPU-s (max {max(cpu):.1f}) over {args.deals} deals, "
        f"{statistics.mean(decisions):.0f} decisions a deal; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )


if __name__ == "__main__":
    main()
