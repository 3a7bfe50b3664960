"""Side-by-side benchmarks of paiute and its anchors (treys, phevaluator, OpenSpiel, RLCard,
PettingZoo), in one run, per CPU-second.

Run with the benchmark venv (see benchmarks/setup.sh)::

    .venv-bench/bin/python benchmarks/run.py                 # full run (~4-6 minutes)
    .venv-bench/bin/python benchmarks/run.py --quick         # a smoke run (~1.5 minutes)
    .venv-bench/bin/python benchmarks/run.py --json out.json # also write the rows as JSON
    .venv-bench/bin/python benchmarks/run.py --only engine,os_clone
    .venv-bench/bin/python benchmarks/run.py --profile engine      # cProfile top-20, steady state
    .venv-bench/bin/python benchmarks/run.py --profile engine-cold # ... from a cold start
    .venv-bench/bin/python benchmarks/run.py --profile evaluator   # per-call and batch evaluator
    .venv-bench/bin/python benchmarks/run.py --warmup-curve        # engine rate per 0.5 CPU-s

Every measurement runs in its own fresh child process, pinned to one core, so that the peak
RSS (``getrusage(RUSAGE_SELF).ru_maxrss`` of that child) belongs to that figure alone. Rates
are measured with CPU time (``time.process_time`` / ``CLOCK_PROCESS_CPUTIME_ID``): each
repeat runs the case for at least ``--seconds`` CPU-seconds, and the table shows the median
of ``--repeats`` repeats (with the lowest and highest). By default the cases run round-robin,
one fresh child per repeat, so that a change in the machine's load hits every case alike.

This file only uses the standard library at import time: the same file runs as a child in
.venv-pz126 (PettingZoo 1.26.1) and in .venv-bench.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PZ_PYTHON = ROOT / ".venv-pz126" / "bin" / "python"
PHE_DRIVER = HERE / ".build" / "phe_driver"
RESULT_TAG = "RESULT "

# Pools of pre-generated inputs for the per-call evaluator cases (cycled through).
POOL = 100_000
BATCH_N = 1_000_000
# The copied state: this many random decisions into a seeded 4-player deal.
COPY_DEPTHS = {"copy_mid": 240, "copy_early": 40}
# CPU-seconds of random play before the steady-state engine figure (set by --warmup).
WARMUP_SECONDS = 8.0


# -- the cases ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    label: str
    unit: str  # what the rate counts, per CPU-second
    group: str
    runner: str = "py"  # py: .venv-bench child; pz: .venv-pz126 child; c: the C driver
    ours: bool = False
    fresh_each_repeat: bool = False  # every repeat needs a new process (a cold-start figure)


CASES: tuple[Case, ...] = (
    Case("baseline", "empty child (python, nothing imported)", "-", "memory"),
    Case("ours_six", "paiute Evaluator.best_code, 6 cards, 3s wild", "holdings", "evaluator", ours=True),
    Case("ours_five", "paiute Evaluator.code, 5 cards, 3s wild", "hands", "evaluator", ours=True),
    Case("treys_five", "treys Evaluator.evaluate, 5 cards", "hands", "evaluator"),
    Case("treys_six", "treys Evaluator.evaluate, 6 cards", "hands", "evaluator"),
    Case("phe_py", "phevaluator evaluate_cards (Python API), 6 cards", "hands", "evaluator"),
    Case("phe_ext", "phevaluator _pheval.evaluate_6cards from Python", "hands", "evaluator"),
    Case("phe_c_sdist", "phevaluator C core, sdist -O3, C driver", "hands", "batch", runner="c"),
    Case("phe_c_wheel", "phevaluator C core, wheel's .so, C driver", "hands", "batch", runner="c"),
    Case("ours_batch", "paiute BatchEvaluator.best_codes, (1e6,6) uint8", "holdings", "batch", ours=True),
    Case("engine", "paiute random play, 4 players, incl. Deal.new", "decisions", "engine", ours=True),
    Case(
        "engine_cold",
        "same, first CPU-s of a fresh process",
        "decisions",
        "engine",
        ours=True,
        fresh_each_repeat=True,
    ),
    Case("os_new", "OpenSpiel gin_rummy, new_initial_state()", "decisions", "engine"),
    Case("os_clone", "OpenSpiel gin_rummy, initial_state.clone()", "decisions", "engine"),
    Case("rlcard", "RLCard gin-rummy, env.step loop", "decisions", "engine"),
    Case("pz_gin", "PettingZoo 1.26.1 gin_rummy_v4, action mask", "decisions", "engine", runner="pz"),
    Case("copy_mid", "paiute Deal.copy, 4 players, 240 decisions in", "us/copy", "copy", ours=True),
    Case("copy_early", "paiute Deal.copy, 4 players, 40 decisions in", "us/copy", "copy", ours=True),
)
CASES_BY_NAME = {case.name: case for case in CASES}


@dataclass(frozen=True)
class Target:
    name: str
    numerator: str
    denominator: str | None  # None: compare the numerator with ``floor`` directly
    floor: float
    aim: float | None = None
    lower_is_better: bool = False


TARGETS: tuple[Target, ...] = (
    Target("six-card best call / treys six-card", "ours_six", "treys_six", 1.0, 2.0),
    Target("batch / phevaluator C core (faster build)", "ours_batch", "phe_c", 1.0),
    Target("engine / OpenSpiel cloned initial state", "engine", "os_clone", 1.0, 2.0),
    Target("engine / RLCard", "engine", "rlcard", 10.0),
    Target("Deal.copy mid-deal (us, under)", "copy_mid", None, 5.0, lower_is_better=True),
)
# Ratios shown for information (no target).
INFO_RATIOS = (
    ("five-card code / treys five-card", "ours_five", "treys_five"),
    ("engine / OpenSpiel with new deals", "engine", "os_new"),
    ("engine cold start / OpenSpiel cloned initial state", "engine_cold", "os_clone"),
    ("engine cold start / RLCard", "engine_cold", "rlcard"),
    ("engine / PettingZoo gin_rummy_v4", "engine", "pz_gin"),
    ("six-card best call / phevaluator Python API", "ours_six", "phe_py"),
)


# -- child side: timing helpers ----------------------------------------------------------------


def _measure(chunk: Callable[[], int], seconds: float, repeats: int, warmup: int = 1) -> list[float]:
    """Rates (units per CPU-second): each repeat calls ``chunk`` (which returns how many units
    it did) until at least ``seconds`` of CPU time have passed."""
    for _ in range(warmup):
        chunk()
    clock = time.process_time
    rates = []
    for _ in range(repeats):
        done = 0
        start = clock()
        while True:
            done += chunk()
            elapsed = clock() - start
            if elapsed >= seconds:
                break
        rates.append(done / elapsed)
    return rates


def _version(dist: str) -> str:
    try:
        import importlib.metadata

        return importlib.metadata.version(dist)
    except Exception:
        return "?"


def _holdings(rng: random.Random, n: int, size: int) -> list[list[int]]:
    deck = range(52)
    return [rng.sample(deck, size) for _ in range(n)]


# -- child side: the cases -------------------------------------------------------------------------


def case_baseline(seconds: float, repeats: int) -> dict[str, object]:
    return {"rates": [], "note": "peak RSS of a bare interpreter child"}


def _ours_evaluator() -> tuple[object, tuple[object, ...]]:
    from paiute.cards import CARDS
    from paiute.evaluator import Evaluator

    return Evaluator.for_rank("3"), CARDS


def case_ours_six(seconds: float, repeats: int) -> dict[str, object]:
    ev, cards = _ours_evaluator()
    rng = random.Random(1)
    pool = [tuple(cards[i] for i in h) for h in _holdings(rng, POOL, 6)]
    best_code = ev.best_code  # type: ignore[attr-defined]

    def chunk() -> int:
        for held in pool:
            best_code(held)
        return len(pool)

    cold = time.process_time()
    chunk()  # the first pass memoises straight-flush masks
    cold = time.process_time() - cold
    rates = _measure(chunk, seconds, repeats)
    return {
        "rates": rates,
        "versions": {"paiute": _version("paiute")},
        "note": f"first pass of {POOL} holdings (memoising straight-flush masks): {POOL / cold / 1e6:.2f} M/s",
    }


def case_ours_five(seconds: float, repeats: int) -> dict[str, object]:
    ev, cards = _ours_evaluator()
    rng = random.Random(2)
    pool = [tuple(cards[i] for i in h) for h in _holdings(rng, POOL, 5)]
    code = ev.code  # type: ignore[attr-defined]

    def chunk() -> int:
        for hand in pool:
            code(hand)
        return len(pool)

    chunk()
    return {"rates": _measure(chunk, seconds, repeats), "versions": {"paiute": _version("paiute")}}


def _treys(size: int, seconds: float, repeats: int) -> dict[str, object]:
    from treys import Deck, Evaluator

    evaluator = Evaluator()
    full = Deck.GetFullDeck()
    rng = random.Random(3 + size)
    pool = []
    for h in _holdings(rng, POOL, size):
        cards = [full[i] for i in h]
        pool.append((cards[:2], cards[2:]))  # (hand, board): 2 hole cards + 3 or 4 on board
    evaluate = evaluator.evaluate

    def chunk() -> int:
        for hand, board in pool:
            evaluate(hand, board)
        return len(pool)

    return {"rates": _measure(chunk, seconds, repeats), "versions": {"treys": _version("treys")}}


def case_treys_five(seconds: float, repeats: int) -> dict[str, object]:
    return _treys(5, seconds, repeats)


def case_treys_six(seconds: float, repeats: int) -> dict[str, object]:
    return _treys(6, seconds, repeats)


def case_phe_py(seconds: float, repeats: int) -> dict[str, object]:
    from phevaluator.evaluator import evaluate_cards

    rng = random.Random(7)
    pool = [tuple(h) for h in _holdings(rng, POOL, 6)]

    def chunk() -> int:
        for held in pool:
            evaluate_cards(*held)
        return len(pool)

    return {"rates": _measure(chunk, seconds, repeats), "versions": {"phevaluator": _version("phevaluator")}}


def case_phe_ext(seconds: float, repeats: int) -> dict[str, object]:
    from phevaluator import _pheval  # type: ignore[attr-defined]

    rng = random.Random(7)
    pool = [tuple(h) for h in _holdings(rng, POOL, 6)]
    evaluate_6cards = _pheval.evaluate_6cards

    def chunk() -> int:
        for a, b, c, d, e, f in pool:
            evaluate_6cards(a, b, c, d, e, f)
        return len(pool)

    return {"rates": _measure(chunk, seconds, repeats), "versions": {"phevaluator": _version("phevaluator")}}


def _random_holdings_array(n: int, seed: int) -> object:
    """An (n, 6) uint8 array of random six-card holdings of distinct natural cards, built
    with little memory (redraw the rows with a repeated card)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    arr = rng.integers(0, 52, size=(n, 6), dtype=np.uint8)
    while True:
        s = np.sort(arr, axis=1)
        bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
        if bad.size == 0:
            return arr
        arr[bad] = rng.integers(0, 52, size=(bad.size, 6), dtype=np.uint8)


