"""``research/feed_learned.py`` measures the player that ships: its learned guard with the
shipped coefficients and weight plays the ``guarded`` player's moves."""

from __future__ import annotations

import random

from paiute import Deal, Phase, RuleSet, SeededChance
from paiute.players import make_player
from paiute.players.feed import FeedModel
from paiute.players.greedy import GreedyPlayer
from paiute.players.guarded import DEFAULT_WEIGHT, GuardedPlayer
from paiute.rules import PRESETS
from research import feed_learned


def _discard_positions(count: int, seed: int) -> list[Deal]:
    """Deals at a seat's discard with a choice of cards, reached by greedy and random play
    at 2 to 8 seats, both presets, jokers and options mixed."""
    rng = random.Random(seed)
    found: list[Deal] = []
    while len(found) < count:
        players = rng.randint(2, 8)
        rules = RuleSet.from_preset(
            rng.choice(sorted(PRESETS)),
            jokers=rng.random() < 0.3,
            max_players=8,
            open_discard=rng.random() < 0.5,
            paiute_any_turn=rng.random() < 0.5,
        )
        deal = Deal.new(rules, players, rng.randrange(players), SeededChance(rng.getrandbits(32)))
        bots = [make_player(rng.choice(["greedy", "random"]), seed=seat) for seat in range(players)]
        for _ in range(80):
            if deal.is_over:
                break
            observation = deal.observation(deal.current_seat)
            weighed = (
                observation.phase is Phase.DISCARD and len(GreedyPlayer().discard_scores(observation)) >= 2
            )
            if weighed and rng.random() < 0.25:
                found.append(deal.copy())
                break
            deal.apply(bots[deal.current_seat].act(observation))
    return found


def test_the_learned_guard_with_the_shipped_coefficients_is_the_guarded_player() -> None:
    for deal in _discard_positions(15, 13):
        observation = deal.observation(deal.current_seat)
        coefficients = FeedModel.shipped(observation.rules, observation.players).coefficients
        guard = feed_learned.LearnedGuard("learned", DEFAULT_WEIGHT, coefficients=coefficients)
        assert guard.player(5, None).act(observation) == GuardedPlayer(seed=5).act(observation)
