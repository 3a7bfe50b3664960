"""Players by name: every built-in bot registered, and :func:`make_player` to make one.

Importing a bot's module registers it (:func:`paiute.players.base.register`); this module
imports them all, so a name such as ``"greedy"`` or ``"ismcts:iterations=2000"`` finds its
player here.

A name with a dot is the dotted path ``MODULE.FACTORY`` of a callable that makes a player
(``"mypkg.agent.make:depth=3"`` imports ``mypkg.agent`` and calls ``make(depth=3)``): a
researcher's agent goes wherever a built-in bot goes, by a spec that travels to worker
processes as text. Like any plugin, it imports and runs code from the Python path.

>>> player = make_player("random:seed=3")
>>> player.name
'random'
>>> parse_spec("ismcts:iterations=2000,seed=7")
('ismcts', {'iterations': '2000', 'seed': '7'})
>>> make_player("paiute.players.random_player.RandomPlayer:seed=3").name
'random'
"""

from __future__ import annotations

import importlib
import inspect
import typing
from collections.abc import Callable

from paiute.errors import N_

# Importing the built-in players registers them: "random", "greedy", "mc", "ismcts", "pimc",
# "playout", "guarded", "learned".
from paiute.players import greedy, guarded, learned, pimc, random_player, search  # noqa: F401
from paiute.players.base import PLAYERS, Player, PlayerError
from paiute.players.levels import LEVELS, level_spec

__all__ = ["make_player", "parse_spec"]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,key=value"`` into the name and its raw options.

    A bot's name is taken in lower case; a dotted path (``"MyLab.agent.make"``) as written,
    since Python's names are case-sensitive.
    """
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise PlayerError(f"bad player option {item!r} in {spec!r}: expected KEY=VALUE")
        options[key.strip().replace("-", "_")] = value.strip()
    name = name.strip()
    return (name if "." in name else name.lower()), options


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

    ``seed`` is used when the spec names none, so a tournament can seed every seat. A name
    with a dot is a factory's dotted path (:func:`_make_dotted`).
    """
    name, raw = parse_spec(spec)
    if "." in name:
        return _make_dotted(spec.strip(), name, raw, seed)
    # A level ("easy" … "expert") stands for a spec with its budget; options given with it
    # ("expert:seed=3") are added to the level's own.
    level = level_spec(name)
    if level is not None:
        name, own = parse_spec(level)
        raw = {**own, **raw}
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


# -- a researcher's agent, by the dotted path of its factory -----------------------------------


def _make_dotted(spec: str, path: str, raw: dict[str, str], seed: int | None) -> Player:
    """Import ``MODULE`` of ``MODULE.FACTORY``, call the factory with the spec's options
    (converted by its annotations, as a built-in bot's are) and check that it made a
    :class:`~paiute.players.base.Player`; each failure is one :class:`PlayerError` line.

    The player is handed to the engine like any bot, so it sees only its seat's observation
    (R9).
    """
    module_name, _, attribute = path.rpartition(".")
    if not all(part.isidentifier() for part in path.split(".")):
        raise PlayerError(
            N_("player {spec!r}: {path!r} is not a dotted path MODULE.FACTORY of Python names"),
            spec=spec,
            path=path,
        )
    factory = getattr(_import_module(spec, module_name), attribute, _MISSING)
    if factory is _MISSING:
        raise PlayerError(
            N_("player {spec!r}: module {module!r} has no attribute {attribute!r}"),
            spec=spec,
            module=module_name,
            attribute=attribute,
        )
    if not callable(factory):
        raise PlayerError(
            N_("player {spec!r}: {path!r} is a value of type {kind}, not a callable that returns a player"),
            spec=spec,
            path=path,
            kind=type(factory).__name__,
        )
    options = _dotted_options(spec, path, factory, raw, seed)
    try:
        player = factory(**options)
    except TypeError as error:
        if raw:  # the way a callable refuses its arguments: say which options were given
            raise PlayerError(
                N_("player {spec!r}: bad options {options}: {error}"),
                spec=spec,
                options=", ".join(f"{key}={text}" for key, text in raw.items()),
                error=_one_line(error, kind=False),
            ) from None
        raise PlayerError(
            N_("player {spec!r}: the factory raised {error}"), spec=spec, error=_one_line(error)
        ) from None
    except Exception as error:  # a researcher's code: any failure is its message, on one line
        raise PlayerError(
            N_("player {spec!r}: the factory raised {error}"), spec=spec, error=_one_line(error)
        ) from None
    if not isinstance(player, Player):
        raise PlayerError(
            N_(
                "player {spec!r}: the factory returned a value of type {kind}, not a player (an object "
                "with a name and an act(observation) method)"
            ),
            spec=spec,
            kind=type(player).__name__,
        )
    return player