def case_ours_batch(seconds: float, repeats: int) -> dict[str, object]:
    try:
        from paiute.batch import BatchEvaluator  # type: ignore[import-not-found]
    except ImportError as error:
        return {"status": "not available", "note": f"paiute.batch: {error}"}
    import numpy as np

    arr = _random_holdings_array(BATCH_N, 11)
    build = time.process_time()
    batch = BatchEvaluator.for_rank("3")
    build = time.process_time() - build
    first = time.process_time()
    batch.best_codes(arr)
    first = time.process_time() - first
    checked = (
        f"{_check_batch(batch, arr)}; BatchEvaluator.for_rank took {build * 1e3:.0f} ms CPU, "
        f"the first best_codes call {first * 1e3:.0f} ms"
    )

    def chunk() -> int:
        batch.best_codes(arr)
        return BATCH_N

    rates = _measure(chunk, seconds, repeats)
    return {
        "rates": rates,
        "versions": {"paiute": _version("paiute"), "numpy": np.__version__},
        "note": checked,
    }


def _check_batch(batch: object, arr: object) -> str:
    """Spot-check the batch codes against the per-call evaluator (10,000 rows)."""
    from paiute.cards import CARDS
    from paiute.evaluator import Evaluator

    ev = Evaluator.for_rank("3")
    sample = arr[:10_000]  # type: ignore[index]
    codes = batch.best_codes(sample)  # type: ignore[attr-defined]
    wrong = sum(
        int(codes[i]) != ev.best_code(tuple(CARDS[int(c)] for c in sample[i])) for i in range(len(sample))
    )
    return (
        "agrees with Evaluator.best_code on 10,000 rows"
        if wrong == 0
        else f"DISAGREES on {wrong}/10,000 rows"
    )


