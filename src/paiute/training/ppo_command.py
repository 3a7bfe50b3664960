"""``paiute train ppo``: check the options, the training libraries and the run's folder,
train and judge the run (:func:`paiute.training.ppo.train_and_judge`), print its results."""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paiute.errors import PaiuteError
from paiute.training.ppo import train_and_judge
from paiute.training.ppo_settings import FULL, given_options, new_settings, resumed_settings

__all__ = ["RUN_FILES", "run"]


#: What a run leaves in its folder; one of them there without --resume is another run's.
RUN_FILES = ("checkpoint.zip", "checkpoint.json", "curve.jsonl", "curve.png", "agent.npz", "results.json")

_INSTALL = "paiute train ppo needs PyTorch and sb3-contrib, the train extra: pip install 'paiute[train]'"


def _default_out(seed: int) -> Path:
    return Path("runs") / f"ppo-seed{seed}"


def _device(name: str, cuda_available: Callable[[], bool]) -> str:
    name = name.strip().lower()
    if name == "auto":
        return "cuda" if cuda_available() else "cpu"
    if name == "cpu" or name.startswith("cuda"):
        if name.startswith("cuda") and not cuda_available():
            raise PaiuteError(f"--device {name}: PyTorch sees no CUDA device here (use cpu or auto)")
        return name
    raise PaiuteError(f"--device must be cpu, cuda or auto, not {name!r}")


def _prepare_folder(out: Path, resume: bool) -> None:
    if out.exists() and not out.is_dir():
        raise PaiuteError(f"--out {str(out)!r} is a file, not a folder")
    if "," in str(out):
        raise PaiuteError(f"--out {str(out)!r} holds a comma: the agent's player spec could not name it")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise PaiuteError(f"cannot make the folder {str(out)!r}: {error.strerror}") from None
    found = [name for name in RUN_FILES if (out / name).exists()]
    if resume:
        missing = [name for name in ("checkpoint.zip", "checkpoint.json") if not (out / name).exists()]
        if missing:
            raise PaiuteError(f"nothing to resume in {str(out)!r}: no {' or '.join(missing)}")
    elif found:
        raise PaiuteError(
            f"{str(out)!r} holds another run ({', '.join(found)}): "
            "add --resume to continue it, or choose another --out"
        )
    if not os.access(out, os.W_OK):
        raise PaiuteError(f"cannot write into {str(out)!r}")


def _import_training() -> None:
    """Refuse in one line, naming the extra, where the training libraries are missing."""
    try:
        import gymnasium  # noqa: F401
        import numpy  # noqa: F401
        import rich  # noqa: F401
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        raise PaiuteError(_INSTALL) from None


def run(args: argparse.Namespace) -> int:
    """``paiute train ppo``: train, evaluate, checkpoint, then the final tournament."""
    given = given_options(args)
    quick = bool(getattr(args, "quick", False))
    resume = bool(getattr(args, "resume", False))
    if not resume:
        new_settings(given, quick).check()
    out_option = getattr(args, "out", None)
    out = Path(out_option) if out_option is not None else _default_out(given.get("seed", FULL["seed"]))
    _import_training()
    import torch

    device = _device(str(getattr(args, "device", "auto")), torch.cuda.is_available)
    threads = getattr(args, "threads", 1)
    if threads is not None:
        if threads < 1:
            raise PaiuteError(f"--threads must be at least 1, not {threads}")
        torch.set_num_threads(threads)
    _prepare_folder(out, resume)
    counters = {"steps": 0, "deals": 0, "seconds": 0.0, "cpu_seconds": 0.0}
    if resume:
        settings, counters = resumed_settings(out, given, quick)
        settings.check()
    else:
        settings = new_settings(given, quick)
    results = train_and_judge(settings, out, device, counters, resume)
    if getattr(args, "json", False):
        print(json.dumps(results, indent=2, sort_keys=True))
    else:
        _print_table(results)
    return 0


def _print_table(results: dict[str, Any]) -> None:
    """A few lines for the person who ran it: the run, then a row per bot."""
    last = results["curve"]["last"]
    print(
        f"MaskablePPO seed {results['seed']}: {results['steps']:,} steps, {results['deals']:,} training deals, "
        f"{results['cpu_hours']:.3f} CPU-hours"
    )
    print(
        f"curve: {last['mean']:+.3f} [{last['low']:+.3f}, {last['high']:+.3f}] chips per deal against "
        f"{results['curve']['opponents']} ({results['curve']['eval_deals']:,} deals)"
    )
    rows = results["final_tournament"]
    if not rows:
        print("final tournament: skipped (--final-boards 0)")
        return
    print(f"final tournament ({rows[0]['boards']:,} boards each, duplicate): margin per deal, 95% interval")
    for row in rows:
        low, high = row["low"], row["high"]
        interval = f"[{low:+.3f}, {high:+.3f}]" if math.isfinite(low) and math.isfinite(high) else "[-, -]"
        print(f"  vs {row['opponent']:<8} {row['mean']:+.3f} {interval}")
    print(f"agent: {results['tournament']['agent']}")
