"""The player protocol and the registry that finds players by name.

A player sees only its seat's :class:`~paiute.observation.Observation` (R9), which carries the
legal actions, and returns one of them. Nothing else reaches it: bots cannot look at hidden
cards because they are never given the state.

>>> player = make_player("random:seed=3")
>>> player.name
'random'
>>> parse_spec("ismcts:iterations=2000,seed=7")
('ismcts', {'iterations': '2000', 'seed': '7'})
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
    "make_player",
    "parse_spec",
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


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and its raw options."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise PlayerError(f"bad player option {item!r} in {spec!r}: expected KEY=VALUE")
        options[key.strip().replace("-", "_")] = value.strip()
    return name.strip().lower(), options


def _convert(kind: type, text: str, where: str) -> object:
    if kind is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise PlayerError(f"{where}: expected on/off, got {text!r}")
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            raise PlayerError(f"{where}: expected a number, got {text!r}") from None
    return text


def make_player(spec: str, *, seed: int | None = None) -> Player:
    """Build a player from ``"name"`` or ``"name:key=value,..."``.

    ``seed`` is used when the spec names none, so a tournament can seed every seat.
    """
    # A level ("easy" … "expert") stands for a spec with its budget; options given with it
    # ("expert:seed=3") are added to the level's own.
    from paiute.players.levels import LEVELS, level_spec

    name, raw = parse_spec(spec)
    level = level_spec(name)
    if level is not None:
        name, own = parse_spec(level)
        raw = {**own, **raw}
    # Importing the built-in players registers them.
    import paiute.players  # noqa: F401

    info = PLAYERS.get(name)
    if info is None:
        raise PlayerError(
            f"unknown player {name!r} (levels: {', '.join(LEVELS)}; players: {', '.join(sorted(PLAYERS))})"
        )
    known = info.options()
    options: dict[str, object] = {}
    for key, text in raw.items():
        if key not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise PlayerError(f"player {name!r} has no option {key!r} (options: {allowed})")
        options[key] = _convert(known[key][0], text, f"{name} option {key}")
    if seed is not None and "seed" in known and "seed" not in options:
        options["seed"] = seed
    try:
        return info.factory(**options)
    except (TypeError, ValueError) as error:
        raise PlayerError(f"player {spec!r}: {error}") from None
