"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random

from paiute.actions import Action
from paiute.observation import Observation
from paiute.players.base import PlayerError, register


@register("random", "picks uniformly among the legal actions")
class RandomPlayer:
    """Uniform over ``observation.legal_actions``; repeatable with ``seed``."""

    name = "random"

    def __init__(self, *, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise PlayerError(f"seat {observation.seat} has no legal action: it is not its turn")
        return actions[self._random.randrange(len(actions))]
