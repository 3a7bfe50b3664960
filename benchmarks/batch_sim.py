"""The batch simulator's throughput next to OpenSpiel's C++ gin_rummy random play, in one run.

Run in the project venv (it has numba and open_spiel)::

    .venv/bin/python benchmarks/batch_sim.py                  # full run (~3-4 minutes)
    .venv/bin/python benchmarks/batch_sim.py --quick          # smoke run (~1 minute)
    .venv/bin/python benchmarks/batch_sim.py --json out.json  # also write the figures
    .venv/bin/python benchmarks/batch_sim.py --only scaling   # sections: rates, scaling, parallel, startup
    .venv/bin/python benchmarks/batch_sim.py --startup        # first vs second start (~1 minute)

Every rate is **decisions (applied actions) per CPU-second** (``time.process_time``), each
case in a fresh child process pinned to one CPU, cases round-robin over the repeats so that
a change in the machine's load hits them alike; the table gives the median of the repeats.
Every figure is printed with the machine's load average (``os.getloadavg``, 1 minute) before
and after the runs it comes from: on a busy machine CPU-second rates fall too.

* ``ours B``: ``BatchSimulator(RuleSet(), 4, batch_size=B).run(B)`` over and over: uniform
  random play of whole 4-player deals (default rules, ``pagat``), the shuffle and deal
  included, ``B`` deals a call, for B = 256 ... 65,536. The kernels are compiled (or loaded
  from Numba's cache) before timing.
* ``ours gamerules``: the same with the ``gamerules`` preset, B = 4,096.
* ``lock step``: the masked-policy path, B = 4,096: ``legal_mask()``, ``observe()``, a NumPy
  uniform choice over each mask (the policy), ``step()``, one Python round trip per step.
* ``openspiel``: ``pyspiel.evaluate_bots(state, bots, seed)`` on ``gin_rummy`` with two
  ``pyspiel.make_uniform_random_bot`` bots: a whole game played in C++ (chance moves
  included) per call; only that call is timed; decisions are the game's player moves
  (``state.full_history()`` entries of players 0 and 1), counted after the call.
* **1 vs 2 processes**: 1 or 2 child processes (not pinned), each running the same number
  of ``ours 4096`` deals, started together after their warm-up; aggregate decisions per
  wall-second, each process's rate per CPU-second, and the cores the processes actually got
  (their CPU-seconds per wall-second: on a shared machine less than one a process).
* ``run_parallel``: :func:`paiute.envs.batch_sim.run_parallel` end to end, process start
  and cache load included, with 1 and 2 workers (wall time).
* **startup** (``--startup``, or ``--only startup``): a new process's cost before its first
  result, from its first import to a first ``run`` and a first lock step, wall and CPU
  seconds: *first start* with ``NUMBA_CACHE_DIR`` an empty temporary directory (every kernel
  compiles and is written to the cache), *second start* a new process on that cache (the
  kernels load from disk). Printed with the load averages (as ``uptime`` gives them).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BATCH_SIZES = (256, 1024, 4096, 16384, 65536)
TAG = "RESULT "


# -- children --------------------------------------------------------------------------------


def _measure_ours(batch: int, preset: str, seconds: float) -> dict[str, float]:
    from paiute.envs.batch_sim import BatchSimulator, compile_kernels
    from paiute.rules import RuleSet

    started = time.process_time()
    compile_kernels()
    load = time.process_time() - started
    simulator = BatchSimulator(RuleSet.from_preset(preset), 4, batch_size=batch, seed=1)
    simulator.run(batch)  # warm-up: first touch of the arrays
    decisions = deals = 0
    start = time.process_time()
    while True:
        result = simulator.run(batch)
        decisions += int(result.decisions.sum())
        deals += len(result)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    return {"rate": decisions / elapsed, "deals": deals, "cpu": elapsed, "kernel_load_cpu": load}


def _measure_lock_step(batch: int, seconds: float) -> dict[str, float]:
    import numpy as np

    from paiute.envs.batch_sim import BatchSimulator, compile_kernels
    from paiute.rules import RuleSet

    compile_kernels()
    simulator = BatchSimulator(RuleSet(), 4, batch_size=batch, seed=1)
    generator = np.random.default_rng(1)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return (generator.random(masks.shape) * masks).argmax(axis=1)

    simulator.run(batch, policy)
    decisions = 0
    start = time.process_time()
    while True:
        decisions += int(simulator.run(batch, policy).decisions.sum())
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    return {"rate": decisions / elapsed, "cpu": elapsed}


def _measure_openspiel(seconds: float) -> dict[str, float]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(player, 1000 + player) for player in range(2)]
    clock = time.process_time
    decisions = games = 0
    spent = 0.0
    seed = 0
    while spent < seconds:
        state = game.new_initial_state()
        start = clock()
        pyspiel.evaluate_bots(state, bots, seed)
        spent += clock() - start
        decisions += sum(1 for move in state.full_history() if move.player >= 0)
        games += 1
        seed += 1
    return {"rate": decisions / spent, "games": games, "cpu": spent, "per_game": decisions / games}


def _scale_worker(deals: int, start_at: float) -> dict[str, float]:
    from paiute.envs.batch_sim import BatchSimulator, compile_kernels
    from paiute.rules import RuleSet

    compile_kernels()
    simulator = BatchSimulator(RuleSet(), 4, batch_size=4096, seed=os.getpid())
    simulator.run(4096)
    while time.time() < start_at:
        time.sleep(0.001)
    wall = time.time()
    cpu = time.process_time()
    decisions = int(simulator.run(deals).decisions.sum())
    return {
        "decisions": decisions,
        "cpu": time.process_time() - cpu,
        "started": wall,
        "ended": time.time(),
    }


def _run_parallel(workers: int, deals: int) -> dict[str, float]:
    from paiute.envs.batch_sim import compile_kernels, run_parallel
    from paiute.rules import RuleSet

    compile_kernels()
    start = time.time()
    result = run_parallel(RuleSet(), 4, deals, seed=5, workers=workers, batch_size=4096)
    wall = time.time() - start
    return {"rate": int(result.decisions.sum()) / wall, "wall": wall}


def _startup() -> dict[str, float]:
    """From process start: import, ``BatchSimulator(...)``, a first ``run`` and a first
    lock step (``reset``, ``legal_mask``, ``observe``, ``step``): what a new process pays
    before its first result, compiling the kernels or loading them from the disk cache."""
    import numpy as np

    wall = time.perf_counter()
    cpu = time.process_time()
    from paiute.envs.batch_sim import BatchSimulator
    from paiute.rules import RuleSet

    imported_wall, imported_cpu = time.perf_counter() - wall, time.process_time() - cpu
    simulator = BatchSimulator(RuleSet(), 4, batch_size=64, seed=1)
    simulator.run(64)
    run_wall, run_cpu = time.perf_counter() - wall, time.process_time() - cpu
    simulator.reset()
    mask = simulator.legal_mask()
    simulator.observe()
    simulator.step(np.argmax(mask, axis=1))
    return {
        "import_wall": imported_wall,
        "import_cpu": imported_cpu,
        "first_run_wall": run_wall,
        "first_run_cpu": run_cpu,
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
    }


def child(argv: list[str]) -> None:
    kind = argv[0]
    if kind == "startup":
        out = _startup()
    elif kind == "ours":
        out = _measure_ours(int(argv[1]), argv[2], float(argv[3]))
    elif kind == "lockstep":
        out = _measure_lock_step(int(argv[1]), float(argv[2]))
    elif kind == "openspiel":
        out = _measure_openspiel(float(argv[1]))
    elif kind == "scale":
        out = _scale_worker(int(argv[1]), float(argv[2]))
    elif kind == "parallel":
        out = _run_parallel(int(argv[1]), int(argv[2]))
    else:
        raise SystemExit(f"unknown child {kind!r}")
    print(TAG + json.dumps(out), flush=True)


# -- parent ------------------------------------------------------------------------------------


def _spawn(
    args: list[str], cpu: int | None, extra_env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env.update(extra_env or {})

    def pin() -> None:
        if cpu is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {cpu})

    return subprocess.Popen(
        [sys.executable, __file__, "--child", *args],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        preexec_fn=pin,
    )


def _result(process: subprocess.Popen[str]) -> dict[str, float]:
    out, _ = process.communicate(timeout=900)
    for line in out.splitlines():
        if line.startswith(TAG):
            return dict(json.loads(line[len(TAG) :]))
    raise RuntimeError(f"child failed (exit {process.returncode}): {out[-2000:]}")


def _one(args: list[str], cpu: int | None) -> dict[str, float]:
    """One child's result, with the load average before and after it (``load_min``/``load_max``)."""
    before = os.getloadavg()[0]
    result = _result(_spawn(args, cpu))
    after = os.getloadavg()[0]
    result["load_min"], result["load_max"] = min(before, after), max(before, after)
    return result


