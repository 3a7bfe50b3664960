"""What a deep Monte Carlo run is (:class:`Settings`) and how the command line gives it
(:func:`settings_from`), apart from the training code so that ``paiute train dmc --help`` shows
its defaults on an install without the ``train`` extra."""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paiute.errors import N_, PaiuteError

__all__ = ["CHANGEABLE", "OPTIONS", "SELF", "Settings", "settings_from"]

#: An opponent spec that seats the network itself (self-play); other specs are bots.
SELF = "self"


@dataclass(frozen=True)
class Settings:
    """What a run is; the same settings and seed make the same run."""

    seed: int = 0
    deals: int = 1_000_000
    players: int = 4
    preset: str = "pagat"
    opponents: tuple[str, ...] = ("greedy",)
    actors: int = 1
    tables: int = 256
    round_deals: int = 2048
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    batch: int = 1024
    epsilon: float = 0.02
    eval_every: int = 250_000
    eval_deals: int = 20_000
    warm_deals: int = 0
    warm_epochs: int = 4
    demo_every: int = 4

    def check(self) -> None:
        """Refuse settings that cannot make a run, in one line each."""
        whole = {
            "deals": self.deals,
            "actors": self.actors,
            "tables": self.tables,
            "round_deals": self.round_deals,
            "batch": self.batch,
            "eval_every": self.eval_every,
            "eval_deals": self.eval_deals,
        }
        for name, value in whole.items():
            if value < 1:
                raise PaiuteError(
                    N_("{option} must be at least 1, not {value}"),
                    option="--" + name.replace("_", "-"),
                    value=value,
                )
        if self.warm_deals < 0 or self.warm_epochs < 1:
            raise PaiuteError(N_("--warm-start must be 0 or more deals, not {deals}"), deals=self.warm_deals)
        if self.demo_every < 0:
            raise PaiuteError(
                N_("{option} must be 0 or more, not {value}"), option="--demo-every", value=self.demo_every
            )
        if not 0.0 <= self.epsilon <= 1.0:
            raise PaiuteError(N_("--epsilon must lie in [0, 1], not {epsilon}"), epsilon=self.epsilon)
        if not self.lr > 0.0:
            raise PaiuteError(N_("--lr must be above 0, not {lr}"), lr=self.lr)
        if not self.hidden or min(self.hidden) < 1:
            raise PaiuteError(
                N_("--hidden must list layer widths of at least 1, not {hidden!r}"), hidden=self.hidden
            )
        for spec in self.opponents:
            seats = spec.split(",")
            if len(seats) not in (1, self.players - 1):
                raise PaiuteError(
                    N_(
                        "--opponents {spec!r}: give one spec for every other seat or {others} "
                        "(one per seat), separated by commas"
                    ),
                    spec=spec,
                    others=self.players - 1,
                )

    def command(self, final_boards: int) -> str:
        """The ``paiute train dmc`` command line that makes this run from nothing."""
        options = {
            "seed": self.seed, "deals": self.deals, "players": self.players, "preset": self.preset,
            "opponents": ";".join(self.opponents), "actors": self.actors, "tables": self.tables,
            "round-deals": self.round_deals, "hidden": ",".join(map(str, self.hidden)), "lr": self.lr,
            "batch": self.batch, "epsilon": self.epsilon, "eval-every": self.eval_every,
            "eval-deals": self.eval_deals, "warm-start": self.warm_deals, "demo-every": self.demo_every,
            "final-boards": final_boards,
        }  # fmt: skip
        return shlex.join(["paiute", "train", "dmc", *(f"--{k}={v}" for k, v in options.items())])

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        fields = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields
        }
        return cls(**values)


#: Option names of ``paiute train dmc`` and the settings they give.
OPTIONS = {
    "seed": "seed", "deals": "deals", "players": "players", "preset": "preset", "opponents": "opponents",
    "actors": "actors", "tables": "tables", "round_deals": "round_deals", "hidden": "hidden", "lr": "lr",
    "batch": "batch", "epsilon": "epsilon", "eval_every": "eval_every", "eval_deals": "eval_deals",
    "warm_start": "warm_deals", "demo_every": "demo_every",
}  # fmt: skip
#: What a resumed run may change.
CHANGEABLE = frozenset({"deals", "eval_deals"})


def settings_from(args: argparse.Namespace, out: Path) -> Settings:
    """The run's settings: the options given (``None``: not given) over the defaults, or over
    the run's own settings when it is resumed; ``--quick`` shrinks a new run."""
    given: dict[str, Any] = {}
    for option, name in OPTIONS.items():
        value = getattr(args, option, None)
        if value is None:
            continue
        if name == "hidden":
            try:
                value = tuple(int(w) for w in str(value).split(","))
            except ValueError:
                raise PaiuteError(
                    N_("--hidden: expected widths separated by commas, like 256,256, not {value!r}"),
                    value=value,
                ) from None
        elif name == "opponents":
            value = tuple(spec.strip() for spec in str(value).split(";"))
        given[name] = value
    saved = out / "settings.json"
    if args.resume and saved.exists():
        base = Settings.from_json(json.loads(saved.read_text(encoding="utf-8")))
        fixed = {k: v for k, v in given.items() if k not in CHANGEABLE and getattr(base, k) != v}
        if fixed:
            names = ", ".join(
                "--" + next(o for o, n in OPTIONS.items() if n == k).replace("_", "-") for k in fixed
            )
            raise PaiuteError(
                N_("--resume: {options} cannot change in a run under way (only --deals, --eval-deals)"),
                options=names,
            )
        settings = dataclasses.replace(base, **given)
    else:
        settings = dataclasses.replace(Settings(), **given)
        if args.quick:
            settings = dataclasses.replace(
                settings,
                deals=min(settings.deals, 512),
                tables=16,
                round_deals=64,
                hidden=(32,),
                eval_every=256,
                eval_deals=200,
                batch=256,
                warm_deals=min(settings.warm_deals, 16),
            )
    settings.check()
    return settings
