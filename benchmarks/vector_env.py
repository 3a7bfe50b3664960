"""The compiled vector env against ``SyncVectorEnv`` over the single env, side by side in one run.

Both are ``gym.make_vec("paiute/Paiute-v0", ...)`` with the same keywords and the same
opponents at the other seats (``greedy``, then ``random``): ``vectorization_mode=
"vector_entry_point"`` (``paiute.envs.vector``: every table and every bot in compiled code)
against ``vectorization_mode="sync"`` (``SyncVectorEnv`` over ``PaiuteEnv``, whose bots are the
engine's Python players). Both run the same loop: a masked uniform policy in NumPy
(``argmax`` of uniform noise, drawn beforehand, times ``info["action_mask"]``), ``envs.step``,
next-step autoreset.
The figure is **learner steps per CPU-second** (``time.process_time``): ``num_envs`` per
``step`` call, the policy included. Every repeat of every case is a fresh child process pinned
to one core, the cases taken in turn (round-robin) so that the load of this shared machine hits
them alike; each child reports its peak RSS (``ru_maxrss``) and the load average
(``os.getloadavg``, 1 minute) when it started and ended.

    .venv/bin/python benchmarks/vector_env.py                  # ~1.5 minutes
    .venv/bin/python benchmarks/vector_env.py --seconds 3 --repeats 7
    .venv/bin/python benchmarks/vector_env.py --num-envs 1024 --json out.json

The goal (issue 39): the compiled vector env at least 100x the synchronous one against the same
opponents. The compiled env's kernels are compiled once per machine (Numba's disk cache): the
first run compiles them before it measures anything (a minute or two), the children only load
them, and the warm-up pass of each child is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
RESULT_TAG = "RESULT "
GOAL = 100.0
ID = "paiute/Paiute-v0"
_NOISE = 16

# name -> (label, vectorization mode, opponents)
CASES = {
    "compiled_greedy": ("compiled vector env, greedy opponents", "vector_entry_point", "greedy"),
    "sync_greedy": ("SyncVectorEnv(PaiuteEnv), greedy opponents", "sync", "greedy"),
    "compiled_random": ("compiled vector env, random opponents", "vector_entry_point", "random"),
    "sync_random": ("SyncVectorEnv(PaiuteEnv), random opponents", "sync", "random"),
}


def _make(case: str, num_envs: int, players: int):  # type: ignore[no-untyped-def]
    import gymnasium as gym

    import paiute.envs.gymnasium  # noqa: F401 - registers paiute/Paiute-v0

    _, mode, opponents = CASES[case]
    return gym.make_vec(ID, num_envs=num_envs, vectorization_mode=mode, players=players, opponents=opponents)


def _measure(envs, num_envs: int, seconds: float) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """Learner steps per CPU-second of the masked uniform policy loop, and deals finished."""
    import numpy as np

    # Uniform noise drawn once, cycled: the policy costs both environments the same little.
    noise = np.random.default_rng(5).random((_NOISE, num_envs, 111)).astype(np.float32)
    _, info = envs.reset(seed=1)
    turn = 0

    def run(steps: int) -> int:
        nonlocal info, turn
        ended = 0
        for _ in range(steps):
            turn += 1
            actions = (noise[turn % _NOISE] * info["action_mask"]).argmax(axis=1)
            _, _, terminated, truncated, info = envs.step(actions)
            ended += int((terminated | truncated).sum())
        return ended

    run(20)  # warm-up pass
    clock = time.process_time
    steps = ended = 0
    start = clock()
    while True:
        ended += run(10)
        steps += 10 * num_envs
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed, ended


def run_child(case: str, seconds: float, num_envs: int, players: int) -> None:
    import resource

    load = os.getloadavg()[0]
    envs = _make(case, num_envs, players)
    rate, ended = _measure(envs, num_envs, seconds)
    import importlib.metadata

    print(
        RESULT_TAG
        + json.dumps(
            {
                "rate": rate,
                "deals": ended,
                "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "gymnasium": importlib.metadata.version("gymnasium"),
                "numba": importlib.metadata.version("numba"),
                "load": [load, os.getloadavg()[0]],
            }
        )
    )


def _child(case: str, seconds: float, num_envs: int, players: int, cpu: int | None) -> dict[str, object]:
    python = PYTHON if PYTHON.exists() else Path(sys.executable)
    env = dict(os.environ)
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(var, None)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        env[var] = "1"
    argv = [str(python), str(Path(__file__).resolve()), "--child", case, "--seconds", str(seconds)]
    argv += ["--num-envs", str(num_envs), "--players", str(players)]

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    done = subprocess.run(
        argv, capture_output=True, text=True, env=env, preexec_fn=pin, timeout=600 + 10 * seconds, cwd=ROOT
    )
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG) :])  # type: ignore[no-any-return]
    return {"error": (done.stderr.strip().splitlines() or ["no result"])[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per case (default 5)")
    parser.add_argument("--num-envs", type=int, default=256, help="tables of the compiled env (default 256)")
    parser.add_argument("--sync-envs", type=int, default=4, help="environments of the sync one (default 4)")
    parser.add_argument("--players", type=int, default=4, help="players at each table (default 4)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--child", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for name in ("repeats", "num_envs", "sync_envs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, not {getattr(args, name)}")
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, not {args.seconds}")
    if not 2 <= args.players <= 8:
        parser.error(f"--players must lie in 2..8, not {args.players}")
    if args.child:
        run_child(args.child, args.seconds, args.num_envs, args.players)
        return 0

    # Compile (or load) the kernels once before any child measures.
    _make("compiled_random", 2, args.players).reset(seed=0)
    cpu = max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(
        f"load average at start: {os.getloadavg()[0]:.2f}; {args.repeats} repeats x {args.seconds} CPU-s, "
        f"cpu {cpu}; {args.players} players, pagat; compiled num_envs={args.num_envs}, sync num_envs={args.sync_envs}"
    )
    rates: dict[str, list[float]] = {case: [] for case in CASES}
    loads: dict[str, list[float]] = {case: [] for case in CASES}
    rss: dict[str, float] = {}
    notes: dict[str, str] = {}
    for repeat in range(args.repeats):
        for case in CASES:  # round-robin
            envs = args.num_envs if CASES[case][1] == "vector_entry_point" else args.sync_envs
            result = _child(case, args.seconds, envs, args.players, cpu)
            if "error" in result:
                notes[case] = str(result["error"])
                continue
            rates[case].append(float(result["rate"]))  # type: ignore[arg-type]
            loads[case].extend(float(x) for x in result["load"])  # type: ignore[attr-defined]
            rss[case] = max(rss.get(case, 0.0), float(result["rss_mib"]))  # type: ignore[arg-type]
            notes[case] = f"gymnasium {result['gymnasium']}, numba {result['numba']}"
        print(f"  repeat {repeat + 1}/{args.repeats} done, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print()
    print(f"{'case':<46} {'learner steps/CPU-s':>20} {'min..max':>18} {'peak RSS':>10} {'load':>10}  note")
    medians: dict[str, float] = {}
    for case, (label, _, _) in CASES.items():
        values = rates[case]
        if not values:
            print(f"{label:<46} {'missing':>20} {'':>18} {'':>10} {'':>10}  {notes.get(case, '')}")
            continue
        medians[case] = statistics.median(values)
        spread = f"{min(values):,.0f}..{max(values):,.0f}"
        load = f"{min(loads[case]):.1f}-{max(loads[case]):.1f}"
        print(
            f"{label:<46} {medians[case]:>20,.0f} {spread:>18} {rss[case]:>7.1f} MiB {load:>10}  {notes.get(case, '')}"
        )
    ratios: dict[str, float] = {}
    print()
    for opponents in ("greedy", "random"):
        compiled, sync = f"compiled_{opponents}", f"sync_{opponents}"
        if compiled in medians and sync in medians:
            ratios[opponents] = medians[compiled] / medians[sync]
            verdict = "meets" if ratios[opponents] >= GOAL else "MISSES"
            both = loads[compiled] + loads[sync]
            print(
                f"ratio compiled / sync, {opponents} opponents: {ratios[opponents]:.1f}x "
                f"({verdict} the {GOAL:.0f}x goal), load {min(both):.1f}-{max(both):.1f}"
            )
    if args.json:
        payload = {
            "rates": rates,
            "loads": loads,
            "medians": medians,
            "peak_rss_mib": rss,
            "ratios": ratios,
            "num_envs": args.num_envs,
            "sync_envs": args.sync_envs,
            "players": args.players,
            "notes": notes,
        }
        args.json.write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
