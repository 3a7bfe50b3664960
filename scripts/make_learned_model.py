"""Write the ``learned`` player's network (``src/paiute/players/data/learned.npz``) from its seed.

The shipped network is run E of docs/learned.md: ``examples/train_learned.py`` (behaviour
cloning of ``greedy``, then deep Monte Carlo against two ``greedy`` bots, its last iteration
kept) with the arguments in :data:`RECIPE`. This script runs that
recipe and writes the network, or compares it with the shipped one (``--check``). It needs the
``train`` extra (PettingZoo, rich, openskill) and about 5 CPU-minutes.

Training amplifies the last bit of a sum into different weights, and the last bits depend on
which kernels OpenBLAS and NumPy pick for the processor (AVX-512 or AVX2) and on the number of
threads. So the script pins them before NumPy is loaded, unless the environment already says
otherwise: one thread, OpenBLAS's Haswell (AVX2) kernels and NumPy's AVX2 loops, which every
x86-64 processor of the last decade runs; the same pins give the same network on any of them.

    .venv/bin/python scripts/make_learned_model.py                  # into ./learned.npz
    .venv/bin/python scripts/make_learned_model.py --check          # compare with the shipped file
    .venv/bin/python scripts/make_learned_model.py --write-shipped  # rewrite the package's file
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The arithmetic the shipped network was trained with (see the module); set before NumPy loads.
PINNED = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OPENBLAS_CORETYPE": "Haswell",
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
}
for _name, _value in PINNED.items():
    os.environ.setdefault(_name, _value)

import numpy as np  # noqa: E402  (after the pins)

ROOT = Path(__file__).resolve().parent.parent
TRAINER = ROOT / "examples" / "train_learned.py"
SHIPPED = ROOT / "src" / "paiute" / "players" / "data" / "learned.npz"

#: Run E of docs/learned.md (run D's, keeping its last iteration): the arguments of
#: ``examples/train_learned.py`` that make the shipped network.
RECIPE: tuple[str, ...] = (
    "--methods", "dmc",
    "--iterations", "4",
    "--deals", "6000",
    "--buffer", "10",
    "--epochs", "3",
    "--threshold", "0.1",
    "--eval-boards", "300",
    "--bc-deals", "400",
    "--seed", "2",
    "--keep", "last",
)  # fmt: skip

#: How far a weight may lie from the shipped one and still match (absolute, and relative to its
#: size): float32 sums may differ in their last bits from one machine's BLAS to another's.
TOLERANCE = 1e-5


def trainer() -> ModuleType:
    """``examples/train_learned.py``, imported as a module."""
    spec = importlib.util.spec_from_file_location("train_learned", TRAINER)
    if spec is None or spec.loader is None:
        raise SystemExit(f"make_learned_model: cannot load {TRAINER}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_learned"] = module
    spec.loader.exec_module(module)
    return module


def train(out: Path, recipe: Sequence[str] = RECIPE) -> None:
    """Run ``recipe`` through the trainer, writing the network to ``out`` (its curve beside it)."""
    curve = out.with_name(f"{out.stem}_curve.json")
    status = trainer().main([*recipe, "--out", str(out), "--curve", str(curve)])
    if status != 0:
        raise SystemExit(f"make_learned_model: the trainer failed (exit {status})")


def differences(made: Path, shipped: Path) -> list[str]:
    """What tells the network at ``made`` from the one at ``shipped`` apart (empty: they match)."""
    found = []
    with np.load(made, allow_pickle=False) as new, np.load(shipped, allow_pickle=False) as old:
        for name in sorted(set(new.files) | set(old.files)):
            if name not in old.files or name not in new.files:
                found.append(f"{name}: only in the {'made' if name in new.files else 'shipped'} file")
            elif new[name].dtype.kind in "fc":
                if new[name].shape != old[name].shape:
                    found.append(f"{name}: shape {new[name].shape}, shipped {old[name].shape}")
                elif not np.allclose(new[name], old[name], rtol=TOLERANCE, atol=TOLERANCE):
                    gap = float(np.max(np.abs(new[name] - old[name])))
                    found.append(f"{name}: differs by up to {gap:.3g}")
            elif not np.array_equal(new[name], old[name]):
                found.append(f"{name}: {new[name]!s}, shipped {old[name]!s}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("``", ""))
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--out", type=Path, default=Path("learned.npz"), help="the file to write (./learned.npz)"
    )
    where.add_argument(
        "--write-shipped", action="store_true", help=f"write the package's own file, {SHIPPED.name}"
    )
    where.add_argument("--check", action="store_true", help="train again and compare with the shipped file")
    args = parser.parse_args(argv)
    if not args.check:
        out = SHIPPED if args.write_shipped else args.out
        train(out)
        return 0
    with tempfile.TemporaryDirectory(prefix="paiute-learned-") as scratch:
        made = Path(scratch) / "learned.npz"
        train(made)
        found = differences(made, SHIPPED)
    print("matches the shipped network" if not found else "DIFFERS: " + "; ".join(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
