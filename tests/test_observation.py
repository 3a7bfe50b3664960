"""What each player may see (R9), tested adversarially; copies; legal-action tree counts.

The R9 tests play seeded random deals (2 to 8 players, both presets, random options) next to
an independent model of the deal (:class:`helpers.RefDeal`), which works out from public
information alone which cards each seat may have seen. At every step, for every seat and a
spectator, the observation is written out three ways (``str``, ``repr``, JSON) and searched
for card names the seat may not see and for the order of the stock; and re-dealing the cards
the seat cannot see must leave its observation unchanged.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import (
    RefDeal,
    card_tokens,
    check_same,
    choose,
    clone_ref,
    make_deal,
    play,
    random_deal,
    snapshot,
    step_both,
)
from paiute import (
    Action,
    Card,
    Deal,
    Observation,
    Phase,
    RuleSet,
    SeededChance,
    pack,
)
from paiute.observation import legal_calls

WINDOW = 5  # a run of this many stock cards in order would give the stock away


def texts(observation: Observation) -> list[str]:
    """The observation written out every way an interface might: str, repr and JSON. The
    wild cards (public by R9.1, and named whether or not they are in play) are left out so
    that the search below can see the cards of the wild rank too."""
    plain = dataclasses.replace(observation, wild_cards=())
    data = observation.to_json()
    assert data["wild_cards"] == [str(c) for c in observation.wild_cards]
    data["wild_cards"] = []
    return [str(plain), repr(plain), json.dumps(data)]


def runs(tokens: list[Card]) -> set[tuple[Card, ...]]:
    """Every run of WINDOW consecutive cards named in a text."""
    return {tuple(tokens[i : i + WINDOW]) for i in range(len(tokens) - WINDOW + 1)}


def check_view(deal: Deal, ref: RefDeal, seat: int | None) -> None:
    """R9.2, R9.3: no card the seat may not see, and not the stock's order."""
    observation = deal.observation(seat)
    allowed = set(ref.public)
    if seat is not None:
        allowed.update(ref.hands[seat])
    stock = ref.hidden_stock()
    for text in texts(observation):
        tokens = card_tokens(text)
        leaked = set(tokens) - allowed
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} in {text[:200]!r}"
        if len(stock) >= WINDOW:
            seen = runs(tokens)
            for start in range(len(stock) - WINDOW + 1):
                run = tuple(stock[start : start + WINDOW])
                assert run not in seen
                assert run[::-1] not in seen
    # What R9.1 makes public is all there (and R9.2: the seat's own hand).
    assert observation.seat == seat
    assert (observation.players, observation.dealer) == (deal.players, deal.dealer)
    assert (observation.balances, observation.pot) == (deal.balances, deal.pot)
    assert observation.phase.value == ref.phase
    assert set(observation.wild_cards) == ref.wild
    assert observation.stock_bottom == ref.stock_bottom()
    assert observation.rebuilds == ref.rebuilds
    assert observation.taken_card == ref.taken
    assert [(c.seat, sorted(c.shown), c.value.code) for c in observation.calls] == [
        (s, sorted(shown), code) for s, shown, code, _ in ref.calls
    ]
    assert [e.action for e in observation.history] == list(deal.actions)  # which pile (R4.5)
    assert [e.seat for e in observation.history] == [e.seat for e in deal.events]
    assert observation.outcome == deal.outcome
    assert observation.hand == (deal.hand(seat) if seat is not None else ())
    assert observation.hand_sizes == tuple(len(hand) for hand in ref.hands)
    assert observation.stock_size == len(ref.stock)
    assert observation.discard_pile == tuple(ref.discard)
    assert observation.upcard == ref.upcard
    assert [set(known) for known in observation.known_cards] == ref.known
    if seat is None or seat != deal.current_seat or deal.is_over:
        assert observation.legal_actions == ()
    else:
        assert observation.legal_actions == tuple(deal.legal_actions())
    for event in observation.history:  # private draws stay private (R4.5)
        if event.action.kind.is_draw and not event.public and event.seat != seat:
            assert event.card is None


