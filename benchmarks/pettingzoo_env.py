"""Our PettingZoo environment next to PettingZoo's ``gin_rummy_v4``, side by side in one run.

Both run the same loop: PettingZoo's ``agent_iter`` / ``last`` / ``step`` with a random legal
action drawn from the observation's action mask (the loop of ``benchmarks/run.py``'s
``pz_gin`` case). Decisions per CPU-second (``time.process_time``); every repeat of every case
is a fresh child process pinned to one core, the cases taken in turn (round-robin) so that the
load of this shared machine hits them alike. Ours runs in ``.venv`` (PettingZoo 1.27,
``paiute[rl]``); ``gin_rummy_v4`` in ``.venv-pz126`` (PettingZoo 1.26.1, the last release that
has it; see benchmarks/setup.sh).

    .venv/bin/python benchmarks/pettingzoo_env.py                 # ~1 minute
    .venv/bin/python benchmarks/pettingzoo_env.py --seconds 3 --repeats 7
    .venv/bin/python benchmarks/pettingzoo_env.py --players 2 --json out.json

The goal (issue 6): ``env()`` at least 10x ``gin_rummy_v4.env()``. Every figure is printed
with the machine's load average (``os.getloadavg``, 1 minute) over the repeats it comes from:
on a busy machine the CPU-second rates fall too (caches, memory bandwidth, frequency). This file only uses the
standard library at import time: the same file runs as the child in both venvs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OURS_PYTHON = ROOT / ".venv" / "bin" / "python"
PZ_PYTHON = ROOT / ".venv-pz126" / "bin" / "python"
RESULT_TAG = "RESULT "
GOAL = 10.0

# name -> (label, which venv)
CASES = {
    "paiute": ("paiute.envs.pettingzoo.env(), {players} players, pagat", "ours"),
    "paiute_raw": ("paiute.envs.pettingzoo.raw_env() (no wrapper)", "ours"),
    "gin": ("PettingZoo 1.26.1 gin_rummy_v4.env()", "pz"),
}


def _loop(env, seed_base: int):  # type: ignore[no-untyped-def]
    """The step loop of benchmarks/run.py's pz_gin case, for any AEC environment."""
    import numpy as np

    rng = random.Random(5)
    randrange = rng.randrange
    flatnonzero = np.flatnonzero
    episodes = iter(range(seed_base, 1 << 62))

    def chunk() -> int:
        env.reset(seed=next(episodes))
        decisions = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = flatnonzero(observation["action_mask"])
                action = int(legal[randrange(len(legal))])
                decisions += 1
            env.step(action)
        return decisions

    return chunk


def _measure(chunk, seconds: float) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    chunk()  # warm-up pass
    clock = time.process_time
    done = 0
    episodes = 0
    start = clock()
    while True:
        done += chunk()
        episodes += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed, episodes


def run_child(case: str, seconds: float, players: int) -> None:
    if case == "gin":
        from pettingzoo.classic import gin_rummy_v4

        env = gin_rummy_v4.env()
    else:
        from paiute.envs import pettingzoo as ours

        env = ours.env(players=players) if case == "paiute" else ours.raw_env(players=players)
    load = os.getloadavg()[0]
    rate, episodes = _measure(_loop(env, 1), seconds)
    import importlib.metadata

    print(
        RESULT_TAG
        + json.dumps(
            {
                "rate": rate,
                "episodes": episodes,
                "pettingzoo": importlib.metadata.version("pettingzoo"),
                "load": [load, os.getloadavg()[0]],
            }
        )
    )


def _child(case: str, seconds: float, players: int, cpu: int | None) -> dict[str, object]:
    python = (
        PZ_PYTHON
        if CASES[case][1] == "pz"
        else (OURS_PYTHON if OURS_PYTHON.exists() else Path(sys.executable))
    )
    if not python.exists():
        return {"error": f"{python} not found (run benchmarks/setup.sh)"}
    env = dict(os.environ)
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(var, None)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    argv = [str(python), str(Path(__file__).resolve()), "--child", case, "--seconds", str(seconds)]
    argv += ["--players", str(players)]

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    done = subprocess.run(
        argv, capture_output=True, text=True, env=env, preexec_fn=pin, timeout=120 + 10 * seconds, cwd=ROOT
    )
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG) :])  # type: ignore[no-any-return]
    return {"error": (done.stderr.strip().splitlines() or ["no result"])[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per case (default 5)")
    parser.add_argument("--players", type=int, default=4, help="players at our table (default 4)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child, args.seconds, args.players)
        return 0

    cpu = max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(
        f"load average at start: {os.getloadavg()[0]:.2f}; {args.repeats} repeats x {args.seconds} CPU-s, cpu {cpu}"
    )
    rates: dict[str, list[float]] = {case: [] for case in CASES}
    loads: dict[str, list[float]] = {case: [] for case in CASES}
    notes: dict[str, str] = {}
    for repeat in range(args.repeats):
        for case in CASES:  # round-robin
            result = _child(case, args.seconds, args.players, cpu)
            if "error" in result:
                notes[case] = str(result["error"])
                continue
            rates[case].append(float(result["rate"]))  # type: ignore[arg-type]
            loads[case].extend(float(x) for x in result["load"])  # type: ignore[attr-defined]
            notes[case] = f"PettingZoo {result['pettingzoo']}"
        print(f"  repeat {repeat + 1}/{args.repeats} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print()
    print(f"{'case':<58} {'decisions/CPU-s':>16} {'min..max':>18} {'load':>10}  note")
    medians: dict[str, float] = {}
    for case, (label, _) in CASES.items():
        values = rates[case]
        label = label.format(players=args.players)
        if not values:
            print(f"{label:<58} {'missing':>16} {'':>18} {'':>10}  {notes.get(case, '')}")
            continue
        medians[case] = statistics.median(values)
        spread = f"{min(values):,.0f}..{max(values):,.0f}"
        load = f"{min(loads[case]):.1f}-{max(loads[case]):.1f}"
        print(f"{label:<58} {medians[case]:>16,.0f} {spread:>18} {load:>10}  {notes.get(case, '')}")
    ratio = None
    if "paiute" in medians and "gin" in medians:
        ratio = medians["paiute"] / medians["gin"]
        verdict = "meets" if ratio >= GOAL else "MISSES"
        both = loads["paiute"] + loads["gin"]
        print(
            f"\nratio paiute env() / gin_rummy_v4 env(): {ratio:.1f}x ({verdict} the {GOAL:.0f}x goal), "
            f"load {min(both):.1f}-{max(both):.1f}"
        )
    if args.json:
        payload = {
            "rates": rates,
            "loads": loads,
            "medians": medians,
            "ratio": ratio,
            "players": args.players,
            "notes": notes,
        }
        args.json.write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