def _engine_chunk() -> Callable[[], int]:
    from paiute import Deal, RuleSet, SeededChance

    rules = RuleSet()
    rng = random.Random(12345)
    randrange = rng.randrange
    seeds = iter(range(1, 1 << 62))

    def chunk() -> int:
        decisions = 0
        for _ in range(5):  # five whole deals, each including Deal.new (shuffle, cut, deal)
            seed = next(seeds)
            deal = Deal.new(rules, 4, seed % 4, SeededChance(seed))
            legal_actions = deal.legal_actions
            apply = deal.apply
            while not deal.is_over:
                actions = legal_actions()
                apply(actions[randrange(len(actions))])
                decisions += 1
        return decisions

    return chunk


def _warm_engine(chunk: Callable[[], int], warmup: float) -> str:
    start = time.process_time()
    decisions = 0
    while time.process_time() - start < warmup:
        decisions += chunk()
    elapsed = time.process_time() - start
    return (
        f"after a warm-up of {elapsed:.1f} CPU-s ({decisions / elapsed / 1e3:.0f} k/s during it; "
        "the evaluator's rank tables are built at import, only straight-flush masks are memoised)"
    )


def case_engine(seconds: float, repeats: int) -> dict[str, object]:
    chunk = _engine_chunk()
    note = _warm_engine(chunk, WARMUP_SECONDS)
    return {
        "rates": _measure(chunk, seconds, repeats, warmup=0),
        "versions": {"paiute": _version("paiute")},
        "note": "steady state " + note,
    }