def check_resample(deal: Deal, ref: RefDeal, seat: int | None, seed: int) -> bool:
    """Re-dealing what ``seat`` cannot see leaves its observation as it was. Returns whether
    some other seat's hand changed."""
    before = deal.observation(seat)
    resampled = deal.resample_hidden(seat, SeededChance(seed))
    after = resampled.observation(seat)
    assert after.to_json() == before.to_json()
    assert repr(after) == repr(before)
    assert str(after) == str(before)
    assert after == before
    # Cards the seat can see stay where they are; hidden ones stay among the hidden.
    hidden = ref.hidden_cards(seat)
    changed = False
    for other in range(deal.players):
        hand = resampled.hand(other)
        if other == seat:
            assert hand == deal.hand(other)
            continue
        assert len(hand) == len(ref.hands[other])
        assert ref.known[other] <= set(hand)
        assert set(hand) - ref.known[other] <= hidden
        changed = changed or sorted(hand) != sorted(deal.hand(other))
    assert resampled.stock_size == deal.stock_size
    assert resampled.stock_bottom == deal.stock_bottom
    assert resampled.discard_pile == deal.discard_pile
    # The original is untouched.
    assert deal.observation(seat) == before
    return changed


def play_and_watch(seed: int, players: int | None = None, dense: int = 30) -> tuple[int, int]:
    """Play a seeded random deal, checking every view at each of the first ``dense`` steps
    (re-dealing every other step), then every fifth step (re-dealing every tenth)."""
    deal, rng = random_deal(seed, players)
    ref = RefDeal(deal.rules, deal.players, deal.dealer, deal.deck)
    seats: list[int | None] = [*range(deal.players), None]
    changed = resampled = step = 0
    while True:
        if step < dense or step % 5 == 0 or deal.is_over:
            for seat in seats:
                check_view(deal, ref, seat)
        if deal.is_over:  # R9.3: once the deal has ended, nothing needs to stay hidden
            break
        if (step < dense and step % 2 == 0) or step % 10 == 0:
            for seat in seats:
                resampled += 1
                changed += check_resample(deal, ref, seat, seed + step)
        step_both(deal, ref, choose(rng, deal.legal_actions(), 0.3))
        step += 1
    return changed, resampled


@settings(max_examples=12)
@given(st.integers(0, 2**32 - 1))
def test_r9_3_observation_holds_only_what_the_seat_may_see(seed: int) -> None:
    play_and_watch(seed)


def test_r9_3_fixed_seeds_every_table_size() -> None:
    """Deterministic companions of the property above: every table size, both presets."""
    changed = resampled = 0
    for players in range(2, 9):
        for seed in (players, 100 + players):
            c, r = play_and_watch(seed, players)
            changed += c
            resampled += r
    assert resampled > 0
    assert changed > resampled // 2  # re-dealing really moves other seats' cards


def test_r9_2_other_hands_appear_nowhere() -> None:
    deal = make_deal(RuleSet(), 3, 0, {1: "Ah Kh Qh Jh 9c", 2: "2d 5s 7c 8d Tc"}, upcard="3s")
    for seat, hidden in ((0, "Ah Kh Qh Jh 9c 2d 5s 7c 8d Tc"), (1, "2d 5s 7c 8d Tc"), (2, "Ah Kh Qh Jh 9c")):
        for text in texts(deal.observation(seat)):
            assert not {str(c) for c in card_tokens(text)} & set(hidden.split())
    # A private draw: the card is seen by its drawer only.
    event = deal.apply(Action.parse("draw stock"))
    assert str(event.card) in json.dumps(deal.observation(1).to_json())
    for seat in (0, 2, None):
        assert all(event.card not in card_tokens(text) for text in texts(deal.observation(seat)))


def test_r9_1_taken_cards_are_public() -> None:
    deal = make_deal(RuleSet(), 3, 0, upcard="3s", stock="Kd")
    play(deal, "draw stock", "discard Kd", "draw discard", f"discard {deal.hand(2)[0]}")
    for seat in (0, 1, None):
        observation = deal.observation(seat)
        assert observation.known_cards[2] == (Card.parse("Kd"),)
        assert observation.history[2].card == Card.parse("Kd")
        assert observation.hand_sizes == (5, 5, 5)


