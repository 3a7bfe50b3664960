"""Settlement of a finished deal (R8): stakes, the pot, ties, the scale payout, dead deals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import draw_and_pass, make_deal, play
from paiute import CallMade, Deal, Outcome, RuleSet, Value
from paiute.settlement import collect_stakes, settle

PAGAT = RuleSet()
SCALE = RuleSet(payout="scale")


def made(seat: int, text: str, first_turn: bool = False, royal_high: bool = False) -> CallMade:
    return CallMade(seat, (), None, Value.parse(text, royal_high=royal_high), first_turn)


def won(winners: tuple[int, ...], *calls: CallMade) -> Outcome:
    return Outcome(False, tuple(calls), winners)


# -- R8.2: stakes and the pot ---------------------------------------------------------------


def test_r8_2_every_player_pays_the_stake_into_the_pot() -> None:
    assert collect_stakes(PAGAT, [10, 10, 10], 0) == ([9, 9, 9], 3)
    assert collect_stakes(RuleSet(stake=5), [10, 20, 30, 40], 2) == ([5, 15, 25, 35], 22)
    assert collect_stakes(RuleSet(stake=0), [10, 20], 4) == ([10, 20], 4)


def test_r8_2_collect_stakes_does_not_change_its_arguments() -> None:
    balances = [10, 10]
    collect_stakes(PAGAT, balances, 0)
    assert balances == [10, 10]


def test_r8_2_the_winner_takes_the_pot() -> None:
    outcome = won((1,), made(1, "paiute J 7 4"))
    assert settle(PAGAT, outcome, [9, 9, 9], 3, dealer=0) == ([9, 12, 9], 0)


def test_r8_1_only_the_highest_caller_wins_in_a_deal() -> None:
    # Seat 1 calls a Straight Flush, seat 2 a Royal Flush; seat 0 does not call.
    deal = make_deal(PAGAT, 3, 0, {1: "9h Th Jh Qh Kh", 2: "Ts Js Qs Ks As"}, upcard="3s", stock="2c 2d")
    play(deal, "draw stock", "call 2c", "draw stock", "call 2d")
    draw_and_pass(deal)
    assert deal.outcome is not None
    assert deal.outcome.winners == (2,)
    assert settle(PAGAT, deal.outcome, [99, 99, 99], 3, deal.dealer) == ([99, 99, 102], 0)
    scale = settle(SCALE, deal.outcome, [100, 100, 100], 0, deal.dealer)
    # The beaten caller pays too: a Royal Flush on the first turn, 4 units x 2 = 200 each.
    assert scale == ([-100, -100, 500], 0)


# -- R8.3: ties -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealer", "winners", "pot", "expected"),
    [
        (4, 2, (0, 2), 7, [4, 0, 3, 0]),  # turn order from the dealer's left: 3, 0, 1, 2
        (4, 1, (0, 3), 7, [3, 0, 0, 4]),  # 2, 3, 0, 1: seat 3 before seat 0
        (4, 3, (0, 3), 7, [4, 0, 0, 3]),  # 0, 1, 2, 3
        (4, 0, (0, 3), 7, [3, 0, 0, 4]),  # 1, 2, 3, 0: the dealer comes last
        (3, 0, (0, 1, 2), 8, [2, 3, 3]),
        (3, 1, (0, 1, 2), 8, [3, 2, 3]),
        (3, 2, (0, 1, 2), 7, [3, 2, 2]),
        (2, 0, (0, 1), 6, [3, 3]),
        (5, 4, (1, 3), 1, [0, 1, 0, 0, 0]),
        (5, 2, (1, 3), 1, [0, 0, 0, 1, 0]),
    ],
)
def test_r8_3_tied_winners_split_odd_chips_from_the_dealers_left(
    players: int, dealer: int, winners: tuple[int, ...], pot: int, expected: list[int]
) -> None:
    calls = tuple(made(seat, "royal_flush") for seat in winners)
    balances, rest = settle(PAGAT, won(winners, *calls), [0] * players, pot, dealer)
    assert (balances, rest) == (expected, 0)


@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.integers(0, n - 1),
            st.sets(st.integers(0, n - 1), min_size=1).map(lambda s: tuple(sorted(s))),
            st.integers(0, 200),
        )
    )
)
def test_r8_3_split_shares_property(case: tuple[int, int, tuple[int, ...], int]) -> None:
    players, dealer, winners, pot = case
    calls = tuple(made(seat, "paiute 4 3 2") for seat in winners)
    balances, rest = settle(PAGAT, won(winners, *calls), [0] * players, pot, dealer)
    assert rest == 0
    assert sum(balances) == pot
    assert all(balances[seat] == 0 for seat in range(players) if seat not in winners)
    in_turn_order = sorted(winners, key=lambda seat: (seat - dealer - 1) % players)
    share, odd = divmod(pot, len(winners))
    assert [balances[seat] for seat in in_turn_order] == [share + 1] * odd + [share] * (len(winners) - odd)


def tie_deal(ties: str) -> Deal:
    """Four players, dealer 1: seats 3 and 0 call equal Royal Flushes, seat 3 first."""
    deal = make_deal(
        RuleSet(ties=ties),
        4,
        1,
        {3: "Ah Kh Qh Jh Th", 0: "As Ks Qs Js Ts"},
        upcard="3s",
        stock="2c 2d 2h 2s",
    )
    play(deal, "draw stock", "discard 2c", "draw stock", "call 2d", "draw stock", "call 2h")
    draw_and_pass(deal)
    assert deal.is_over
    return deal


def test_r8_3_split_in_a_deal() -> None:
    deal = tie_deal("split")
    assert deal.outcome is not None
    assert deal.outcome.winners == (0, 3)
    # Pot 5: seat 3 comes first from the dealer's left (2, 3, 0, 1) and takes the odd chip.
    assert settle(deal.rules, deal.outcome, [99] * 4, 5, deal.dealer) == ([101, 99, 99, 102], 0)


def test_r8_3_first_call_takes_everything() -> None:
    deal = tie_deal("first_call")
    assert deal.outcome is not None
    assert deal.outcome.winners == (3,)  # called first, though seat 0 is the lower seat
    assert settle(deal.rules, deal.outcome, [99] * 4, 5, deal.dealer) == ([99, 99, 99, 104], 0)
    scale = RuleSet(ties="first_call", payout="scale")
    assert settle(scale, deal.outcome, [100] * 4, 0, deal.dealer) == ([-100, -100, -100, 700], 0)


# -- R8.4: the scale payout -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("paiute A K Q", 25),
        ("three_three A K", 50),
        ("four_two A K", 75),
        ("straight_flush 5", 100),
        ("royal_flush", 100),
        ("five_of_a_kind 2", 125),
    ],
)
@pytest.mark.parametrize("first_turn", [False, True])
def test_r8_4_scale_pays_by_combination(text: str, amount: int, first_turn: bool) -> None:
    due = amount * (2 if first_turn else 1)
    outcome = won((1,), made(1, text, first_turn))
    assert settle(SCALE, outcome, [500, 500, 500], 0, dealer=0) == (
        [500 - due, 500 + 2 * due, 500 - due],
        0,
    )


def test_r8_4_royal_flush_pays_four_units_when_royal_high() -> None:
    rules = RuleSet(payout="scale", royal_high=True)
    outcome = won((0,), made(0, "royal_flush", royal_high=True))
    assert settle(rules, outcome, [0, 0], 0, dealer=1) == ([100, -100], 0)


def test_r8_4_unit_option() -> None:
    rules = RuleSet(payout="scale", unit=10)
    outcome = won((2,), made(2, "four_two A K", first_turn=True), made(0, "paiute 4 3 2"))
    assert settle(rules, outcome, [0, 0, 0, 0], 0, dealer=3) == ([-60, -60, 180, -60], 0)


def test_r8_4_no_pot_with_scale() -> None:
    assert collect_stakes(SCALE, [10, 10], 4) == ([10, 10], 4)
    outcome = won((1,), made(1, "paiute 4 3 2"))
    assert settle(SCALE, outcome, [100, 100], 4, dealer=0) == ([75, 125], 4)


@pytest.mark.parametrize(
    ("winners", "calls", "expected"),
    [
        # Two Paiutes tie: 25 / 2 = 12.5, rounded up to 13 from each loser to each winner.
        ((0, 2), [made(0, "paiute 5 4 2"), made(2, "paiute 5 4 2")], [113, 74, 113]),
        # One of them on its first turn: 50 / 2 = 25 for it, 13 for the other.
        ((0, 2), [made(0, "paiute 5 4 2", True), made(2, "paiute 5 4 2")], [125, 62, 113]),
        # Three Royal Flushes among four players: 100 / 3 = 33.3, rounded up to 34.
        ((0, 1, 3), [made(s, "royal_flush") for s in (0, 1, 3)], [134, 134, -2, 134]),
        # Five of a Kind tied, both first turn: 250 / 2 = 125 each.
        ((1, 2), [made(1, "five_of_a_kind 9", True), made(2, "five_of_a_kind 9", True)], [-150, 225, 225]),
    ],
)
def test_r8_4_tied_winners_amounts_divided_and_rounded_up(
    winners: tuple[int, ...], calls: list[CallMade], expected: list[int]
) -> None:
    players = len(expected)
    balances, pot = settle(SCALE, won(winners, *calls), [100] * players, 0, dealer=0)
    assert (balances, pot) == (expected, 0)


def test_r8_4_beaten_callers_pay_like_everyone() -> None:
    outcome = won((1,), made(0, "paiute 5 4 2", True), made(1, "three_three 9 8"))
    assert settle(SCALE, outcome, [0, 0, 0], 0, dealer=2) == ([-50, 100, -50], 0)


def test_r8_4_first_turn_paiute_doubles_in_a_deal() -> None:
    deal = make_deal(SCALE, 3, 0, {1: "Jc Jd 7h 7s 4c"}, upcard="3s", stock="4d")
    play(deal, "draw stock", "call")
    draw_and_pass(deal, 2)
    assert deal.outcome is not None
    assert deal.outcome.winners == (1,)
    assert deal.outcome.calls[0].first_turn
    assert settle(SCALE, deal.outcome, [100, 100, 100], 0, deal.dealer) == ([50, 200, 50], 0)


# -- R8.5: dead deals -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [PAGAT, SCALE])
def test_r8_5_dead_deal_nobody_wins(rules: RuleSet) -> None:
    dead = Outcome(True, (), ())
    assert settle(rules, dead, [97, 98, 99], 6, dealer=1) == ([97, 98, 99], 6)


def test_r8_5_dead_deal_from_a_real_deal_keeps_the_pot() -> None:
    deal = make_deal(RuleSet(max_rebuilds=0), 5, 0, upcard="3s", seed=5)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])  # draw stock, then the lowest discard
    assert deal.outcome is not None
    assert deal.outcome.dead
    assert settle(deal.rules, deal.outcome, [99] * 5, 5, deal.dealer) == ([99] * 5, 5)


# -- R8.6: chips are conserved ----------------------------------------------------------------

CATEGORIES = [
    "paiute 4 3 2",
    "three_three 9 8",
    "four_two A K",
    "straight_flush 9",
    "royal_flush",
    "five_of_a_kind Q",
]


@given(
    players=st.integers(2, 8),
    data=st.data(),
    payout=st.sampled_from(["pot", "scale"]),
    stake=st.integers(0, 7),
    unit=st.integers(0, 40),
)
def test_r8_6_chips_are_never_created_or_lost(
    players: int, data: st.DataObject, payout: str, stake: int, unit: int
) -> None:
    rules = RuleSet(payout=payout, stake=stake, unit=unit)
    balances = data.draw(st.lists(st.integers(-500, 500), min_size=players, max_size=players))
    pot = data.draw(st.integers(0, 50))
    dealer = data.draw(st.integers(0, players - 1))
    dead = data.draw(st.booleans())
    total = sum(balances) + pot
    balances2, pot2 = collect_stakes(rules, balances, pot)
    assert sum(balances2) + pot2 == total
    if dead:
        outcome = Outcome(True, (), ())
    else:
        callers = data.draw(st.sets(st.integers(0, players - 1), min_size=1))
        calls = tuple(
            made(seat, data.draw(st.sampled_from(CATEGORIES)), data.draw(st.booleans()))
            for seat in sorted(callers)
        )
        best = max(call.value for call in calls)
        winners = tuple(call.seat for call in calls if call.value == best)
        outcome = won(winners, *calls)
    after, pot3 = settle(rules, outcome, balances2, pot2, dealer)
    assert sum(after) + pot3 == total
    assert all(isinstance(chips, int) for chips in [*after, pot3])
    if payout == "pot" and not dead:
        assert pot3 == 0
