"""Players: the protocol, the registry, and the built-in bots.

``make_player("random")``, ``make_player("greedy")``, ``make_player("ismcts:iterations=2000")``…
"""

# Importing the built-in players registers them: "random", "greedy", "mc", "ismcts", "pimc",
# "guarded", "learned".
from paiute.players import greedy, guarded, learned, pimc, random_player, search  # noqa: F401
from paiute.players.base import (
    PLAYERS,
    Player,
    PlayerError,
    PlayerInfo,
    make_player,
    parse_spec,
    prepare_player,
    register,
)
from paiute.players.levels import DEFAULT_LEVEL, LEVELS, level_spec
from paiute.players.play import play_deal, play_turn

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "PLAYERS",
    "Player",
    "PlayerError",
    "PlayerInfo",
    "level_spec",
    "make_player",
    "parse_spec",
    "play_deal",
    "play_turn",
    "prepare_player",
    "register",
]
