"""The player protocol, the bounds of a search budget, and the table of players by name.

A player sees only its seat's :class:`~paiute.observation.Observation` (R9), which carries the
legal actions, and returns one of them. Nothing else reaches it: bots cannot look at hidden
cards because they are never given the state.

A kind of player makes itself known with :func:`register`; :mod:`paiute.players.registry`
registers the built-in bots and makes players from a name (``make_player``).
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from paiute.actions import Action
from paiute.errors import PaiuteError
from paiute.observation import Observation

__all__ = [
    "MAX_ITERATIONS",
    "MAX_MS",
    "MAX_WORKERS",
    "PLAYERS",
    "Player",
    "PlayerError",
    "PlayerInfo",
    "check_budget",
    "prepare_player",
    "register",
]


class PlayerError(PaiuteError):
    """An unknown player name, a bad option, or a player that chose an illegal action."""


#: The most a search may be asked for, whoever asks (a spec such as ``pimc:iterations=N``, a
#: hint's or a review's playouts): a decision's playout values are held in memory (8 bytes an
#: action and a playout, some 64 MB at this bound), and ``workers`` start threads or processes.
#: Beyond these a request is refused with a clear error, not a crash or a machine brought down.
MAX_ITERATIONS = 1_000_000
#: A time budget of ten minutes a decision.
MAX_MS = 600_000.0
#: Threads or processes one search may start.
MAX_WORKERS = 64


def check_budget(
    *, iterations: int | None = None, ms: float | None = None, workers: int | None = None
) -> None:
    """Refuse a search budget outside the bounds above (``ValueError``, saying which).

    >>> check_budget(iterations=400, ms=100.0, workers=2)
    >>> check_budget(iterations=10**12)
    Traceback (most recent call last):
    ...
    ValueError: iterations must be from 1 to 1000000, not 1000000000000
    """
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"iterations must be from 1 to {MAX_ITERATIONS}, not {iterations}")
    if ms is not None and not 0 < ms <= MAX_MS:
        raise ValueError(f"ms must be more than 0 and at most {MAX_MS:.0f}, not {ms}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be from 1 to {MAX_WORKERS}, not {workers}")


@runtime_checkable
class Player(Protocol):
    """Anything that picks an action from a seat's observation."""

    name: str

    def act(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        ...


def prepare_player(player: Player, *, timeout: float | None = None) -> bool:
    """Wait until ``player`` plays at full strength, as UCI's ``isready`` waits for a chess
    engine; whether it does.

    A player with a one-time setup has a ``prepare(timeout=...)`` method: ``pimc`` with a time
    budget plays ``greedy``'s moves while its compiled kernels load, so that no table waits on
    them (:mod:`paiute.compiled.warm`), and a tournament, which measures the bot itself, calls
    this first. Other players are always ready.

    >>> from paiute.players import make_player
    >>> prepare_player(make_player("greedy"))
    True
    """
    prepare = getattr(player, "prepare", None)
    return True if prepare is None else bool(prepare(timeout=timeout))


@dataclass(frozen=True)
class PlayerInfo:
    """A registered kind of player: its factory and a one-line description."""

    name: str
    factory: Callable[..., Player]
    help: str

    def options(self) -> dict[str, tuple[type, object]]:
        """The factory's keyword options: name -> (type, default)."""
        hints = typing.get_type_hints(self.factory.__init__)
        result: dict[str, tuple[type, object]] = {}
        for parameter in inspect.signature(self.factory).parameters.values():
            if parameter.kind is inspect.Parameter.KEYWORD_ONLY:
                kind = hints.get(parameter.name, str)
                base = next((t for t in typing.get_args(kind) if t is not type(None)), kind)
                result[parameter.name] = (base, parameter.default)
        return result


#: Every known player, by name.
PLAYERS: dict[str, PlayerInfo] = {}


def register(name: str, help: str) -> Callable[[type], type]:
    """Class decorator: make a player available by ``name`` (``make_player("name:...")``)."""

    def decorate(cls: type) -> type:
        PLAYERS[name] = PlayerInfo(name, cls, help)
        return cls

    return decorate