def case_engine_cold(seconds: float, repeats: int) -> dict[str, object]:
    chunk = _engine_chunk()
    rates = _measure(chunk, seconds, 1, warmup=0)  # one window from a cold start, whatever repeats
    return {
        "rates": rates,
        "versions": {"paiute": _version("paiute")},
        "note": "no warm-up: the first CPU-seconds of a fresh process",
    }


def _mid_deal(depth: int) -> object:
    """A seeded 4-player deal, ``depth`` random decisions in (the first seed whose deal lasts)."""
    from paiute import Deal, RuleSet, SeededChance

    rng = random.Random(99)
    for seed in range(1, 10_000):
        deal = Deal.new(RuleSet(), 4, seed % 4, SeededChance(seed))
        for _ in range(depth):
            if deal.is_over:
                break
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
        if not deal.is_over:
            return deal
    raise RuntimeError("no deal lasted long enough")


def _copy_case(depth: int, seconds: float, repeats: int) -> dict[str, object]:
    deal = _mid_deal(depth)
    copy = deal.copy  # type: ignore[attr-defined]
    number = 20_000

    def chunk() -> int:
        for _ in range(number):
            copy()
        return number

    rates = _measure(chunk, seconds, repeats)
    us = [1e6 / r for r in rates]
    note = (
        f"state: {len(deal.events)} events, stock {deal.stock_size}, "  # type: ignore[attr-defined]
        f"discard pile {len(deal.discard_pile)}, rebuilds {deal.rebuilds}"
    )  # type: ignore[attr-defined]
    return {"rates": us, "versions": {"paiute": _version("paiute")}, "note": note}


def case_copy_mid(seconds: float, repeats: int) -> dict[str, object]:
    return _copy_case(COPY_DEPTHS["copy_mid"], seconds, repeats)


def case_copy_early(seconds: float, repeats: int) -> dict[str, object]:
    return _copy_case(COPY_DEPTHS["copy_early"], seconds, repeats)


def _os_chunk(clone: bool) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    initial = game.new_initial_state()
    rng = random.Random(5)
    randrange = rng.randrange

    def chunk() -> int:
        state = initial.clone() if clone else game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # Gin rummy's chance outcomes (the deal, the stock) are uniform: pick by index.
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[randrange(len(actions))])
                decisions += 1
        return decisions

    return chunk


def case_os_new(seconds: float, repeats: int) -> dict[str, object]:
    return {
        "rates": _measure(_os_chunk(False), seconds, repeats),
        "versions": {"open_spiel": _version("open_spiel")},
    }


def case_os_clone(seconds: float, repeats: int) -> dict[str, object]:
    return {
        "rates": _measure(_os_chunk(True), seconds, repeats),
        "versions": {"open_spiel": _version("open_spiel")},
    }


def case_rlcard(seconds: float, repeats: int) -> dict[str, object]:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": 5})
    rng = random.Random(5)
    randrange = rng.randrange

    def chunk() -> int:
        state, _ = env.reset()
        decisions = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[randrange(len(legal))])
            decisions += 1
        return decisions

    return {"rates": _measure(chunk, seconds, repeats), "versions": {"rlcard": _version("rlcard")}}


def case_pz_gin(seconds: float, repeats: int) -> dict[str, object]:
    import numpy as np
    from pettingzoo.classic import gin_rummy_v4

    env = gin_rummy_v4.env()
    rng = random.Random(5)
    randrange = rng.randrange
    episodes = iter(range(1, 1 << 62))

    def chunk() -> int:
        env.reset(seed=next(episodes))
        decisions = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[randrange(len(legal))])
                decisions += 1
            env.step(action)
        return decisions

    return {
        "rates": _measure(chunk, seconds, repeats),
        "versions": {"pettingzoo": _version("pettingzoo"), "rlcard": _version("rlcard")},
    }