def test_r9_1_the_face_up_upcard_is_public_until_drawn() -> None:
    deal = make_deal(RuleSet(), 2, 0, upcard="3s")
    for seat in (0, 1, None):
        assert deal.observation(seat).stock_bottom == Card.parse("3s")
    while deal.stock_size > 1:
        event = deal.apply(Action.parse("draw stock"))
        deal.apply(Action.discard(event.card))  # type: ignore[arg-type]
    drawer = deal.current_seat
    deal.apply(Action.parse("draw stock"))
    for seat in (0, 1, None):
        observation = deal.observation(seat)
        assert observation.stock_bottom is None
        assert Card.parse("3s") in observation.known_cards[drawer]
        assert observation.history[-1].card == Card.parse("3s")


def test_r9_resample_keeps_a_rebuilt_stock_to_cards_from_the_discard_pile() -> None:
    """After a rebuild (R4.6) the stock holds only cards that have been in the discard pile,
    so every card a seat has never seen is in another hand. A re-deal "consistent with
    everything the seat has seen" (``Deal.resample_hidden``) must keep it there."""
    checked = 0
    for seed in range(40):
        deal, rng = random_deal(seed)
        ref = RefDeal(deal.rules, deal.players, deal.dealer, deal.deck)
        while not deal.is_over:
            step_both(deal, ref, choose(rng, deal.legal_actions(), 0.3))
            if deal.is_over or ref.rebuilds == 0:
                continue
            for seat in range(deal.players):
                never_seen = set(pack(deal.rules.jokers)) - ref.public - set(ref.hands[seat])
                others = {c for p in range(deal.players) if p != seat for c in deal.hand(p)}
                assert never_seen <= others  # true of the real deal
                resampled = deal.resample_hidden(seat, SeededChance(seed))
                in_hands = {c for p in range(deal.players) if p != seat for c in resampled.hand(p)}
                missing = never_seen - in_hands
                assert not missing, (
                    f"seed {seed}: seat {seat} has never seen {sorted(map(str, missing))}, which "
                    "cannot be in a rebuilt stock, but the re-deal put them there"
                )
                checked += 1
    assert checked > 0


# -- copies -----------------------------------------------------------------------------------


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1))
def test_copies_are_equal_and_independent(seed: int) -> None:
    deal, rng = random_deal(seed)
    forks = random.Random(seed)
    while not deal.is_over:
        if forks.random() < 0.08:
            before = snapshot(deal)
            for make in (deal.copy, lambda: copy.copy(deal), lambda: copy.deepcopy(deal)):
                other = make()
                assert other is not deal
                assert snapshot(other) == before
                assert [other.observation(s) for s in range(deal.players)] == [
                    deal.observation(s) for s in range(deal.players)
                ]
                other_rng = random.Random(forks.random())
                while not other.is_over:  # mutate the copy to the end
                    other.apply(choose(other_rng, other.legal_actions(), 0.5))
                assert snapshot(deal) == before
        deal.apply(choose(rng, deal.legal_actions(), 0.3))


def test_copy_does_not_follow_the_original() -> None:
    deal = Deal.new(RuleSet(), 3, 0, SeededChance(4))
    other = deal.copy()
    before = snapshot(other)
    event = deal.apply(Action.parse("draw stock"))
    deal.apply(Action.discard(event.card))  # type: ignore[arg-type]
    assert snapshot(other) == before
    assert other.events == ()


# -- perft: counting the legal-action tree ------------------------------------------------


