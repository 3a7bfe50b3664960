"""The leaderboard's rows for agents that are not trained by ``paiute train``: each agent's
margin in chips per deal against ``random``, ``greedy`` and ``expert``, with its 95% interval,
from the same duplicate tournament ``paiute train`` ends with
(:func:`paiute.training.report.final_tournament`: 4 seats, every seating of the two bots on
the same boards). docs/baselines.md quotes it beside the trained baselines.

    .venv/bin/python benchmarks/leaderboard.py greedy expert learned --boards 1000
    .venv/bin/python benchmarks/leaderboard.py paiute.training.agent.load:weights=docs/baselines/dmc-seed0/agent.npz

Prints a Markdown row per agent, with the machine's load average (``os.getloadavg``) before
and after; ``--json FILE`` keeps the figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

from paiute.training.report import final_tournament


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agents", nargs="+", help="player specs (a bot name, or a dotted path)")
    parser.add_argument("--boards", type=int, default=1000, help="boards against each bot")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    results = []
    for agent in args.agents:
        load_before, start = os.getloadavg()[0], time.process_time()
        rows = final_tournament(agent, boards=args.boards, seed=args.seed, players=args.players)
        cpu, load_after = time.process_time() - start, os.getloadavg()[0]
        cells = " | ".join(f"{r.mean:+.3f} [{r.low:+.3f}, {r.high:+.3f}]" for r in rows)
        print(
            f"| `{agent}` | {cells} | {args.boards:,} | {cpu / 60:.1f} CPU-min | {load_before:.1f}-{load_after:.1f} |"
        )
        sys.stdout.flush()
        results.append(
            {
                "agent": agent,
                "rows": [dataclasses.asdict(r) for r in rows],
                "cpu_seconds": cpu,
                "load": [load_before, load_after],
            }
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(
                {"boards": args.boards, "seed": args.seed, "players": args.players, "agents": results},
                file,
                indent=2,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