def _source_hash() -> str:
    """A short hash of paiute's source files, to tell whether the code changed during a run
    (the package is edited while these benchmarks run)."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted((ROOT / "src" / "paiute").rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def run_child(name: str, seconds: float, repeats: int) -> None:
    func = globals()[f"case_{name}"]
    try:
        result = func(seconds, repeats)
    except Exception as error:  # report, do not crash the whole run
        result = {"status": "failed", "note": f"{type(error).__name__}: {error}"}
    result.setdefault("status", "ok")
    result["maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if CASES_BY_NAME[name].ours:
        result["source_hash"] = _source_hash()
    result["python"] = platform.python_version()
    result["cpus"] = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    print(RESULT_TAG + json.dumps(result), flush=True)


def run_warmup_curve(total: float) -> None:
    """The engine's random-play rate in successive 0.5 CPU-s windows of this fresh process."""
    chunk = _engine_chunk()
    print("window (CPU-s)   decisions/s")
    start = time.process_time()
    while time.process_time() - start < total:
        begin = time.process_time()
        done = 0
        while time.process_time() - begin < 0.5:
            done += chunk()
        elapsed = time.process_time() - begin
        print(f"{begin - start:5.1f}-{begin - start + elapsed:4.1f}     {done / elapsed:10,.0f}")


# -- profiles --------------------------------------------------------------------------------------


def run_profile(which: str, seconds: float) -> None:
    import cProfile
    import pstats

    if which in ("engine", "engine-cold"):
        chunk = _engine_chunk()
        if which == "engine":
            note = _warm_engine(chunk, WARMUP_SECONDS)
            title = f"engine, steady state {note}"
        else:
            title = "engine, cold start (no warm-up)"
        chunks = [(title + ": random play, 4 players, whole deals incl. Deal.new", chunk)]
    elif which == "evaluator":
        ev, cards = _ours_evaluator()
        rng = random.Random(1)
        six = [tuple(cards[i] for i in h) for h in _holdings(rng, POOL, 6)]
        five = [tuple(cards[i] for i in h) for h in _holdings(rng, POOL, 5)]
        best_code, code = ev.best_code, ev.code  # type: ignore[attr-defined]

        def six_chunk() -> int:
            for held in six:
                best_code(held)
            return len(six)

        def five_chunk() -> int:
            for hand in five:
                code(hand)
            return len(five)

        six_chunk(), five_chunk()  # memoise straight-flush masks
        chunks = [
            ("evaluator: best_code on six cards", six_chunk),
            ("evaluator: code on five cards", five_chunk),
        ]
        try:
            from paiute.batch import BatchEvaluator  # type: ignore[import-not-found]

            arr = _random_holdings_array(BATCH_N, 11)
            batch = BatchEvaluator.for_rank("3")

            def batch_chunk() -> int:
                batch.best_codes(arr)
                return BATCH_N

            batch_chunk()
            chunks.append(("batch: best_codes on (1e6, 6) uint8", batch_chunk))
        except ImportError:
            print("(paiute.batch not available: no batch profile)")
    else:
        raise SystemExit(f"--profile takes engine, engine-cold or evaluator, not {which!r}")
    for title, chunk in chunks:
        profiler = cProfile.Profile()
        done = 0
        start = time.process_time()
        profiler.enable()
        while time.process_time() - start < seconds:
            done += chunk()
        profiler.disable()
        elapsed = time.process_time() - start
        print(
            f"\n=== {title}: {done} units in {elapsed:.2f} CPU-s under cProfile "
            f"({done / elapsed:,.0f}/s with profiling overhead)"
        )
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.strip_dirs().sort_stats("tottime").print_stats(20)


# -- parent side -----------------------------------------------------------------------------------


@dataclass
class Row:
    case: Case
    status: str = "ok"
    median: float | None = None
    low: float | None = None
    high: float | None = None
    rss_mib: float | None = None
    versions: dict[str, str] = field(default_factory=dict)
    note: str = ""
    rates: list[float] = field(default_factory=list)
    source_hashes: list[str] = field(default_factory=list)


def _pick_cpu() -> int | None:
    if not hasattr(os, "sched_getaffinity"):
        return None
    return max(os.sched_getaffinity(0))


def _spawn(argv: list[str], cpu: int | None, timeout: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # One thread per child, and no OpenBLAS core-type override (it slows a current numpy).
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(var, None)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONHASHSEED"] = "0"
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")

    def pin() -> None:
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})

    return subprocess.run(
        argv, capture_output=True, text=True, env=env, preexec_fn=pin, timeout=timeout, cwd=ROOT
    )


