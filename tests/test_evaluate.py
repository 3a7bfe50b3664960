"""The action estimator: one estimate per legal action, paired samples, observation only (R9)."""

import pytest

from paiute import Deal, RuleSet, SeededChance
from paiute.players import PlayerError
from paiute.players.evaluate import estimate_actions


def _discard_position(seed: int) -> Deal:
    deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(seed), balances=[0, 0, 0], pot=6)
    while deal.phase.value != "discard":
        deal.apply(deal.legal_actions()[0])
    return deal


def test_one_estimate_per_legal_action_in_order() -> None:
    observation = _discard_position(3).observation(1)
    estimates = estimate_actions(observation, playouts=3, seed=2)
    assert [e.action for e in estimates.estimates] == list(observation.legal_actions)
    assert all(e.samples == 3 and e.low <= e.mean <= e.high for e in estimates.estimates)
    best = estimates.best()
    mean, low, high = estimates.advantage(best.action, estimates.estimates[0].action)
    assert mean >= 0
    assert low <= mean <= high


def test_r9_estimates_do_not_depend_on_unseen_cards() -> None:
    deal = _discard_position(5)
    seat = deal.current_seat
    observation = deal.observation(seat)
    other = Deal.from_observation(observation, SeededChance(99))  # the unseen cards re-dealt
    assert other.observation(seat) == observation
    first = estimate_actions(observation, playouts=2, seed=4)
    second = estimate_actions(other.observation(seat), playouts=2, seed=4)
    assert first.values == second.values


def test_only_the_seat_to_move_is_estimated() -> None:
    deal = _discard_position(3)
    waiting = (deal.current_seat + 1) % 3
    with pytest.raises(PlayerError, match="seat to move"):
        estimate_actions(deal.observation(waiting), playouts=1)