def _load(rows: list[dict[str, float]]) -> str:
    """The load average over the runs behind a figure, as ``low-high``."""
    return f"{min(r['load_min'] for r in rows):.1f}-{max(r['load_max'] for r in rows):.1f}"


def _fmt(rate: float) -> str:
    return f"{rate / 1e6:.2f} M" if rate >= 1e6 else f"{rate / 1e3:.1f} k"


def section_rates(seconds: float, repeats: int, cpu: int | None) -> dict[str, object]:
    """Batch sizes, the gamerules preset, lock step and OpenSpiel, round-robin."""
    _one(["ours", "256", "pagat", "0.01"], cpu)  # compile or load the kernels once, untimed
    cases: dict[str, list[str]] = {f"ours {b}": ["ours", str(b), "pagat", str(seconds)] for b in BATCH_SIZES}
    cases["ours gamerules 4096"] = ["ours", "4096", "gamerules", str(seconds)]
    cases["lock step 4096"] = ["lockstep", "4096", str(seconds)]
    cases["openspiel gin_rummy C++"] = ["openspiel", str(seconds)]
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, case in cases.items():
            runs[name].append(_one(case, cpu))
    rates = {name: statistics.median(r["rate"] for r in rows) for name, rows in runs.items()}
    anchor = rates["openspiel gin_rummy C++"]
    print()
    print(f"{'case':<26} {'decisions/CPU-s':>16} {'min':>10} {'max':>10} {'x OpenSpiel':>12} {'load':>10}")
    for name, rows in runs.items():
        values = [r["rate"] for r in rows]
        print(
            f"{name:<26} {_fmt(rates[name]):>16} {_fmt(min(values)):>10} {_fmt(max(values)):>10} "
            f"{rates[name] / anchor:>11.1f}x {_load(rows):>10}"
        )
    per_game = statistics.median(r["per_game"] for r in runs["openspiel gin_rummy C++"])
    print(f"(OpenSpiel gin_rummy: {per_game:.0f} player decisions a game on average)")
    headline = rates["ours 4096"]
    worst = min(rates[f"ours {b}"] for b in BATCH_SIZES)
    print()
    print(f"targets (load {_load([r for rows in runs.values() for r in rows])}):")
    print(
        f"  >= 5 M decisions per CPU-second: {_fmt(headline)} at batch 4096, {_fmt(worst)} at worst: "
        f"{'met' if worst >= 5e6 else 'NOT met'}"
    )
    print(
        f"  >= 40x OpenSpiel gin_rummy C++ random play: {headline / anchor:.0f}x at batch 4096, "
        f"{worst / anchor:.0f}x at worst: {'met' if worst / anchor >= 40 else 'NOT met'}"
    )
    return {"runs": runs, "rates": rates}