def measure_case(case: Case, seconds: float, repeats: int, cpu: int | None) -> Row:
    row = Row(case)
    timeout = 60 + repeats * seconds * 4
    if case.runner == "c":
        so = None
        if case.name == "phe_c_wheel":
            so = _phe_wheel_so()
            if so is None:
                row.status, row.note = "missing", "phevaluator's compiled extension not found"
                return row
        if not PHE_DRIVER.exists():
            row.status, row.note = (
                "missing",
                "benchmarks/.build/phe_driver not built (run benchmarks/setup.sh)",
            )
            return row
        argv = [str(PHE_DRIVER), "--seconds", str(seconds), "--repeats", str(repeats)]
        if so:
            argv += ["--so", so]
        try:
            proc = _spawn(argv, cpu, timeout)
        except subprocess.TimeoutExpired:
            row.status, row.note = "failed", "timed out"
            return row
        if proc.returncode != 0:
            row.status, row.note = "failed", (proc.stderr or proc.stdout).strip()[-300:]
            return row
        rates = [float(line.split()[1]) for line in proc.stdout.splitlines() if line.startswith("rate ")]
        rss = [int(line.split()[1]) for line in proc.stdout.splitlines() if line.startswith("maxrss_kib ")]
        row.rates = rates
        row.rss_mib = rss[0] / 1024 if rss else None
        row.versions = {"phevaluator": _phe_version()}
        row.note = "random 6-card holdings from a 1,048,576-row uint8 array; " + (
            "calls evaluate_6cards in the installed wheel's extension via dlopen"
            if so
            else "phevaluator's C sources from its sdist, gcc -O3"
        )
    else:
        python = str(PZ_PYTHON) if case.runner == "pz" else sys.executable
        if case.runner == "pz" and not PZ_PYTHON.exists():
            row.status, row.note = "missing", ".venv-pz126 not found (run benchmarks/setup.sh)"
            return row
        argv = [
            python,
            str(Path(__file__).resolve()),
            "--child",
            case.name,
            "--seconds",
            str(seconds),
            "--repeats",
            str(repeats),
            "--warmup",
            str(WARMUP_SECONDS),
        ]
        try:
            proc = _spawn(argv, cpu, timeout)
        except subprocess.TimeoutExpired:
            row.status, row.note = "failed", "timed out"
            return row
        lines = [line for line in proc.stdout.splitlines() if line.startswith(RESULT_TAG)]
        if not lines:
            row.status = "failed"
            row.note = (proc.stderr or proc.stdout).strip()[-300:]
            return row
        result = json.loads(lines[-1][len(RESULT_TAG) :])
        row.status = result.get("status", "ok")
        row.rates = result.get("rates", [])
        row.rss_mib = result["maxrss_kib"] / 1024
        row.versions = result.get("versions", {})
        row.note = result.get("note", "")
        if result.get("source_hash"):
            row.source_hashes = [result["source_hash"]]
    if row.rates:
        row.median = statistics.median(row.rates)
        row.low, row.high = min(row.rates), max(row.rates)
    elif row.status == "ok" and case.name != "baseline":
        row.status = "failed"
    if row.status != "ok":
        row.rss_mib = None  # the peak RSS of a child that measured nothing is no figure
    return row


def _merge(case: Case, parts: list[Row]) -> Row:
    """One row from the children that measured ``case``: the median of all their repeats,
    the highest peak RSS of any of them."""
    good = [part for part in parts if part.status == "ok"]
    if not good:
        return parts[-1]
    row = Row(case, versions=good[-1].versions, note=good[-1].note)
    row.rates = [rate for part in good for rate in part.rates]
    rss = [part.rss_mib for part in good if part.rss_mib is not None]
    row.rss_mib = max(rss) if rss else None
    if row.rates:
        row.median = statistics.median(row.rates)
        row.low, row.high = min(row.rates), max(row.rates)
    row.source_hashes = sorted({h for part in good for h in part.source_hashes})
    if len(row.source_hashes) > 1:
        row.note = (row.note + "; " if row.note else "") + (
            f"WARNING: paiute's source changed during the run ({len(row.source_hashes)} versions measured)"
        )
    failed = len(parts) - len(good)
    if failed:
        row.note = (
            row.note + "; " if row.note else ""
        ) + f"{failed} of {len(parts)} children failed: {parts[-1].note}"
    return row


def _phe_wheel_so() -> str | None:
    try:
        import phevaluator._pheval as ext  # type: ignore[import-not-found]
    except ImportError:
        return None
    return ext.__file__


def _phe_version() -> str:
    return _version("phevaluator")


def _fmt_rate(row: Row) -> str:
    if row.median is None:
        return "-" if row.case.name == "baseline" else row.status
    if row.case.unit == "us/copy":
        return f"{row.median:.2f} us"
    value = row.median
    if value >= 1e6:
        return f"{value / 1e6:.2f} M/s"
    if value >= 1e3:
        return f"{value / 1e3:.1f} k/s"
    return f"{value:.0f} /s"


