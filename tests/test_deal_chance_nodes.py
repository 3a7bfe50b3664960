"""``Deal.stock_cards`` and ``Deal.put_on_stock_top``: choosing each stock card as it is drawn.

Frameworks with explicit chance nodes (OpenSpiel) pick the card of every ``draw stock`` when
it happens. Moving a card to the top of the stock must change nothing any seat can see (R9.3),
must keep the face-up upcard at the bottom (R2.6), and must leave the deal replayable from its
deck and rebuild orders (R4.6, RECORD.md).
"""

from __future__ import annotations

import random

import pytest

from helpers import card, make_deal, run_stock_down
from paiute import DRAW_STOCK, Deal, Match, PaiuteError, RecordedChance, RuleSet, SeededChance
from paiute.record import Record

PAGAT = RuleSet()
GAMERULES = RuleSet.from_preset("gamerules")


def test_stock_cards_lists_the_stock_bottom_first() -> None:
    deal = make_deal(PAGAT, 2, 0, upcard="7h", stock="Ac Kd")
    stock = deal.stock_cards()
    assert len(stock) == deal.stock_size
    assert stock[0] == card("7h")  # R2.6: the upcard lies under the stock
    assert stock[-1] == card("Ac")  # drawn next
    assert deal.stock_bottom == card("7h")


def test_put_on_stock_top_makes_the_next_draw_take_that_card() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="7h", stock="Ac Kd")
    chosen = deal.stock_cards()[5]
    deal.put_on_stock_top(chosen)
    assert deal.stock_cards()[-1] == chosen
    event = deal.apply(DRAW_STOCK)
    assert event.card == chosen
    assert chosen in deal.hand(1)


def test_put_on_stock_top_changes_no_seats_view_r9_3() -> None:
    deal = make_deal(PAGAT, 3, 2, upcard="7h")
    before = [deal.observation(seat) for seat in (None, 0, 1, 2)]
    deal.put_on_stock_top(deal.stock_cards()[3])
    assert [deal.observation(seat) for seat in (None, 0, 1, 2)] == before


def test_r2_6_the_face_up_upcard_cannot_be_moved_up() -> None:
    deal = make_deal(PAGAT, 2, 0, upcard="7h")
    with pytest.raises(PaiuteError, match=r"R2\.6"):
        deal.put_on_stock_top(card("7h"))
    run_stock_down(deal, left=1)
    assert deal.stock_cards() == (card("7h"),)
    deal.put_on_stock_top(card("7h"))  # the last card is already on top: nothing to do
    assert deal.apply(DRAW_STOCK).card == card("7h")


def test_a_card_outside_the_stock_is_refused() -> None:
    deal = make_deal(PAGAT, 2, 0, {1: "Ac Ad Ah As Kc"}, upcard="7h")
    with pytest.raises(PaiuteError, match="not in the stock"):
        deal.put_on_stock_top(card("Ac"))


def test_the_deck_is_swapped_too_so_the_deal_replays() -> None:
    deal = make_deal(GAMERULES, 3, 1, upcard="9c")
    rng = random.Random(5)
    for _ in range(12):
        if deal.phase.value == "draw":
            deal.put_on_stock_top(rng.choice(deal.stock_cards()))
            deal.apply(DRAW_STOCK)
        else:
            deal.apply(deal.legal_actions()[0])
    again = Deal(GAMERULES, 3, 1, deal.deck)
    for action in deal.actions:
        again.apply(action)
    assert [again.hand(seat) for seat in range(3)] == [deal.hand(seat) for seat in range(3)]
    assert again.stock_cards() == deal.stock_cards()
    assert again.discard_pile == deal.discard_pile


def test_r4_6_after_a_rebuild_the_rebuild_order_is_swapped_and_a_record_replays() -> None:
    rules = RuleSet(max_rebuilds=5)
    match = Match(rules, 2, chance=SeededChance(3), dealer=0)
    deal = match.start_deal()
    rng = random.Random(8)
    while deal.rebuilds < 2:
        if deal.phase.value == "draw":
            if deal.stock_size > 1:
                hidden = [c for c in deal.stock_cards() if c != deal.stock_bottom]
                deal.put_on_stock_top(rng.choice(hidden))
            match.apply(DRAW_STOCK)
        else:
            discards = [a for a in deal.legal_actions() if a.kind.value == "discard"]
            match.apply(rng.choice(discards))
    # One more chosen draw from the rebuilt stock.
    match.apply(deal.legal_actions()[0])
    deal.put_on_stock_top(deal.stock_cards()[0])
    chosen = deal.stock_cards()[-1]
    assert match.apply(DRAW_STOCK).card == chosen
    order = deal.rebuild_orders[-1]
    assert chosen in order
    replayed = Record.loads(Record.from_match(match).dumps()).replay()
    last = replayed.match.deals[-1]
    assert last.rebuild_orders == deal.rebuild_orders
    assert [last.hand(seat) for seat in range(2)] == [deal.hand(seat) for seat in range(2)]
    # The recorded orders alone reproduce the deal, with no generator.
    again = Deal(rules, 2, 0, deal.deck, RecordedChance(deal.rebuild_orders))
    for action in deal.actions:
        again.apply(action)
    assert again.stock_cards() == deal.stock_cards()


def test_a_determinized_deal_has_no_deck_and_still_moves_its_stock() -> None:
    deal = Deal.new(PAGAT, 2, 0, SeededChance(2))
    sample = Deal.from_observation(deal.observation(1), SeededChance(4))
    chosen = sample.stock_cards()[2]
    sample.put_on_stock_top(chosen)
    assert sample.apply(DRAW_STOCK).card == chosen