def section_scaling(deals: int, tries: int) -> dict[str, object]:
    """1 and 2 unpinned processes started together, alternately; the better try of each."""
    print()
    print(f"1 vs 2 processes, {deals} deals each (4 players, pagat, batch 4096), started together:")
    best: dict[int, dict[str, object]] = {}
    for processes in [1, 2] * tries:
        load = os.getloadavg()[0]
        start_at = time.time() + (6.0 if processes == 2 else 4.0)
        workers = [_spawn(["scale", str(deals), str(start_at)], None) for _ in range(processes)]
        parts = [_result(worker) for worker in workers]
        load_after = os.getloadavg()[0]
        wall = max(p["ended"] for p in parts) - min(p["started"] for p in parts)
        total = sum(p["decisions"] for p in parts)
        row: dict[str, object] = {
            "wall_rate": total / wall,
            "cpu_rates": [p["decisions"] / p["cpu"] for p in parts],
            # CPU-seconds the processes got per wall-second: 1.0 per process on idle cores
            "cores_used": sum(p["cpu"] for p in parts) / wall,
            "load_before": load,
            "load_after": load_after,
        }
        print(
            f"  {processes} process(es): {_fmt(total / wall)} decisions per wall-second; per CPU-second "
            f"{', '.join(_fmt(r) for r in row['cpu_rates'])}; cores used {row['cores_used']:.2f}; "  # type: ignore[attr-defined]
            f"load {load:.1f} before, {load_after:.1f} after",
            flush=True,
        )
        if processes not in best or row["wall_rate"] > best[processes]["wall_rate"]:  # type: ignore[operator]
            best[processes] = row
    speedup = float(best[2]["wall_rate"]) / float(best[1]["wall_rate"])  # type: ignore[arg-type]
    loads = [float(row[key]) for row in best.values() for key in ("load_before", "load_after")]  # type: ignore[arg-type]
    print(
        f"  speed-up 1 -> 2 processes (better try of each): {speedup:.2f}x, load {min(loads):.1f}-{max(loads):.1f}"
    )
    return {"best": {str(k): v for k, v in best.items()}, "speedup": speedup}