def _fmt_spread(row: Row) -> str:
    if row.median is None or row.low is None or row.high is None:
        return ""
    return f"{(row.low / row.median - 1) * 100:+.0f}%/{(row.high / row.median - 1) * 100:+.0f}%"


def _anchor_value(rows: dict[str, Row], name: str) -> tuple[float | None, str]:
    if name == "phe_c":  # the faster of the two C-core measurements
        candidates = [
            (rows[n].median, n)
            for n in ("phe_c_sdist", "phe_c_wheel")
            if n in rows and rows[n].median is not None
        ]
        if not candidates:
            return None, name
        return max(candidates)
    row = rows.get(name)
    return (row.median if row else None), name


def evaluate_targets(rows: dict[str, Row]) -> list[dict[str, object]]:
    out = []
    for target in TARGETS:
        num = rows.get(target.numerator)
        num_value = num.median if num else None
        if target.denominator is None:
            ratio = num_value
            anchor = None
        else:
            den_value, anchor = _anchor_value(rows, target.denominator)
            ratio = num_value / den_value if num_value is not None and den_value else None
        if ratio is None:
            verdict = "not measured"
        elif target.lower_is_better:
            verdict = "MET" if ratio < target.floor else "MISSED"
        else:
            verdict = "MET" if ratio >= target.floor else "MISSED"
            if verdict == "MET" and target.aim is not None:
                verdict += " (aim reached)" if ratio >= target.aim else f" (aim {target.aim:g}x not reached)"
        out.append(
            {
                "target": target.name,
                "numerator": target.numerator,
                "anchor": anchor,
                "value": ratio,
                "floor": target.floor,
                "aim": target.aim,
                "verdict": verdict,
                "lower_is_better": target.lower_is_better,
            }
        )
    return out


