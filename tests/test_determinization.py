"""Dealing the unseen cards from one seat's view (R4.6, R9): what stays put, what may move.

Random deals of every preset and option mix (``helpers.random_deal``) are played at random
for a random number of actions, rebuilds included; then every seat's view is determinized
and checked against the true deal: the pack is conserved, every card the seat has seen keeps
its place, only the unseen cards move, and after a rebuild the stock holds only cards that
went into it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import random_deal
from paiute import Deal, SeededChance, pack
from paiute.determinization import deal_unseen, rebuilt_stock_cards
from paiute.errors import PaiuteError
from paiute.observation import seen_cards


def _played(seed: int) -> Deal:
    deal, rng = random_deal(seed)
    for _ in range(rng.randrange(250)):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("seed", range(120))
def test_r9_deal_unseen_moves_only_what_the_seat_cannot_see(seed: int) -> None:
    deal = _played(seed)
    for seat in range(deal.players):
        view = deal.observation(seat)
        hands, stock = deal_unseen(view, SeededChance(seed * 31 + seat))
        assert hands[seat] == list(deal.hand(seat))
        assert [len(hand) for hand in hands] == [deal.hand_size(other) for other in range(deal.players)]
        assert len(stock) == deal.stock_size
        assert stock[:1] == [deal.stock_bottom] or deal.stock_bottom is None  # R2.6: stays at the bottom
        for other in range(deal.players):
            assert Counter(view.known_cards[other]) <= Counter(hands[other])  # R4.5: seen going in
        placed = [card for hand in hands for card in hand] + stock
        seen = seen_cards(view)
        outside = [card for card in seen if card not in placed]
        assert sorted(placed + outside) == pack(deal.rules.jokers)  # one pack, nothing twice
        moved = {card for card in placed if card not in seen}
        assert moved == set(deal.hidden_from(seat))  # exactly the cards hidden from the seat


def test_r4_6_a_rebuilt_stock_is_dealt_from_the_cards_that_went_into_it() -> None:
    checked = 0
    for seed in range(400):
        deal = _played(seed)
        if not deal.rebuilds or deal.is_over:
            continue
        view = deal.observation(deal.current_seat)
        rebuilt = rebuilt_stock_cards(view)
        assert set(deal.stock_cards()) <= rebuilt, seed  # the true stock satisfies it
        _, stock = deal_unseen(view, SeededChance(seed))
        assert view.stock_bottom is None  # the upcard was drawn before any rebuild (R2.6)
        assert set(stock) <= rebuilt, seed
        checked += 1
    assert checked >= 50  # random play reaches a rebuild often enough to test it


def test_rebuilt_stock_cards_is_empty_before_any_rebuild() -> None:
    deal, _ = random_deal(3)
    assert rebuilt_stock_cards(deal.observation(deal.current_seat)) == frozenset()


def test_r9_a_spectator_view_cannot_be_determinized() -> None:
    deal, _ = random_deal(5)
    with pytest.raises(PaiuteError, match="spectator"):
        deal_unseen(deal.observation(None), SeededChance(1))


@pytest.mark.parametrize("seed", range(40))
def test_r9_a_determinized_deal_shows_the_seat_what_it_saw(seed: int) -> None:
    deal = _played(seed)
    seat = deal.current_seat
    view = deal.observation(seat)
    first = Deal.from_observation(view, SeededChance(9))
    assert first.observation(seat) == view
    assert str(first) == str(Deal.from_observation(view, SeededChance(9)))  # R10.1: seeded