def section_parallel(deals: int) -> dict[str, object]:
    parallel = {w: _one(["parallel", str(w), str(deals)], None) for w in (1, 2)}
    print(
        f"run_parallel end to end, {deals} deals: 1 worker {_fmt(parallel[1]['rate'])}/wall-s "
        f"({parallel[1]['wall']:.2f} s), 2 workers {_fmt(parallel[2]['rate'])}/wall-s "
        f"({parallel[2]['wall']:.2f} s), load {_load(list(parallel.values()))}"
    )
    return {str(k): v for k, v in parallel.items()}


def _uptime() -> str:
    """The load averages as ``uptime`` prints them (1, 5, 15 minutes)."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def section_startup(repeats: int) -> dict[str, object]:
    """First start (a fresh, empty Numba cache directory: everything compiles) and second
    start (a new process on the cache the first one filled), each in a fresh child process;
    ``repeats`` pairs, each with its own fresh cache directory."""
    print()
    print("start of a new process: import + BatchSimulator(RuleSet(), 4, batch_size=64) + run(64)")
    print("+ reset/legal_mask/observe/step; first start on an empty NUMBA_CACHE_DIR, second on the")
    print("cache the first filled (wall s / CPU s of the child, from its first import):")
    print(
        f"{'start':<8} {'wall s':>8} {'CPU s':>8} {'run(64) at':>11} {'import':>8} {'child total':>12} {'load (uptime)':>20}"
    )
    rows: dict[str, list[dict[str, float]]] = {"first": [], "second": []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="paiute-numba-cache-") as cache:
            for which in ("first", "second"):
                load = _uptime()
                started = time.perf_counter()
                usage = resource.getrusage(resource.RUSAGE_CHILDREN)
                result = _result(_spawn(["startup"], None, {"NUMBA_CACHE_DIR": cache}))
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                result["process_wall"] = time.perf_counter() - started
                result["process_cpu"] = (after.ru_utime + after.ru_stime) - (usage.ru_utime + usage.ru_stime)
                rows[which].append(result)
                print(
                    f"{which:<8} {result['wall']:>8.2f} {result['cpu']:>8.2f} {result['first_run_wall']:>10.2f}s "
                    f"{result['import_wall']:>7.2f}s {result['process_wall']:>6.2f}/{result['process_cpu']:.2f} "
                    f"{load:>20}",
                    flush=True,
                )
    first = statistics.median(r["wall"] for r in rows["first"])
    second = statistics.median(r["wall"] for r in rows["second"])
    print(
        f"median: first start {first:.2f} s wall ({statistics.median(r['cpu'] for r in rows['first']):.2f} CPU-s), "
        f"second start {second:.2f} s wall ({statistics.median(r['cpu'] for r in rows['second']):.2f} CPU-s): "
        f"{first / second:.0f}x; load at end {_uptime()}"
    )
    print("('child total' is the whole child process, interpreter start included: wall s/CPU s)")
    return rows


SECTIONS = ("rates", "scaling", "parallel", "startup")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1 CPU-s, 1 repeat, smaller scaling run")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"sections to run: {', '.join(SECTIONS)}")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--startup",
        action="store_true",
        help="only the startup section: first start (empty Numba cache) and second start (warm cache)",
    )
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if not 0 < args.seconds < math.inf or args.repeats < 1:  # NaN too
        parser.error(
            f"--seconds must be positive and --repeats at least 1, not {args.seconds} and {args.repeats}"
        )
    if args.startup:
        args.only = "startup"
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)} (sections: {', '.join(SECTIONS)})")
    seconds, repeats = (1.0, 1) if args.quick else (args.seconds, args.repeats)
    cpu = max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(f"# batch simulator benchmark, {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}")
    print(f"# {os.cpu_count()} CPUs, load average at start {os.getloadavg()}")
    print(f"# {seconds} CPU-s per measurement, median of {repeats}, children pinned to CPU {cpu}", flush=True)
    payload: dict[str, object] = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "command": " ".join(sys.argv),
        "seconds": seconds,
        "repeats": repeats,
    }
    if "rates" in sections:
        payload["rates"] = section_rates(seconds, repeats, cpu)
    if "scaling" in sections:
        payload["scaling"] = section_scaling(16384 if args.quick else 131072, 1 if args.quick else 4)
    if "parallel" in sections:
        payload["run_parallel"] = section_parallel(50000 if args.quick else 400000)
    if "startup" in sections:
        payload["startup"] = section_startup(1 if args.quick else 2)
    print(f"# load average at end {os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps(payload, indent=1) + "\n")


if __name__ == "__main__":
    main()