def _info_ratios(rows: dict[str, Row]) -> list[tuple[str, float | None]]:
    out = []
    for title, a, b in INFO_RATIOS:
        ra, rb = rows.get(a), rows.get(b)
        value = ra.median / rb.median if ra and rb and ra.median and rb.median else None
        out.append((title, value))
    return out


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def print_table(
    rows: list[Row],
    targets: list[dict[str, object]],
    info: list[tuple[str, float | None]],
    meta: dict[str, object],
) -> None:
    print()
    print(
        f"paiute benchmarks - {meta['date']} - Python {meta['python']} - {meta['cpu']} "
        f"({meta['cores']} cores; children pinned to CPU {meta['pinned_cpu']}) - load avg {meta['loadavg']}"
    )
    print(
        f"median of {meta['repeats']} repeats of >= {meta['seconds']} CPU-s each "
        f"({meta['schedule']}); per CPU-second; peak RSS = highest ru_maxrss of the case's children"
    )
    header = f"{'case':<12} {'what':<50} {'median':>11} {'min/max':>10} {'peak RSS':>10}"
    print(header)
    print("-" * len(header))
    for row in rows:
        rss = f"{row.rss_mib:.1f} MiB" if row.rss_mib is not None else "-"
        unit = "" if row.median is None or row.case.unit in ("-", "us/copy") else f" {row.case.unit}"
        print(
            f"{row.case.name:<12} {row.case.label:<50} {_fmt_rate(row):>11} {_fmt_spread(row):>10} "
            f"{rss:>10}{unit}"
        )
    notes = [(row.case.name, row.note) for row in rows if row.note]
    if notes:
        print("\nnotes:")
        for name, note in notes:
            print(f"  {name}: {note}")
    print("\ntargets:")
    for t in targets:
        value = t["value"]
        if value is None:
            shown = "-"
        elif t["lower_is_better"]:
            shown = f"{value:.2f} us (< {t['floor']:g})"
        else:
            shown = f"{value:.2f}x (>= {t['floor']:g}x)"
        anchor = f" [anchor: {t['anchor']}]" if t["anchor"] else ""
        print(f"  {t['target']:<52} {shown:>22}  {t['verdict']}{anchor}")
    print("\nother ratios:")
    for title, value in info:
        print(f"  {title:<52} {'-' if value is None else f'{value:.2f}x':>22}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats of 0.3 CPU-s (smoke run)")
    parser.add_argument("--seconds", type=float, help="CPU-seconds per repeat (default 1.5; quick 0.3)")
    parser.add_argument("--repeats", type=int, help="repeats per case (default 5; quick 3)")
    parser.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    parser.add_argument("--only", help="comma-separated case names (default: all)")
    parser.add_argument(
        "--profile",
        choices=("engine", "engine-cold", "evaluator"),
        help="cProfile top-20 of our case(s) instead of the benchmark",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        help="CPU-seconds of random play before the steady-state engine figure (default 8; quick 2)",
    )
    parser.add_argument(
        "--no-interleave",
        action="store_true",
        help="one child per case running all its repeats (default: one child per repeat, round-robin)",
    )
    parser.add_argument(
        "--warmup-curve",
        action="store_true",
        help="print the engine's rate in each 0.5 CPU-s window of a fresh process (--seconds in all, default 10)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 1.5)
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    if not 0 < seconds < math.inf or repeats < 1:  # NaN too
        parser.error(f"--seconds must be positive and --repeats at least 1, not {seconds} and {repeats}")

    global WARMUP_SECONDS
    WARMUP_SECONDS = args.warmup if args.warmup is not None else (2.0 if args.quick else 8.0)
    if args.child:
        run_child(args.child, seconds, repeats)
        return 0
    if args.warmup_curve:
        cpu = _pick_cpu()
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
        run_warmup_curve(args.seconds if args.seconds is not None else 10.0)
        return 0
    if args.profile:
        cpu = _pick_cpu()
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
        run_profile(args.profile, seconds if args.seconds is not None else 3.0)
        return 0

    selected = list(CASES)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in CASES_BY_NAME]
        if unknown:
            parser.error(f"unknown case(s) {unknown}; known: {', '.join(CASES_BY_NAME)}")
        selected = [CASES_BY_NAME[n] for n in names]
    cpu = _pick_cpu()
    meta = {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "pinned_cpu": cpu,
        "loadavg": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "seconds": seconds,
        "repeats": repeats,
        "engine_warmup_seconds": WARMUP_SECONDS,
        "schedule": "one child per case" if args.no_interleave else "round-robin, one fresh child per repeat",
        "platform": platform.platform(),
        "paiute_source_start": _source_hash(),
    }
    started = time.perf_counter()
    if args.no_interleave:
        plan = [(case, 1) for case in selected for _ in range(repeats) if case.fresh_each_repeat]
        plan += [(case, repeats) for case in selected if not case.fresh_each_repeat]
    else:
        # Round-robin: every case once per round, each time in a fresh child, so that a
        # change in the machine's load (other work on these 2 cores) hits every case alike.
        plan = [(case, 1) for _ in range(repeats) for case in selected]
    parts: dict[str, list[Row]] = {case.name: [] for case in selected}
    for index, (case, child_repeats) in enumerate(plan):
        t0 = time.perf_counter()
        part = measure_case(case, seconds, child_repeats, cpu)
        parts[case.name].append(part)
        print(
            f"  [{index + 1}/{len(plan)}] {case.name:<12} {_fmt_rate(part):>11}  "
            f"{'' if part.rss_mib is None else f'{part.rss_mib:.1f} MiB':>10}  "
            f"({time.perf_counter() - t0:.1f} s wall){'' if part.status == 'ok' else '  ' + part.note[:120]}",
            file=sys.stderr,
            flush=True,
        )
    rows = [_merge(case, parts[case.name]) for case in selected]
    meta["wall_seconds"] = round(time.perf_counter() - started, 1)
    meta["paiute_source_end"] = _source_hash()
    meta["loadavg_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    by_name = {row.case.name: row for row in rows}
    targets = evaluate_targets(by_name)
    info = _info_ratios(by_name)
    print_table(rows, targets, info, meta)
    print(f"\n(total wall time {meta['wall_seconds']} s; load avg at end {meta['loadavg_end']})")
    if meta["paiute_source_start"] == meta["paiute_source_end"]:
        print(f"paiute source hash {meta['paiute_source_end']} (unchanged during the run)")
    else:
        print(
            f"WARNING: paiute's source changed during the run "
            f"({meta['paiute_source_start']} -> {meta['paiute_source_end']}): rerun for consistent figures"
        )
    if args.json:
        payload = {
            "meta": meta,
            "rows": [
                {
                    "case": r.case.name,
                    "what": r.case.label,
                    "unit": r.case.unit + ("" if r.case.unit in ("-", "us/copy") else "/s"),
                    "status": r.status,
                    "median": r.median,
                    "min": r.low,
                    "max": r.high,
                    "rates": r.rates,
                    "peak_rss_mib": r.rss_mib,
                    "source_hashes": r.source_hashes,
                    "versions": r.versions,
                    "note": r.note,
                }
                for r in rows
            ],
            "targets": targets,
            "ratios": [{"ratio": title, "value": value} for title, value in info],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
