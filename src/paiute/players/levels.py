"""Levels: the names a person picks a bot by (``easy``, ``medium``, ``hard``, ``expert``).

A level is a name for a player spec with its budget, resolved by
:func:`~paiute.players.registry.make_player` wherever a bot is chosen (``paiute play --bots``,
``paiute tournament``, the web lobby). Interfaces offer levels, not bot internals; their
default is :data:`DEFAULT_LEVEL`. Each level's place on the rating ladder is measured in
``benchmarks/level_ladder.py`` and shown in the README.

>>> level_spec("hard")
'greedy'
>>> level_spec("Expert")
'guarded'
>>> "expert" in LEVELS
True
"""

from __future__ import annotations

__all__ = ["DEFAULT_LEVEL", "LEVELS", "level_spec"]

#: Level name -> the player spec it stands for, weakest first.
LEVELS: dict[str, str] = {
    # Each level beats the one below in a duplicate tournament with its 95% interval above zero
    # (benchmarks/level_ladder.py, the README's table), except where the table says otherwise.
    "easy": "mc:iterations=24",
    # greedy looking two draws ahead instead of three: the one parameter of greedy that makes
    # it weaker and still sensible (greedy's own horizon beats shorter and longer ones alike,
    # and its aggression hardly matters at four seats; research/README.md has the figures).
    "medium": "greedy:horizon=2",
    "hard": "greedy",
    # greedy whose discards avoid feeding the next player, by a chance learned from public
    # facts (paiute.players.guarded): the one bot ahead of greedy on both presets, as fast as
    # greedy, pure Python. The search bot pimc is not ahead of greedy on either preset
    # (docs/guarded.md and benchmarks/README.md have the figures).
    "expert": "guarded",
}

#: The level an interface offers first.
DEFAULT_LEVEL = "medium"


def level_spec(name: str) -> str | None:
    """The player spec a level stands for, or None if ``name`` is not a level."""
    return LEVELS.get(name.strip().lower())
