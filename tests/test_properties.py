"""Random-play invariants (OpenSpiel's random-sim test), as hypothesis properties.

Random seeds, 2 to 8 players and random rule options; a seeded random policy plays legal
actions to the end of a deal or of a short match. At every step:

* the pack is conserved (R1.1, R1.3): hands + stock + discard pile + shown calls + an upcard out
  of play (R2.6) are exactly one pack; an independent model of the piles (R2.5-R2.7, R4.2,
  R4.6, R6.2, R6.3) agrees with the engine card for card;
* legal actions exist until the deal ends, every legal action applies, and every other one of
  the 111 actions is refused with a rule ID and changes nothing;
* copies are independent of the original;
* a seat's observation holds no card it may not see (R9);
* chips are conserved across deals, stakes included (R8.6);
* the written record replays to the same state at every step (RECORD.md).
"""

from __future__ import annotations

import copy as copy_module
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiute import (
    ACTIONS,
    NUM_ACTIONS,
    Action,
    ActionKind,
    Card,
    Deal,
    Event,
    Match,
    Phase,
    RecordedChance,
    RuleSet,
    SeededChance,
    pack,
)
from paiute.errors import IllegalActionError
from paiute.record import Record

HAND_SIZE = 5
#: Heavy properties (every action tried at every step) run fewer examples.
EXAMPLES = settings.default.max_examples
HEAVY = settings(max_examples=max(8, EXAMPLES // 4))
MEDIUM = settings(max_examples=max(10, EXAMPLES // 2))


# -- strategies ------------------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, int]:
    """A rule set with random options and a number of players it allows (R2.1)."""
    players = draw(st.integers(2, 8))
    preset = draw(st.sampled_from(["pagat", "gamerules"]))
    options: dict[str, object] = {"max_players": draw(st.integers(max(players, 5), 8))}
    choices: dict[str, st.SearchStrategy[Any]] = {
        "jokers": st.booleans(),
        "upcard_under_stock": st.booleans(),
        "open_discard": st.booleans(),
        "wild_colour": st.sampled_from(["any", "opposite"]),
        "reshuffle_keeps_top": st.booleans(),
        "max_rebuilds": st.integers(0, 3),
        "paiute_any_turn": st.booleans(),
        "royal_high": st.booleans(),
        "payout": st.sampled_from(["pot", "scale"]),
        "stake": st.integers(0, 7),
        "ties": st.sampled_from(["split", "first_call"]),
        "unit": st.integers(0, 40),
    }
    for name, strategy in choices.items():
        if draw(st.booleans()):
            options[name] = draw(strategy)
    return RuleSet.from_preset(preset, **options), players


seeds = st.integers(0, 2**32 - 1)
call_rates = st.sampled_from([0.0, 0.3, 1.0])


def policy(seed: int, call_rate: float) -> Callable[[Deal], Action]:
    """A seeded random policy: calls with probability ``call_rate`` when it may."""
    rng = random.Random(seed)

    def choose(deal: Deal) -> Action:
        legal = deal.legal_actions()
        assert legal, f"no legal action in phase {deal.phase} (the deal is not over)\n{deal}"
        calls = [action for action in legal if action.kind.is_call]
        if calls and rng.random() < call_rate:
            return rng.choice(calls)
        others = [action for action in legal if not action.kind.is_call]
        return rng.choice(others or calls)

    return choose


# -- an independent model of where every card is ------------------------------------------------


@dataclass
class Piles:
    """Where every card of a deal is, tracked from the deck, the actions and the recorded
    rebuild orders only (R2.5-R2.8, R4.2, R4.6, R4.7, R6.2, R6.3)."""

    rules: RuleSet
    players: int
    hands: list[list[Card]]
    stock: list[Card]  # top first
    discard: list[Card]  # bottom first
    upcard: Card | None
    upcard_in_stock: bool
    shown: list[Card] = field(default_factory=list)
    calls: int = 0
    rebuilds: int = 0
    ever_public: set[Card] = field(default_factory=set)

    @classmethod
    def deal(cls, deal: Deal) -> Piles:
        rules, players, deck = deal.rules, deal.players, list(deal.deck)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for index in range(HAND_SIZE * players):  # R2.5: one at a time from the dealer's left
            hands[(deal.dealer + 1 + index) % players].append(deck[index])
        rest = deck[HAND_SIZE * players :]
        upcard = None if rules.jokers else rest.pop(0)  # R2.6, R2.8
        stock = rest
        if upcard is not None and rules.upcard_under_stock:
            stock.append(upcard)  # the bottom card of the stock, drawn last
        discard = [stock.pop(0)] if rules.open_discard else []  # R2.7
        piles = cls(
            rules,
            players,
            hands,
            stock,
            discard,
            upcard,
            upcard is not None and rules.upcard_under_stock,
        )
        piles.ever_public.update(discard)
        if upcard is not None:
            piles.ever_public.add(upcard)
        return piles

    @property
    def out_of_play(self) -> list[Card]:
        """The upcard left on the table (R2.6 off)."""
        if self.upcard is not None and not self.rules.upcard_under_stock:
            return [self.upcard]
        return []

    def everything(self) -> Counter[Card]:
        cards: Counter[Card] = Counter(self.stock) + Counter(self.discard) + Counter(self.shown)
        cards += Counter(self.out_of_play)
        for hand in self.hands:
            cards += Counter(hand)
        return cards

    def apply(self, seat: int, action: Action, event: Event, after: Deal) -> None:
        hand = self.hands[seat]
        kind = action.kind
        assert event.seat == seat
        assert event.action is action
        if kind is ActionKind.DRAW_STOCK:
            if not self.stock:
                if not self.calls and self.rebuilds >= self.rules.max_rebuilds:  # R4.7
                    assert event.card is None
                    assert event.ends_deal
                    assert after.is_over
                    assert after.outcome is not None
                    assert after.outcome.dead
                    return
                if self.rules.reshuffle_keeps_top:  # R4.6
                    moved, kept = self.discard[:-1], self.discard[-1:]
                else:
                    moved, kept = self.discard[:], []
                order = after.rebuild_orders[self.rebuilds]
                assert Counter(order) == Counter(moved), "R4.6: a rebuild moves other cards"
                assert event.rebuilt == len(moved)
                self.stock, self.discard = list(order), kept
                self.rebuilds += 1
            card = self.stock.pop(0)
            public = self.upcard_in_stock and not self.stock  # R2.6: the upcard is face up
            if public:
                self.upcard_in_stock = False
            assert event.card == card
            assert event.public == public
            hand.append(card)
        elif kind is ActionKind.DRAW_DISCARD:
            card = self.discard.pop()
            assert event.card == card
            assert event.public  # R4.5
            hand.append(card)
        elif kind is ActionKind.DISCARD:
            assert action.card is not None
            hand.remove(action.card)
            self.discard.append(action.card)
            self.ever_public.add(action.card)
        elif kind is ActionKind.CALL_FIVE:  # R6.2
            assert action.card is not None
            hand.remove(action.card)
            self.discard.append(action.card)
            self.shown.extend(hand)
            self.ever_public.add(action.card)
            self.ever_public.update(hand)
            hand.clear()
            self.calls += 1
        else:  # R6.3
            self.shown.extend(hand)
            self.ever_public.update(hand)
            hand.clear()
            self.calls += 1

    def check(self, deal: Deal) -> None:
        """The engine agrees with the model, and the pack is conserved."""
        full = Counter(pack(self.rules.jokers))
        assert self.everything() == full, "the pack is not conserved"
        assert sum(self.everything().values()) == self.rules.pack_size
        for seat in range(self.players):
            assert sorted(deal.hand(seat)) == sorted(self.hands[seat]), f"seat {seat}'s hand"
            assert deal.hand_size(seat) == len(self.hands[seat])
        assert list(deal.discard_pile) == self.discard
        assert deal.stock_size == len(self.stock)
        shown = [card for call in deal.calls for card in call.shown]
        assert Counter(shown) == Counter(self.shown)
        assert deal.rebuilds == self.rebuilds
        assert deal.upcard == self.upcard
        bottom = self.stock[-1] if self.upcard_in_stock and self.stock else None
        assert deal.stock_bottom == bottom
        # the engine's own public state also adds up to one pack (with the stock by size)
        public = sum(deal.hand_size(s) for s in range(self.players)) + len(deal.discard_pile)
        public += deal.stock_size + len(shown) + len(self.out_of_play)
        assert public == self.rules.pack_size


# -- checks at one step --------------------------------------------------------------------------


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, to show that a refused action changed nothing."""
    return (
        str(deal),
        deal.phase,
        deal.current_seat,
        deal.events,
        deal.rebuild_orders,
        deal.taken_card,
        deal.stock_size,
        deal.outcome,
        tuple(deal.legal_actions()),
        tuple(deal.observation(seat) for seat in [None, *range(deal.players)]),
    )


def check_actions(deal: Deal) -> None:
    """Every legal action applies (to a copy); every other one of the 111 is refused with a
    rule ID, by ``is_legal``, ``why_illegal`` and ``apply``, and changes nothing."""
    legal = deal.legal_actions()
    assert len(ACTIONS) == NUM_ACTIONS == 111
    assert legal == sorted(legal)
    assert len(set(legal)) == len(legal)
    if not deal.is_over:
        assert legal, "no legal action before the end of the deal"
    before = snapshot(deal)
    text = str(deal)
    for action in ACTIONS:
        if action in legal:
            assert deal.is_legal(action), action
            assert deal.why_illegal(action) is None
            copy = deal.copy(SeededChance(action.id))
            event = copy.apply(action)
            assert event.action is action
        else:
            assert not deal.is_legal(action), action
            reason = deal.why_illegal(action)
            assert isinstance(reason, IllegalActionError)
            assert reason.rule.startswith("R"), reason
            with pytest.raises(IllegalActionError) as refused:
                deal.apply(action)
            assert refused.value.rule == reason.rule
            assert str(deal) == text, f"refused {action} changed the deal"
    assert snapshot(deal) == before, "a refused action (or a copy) changed the deal"


def check_copy(deal: Deal, seed: int) -> None:
    """A copy equals the original and playing it on leaves the original unchanged."""
    before = snapshot(deal)
    copy = deal.copy(SeededChance(seed))
    assert snapshot(copy) == before
    choose = policy(seed, 0.5)
    for _ in range(40):
        if copy.is_over:
            break
        copy.apply(choose(copy))
    assert snapshot(deal) == before, "playing a copy changed the original"


def check_secrecy(deal: Deal, piles: Piles) -> None:
    """R9: while the deal lasts, no observation names a card its seat may not know."""
    if deal.is_over:
        return  # R9.3: nothing needs to stay hidden
    all_cards = set(pack(deal.rules.jokers))
    for seat in [None, *range(deal.players)]:
        obs = deal.observation(seat)
        own = set(deal.hand(seat)) if seat is not None else set()
        assert set(obs.hand) == own
        assert len(obs.hand) == len(own)
        assert obs.hand_sizes == tuple(len(hand) for hand in piles.hands)
        # a card never shown to the table, and not in this seat's hand, is secret (the
        # wild cards are named by the rules, not placed: they may appear)
        secret = all_cards - piles.ever_public - own - deal.wild_cards
        texts = {str(card) for card in secret}
        named = _cards_named(obs.to_json())
        assert not (named & texts), f"seat {seat} sees {sorted(named & texts)}"
        assert not any(word in texts for word in str(obs).split()), f"seat {seat}'s text"
        for other, known in enumerate(obs.known_cards):
            assert set(known) <= set(deal.hand(other))
            assert set(known) <= piles.ever_public
        for event in obs.history:
            if event.seat != seat and event.action.kind is ActionKind.DRAW_STOCK and not event.public:
                assert event.card is None, "a private draw is shown to another seat (R9.2)"
        if seat != deal.current_seat:
            assert obs.legal_actions == ()


def _cards_named(data: object) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_cards_named(value) for value in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_cards_named(value) for value in data)) if data else set()
    return set()


def check_resample(deal: Deal, seed: int) -> None:
    """A seat's observation does not change when the cards it cannot see are re-dealt."""
    if deal.is_over:
        return
    for seat in range(deal.players):
        other = deal.resample_hidden(seat, SeededChance(seed + seat))
        assert other.observation(seat) == deal.observation(seat)
        assert sorted(other.hand(seat)) == sorted(deal.hand(seat))


# -- playing ------------------------------------------------------------------------------------


def play_deal(
    deal: Deal,
    choose: Callable[[Deal], Action],
    *,
    every_step: Callable[[Deal, Piles, int], None] | None = None,
    apply: Callable[[Action], Event] | None = None,
) -> Piles:
    """Play ``deal`` to its end (through ``apply``, a match's, to settle it), checking the
    model of the piles after every action."""
    apply = apply or deal.apply
    piles = Piles.deal(deal)
    piles.check(deal)
    step = 0
    if every_step is not None:
        every_step(deal, piles, step)
    assert deal.current_seat == (deal.dealer + 1) % deal.players  # R4.1
    assert deal.phase is Phase.DRAW
    while not deal.is_over:
        seat = deal.current_seat
        action = choose(deal)
        event = apply(action)
        piles.apply(seat, action, event, deal)
        piles.check(deal)
        check_turn_order(deal, seat, action, event, piles)
        step += 1
        assert step < 5000, "the deal does not end (R4.7)"
        if every_step is not None:
            every_step(deal, piles, step)
    assert deal.legal_actions() == []
    assert deal.outcome is not None
    return piles


def check_turn_order(deal: Deal, seat: int, action: Action, event: Event, piles: Piles) -> None:
    """R4.2: draw, then discard or call; R2.2, R7: play goes to the left until the dealer's
    turn after the first call (at once if the dealer called first, R7.1)."""
    assert event.ends_deal == deal.is_over
    if deal.is_over and event.card is None and action.kind is ActionKind.DRAW_STOCK:
        return  # a dead deal (R4.7), checked by the model
    if action.kind.is_draw:
        assert deal.phase is Phase.DISCARD
        assert deal.current_seat == seat
        assert deal.hand_size(seat) == HAND_SIZE + 1
        return
    assert deal.hand_size(seat) == (0 if action.kind.is_call else HAND_SIZE)  # R4.4, R6.5
    if piles.calls and seat == deal.dealer:  # R7.1, R7.3
        assert deal.is_over
        return
    assert not deal.is_over
    assert deal.phase is Phase.DRAW
    assert deal.current_seat == (seat + 1) % deal.players
    assert not deal.has_called(deal.current_seat)  # R6.5


def new_match(rules: RuleSet, players: int, seed: int, balances: list[int] | None = None) -> Match:
    return Match(rules, [f"P{i}" for i in range(players)], balances=balances, chance=SeededChance(seed))


# -- the properties -------------------------------------------------------------------------------


@given(tables(), seeds, seeds, call_rates)
@MEDIUM
def test_r1_pack_is_conserved_and_piles_follow_the_rules(
    table: tuple[RuleSet, int], seed: int, policy_seed: int, rate: float
) -> None:
    rules, players = table
    deal = new_match(rules, players, seed).start_deal()
    assert len(deal.deck) == rules.pack_size
    assert sorted(deal.deck) == pack(rules.jokers)
    piles = play_deal(deal, policy(policy_seed, rate))
    outcome = deal.outcome
    assert outcome is not None
    if outcome.dead:
        assert not outcome.calls
        assert not outcome.winners
        assert deal.rebuilds == rules.max_rebuilds  # R4.7
    else:
        assert outcome.calls
        assert set(outcome.winners) <= {call.seat for call in outcome.calls}  # R8.1
        assert piles.calls == len(outcome.calls)


@given(tables(), seeds, seeds, call_rates, st.integers(0, 10**6))
@HEAVY
def test_every_legal_action_applies_and_every_other_is_refused(
    table: tuple[RuleSet, int], seed: int, policy_seed: int, rate: float, sample: int
) -> None:
    rules, players = table
    deal = new_match(rules, players, seed).start_deal()
    rng = random.Random(sample)

    def every_step(deal: Deal, piles: Piles, step: int) -> None:
        if step < 12 or deal.is_over or deal.in_last_round or rng.random() < 0.15:
            check_actions(deal)

    play_deal(deal, policy(policy_seed, rate), every_step=every_step)


@given(tables(), seeds, seeds, call_rates, st.integers(0, 10**6))
@HEAVY
def test_copies_are_independent(
    table: tuple[RuleSet, int], seed: int, policy_seed: int, rate: float, sample: int
) -> None:
    rules, players = table
    deal = new_match(rules, players, seed).start_deal()
    rng = random.Random(sample)

    def every_step(deal: Deal, piles: Piles, step: int) -> None:
        if step < 3 or deal.in_last_round or rng.random() < 0.05:
            check_copy(deal, rng.randrange(2**32))

    play_deal(deal, policy(policy_seed, rate), every_step=every_step)
    check_copy(deal, sample)


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
@pytest.mark.parametrize("seed", range(4))
def test_r10_1_playing_a_copy_leaves_the_originals_chance_alone(seed: int, how: str) -> None:
    """A copy made without a chance of its own must not draw from the original's: the same
    seed and the same actions give the same deal (R10.1) whether or not a copy of the state
    was played on (a search, a bot's look-ahead) in between."""
    twin = new_match(RuleSet(), 2, seed).start_deal()
    deal = new_match(RuleSet(), 2, seed).start_deal()
    assert str(twin) == str(deal)
    copy = deal.copy() if how == "copy" else copy_module.deepcopy(deal)
    rng = random.Random(seed)
    while not copy.is_over and copy.rebuilds == 0:  # play the copy past a rebuild (R4.6)
        copy.apply(rng.choice([a for a in copy.legal_actions() if not a.kind.is_call]))
    assert copy.rebuilds == 1
    rng = random.Random(seed + 100)
    while not deal.is_over:
        action = rng.choice([a for a in deal.legal_actions() if not a.kind.is_call])
        deal.apply(action)
        twin.apply(action)
        assert str(deal) == str(twin), f"the original diverged at action {len(deal.actions) - 1}"
    assert deal.rebuild_orders == twin.rebuild_orders


@given(tables(), seeds, seeds, call_rates, st.integers(0, 10**6))
@HEAVY
def test_r9_observations_hide_what_a_seat_may_not_see(
    table: tuple[RuleSet, int], seed: int, policy_seed: int, rate: float, sample: int
) -> None:
    rules, players = table
    deal = new_match(rules, players, seed).start_deal()
    rng = random.Random(sample)

    def every_step(deal: Deal, piles: Piles, step: int) -> None:
        if step < 6 or deal.in_last_round or rng.random() < 0.08:
            check_secrecy(deal, piles)
            check_resample(deal, rng.randrange(2**32))

    play_deal(deal, policy(policy_seed, rate), every_step=every_step)


@given(
    tables(),
    seeds,
    seeds,
    call_rates,
    st.integers(1, 4),
    st.lists(st.integers(-50, 500), min_size=8, max_size=8),
    st.integers(0, 20),
)
@MEDIUM
def test_r8_6_chips_are_conserved_across_deals(
    table: tuple[RuleSet, int],
    seed: int,
    policy_seed: int,
    rate: float,
    deals: int,
    balances: list[int],
    pot: int,
) -> None:
    rules, players = table
    match = Match(
        rules,
        [f"P{i}" for i in range(players)],
        balances=balances[:players],
        pot=pot,
        chance=SeededChance(seed),
    )
    total = sum(balances[:players]) + pot
    choose = policy(policy_seed, rate)
    dealers = []
    for _ in range(deals):
        before = match.balances, match.pot
        deal = match.start_deal()
        dealers.append(deal.dealer)
        assert sum(match.balances) + match.pot == total  # the stakes went into the pot
        if rules.payout == "pot":  # R8.2
            assert match.balances == tuple(b - rules.stake for b in before[0])
            assert match.pot == before[1] + rules.stake * players
        else:  # R8.4: no pot
            assert (match.balances, match.pot) == before
        assert (deal.balances, deal.pot) == (match.balances, match.pot)
        staked = match.balances, match.pot
        play_deal(deal, choose, apply=match.apply)
        outcome = deal.outcome
        assert outcome is not None
        assert sum(match.balances) + match.pot == total  # R8.6
        assert match.results[-1].balances == match.balances
        assert match.results[-1].pot == match.pot
        if outcome.dead:  # R8.5
            assert (match.balances, match.pot) == staked
        else:
            expected = _settlement(rules, deal, list(staked[0]), staked[1])
            assert (list(match.balances), match.pot) == expected
    assert dealers == [(dealers[0] + i) % players for i in range(deals)]  # R2.3


@given(tables(), seeds, seeds, call_rates, st.integers(1, 3), st.booleans(), st.integers(0, 10**6))
@MEDIUM
def test_written_record_replays_every_state(
    table: tuple[RuleSet, int],
    seed: int,
    policy_seed: int,
    rate: float,
    deals: int,
    finish: bool,
    sample: int,
) -> None:
    rules, players = table
    match = new_match(rules, players, seed)
    choose = policy(policy_seed, rate)
    rng = random.Random(sample)
    states: list[list[tuple[object, ...]]] = []
    for number in range(deals):
        deal = match.start_deal()
        steps: list[tuple[object, ...]] = []
        states.append(steps)
        stop = rng.randrange(0, 40) if number == deals - 1 and not finish else None
        while True:
            full = rng.random() < 0.05 or deal.is_over
            steps.append(_state(deal, full))
            if deal.is_over or stop == len(steps) - 1:
                break
            match.apply(choose(deal))
    text = Record.from_match(match).dumps()
    record = Record.loads(text)
    assert record.dumps() == text
    # step by step through the record, as a reader does (RECORD.md)
    replay = Match(
        record.rules,
        record.players,
        balances=record.balances,
        pot=record.pot,
        chance=RecordedChance(()),
        dealer=record.deals[0].dealer,
    )
    for number, deal_record in enumerate(record.deals):
        deal = replay.start_deal(deal_record.deck, chance=RecordedChance(deal_record.rebuilds))
        expected = states[number]
        assert len(deal_record.actions) == len(expected) - 1
        for position, action in enumerate(deal_record.actions):
            assert _state(deal, expected[position][0]) == expected[position], (number, position)
            replay.apply(action)
        assert _state(deal, expected[-1][0]) == expected[-1]
    assert replay.balances == match.balances
    assert replay.pot == match.pot
    # and the library's own replay agrees
    reports = record.replay()
    assert reports.match.balances == match.balances
    assert [str(d) for d in reports.match.deals] == [str(d) for d in match.deals]
    finished = [report.finished for report in reports.reports]
    assert finished == [d.is_over for d in match.deals]


UNITS = {
    "paiute": 1,
    "three_three": 2,
    "four_two": 3,
    "straight_flush": 4,
    "royal_flush": 4,
    "five_of_a_kind": 5,
}


def _settlement(rules: RuleSet, deal: Deal, balances: list[int], pot: int) -> tuple[list[int], int]:
    """R8.1-R8.4 written out again: the balances and pot after a deal that was not dead."""
    outcome = deal.outcome
    assert outcome is not None
    best = max(call.value for call in outcome.calls)
    tied = [call for call in outcome.calls if call.value == best]  # R8.1, R5.11
    if rules.ties == "first_call":  # R8.3
        tied = tied[:1]
    winners = sorted(call.seat for call in tied)
    assert list(outcome.winners) == winners
    players = deal.players
    if rules.payout == "pot":  # R8.2, R8.3
        share, odd = divmod(pot, len(winners))
        order = sorted(winners, key=lambda seat: (seat - deal.dealer - 1) % players)
        for index, seat in enumerate(order):
            balances[seat] += share + (1 if index < odd else 0)
        return balances, 0
    for call in tied:  # R8.4
        amount = UNITS[call.value.to_json()["name"]] * rules.unit * (2 if call.first_turn else 1)
        due = -(-amount // len(tied))
        for seat in range(players):
            if seat not in winners:
                balances[seat] -= due
                balances[call.seat] += due
    return balances, pot


def _state(deal: Deal, full: object) -> tuple[object, ...]:
    """A deal's state; with ``full``, every seat's observation too."""
    base: tuple[object, ...] = (
        bool(full),
        str(deal),
        deal.events,
        deal.balances,
        deal.pot,
        tuple(deal.legal_actions()),
        deal.observation(deal.current_seat),
    )
    if full:
        base += tuple(deal.observation(seat) for seat in [None, *range(deal.players)])
    return base
