"""Players by name: every built-in bot registered, and :func:`make_player` to make one.

Importing a bot's module registers it (:func:`paiute.players.base.register`); this module
imports them all, so a name such as ``"greedy"`` or ``"ismcts:iterations=2000"`` finds its
player here.

>>> player = make_player("random:seed=3")
>>> player.name
'random'
>>> parse_spec("ismcts:iterations=2000,seed=7")
('ismcts', {'iterations': '2000', 'seed': '7'})
"""

from __future__ import annotations

# Importing the built-in players registers them: "random", "greedy", "mc", "ismcts", "pimc",
# "playout", "guarded", "learned".
from paiute.players import greedy, guarded, learned, pimc, random_player, search  # noqa: F401
from paiute.players.base import PLAYERS, Player, PlayerError
from paiute.players.levels import LEVELS, level_spec

__all__ = ["make_player", "parse_spec"]


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
    name, raw = parse_spec(spec)
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