_MISSING = object()


def _import_module(spec: str, module_name: str) -> object:
    try:
        return importlib.import_module(module_name)
    except ImportError as error:
        missing = getattr(error, "name", None)
        if isinstance(error, ModuleNotFoundError) and missing and f"{module_name}.".startswith(f"{missing}."):
            # The module itself (or its package) is not on the path, not one of its imports.
            raise PlayerError(
                N_(
                    "player {spec!r}: cannot import module {module!r}: {error} (install it, or put "
                    "its folder on the Python path: PYTHONPATH=FOLDER)"
                ),
                spec=spec,
                module=module_name,
                error=_one_line(error, kind=False),
            ) from None
        raise PlayerError(
            N_("player {spec!r}: cannot import module {module!r}: {error}"),
            spec=spec,
            module=module_name,
            error=_one_line(error, kind=False),
        ) from None
    except Exception as error:  # a module that fails as it runs (SyntaxError, RuntimeError…)
        raise PlayerError(
            N_("player {spec!r}: cannot import module {module!r}: {error}"),
            spec=spec,
            module=module_name,
            error=_one_line(error),
        ) from None


def _dotted_options(
    spec: str, path: str, factory: Callable[..., object], raw: dict[str, str], seed: int | None
) -> dict[str, object]:
    """The spec's options as the factory's keyword arguments, each converted by its annotation
    (on/off for ``bool``, numbers for ``int`` and ``float``, text otherwise); ``seed`` added
    when the factory takes one and the spec gives none. Options the factory does not take are
    refused by name, before it is called."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a callable without a signature: its own TypeError says
        return dict(raw)
    parameters = signature.parameters
    hints = _hints(factory)
    named = {
        parameter.name: parameter
        for parameter in parameters.values()
        if parameter.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    open_ended = any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters.values())
    options: dict[str, object] = {}
    for key, text in raw.items():
        if key not in named and not open_ended:
            raise PlayerError(
                N_("player {path!r} has no option {key!r} (options: {allowed})"),
                path=path,
                key=key,
                allowed=", ".join(sorted(named)) or "none",
            )
        kind = hints.get(key, str)
        base = next((t for t in typing.get_args(kind) if t is not type(None)), kind)
        options[key] = _convert(base, text, f"{path} option {key}")
    if seed is not None and "seed" in named and "seed" not in options:
        options["seed"] = seed
    try:
        signature.bind(**options)
    except TypeError as error:  # a required option left out
        raise PlayerError(
            N_("player {spec!r}: bad options: {error}"), spec=spec, error=_one_line(error, kind=False)
        ) from None
    return options


def _hints(factory: Callable[..., object]) -> dict[str, typing.Any]:
    """The annotations of the factory's parameters, resolved (none where they cannot be)."""
    target: object = factory
    if inspect.isclass(factory):
        target = factory.__init__
    elif not (inspect.isfunction(factory) or inspect.ismethod(factory)):
        target = type(factory).__call__  # an object that is called
    try:
        return typing.get_type_hints(target)
    except Exception:  # an annotation naming what the module does not define: take text
        return {}


def _one_line(error: BaseException, *, kind: bool = True) -> str:
    """An exception as one line of at most 300 characters: its type (with ``kind``) and its
    message, whitespace collapsed."""
    message = " ".join(str(error).split())
    if len(message) > 300:
        message = message[:299] + "…"
    if not kind:
        return message
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
