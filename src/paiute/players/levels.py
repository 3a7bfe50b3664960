"""Levels: the names a person picks a bot by (``easy``, ``medium``, ``hard``, ``expert``).

A level is a name for a player spec with its budget, resolved by
:func:`~paiute.players.base.make_player` wherever a bot is chosen (``paiute play --bots``,
``paiute tournament``, the web lobby). Interfaces offer levels, not bot internals; their
default is :data:`DEFAULT_LEVEL`. Each level's place on the rating ladder is measured in
``benchmarks/level_ladder.py`` and shown in the README.

>>> level_spec("medium")
'greedy'
>>> "expert" in LEVELS
True
"""

from __future__ import annotations

__all__ = ["DEFAULT_LEVEL", "LEVELS", "level_spec"]

#: Level name -> the player spec it stands for, weakest first.
LEVELS: dict[str, str] = {
    "easy": "mc:iterations=24",
    "medium": "greedy",
    # pimc: compiled paired playouts (paiute.players.pimc). At 300 determinizations it is
    # level with greedy in duplicate tournaments, not yet shown stronger (benchmarks/README.md);
    # ismcts, the earlier choice, loses to greedy at 100-400 ms.
    "hard": "pimc:ms=50",
    # z=1 rather than plain argmax: valued on the true deal, keeping greedy's move unless beaten
    # by a standard error gained +0.004 a decision at 200 determinizations and never lost at
    # 1,000-1,500 (benchmarks/README.md, "pimc's decisions valued on the true deal").
    "expert": "pimc:ms=150",
}

#: The level an interface offers first.
DEFAULT_LEVEL = "medium"


def level_spec(name: str) -> str | None:
    """The player spec a level stands for, or None if ``name`` is not a level."""
    return LEVELS.get(name.strip().lower())
