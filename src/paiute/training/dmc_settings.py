"""What a deep Monte Carlo run is (:class:`Settings`), apart from the training code so that
``paiute train dmc --help`` shows its defaults on an install without the ``train`` extra."""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from typing import Any

from paiute.errors import N_, PaiuteError

__all__ = ["SELF", "Settings"]

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
