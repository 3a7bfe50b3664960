"""What a MaskablePPO run is (:class:`Settings`: the sizes of a real run, :data:`FULL`, or of a
``--quick`` one, :data:`QUICK`) and how the command line, or a resumed run's checkpoint, gives
it. Only the standard library is imported here, so that ``paiute train ppo --help`` shows the
defaults on an install without the ``train`` extra."""

from __future__ import annotations

import argparse
import json
import shlex
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from paiute.errors import PaiuteError

__all__ = [
    "CHANGEABLE",
    "FULL",
    "OPTIONS",
    "QUICK",
    "Settings",
    "given_options",
    "new_settings",
    "resumed_settings",
]


@dataclass(frozen=True)
class Settings:
    """Everything that decides a run's learning (``steps``, ``eval_every`` and
    ``final_boards`` may change when it is resumed; the rest come from its checkpoint)."""

    seed: int
    steps: int
    envs: int
    players: int
    preset: str
    opponents: str
    eval_every: int
    eval_deals: int
    final_boards: int
    quick: bool
    # MaskablePPO's own, not options: a baseline is reproduced by its command line alone.
    n_steps: int
    batch_size: int
    n_epochs: int
    learning_rate: float
    gamma: float
    gae_lambda: float
    clip_range: float
    ent_coef: float
    vf_coef: float
    max_grad_norm: float

    def check(self) -> None:
        """Refuse values no run can have, in one line each."""
        least = {
            "steps": 1,
            "envs": 1,
            "players": 2,
            "eval_every": 1,
            "eval_deals": 2,
            "final_boards": 0,
            "seed": 0,
        }
        for name, low in least.items():
            value = getattr(self, name)
            if value < low:
                raise PaiuteError(f"--{name.replace('_', '-')} must be at least {low}, not {value}")
        if not self.preset.strip() or not self.opponents.strip():
            raise PaiuteError("--preset and --opponents may not be empty")

    def command(self, out: Path) -> str:
        """The command line that makes this run again."""
        words = ["paiute", "train", "ppo"]
        for name in OPTIONS:
            words += [f"--{name.replace('_', '-')}", str(getattr(self, name))]
        words += ["--out", str(out)]
        if self.quick:
            words.append("--quick")
        return shlex.join(words)


#: The sizes of a real run.
FULL = {
    "seed": 0,
    "steps": 1_500_000,
    "envs": 64,
    "players": 4,
    "preset": "pagat",
    "opponents": "greedy",
    "eval_every": 100_000,
    "eval_deals": 4_000,
    "final_boards": 500,
    "n_steps": 128,
    "batch_size": 1024,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    # A deal pays its chips only at its end (R8) and is a few dozen steps long: undiscounted.
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "max_grad_norm": 0.5,
}

#: --quick: every stage once, in seconds (tests and the install checks).
QUICK = {
    **FULL,
    "steps": 512,
    "envs": 8,
    "eval_every": 256,
    "eval_deals": 32,
    "final_boards": 2,
    "n_steps": 32,
    "batch_size": 64,
    "n_epochs": 1,
}

#: Options on the command line (the rest of Settings are fixed by --quick or not).
OPTIONS = (
    "seed",
    "steps",
    "envs",
    "players",
    "preset",
    "opponents",
    "eval_every",
    "eval_deals",
    "final_boards",
)
#: What a resumed run may change.
CHANGEABLE = ("steps", "eval_every", "final_boards")


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (``None``: not given)."""
    return {name: getattr(args, name, None) for name in OPTIONS if getattr(args, name, None) is not None}


def new_settings(given: dict[str, Any], quick: bool) -> Settings:
    """A new run's settings: the options given over the sizes of a real run, or of a --quick one."""
    values = {**(QUICK if quick else FULL), **given, "quick": quick}
    return Settings(**values)


def resumed_settings(out: Path, given: dict[str, Any], quick: bool) -> tuple[Settings, dict[str, Any]]:
    """The checkpoint's settings with the changeable options given now, and its counters."""
    try:
        saved = json.loads((out / "checkpoint.json").read_text(encoding="utf-8"))
        settings = Settings(**saved["settings"])
        counters = {key: saved[key] for key in ("steps", "deals", "seconds", "cpu_seconds")}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise PaiuteError(f"cannot read {str(out / 'checkpoint.json')!r}: {error}") from None
    if quick != settings.quick:
        raise PaiuteError(
            f"{str(out)!r} is a --quick run: add --quick"
            if settings.quick
            else f"{str(out)!r} is not a --quick run: leave out --quick"
        )
    for name, value in given.items():
        if name not in CHANGEABLE and value != getattr(settings, name):
            raise PaiuteError(
                f"--{name.replace('_', '-')} {value} differs from the run in {str(out)!r} "
                f"({getattr(settings, name)}): only --steps, --eval-every and --final-boards may change"
            )
    return replace(settings, **{name: given[name] for name in CHANGEABLE if name in given}), counters