def perft(deal: Deal, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for action in deal.legal_actions():
        child = deal.copy(SeededChance(0))  # any rebuild below is the same in both counts
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def perft_ref(deal: Deal, ref: RefDeal, depth: int) -> int:
    """The same count from the model, checking the engine's legal actions at every node."""
    if depth == 0:
        return 1
    legal = ref.legal()
    assert sorted(str(a) for a in deal.legal_actions()) == sorted(legal)
    total = 0
    for text in legal:
        child, child_ref = deal.copy(SeededChance(0)), clone_ref(ref)
        step_both(child, child_ref, Action.parse(text))
        total += perft_ref(child, child_ref, depth - 1)
    return total


def fresh(preset: str, seed: int, players: int = 3) -> Deal:
    return Deal.new(RuleSet.from_preset(preset), players, 0, SeededChance(seed))


def test_perft_pagat_fresh_deal_by_hand() -> None:
    # Ply 1: only "draw stock" (R2.7). Ply 2: six discards. Ply 3: stock or discard pile.
    # Ply 4: six discards after a stock draw, five after taking the discard (R4.3).
    deal = fresh("pagat", 1)
    assert [perft(deal, depth) for depth in range(6)] == [1, 1, 6, 12, 66, 132]
    assert perft_ref(deal, RefDeal(deal.rules, 3, 0, deal.deck), 5) == 132


def test_perft_gamerules_fresh_deal_by_hand() -> None:
    # The discard pile is open (R2.7): ply 1 has two draws, then 6 + 5 discards (R4.3), ...
    deal = fresh("gamerules", 1)
    assert [perft(deal, depth) for depth in range(6)] == [1, 2, 11, 22, 121, 242]
    assert perft_ref(deal, RefDeal(deal.rules, 3, 0, deal.deck), 5) == 242


def test_perft_counts_with_calls_by_hand() -> None:
    # Seat 1 holds Ah Kh Qh Jh Th and draws 2c: ply 2 has 6 discards and "call 2c" (R6.2).
    # Ply 3: seat 2 draws from the stock or the discard pile after each: 14. Ply 4: 6 discards
    # after a stock draw, 5 after taking a discard (R4.3), so 7 x 11 = 77, plus two calls:
    # seat 2 (5s 2h 3c Ks 5c, threes wild) makes a first-turn Paiute, kings/fives/twos, with
    # the Kh or the 2c seat 1 discards (R5.7) - but not after seat 1's Royal Flush (R6.4).
    deal = make_deal(RuleSet(), 3, 0, {1: "Ah Kh Qh Jh Th"}, upcard="3s", stock="2c", seed=3)
    assert sorted(deal.hand(2)) == sorted(Card.parse(c) for c in ["5s", "2h", "3c", "Ks", "5c"])
    assert [perft(deal, depth) for depth in range(6)] == [1, 1, 7, 14, 79, 156]
    ref = RefDeal(deal.rules, deal.players, deal.dealer, deal.deck)
    assert perft_ref(deal, ref, 4) == 79


def test_perft_matches_the_model_from_random_positions() -> None:
    for seed in range(24):
        deal, rng = random_deal(seed)
        ref = RefDeal(deal.rules, deal.players, deal.dealer, deal.deck)
        for _ in range(rng.randrange(0, 40)):
            if deal.is_over:
                break
            step_both(deal, ref, choose(rng, deal.legal_actions(), 0.3))
        check_same(deal, ref)
        assert perft(deal, 4) == perft_ref(deal, ref, 4)


def test_r9_1_public_facts_are_the_same_for_every_seat() -> None:
    deal, rng = random_deal(11)
    for _ in range(30):
        deal.apply(rng.choice(deal.legal_actions()))
    views = [deal.observation(seat) for seat in (*range(deal.players), None)]
    public = {
        (v.balances, v.pot, v.upcard, v.wild_cards, v.stock_size, v.discard_pile, v.hand_sizes, v.known_cards)
        for v in views
    }
    assert len(public) == 1
    assert {tuple((e.seat, str(e.action)) for e in v.history) for v in views} == {
        tuple((e.seat, str(e.action)) for e in deal.events)
    }


def test_r6_legal_calls_are_the_legal_call_actions_best_first() -> None:
    several = 0
    for seed in range(60):
        deal, rng = random_deal(seed)
        while not deal.is_over:
            if deal.phase is Phase.DISCARD:
                observation = deal.observation(deal.current_seat)
                calls = legal_calls(observation, deal.evaluator)
                actions = [Action.call(call.discard) for call in calls]
                assert sorted(actions) == sorted(a for a in observation.legal_actions if a.kind.is_call)
                for call in calls:
                    assert call.shown == tuple(card for card in observation.hand if card != call.discard)
                    assert call.value == deal.evaluator.value(call.shown)
                assert [call.value for call in calls] == sorted((call.value for call in calls), reverse=True)
                several += len({call.value for call in calls}) >= 2
            deal.apply(rng.choice(deal.legal_actions()))
    assert several  # positions with calls of different values were checked


def test_the_observed_phase_is_the_deal_phase_written_as_its_text() -> None:
    deal, rng = random_deal(3)
    for _ in range(2):
        observation = deal.observation(deal.current_seat)
        assert observation.phase is deal.phase
        assert observation.to_json()["phase"] == deal.phase.value
        assert str(observation).startswith(f"seat {deal.current_seat}: {deal.phase.value}, ")
        deal.apply(rng.choice(deal.legal_actions()))
