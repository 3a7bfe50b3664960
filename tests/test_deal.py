"""The deal as a state machine: dealing (R2), turns (R4), calls (R6), the last round (R7).

Every test builds its deck with :func:`helpers.make_deck`, so the cards each seat holds and
the cards it draws are chosen; R5.7's first-turn rule for a Paiute is tested here too, since
it is a rule of play. The last test plays seeded random deals against an independent model.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import (
    RefDeal,
    StackedChance,
    card,
    cards,
    check_same,
    choose,
    deal_position,
    draw_and_pass,
    legal_texts,
    make_deal,
    make_deck,
    play,
    random_deal,
    run_stock_down,
    snapshot,
    step_both,
)
from paiute import (
    ACTIONS,
    CALL_SIX,
    DRAW_DISCARD,
    DRAW_STOCK,
    JOKERS,
    Action,
    Deal,
    IllegalActionError,
    PaiuteError,
    Phase,
    RulesError,
    RuleSet,
    SeededChance,
    Value,
    pack,
)

PAGAT = RuleSet()
GAMERULES = RuleSet.from_preset("gamerules")


def assert_illegal(deal: Deal, text: str, rule: str | tuple[str, ...]) -> IllegalActionError:
    """``text`` is refused for ``rule`` everywhere the engine answers, and changes nothing."""
    rules = (rule,) if isinstance(rule, str) else rule
    action = Action.parse(text)
    before = snapshot(deal)
    assert not deal.is_legal(action)
    assert action not in deal.legal_actions()
    why = deal.why_illegal(action)
    assert why is not None
    assert why.rule in rules, str(why)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action)
    assert info.value.rule == why.rule
    assert str(info.value).startswith(info.value.rule)
    assert snapshot(deal) == before
    return info.value


def value(text: str, royal_high: bool = False) -> Value:
    return Value.parse(text, royal_high=royal_high)


# -- R2: players, seats and the deal -----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_r2_1_two_to_five_players_by_default(players: int) -> None:
    deal = Deal.new(PAGAT, players, 0, SeededChance(players))
    assert [len(deal.hand(seat)) for seat in range(players)] == [5] * players


@pytest.mark.parametrize("players", [0, 1, 6, 8])
def test_r2_1_other_table_sizes_refused_by_default(players: int) -> None:
    with pytest.raises(RulesError, match=r"R2\.1"):
        Deal.new(PAGAT, players, 0, SeededChance(1))


@pytest.mark.parametrize("players", [6, 7, 8])
def test_r2_1_max_players_allows_up_to_eight(players: int) -> None:
    deal = Deal.new(RuleSet(max_players=8), players, players - 1, SeededChance(players))
    assert [len(deal.hand(seat)) for seat in range(players)] == [5] * players
    with pytest.raises(RulesError):
        Deal.new(RuleSet(max_players=players - 1), players, 0, SeededChance(1))


def test_r2_1_max_players_is_at_most_eight() -> None:
    with pytest.raises(RulesError):
        RuleSet(max_players=9)
    with pytest.raises(RulesError):
        RuleSet.from_preset("gamerules", max_players=9)


@pytest.mark.parametrize("dealer", [-1, 3, 7])
def test_r2_2_dealer_must_be_a_seat(dealer: int) -> None:
    with pytest.raises(PaiuteError, match=r"R2\.2"):
        Deal(PAGAT, 3, dealer, pack())


def test_r2_2_play_moves_clockwise_to_the_left() -> None:
    deal = Deal.new(PAGAT, 4, 2, SeededChance(5))
    seats = []
    for _ in range(9):
        seats.append(deal.current_seat)
        draw_and_pass(deal)
    assert seats == [3, 0, 1, 2, 3, 0, 1, 2, 3]


def test_r2_4_new_deal_shuffles_then_cuts() -> None:
    log: list[object] = []

    class Logged:
        def shuffle(self, values: list) -> None:  # type: ignore[type-arg]
            log.append("shuffle")
            values.reverse()

        def below(self, n: int) -> int:
            log.append(("below", n))
            return 7

    deal = Deal.new(PAGAT, 3, 0, Logged())
    shuffled = list(reversed(pack()))
    assert log == ["shuffle", ("below", 52)]  # the cut is chosen after the shuffle is fixed
    assert deal.deck == tuple(shuffled[7:] + shuffled[:7])
    jokers = Deal.new(RuleSet(jokers=True), 3, 0, Logged())
    assert log[-1] == ("below", 54)
    assert sorted(jokers.deck) == pack(jokers=True)


def test_r2_5_deals_one_card_at_a_time_from_the_dealers_left() -> None:
    # The unshuffled pack is 2c 2d 2h 2s 3c 3d ...; with dealer 1 of 3, seat 2 is dealt first.
    deal = Deal(PAGAT, 3, 1, pack())
    assert deal.hand(2) == tuple(cards("2c 2s 3h 4d 5c"))
    assert deal.hand(0) == tuple(cards("2d 3c 3s 4h 5d"))
    assert deal.hand(1) == tuple(cards("2h 3d 4c 4s 5h"))
    assert deal.upcard == card("5s")  # R2.6: the next card
    assert play(deal, "draw stock")[0].card == card("6c")  # R2.7: then the stock, from the top


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 2), (4, 1), (5, 4), (8, 3)])
def test_r2_5_every_seat_gets_every_nth_card(players: int, dealer: int) -> None:
    deck = make_deck(players, dealer, seed=players * 10 + dealer)
    deal = Deal(RuleSet(max_players=8), players, dealer, deck)
    for seat in range(players):
        distance = (seat - dealer - 1) % players  # 0 for the dealer's left
        assert deal.hand(seat) == tuple(deck[distance + players * i] for i in range(5))
        assert deal.hand(seat) == tuple(deck[deal_position(players, dealer, seat, i)] for i in range(5))
    assert deal.upcard == deck[5 * players]


def test_r2_6_upcard_goes_face_up_under_the_stock_and_is_drawn_last() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="3s", seed=26)
    assert deal.upcard == card("3s")
    assert deal.stock_size == 52 - 15  # the upcard is part of the stock
    assert deal.stock_bottom == card("3s")
    assert all(deal.observation(seat).stock_bottom == card("3s") for seat in (0, 1, 2, None))
    run_stock_down(deal, 1)
    assert deal.stock_bottom == card("3s")  # the last card of the stock
    seat = deal.current_seat
    event = deal.apply(DRAW_STOCK)
    assert event.card == card("3s")
    assert event.public  # it was face up: everyone saw it taken (R4.5, R9.1)
    assert event.seen_by((seat + 1) % 3).card == card("3s")
    assert deal.stock_size == 0
    assert deal.stock_bottom is None
    assert card("3s") in deal.hand(seat)
    assert deal.known_cards(seat) == (card("3s"),)


def test_r2_6_gamerules_upcard_stays_out_of_play() -> None:
    rules = RuleSet(upcard_under_stock=False, max_rebuilds=2)
    deal = make_deal(rules, 3, 0, upcard="7d", seed=27)
    assert deal.upcard == card("7d")
    assert deal.stock_size == 52 - 15 - 1
    assert deal.stock_bottom is None
    while not deal.is_over:  # draw and pass through every rebuild to the dead deal
        held = [c for seat in range(3) for c in deal.hand(seat)]
        assert card("7d") not in held
        assert card("7d") not in deal.discard_pile
        event = deal.apply(DRAW_STOCK)
        assert event.card != card("7d")
        if not deal.is_over:
            deal.apply(Action.discard(event.card))
    assert deal.rebuilds == 2
    assert all(card("7d") not in order for order in deal.rebuild_orders)
    gamerules = make_deal(GAMERULES, 3, 0, upcard="7d", seed=27)
    assert gamerules.stock_size == 52 - 15 - 1 - 1  # less the open discard (R2.7)
    assert gamerules.stock_bottom is None


def test_r2_7_discard_pile_starts_empty_by_default() -> None:
    deal = make_deal(PAGAT, 3, 0, seed=1)
    assert deal.discard_pile == ()
    assert deal.legal_actions() == [DRAW_STOCK]  # the first player must draw from the stock
    assert_illegal(deal, "draw discard", "R4.2")


@pytest.mark.parametrize("under", [True, False])
def test_r2_7_open_discard_turns_the_top_of_the_stock(under: bool) -> None:
    rules = RuleSet(open_discard=True, upcard_under_stock=under)
    deal = make_deal(rules, 3, 0, upcard="5c", stock="Kd Qs", seed=2)
    assert deal.discard_pile == (card("Kd"),)
    assert deal.deck[16] == card("Kd")
    assert deal.stock_size == 52 - 15 - 2 + (1 if under else 0)
    assert legal_texts(deal) == ["draw stock", "draw discard"]
    assert play(deal, "draw stock")[0].card == card("Qs")  # the stock goes on below it


def test_r2_7_gamerules_opens_the_discard_pile() -> None:
    deal = make_deal(GAMERULES, 4, 3, upcard="5c", stock="9h", seed=3)
    assert deal.discard_pile == (card("9h"),)
    event = deal.apply(DRAW_DISCARD)
    assert event.card == card("9h")
    assert deal.taken_card == card("9h")


@pytest.mark.parametrize("open_discard", [False, True])
def test_r2_8_jokers_turn_no_upcard(open_discard: bool) -> None:
    rules = RuleSet(jokers=True, open_discard=open_discard)
    deck = make_deck(3, 0, jokers=True, seed=8)
    deal = Deal(rules, 3, 0, deck)
    assert deal.upcard is None
    assert deal.stock_bottom is None  # upcard_under_stock has nothing to put under
    assert deal.wild_cards == frozenset(JOKERS)  # R3.2
    assert deal.stock_size == 54 - 15 - (1 if open_discard else 0)
    if open_discard:
        assert deal.discard_pile == (deck[15],)
    assert play(deal, "draw stock")[0].card == deck[16 if open_discard else 15]
    assert deal.observation(0).upcard is None


def test_r3_2_with_jokers_no_rank_is_wild() -> None:
    rules = RuleSet(jokers=True)
    # The card after the hands (where an upcard would be) is the stock's top: 7c. Were sevens
    # wild, Qh Jh Th 9h + 7c would be a straight flush.
    deal = make_deal(rules, 3, 0, {1: "Qh Jh Th 9h 2c"}, stock="7c")
    assert play(deal, "draw stock")[0].card == card("7c")
    assert card("7c") not in deal.wild_cards
    assert [a for a in deal.legal_actions() if a.kind.is_call] == []
    jokers = make_deal(rules, 3, 0, {1: "Ac Ad Ah As Jk1"}, stock="Kc")
    play(jokers, "draw stock")
    assert "call Kc" in legal_texts(jokers)
    event = play(jokers, "call Kc")[0]
    assert event.call is not None
    assert event.call.value == value("five_of_a_kind A")


# -- R4: a turn -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (3, 2), (5, 0), (5, 3)])
def test_r4_1_play_starts_left_of_the_dealer(players: int, dealer: int) -> None:
    deal = Deal.new(PAGAT, players, dealer, SeededChance(dealer))
    assert deal.current_seat == (dealer + 1) % players
    assert deal.phase is Phase.DRAW
    assert deal.is_first_turn


def test_r4_2_a_turn_is_draw_then_discard() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "2c 5d 8h Jc Ks"}, upcard="3s", stock="9d")
    event = deal.apply(DRAW_STOCK)
    assert (event.seat, event.card) == (1, card("9d"))
    assert deal.phase is Phase.DISCARD
    assert deal.current_seat == 1
    assert sorted(deal.hand(1)) == sorted(cards("2c 5d 8h Jc Ks 9d"))
    assert deal.stock_size == 36
    event = deal.apply(Action.parse("discard Jc"))
    assert (event.seat, event.card) == (1, card("Jc"))
    assert deal.discard_pile == (card("Jc"),)
    assert sorted(deal.hand(1)) == sorted(cards("2c 5d 8h Ks 9d"))
    assert (deal.phase, deal.current_seat) == (Phase.DRAW, 2)
    assert legal_texts(deal) == ["draw stock", "draw discard"]


def test_r4_2_draw_discard_takes_the_top_card() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="3s", stock="9d 4c", seed=4)
    play(deal, "draw stock", "discard 9d", "draw stock", "discard 4c")
    event = deal.apply(DRAW_DISCARD)
    assert (event.seat, event.card) == (0, card("4c"))
    assert deal.discard_pile == (card("9d"),)
    assert card("4c") in deal.hand(0)


def test_r4_2_drawing_twice_refused() -> None:
    deal = make_deal(RuleSet(open_discard=True), 3, 0, seed=5)
    play(deal, "draw stock")
    assert_illegal(deal, "draw stock", "R4.2")
    assert_illegal(deal, "draw discard", "R4.2")


def test_r4_2_discarding_before_drawing_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "2c 5d 8h Jc Ks"}, seed=6)
    assert_illegal(deal, "discard Jc", "R4.2")


def test_r4_2_drawing_from_an_empty_discard_pile_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, seed=7)
    assert_illegal(deal, "draw discard", "R4.2")


def test_r4_2_discarding_a_card_not_held_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "2c 5d 8h Jc Ks"}, stock="9d", seed=8)
    play(deal, "draw stock")
    assert_illegal(deal, "discard Ah", "R4.2")
    held_by_other = deal.hand(2)[0]
    assert_illegal(deal, f"discard {held_by_other}", "R4.2")


def taken_ks_deal() -> Deal:
    """RULES.md's example: a player takes Ks from the discard pile and holds
    Ks Qs Js Ts 3d 8c (threes wild)."""
    deal = make_deal(PAGAT, 3, 0, {2: "Qs Js Ts 3d 8c"}, upcard="3s", stock="Ks", seed=9)
    play(deal, "draw stock", "discard Ks", "draw discard")  # R4.3: a stock card may go at once
    assert deal.taken_card == card("Ks")
    assert sorted(deal.hand(2)) == sorted(cards("Ks Qs Js Ts 3d 8c"))
    return deal


def test_r4_3_taken_card_cannot_be_discarded() -> None:
    deal = taken_ks_deal()
    assert "discard Ks" not in legal_texts(deal)
    assert_illegal(deal, "discard Ks", "R4.3")
    assert {"discard Qs", "discard Js", "discard Ts", "discard 3d", "discard 8c"} <= set(legal_texts(deal))


def test_r4_3_taken_card_cannot_be_put_down_with_a_call() -> None:
    deal = taken_ks_deal()
    assert_illegal(deal, "call Ks", "R4.3")
    assert "call 8c" in legal_texts(deal)
    event = play(deal, "call 8c")[0]  # Royal Flush: 3d names As
    assert event.call is not None
    assert event.call.value == value("royal_flush")
    assert sorted(event.call.shown) == sorted(cards("Ks Qs Js Ts 3d"))
    assert deal.discard_pile == (card("8c"),)


def test_r4_3_card_drawn_from_the_stock_may_be_discarded_at_once() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="3s", stock="Ks", seed=10)
    play(deal, "draw stock")
    assert deal.taken_card is None
    assert "discard Ks" in legal_texts(deal)
    play(deal, "discard Ks")
    assert deal.discard_pile == (card("Ks"),)


def test_r4_3_taken_card_may_be_discarded_on_a_later_turn() -> None:
    deal = taken_ks_deal()
    play(deal, "discard 8c")
    draw_and_pass(deal, 2)
    play(deal, "draw stock")
    assert deal.current_seat == 2
    assert deal.taken_card is None
    assert "discard Ks" in legal_texts(deal)


@given(st.integers(0, 2**32 - 1))
def test_r4_4_five_cards_at_the_end_of_each_turn_until_a_call(seed: int) -> None:
    deal, rng = random_deal(seed)
    while not deal.is_over:
        event = deal.apply(choose(rng, deal.legal_actions(), call_bias=0.2))
        if deal.calls:
            break
        if not event.action.kind.is_draw:
            assert [deal.hand_size(s) for s in range(deal.players)] == [5] * deal.players
        elif not deal.is_over:  # (a dead deal's last draw draws nothing, R4.7)
            assert deal.hand_size(event.seat) == 6


def test_r4_5_which_pile_and_taken_cards_are_public() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="3s", stock="9d", seed=11)
    private = deal.apply(DRAW_STOCK)
    assert not private.public
    assert private.seen_by(1).card == card("9d")
    assert private.seen_by(2).card is None
    assert private.seen_by(None).card is None
    assert private.seen_by(2).action is DRAW_STOCK  # which pile is public
    assert deal.observation(2).history[-1].card is None
    discard = deal.apply(Action.parse("discard 9d"))
    assert discard.public
    taken = deal.apply(DRAW_DISCARD)
    assert taken.public
    assert taken.seen_by(0).card == card("9d")
    assert deal.observation(0).known_cards[2] == (card("9d"),)
    assert deal.known_cards(2) == (card("9d"),)


def rebuild_setup(rules: RuleSet, top: str = "Kd") -> tuple[Deal, StackedChance, tuple]:  # type: ignore[type-arg]
    """Five players; the stock is drawn down to nothing by drawing and passing."""
    chance = StackedChance(top)
    deal = make_deal(rules, 5, 0, upcard="3s", stock=top, seed=12, chance=chance)
    run_stock_down(deal)
    return deal, chance, deal.discard_pile


def test_r4_6_rebuild_keeps_the_top_discard() -> None:
    deal, chance, pile = rebuild_setup(PAGAT)
    assert len(pile) == 27
    assert pile[-1] == card("3s")  # the upcard was drawn last and passed
    assert legal_texts(deal) == ["draw stock", "draw discard"]
    seat = deal.current_seat
    event = deal.apply(DRAW_STOCK)
    assert event.rebuilt == 26
    assert chance.shuffled == [list(pile[:-1])]  # exactly the pile less its top was shuffled
    assert deal.discard_pile == (pile[-1],)  # the top stays
    assert sorted(deal.rebuild_orders[0]) == sorted(pile[:-1])
    assert deal.rebuild_orders[0][0] == card("Kd")  # the chance put Kd on top
    assert event.card == card("Kd")
    assert card("Kd") in deal.hand(seat)
    assert deal.stock_size == 25
    assert deal.rebuilds == 1


@pytest.mark.parametrize("rules", [RuleSet(reshuffle_keeps_top=False), GAMERULES])
def test_r4_6_gamerules_rebuild_takes_the_whole_pile(rules: RuleSet) -> None:
    deal, chance, pile = rebuild_setup(rules)
    event = deal.apply(DRAW_STOCK)
    assert event.rebuilt == len(pile)
    assert chance.shuffled == [list(pile)]
    assert deal.discard_pile == ()
    assert sorted(deal.rebuild_orders[0]) == sorted(pile)
    assert event.card == card("Kd")
    assert deal.stock_size == len(pile) - 1
    if not rules.upcard_under_stock:
        assert card("3s") not in pile  # the upcard is out of play (R2.6)
    # The discard pile is empty: the next player must draw from the stock (R4.2).
    play(deal, f"discard {event.card}")
    assert legal_texts(deal) == ["draw stock", "draw discard"]


def test_r4_6_rebuilt_stock_is_drawn_in_its_order() -> None:
    deal = make_deal(PAGAT, 3, 0, upcard="3s", seed=13, chance=SeededChance(99))
    run_stock_down(deal)
    drawn = []
    for _ in range(5):
        event = deal.apply(DRAW_STOCK)
        drawn.append(event.card)
        deal.apply(Action.discard(event.card))
    assert drawn == list(deal.rebuild_orders[0][:5])


def test_r4_6_a_player_may_draw_the_discard_instead_of_rebuilding() -> None:
    deal, _, pile = rebuild_setup(PAGAT)
    event = deal.apply(DRAW_DISCARD)
    assert event.card == pile[-1]
    assert deal.rebuilds == 0
    assert deal.stock_size == 0


@pytest.mark.parametrize("max_rebuilds", [0, 1, 2, 3])
@pytest.mark.parametrize("keeps_top", [True, False])
def test_r4_7_dead_deal_after_max_rebuilds(max_rebuilds: int, keeps_top: bool) -> None:
    rules = RuleSet(max_rebuilds=max_rebuilds, reshuffle_keeps_top=keeps_top)
    deal = make_deal(rules, 5, 2, upcard="3s", seed=14 + max_rebuilds)
    draws = 0
    while True:
        if deal.stock_size == 0 and deal.rebuilds == max_rebuilds:
            before = snapshot(deal)
            assert deal.is_legal(DRAW_STOCK)
            assert deal.is_legal(DRAW_DISCARD) == bool(deal.discard_pile)
        event = deal.apply(DRAW_STOCK)
        if deal.is_over:
            break
        draws += 1
        deal.apply(Action.discard(event.card))
    assert draws == 27 + sum(len(order) for order in deal.rebuild_orders)
    assert deal.rebuilds == max_rebuilds
    assert event.card is None  # the draw that would need one more rebuild draws nothing
    assert event.ends_deal
    assert deal.outcome is not None
    assert deal.outcome.dead
    assert deal.outcome.winners == ()
    assert deal.outcome.calls == ()
    assert deal.phase is Phase.OVER
    assert deal.legal_actions() == []
    # Nothing moved: the same hands, pile and (empty) stock as before that draw.
    after = snapshot(deal)
    assert after[2:7] == before[2:7]
    assert deal.actions[-1] is DRAW_STOCK
    assert_illegal(deal, "draw stock", "R7.3")


def seat_one_sevens_deal(rules: RuleSet) -> Deal:
    """Three players, dealer 0, threes wild; seat 1 holds three wild threes and two sevens,
    and the stock is drawn down until seat 1 is to draw its last card, the upcard 3s."""
    deal = make_deal(rules, 3, 0, {1: "3c 3d 3h 7d 7c"}, upcard="3s", seed=15)
    run_stock_down(deal, 1)
    assert deal.current_seat == 1
    return deal


def test_r4_7_dead_deal_control_no_call() -> None:
    deal = seat_one_sevens_deal(RuleSet(max_rebuilds=0))
    play(deal, "draw stock", "discard 3s")
    event = deal.apply(DRAW_STOCK)
    assert event.ends_deal
    assert deal.outcome is not None
    assert deal.outcome.dead


def test_r4_7_after_a_call_the_stock_is_rebuilt_as_often_as_needed() -> None:
    deal = seat_one_sevens_deal(RuleSet(max_rebuilds=0))
    play(deal, "draw stock")
    event = play(deal, "call 3s")[0]  # Five of a Kind, sevens
    assert event.call is not None
    assert event.call.value == value("five_of_a_kind 7")
    assert deal.stock_size == 0
    assert deal.is_legal(DRAW_STOCK)
    event = deal.apply(DRAW_STOCK)  # rebuild number 1 > max_rebuilds = 0: allowed now
    assert event.rebuilt > 0
    assert deal.rebuilds == 1
    assert not deal.is_over
    play(deal, f"discard {event.card}")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert not deal.outcome.dead
    assert deal.outcome.winners == (1,)


def test_r4_7_rebuild_beyond_max_rebuilds_after_a_call() -> None:
    # One rebuild is allowed; the call comes when the rebuilt stock holds one card, so the
    # last round needs rebuild number 2.
    rules = RuleSet(max_rebuilds=1)
    deal = make_deal(rules, 3, 0, {1: "Ah Kh Qh Jh Th"}, upcard="3s", seed=16)
    while not (deal.rebuilds == 1 and deal.stock_size == 1 and deal.current_seat == 1):
        if deal.rebuilds == 1 and deal.stock_size == 1:
            play(deal, "draw discard", f"discard {deal.hand(deal.current_seat)[0]}")
        else:
            draw_and_pass(deal)
    drawn = deal.apply(DRAW_STOCK).card
    play(deal, f"call {drawn}")
    assert deal.stock_size == 0
    event = deal.apply(DRAW_STOCK)
    assert event.rebuilt > 0
    assert deal.rebuilds == 2
    play(deal, f"discard {event.card}")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert not deal.outcome.dead
    assert deal.outcome.winners == (1,)


# -- R5.7: a Paiute only on the first turn --------------------------------------------------


def paiute_later_turn_deal(rules: RuleSet, players: int) -> Deal:
    """Seat 1 (dealer 0) holds Jc Jd 7h 7s 4c and draws 4d on its second turn."""
    others = [None] * (players - 1)
    stock: list = ["Qd", *others, "4d"]  # type: ignore[type-arg]
    if rules.open_discard:
        stock.insert(0, "2s")
    deal = make_deal(
        rules,
        players,
        0,
        {1: "Jc Jd 7h 7s 4c"},
        upcard="3s",
        stock=[None if c is None else card(c) for c in stock],
        seed=17,
    )
    play(deal, "draw stock", "discard Qd")
    draw_and_pass(deal, players - 1)
    assert deal.current_seat == 1
    assert play(deal, "draw stock")[0].card == card("4d")
    assert not deal.is_first_turn
    return deal


def test_r5_7_paiute_on_the_first_turn() -> None:
    # RULES.md: Jc Jd 7h 7s 4c 4d on the player's first turn: Paiute, jacks/sevens/fours.
    deal = make_deal(PAGAT, 3, 0, {1: "Jc Jd 7h 7s 4c"}, upcard="3s", stock="4d")
    play(deal, "draw stock")
    assert deal.is_first_turn
    assert [a for a in deal.legal_actions() if a.kind.is_call] == [CALL_SIX]
    event = deal.apply(CALL_SIX)
    assert event.call is not None
    assert event.call.value == value("paiute J 7 4")
    assert event.call.first_turn
    assert event.call.discard is None


def test_r5_7_paiute_not_on_a_later_turn() -> None:
    deal = paiute_later_turn_deal(PAGAT, 3)
    assert [a for a in deal.legal_actions() if a.kind.is_call] == []
    assert_illegal(deal, "call", "R5.7")


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        (RuleSet(paiute_any_turn=True), 3),
        (GAMERULES, 3),
        (RuleSet(max_players=6), 6),  # R2.1: with 6 or more players, on any turn
        (RuleSet(max_players=8), 8),
    ],
    ids=["option", "gamerules", "six-players", "eight-players"],
)
def test_r5_7_paiute_on_any_turn_when_allowed(rules: RuleSet, players: int) -> None:
    deal = paiute_later_turn_deal(rules, players)
    assert deal.is_legal(CALL_SIX)
    event = deal.apply(CALL_SIX)
    assert event.call is not None
    assert event.call.value == value("paiute J 7 4")
    assert not event.call.first_turn


def test_r5_7_five_players_still_first_turn_only() -> None:
    deal = paiute_later_turn_deal(PAGAT, 5)
    assert_illegal(deal, "call", "R5.7")


def test_r5_7_first_turn_may_fall_in_the_last_round() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "2c 2d 4h 4s 5c", 2: "Jc Jd 7h 7s 4c"}, upcard="3s", stock="5d 4d")
    play(deal, "draw stock", "call")  # Paiute, fives/fours/twos
    assert deal.in_last_round
    play(deal, "draw stock")
    assert deal.is_first_turn
    event = play(deal, "call")[0]
    assert event.call is not None
    assert event.call.value == value("paiute J 7 4")
    assert event.call.first_turn
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)


# -- R6: calling ----------------------------------------------------------------------------


def test_r6_1_call_before_drawing_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "Ah Kh Qh Jh Th"}, upcard="3s")
    assert_illegal(deal, "call", "R6.1")
    assert_illegal(deal, "call Ah", "R6.1")
    assert_illegal(deal, "call 2c", "R6.1")


def test_r6_1_calling_is_never_compulsory() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "Ah Kh Qh Jh Th"}, upcard="3s", stock="2c")
    play(deal, "draw stock")
    texts = legal_texts(deal)
    assert "call 2c" in texts
    assert {f"discard {c}" for c in deal.hand(1)} <= set(texts)
    play(deal, "discard Ah")
    assert deal.calls == ()
    assert deal.current_seat == 2


def test_r6_2_five_card_call_straight_flush_example() -> None:
    # 9h Th Jh Qh 3c + 2s: Straight Flush, king high (the wild names Kh), discarding 2s.
    deal = make_deal(PAGAT, 3, 0, {1: "9h Th Jh Qh 3c"}, upcard="3s", stock="2s")
    play(deal, "draw stock")
    assert [str(a) for a in deal.legal_actions() if a.kind.is_call] == ["call 2s"]
    event = play(deal, "call 2s")[0]
    assert event.call is not None
    assert event.call.value == value("straight_flush K")  # not a Royal Flush
    assert event.call.discard == card("2s")
    assert sorted(event.call.shown) == sorted(cards("9h Th Jh Qh 3c"))
    assert deal.discard_pile == (card("2s"),)
    assert deal.hand_size(1) == 0
    assert deal.highest_call == value("straight_flush K")


def test_r6_2_five_card_call_five_of_a_kind_example() -> None:
    # 3c 3d 3h 3s 7d + 2c: Five of a Kind, sevens, discarding 2c. The fourth three is the
    # upcard, drawn last from the stock; 2c comes back on top of a rebuilt stock (R4.6).
    chance = StackedChance("2c")
    deal = make_deal(PAGAT, 3, 0, {1: "3c 3d 3h 7d Kc"}, upcard="3s", stock="2c", seed=18, chance=chance)
    run_stock_down(deal, 1)
    assert deal.current_seat == 1
    play(deal, "draw stock", "discard Kc")
    assert sorted(deal.hand(1)) == sorted(cards("3c 3d 3h 3s 7d"))
    play(deal, "draw discard", f"discard {deal.hand(2)[0]}")
    play(deal, "draw discard", f"discard {deal.hand(0)[0]}")
    assert play(deal, "draw stock")[0].card == card("2c")
    calls = {str(a) for a in deal.legal_actions() if a.kind.is_call}
    assert {"call 2c", "call 7d", "call"} <= calls
    lower = deal.copy()
    assert lower.apply(Action.parse("call 7d")).call.value == value("five_of_a_kind 2")  # type: ignore[union-attr]
    event = play(deal, "call 2c")[0]
    assert event.call is not None
    assert event.call.value == value("five_of_a_kind 7")
    assert deal.discard_pile[-1] == card("2c")


def test_r6_2_wild_nines_examples() -> None:
    # Wild rank 9: Ah 2h 3d 4h 5h + Kc: nothing.
    nothing = make_deal(PAGAT, 3, 0, {1: "Ah 2h 3d 4h 5h"}, upcard="9s", stock="Kc")
    play(nothing, "draw stock")
    assert [a for a in nothing.legal_actions() if a.kind.is_call] == []
    assert_illegal(nothing, "call Kc", "R6.2")
    assert_illegal(nothing, "call 3d", "R6.2")
    assert_illegal(nothing, "call", "R6.3")
    # Ah 2h 3d 4h 5h + 9c: Straight Flush, five high (9c names 3h), discarding 3d.
    deal = make_deal(PAGAT, 3, 0, {1: "Ah 2h 3d 4h 5h"}, upcard="9s", stock="9c")
    play(deal, "draw stock")
    assert [str(a) for a in deal.legal_actions() if a.kind.is_call] == ["call 3d"]
    event = play(deal, "call 3d")[0]
    assert event.call is not None
    assert event.call.value == value("straight_flush 5")


def test_r6_2_five_shown_cards_that_make_nothing_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "9h Th Jh Qh 3c"}, upcard="3s", stock="2s")
    play(deal, "draw stock")
    assert_illegal(deal, "call 9h", "R6.2")
    assert_illegal(deal, "call 3c", "R6.2")


def test_r6_2_putting_down_a_card_not_held_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "9h Th Jh Qh 3c"}, upcard="3s", stock="2s")
    play(deal, "draw stock")
    assert_illegal(deal, "call Ah", ("R6.2", "R4.2"))


def test_r6_3_six_card_call_four_two_example() -> None:
    # 3h 3s Ad Ac Ks + Kh: no five-card combination; Four/Two, aces over kings.
    deal = make_deal(PAGAT, 3, 0, {1: "3h 3s Ad Ac Ks"}, upcard="3d", stock="Kh")
    play(deal, "draw stock")
    assert [a for a in deal.legal_actions() if a.kind.is_call] == [CALL_SIX]
    event = deal.apply(CALL_SIX)
    assert event.call is not None
    assert event.call.value == value("four_two A K")
    assert sorted(event.call.shown) == sorted(cards("3h 3s Ad Ac Ks Kh"))
    assert event.call.discard is None
    assert deal.discard_pile == ()


def test_r6_3_six_cards_that_make_nothing_refused() -> None:
    deal = make_deal(PAGAT, 3, 0, {1: "2c 5d 8h Jc Ks"}, upcard="3s", stock="9d")
    play(deal, "draw stock")
    assert_illegal(deal, "call", "R6.3")


def test_r6_3_discard_pile_left_as_the_caller_found_it() -> None:
    deal = make_deal(PAGAT, 3, 0, {2: "3h 3s Ad Ac Ks"}, upcard="3d", stock="9c Kh", seed=19)
    play(deal, "draw stock", "discard 9c", "draw stock", "call")
    assert deal.discard_pile == (card("9c"),)
    assert deal.current_seat == 0
    assert deal.apply(DRAW_DISCARD).card == card("9c")  # the next player may take it


def test_r6_3_discard_pile_less_the_card_the_caller_took() -> None:
    rules = RuleSet(open_discard=True)
    deal = make_deal(rules, 3, 0, {2: "3h 3s Ad Ac Ks"}, upcard="3d", stock="2c Kh", seed=20)
    play(deal, "draw stock", "discard Kh")
    assert deal.discard_pile == tuple(cards("2c Kh"))
    play(deal, "draw discard", "call")
    assert deal.calls[0].value == value("four_two A K")
    assert deal.discard_pile == (card("2c"),)
    assert legal_texts(deal) == ["draw stock", "draw discard"]
    assert deal.apply(DRAW_DISCARD).card == card("2c")


def two_callers(
    first: str, second: str, rules: RuleSet = PAGAT, upcard: str = "3s", draws: str = "2c 2d"
) -> Deal:
    """Seat 1 (dealer 0, three players) holds ``first`` and draws the first of ``draws``;
    seat 2 holds ``second`` and draws the second. Seat 1 calls putting down its draw; seat 2
    is then to call or discard."""
    deal = make_deal(rules, 3, 0, {1: first, 2: second}, upcard=upcard, stock=draws, seed=21)
    play(deal, "draw stock", f"call {draws.split()[0]}", "draw stock")
    return deal


def test_r6_4_lower_call_refused() -> None:
    deal = two_callers("9h Th Jh Qh Kh", "8s 9s Ts Js Qs")
    assert deal.highest_call == value("straight_flush K")
    assert [a for a in deal.legal_actions() if a.kind.is_call] == []
    assert_illegal(deal, "call 2d", "R6.4")


def test_r6_4_equal_call_accepted() -> None:
    deal = two_callers("9h Th Jh Qh Kh", "9s Ts Js Qs Ks")
    assert "call 2d" in legal_texts(deal)
    play(deal, "call 2d")
    assert [c.value for c in deal.calls] == [value("straight_flush K")] * 2
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (1, 2)


def test_r6_4_higher_call_accepted() -> None:
    deal = two_callers("9h Th Jh Qh Kh", "Ts Js Qs Ks As")
    play(deal, "call 2d")
    assert deal.highest_call == value("royal_flush")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)


def test_r6_4_ties_example_straight_flush_five_high_loses_to_six_high() -> None:
    deal = two_callers("Ah 2h 3h 4h 5h", "2c 3c 4c 5c 6c", upcard="9s", draws="Kc Kd")
    assert deal.highest_call == value("straight_flush 5")
    play(deal, "call Kd")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)
    reverse = two_callers("2c 3c 4c 5c 6c", "Ah 2h 3h 4h 5h", upcard="9s", draws="Kc Kd")
    assert_illegal(reverse, "call Kd", "R6.4")


@pytest.mark.parametrize("ties", ["split", "first_call"])
def test_r6_4_ties_example_two_royal_flushes_tie(ties: str) -> None:
    deal = two_callers("Ah Kh Qh Jh Th", "As Ks Qs Js Ts", RuleSet(ties=ties))
    play(deal, "call 2d")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == ((1, 2) if ties == "split" else (1,))


def test_r6_4_ties_example_five_aces_beat_a_royal_flush() -> None:
    deal = two_callers("Ah Kh Qh Jh Th", "Ac Ad As 3c 3d")
    assert "call 2d" in legal_texts(deal)
    play(deal, "call 2d")
    assert deal.calls[1].value == value("five_of_a_kind A")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)


def test_r5_8_royal_high_royal_flush_beats_five_aces() -> None:
    rules = RuleSet(royal_high=True)
    refused = two_callers("Ah Kh Qh Jh Th", "Ac Ad As 3c 3d", rules)
    assert_illegal(refused, "call 2d", "R6.4")
    deal = two_callers("Ac Ad As 3c 3d", "Ah Kh Qh Jh Th", rules)
    play(deal, "call 2d")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)


def four_two_queens(first: str, second: str) -> Deal:
    """Two players, dealer 0, threes wild: seat 1 draws its sixth card (4d or 5d) as the
    stock's 41st card, then the dealer draws the upcard 3s, the stock's last card."""
    sixth = "4d" if "4c" in first else "5d"
    stock = [None] * 40 + [card(sixth)]
    deal = make_deal(PAGAT, 2, 0, {1: first, 0: second}, upcard="3s", stock=stock, seed=22)
    run_stock_down(deal, 2)
    assert deal.current_seat == 1
    play(deal, "draw stock", "call", "draw stock")
    assert deal.hand(0)[-1] == card("3s")
    return deal


def test_r6_4_ties_example_four_two_queens_over_fives_beats_queens_over_fours() -> None:
    deal = four_two_queens("Qc Qd Qh 3c 4c", "Qs 3d 3h 5c 5d")
    assert deal.highest_call == value("four_two Q 4")
    event = deal.apply(CALL_SIX)
    assert event.call is not None
    assert event.call.value == value("four_two Q 5")
    assert deal.outcome is not None
    assert deal.outcome.winners == (0,)
    reverse = four_two_queens("Qc Qd Qh 3c 5c", "Qs 3d 3h 4c 4d")
    assert reverse.highest_call == value("four_two Q 5")
    assert_illegal(reverse, "call", "R6.4")


def test_r6_5_callers_take_no_further_turns() -> None:
    deal = make_deal(
        PAGAT, 4, 3, {0: "Ah Kh Qh Jh Th", 1: "As Ks Qs Js Ts"}, upcard="3s", stock="2c 2d", seed=23
    )
    play(deal, "draw stock", "call 2c")
    assert deal.hand_size(0) == 0
    assert deal.has_called(0)
    assert sorted(deal.calls[0].shown) == sorted(cards("Ah Kh Qh Jh Th"))
    seats = []
    while not deal.is_over:
        seats.append(deal.current_seat)
        event = deal.apply(DRAW_STOCK)
        if deal.current_seat == 1:
            deal.apply(Action.call(event.card))
        else:
            deal.apply(Action.discard(event.card))
    assert seats == [1, 2, 3]
    assert [deal.hand_size(seat) for seat in range(4)] == [0, 0, 5, 5]
    assert [c.seat for c in deal.calls] == [0, 1]
    assert deal.draws(0) == 1
    assert deal.draws(1) == 1


# -- R7: the last round ---------------------------------------------------------------------


def test_r7_1_dealer_first_caller_ends_deal_at_once() -> None:
    deal = make_deal(PAGAT, 3, 0, {0: "Ah Kh Qh Jh Th"}, upcard="3s", seed=24)
    draw_and_pass(deal, 2)
    assert deal.current_seat == 0
    drawn = deal.apply(DRAW_STOCK).card
    event = deal.apply(Action.call(drawn))
    assert event.ends_deal
    assert deal.phase is Phase.OVER
    assert deal.outcome is not None
    assert deal.outcome.winners == (0,)
    assert deal.legal_actions() == []
    assert deal.draws(1) == deal.draws(2) == 1


@pytest.mark.parametrize(
    ("players", "dealer", "caller"),
    [(2, 1, 0), (3, 0, 1), (3, 0, 2), (4, 0, 2), (5, 2, 3), (5, 2, 4), (5, 2, 1), (8, 5, 6), (8, 5, 4)],
)
def test_r7_2_every_player_after_the_first_caller_up_to_the_dealer_has_one_more_turn(
    players: int, dealer: int, caller: int
) -> None:
    rules = RuleSet(max_players=8)
    deal = make_deal(rules, players, dealer, {caller: "Ah Kh Qh Jh Th"}, upcard="3s", seed=25)
    while deal.current_seat != caller:
        draw_and_pass(deal)
    drawn = deal.apply(DRAW_STOCK).card
    deal.apply(Action.call(drawn))
    assert deal.in_last_round
    draws_before = [deal.draws(seat) for seat in range(players)]
    turns = []
    while not deal.is_over:
        turns.append(deal.current_seat)
        draw_and_pass(deal)
    expected = []
    seat = caller
    while seat != dealer:
        seat = (seat + 1) % players
        expected.append(seat)
    assert turns == expected
    for seat in range(players):
        more = deal.draws(seat) - draws_before[seat]
        assert more == (1 if seat in expected else 0)
    assert deal.outcome is not None
    assert deal.outcome.winners == (caller,)


def test_r7_2_last_round_players_may_call_equal_or_better() -> None:
    deal = make_deal(
        PAGAT,
        4,
        0,
        {1: "9h Th Jh Qh Kh", 2: "8s 9s Ts Js Qs", 3: "9c Tc Jc Qc Kc", 0: "Td Jd Qd Kd Ad"},
        upcard="3s",
        stock="2c 2d 2h 2s",
    )
    play(deal, "draw stock", "call 2c", "draw stock")
    assert_illegal(deal, "call 2d", "R6.4")  # lower, in the last round
    play(deal, "discard 2d", "draw stock", "call 2h", "draw stock", "call 2s")
    assert deal.outcome is not None
    assert [c.seat for c in deal.outcome.calls] == [1, 3, 0]
    assert deal.outcome.winners == (0,)


def test_r7_3_no_action_after_the_end() -> None:
    deal = make_deal(PAGAT, 3, 0, {0: "Ah Kh Qh Jh Th"}, upcard="3s", seed=24)
    draw_and_pass(deal, 2)
    play(deal, "draw stock")
    play(deal, f"call {deal.hand(0)[-1]}")
    assert deal.is_over
    assert deal.legal_actions() == []
    for action in ACTIONS:
        assert not deal.is_legal(action)
        error = deal.why_illegal(action)
        assert error is not None
        assert error.rule == "R7.3"
    for text in ("draw stock", "draw discard", "discard 2c", "call", "call 2c"):
        assert_illegal(deal, text, "R7.3")


# -- the whole machine against an independent model -----------------------------------------


@given(st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_random_play_matches_the_reference_model(seed: int, call_bias: float) -> None:
    deal, rng = random_deal(seed)
    ref = RefDeal(deal.rules, deal.players, deal.dealer, deal.deck)
    check_same(deal, ref)
    steps = 0
    while not deal.is_over:
        step_both(deal, ref, choose(rng, deal.legal_actions(), call_bias))
        check_same(deal, ref)
        steps += 1
        # R8.6's companion: cards are never created or lost.
        held = sum(deal.hand_size(s) for s in range(deal.players))
        shown = sum(len(c.shown) for c in deal.calls)
        out = 1 if deal.upcard is not None and not deal.rules.upcard_under_stock else 0
        assert held + shown + deal.stock_size + len(deal.discard_pile) + out == deal.rules.pack_size
    assert deal.actions == tuple(event.action for event in deal.events)
    assert len(deal.actions) == steps


def test_seeded_random_play_reaches_every_ending() -> None:
    """The random games above are not trivial: they see calls, rebuilds and dead deals."""
    endings = {"dead": 0, "called": 0, "rebuilt": 0}
    for seed in range(150):
        deal, rng = random_deal(seed)
        while not deal.is_over:
            deal.apply(choose(rng, deal.legal_actions(), 0.8))
        assert deal.outcome is not None
        endings["dead" if deal.outcome.dead else "called"] += 1
        endings["rebuilt"] += deal.rebuilds > 0
    assert all(count > 0 for count in endings.values()), endings


def test_deal_refuses_a_deck_that_is_not_one_pack() -> None:
    deck = pack()
    with pytest.raises(PaiuteError, match="pack"):
        Deal(PAGAT, 3, 0, deck[:-1])
    with pytest.raises(PaiuteError, match="pack"):
        Deal(PAGAT, 3, 0, [*deck[:-1], deck[0]])
    with pytest.raises(PaiuteError, match="pack"):
        Deal(RuleSet(jokers=True), 3, 0, deck)
    random.Random(0).shuffle(deck)
    Deal(PAGAT, 3, 0, deck)
