"""Players: the protocol, the registry, and the built-in bots.

``make_player("random")``, ``make_player("greedy")``, ``make_player("ismcts:iterations=2000")``…
"""

from paiute.players.base import PLAYERS, Player, PlayerError, PlayerInfo, prepare_player, register
from paiute.players.levels import DEFAULT_LEVEL, LEVELS, level_spec
from paiute.players.play import play_deal, play_turn
from paiute.players.registry import make_player, parse_spec

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
