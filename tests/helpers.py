"""Shared builders for the deal, match, settlement and observation tests.

* :func:`make_deck` / :func:`make_deal`: a pack ordered so that chosen seats get chosen hands
  (R2.5: one card at a time from the dealer's left), a chosen upcard (R2.6) and chosen cards
  on top of the stock (R2.7: with ``open_discard`` the first of them starts the discard pile).
* :class:`StackedChance`: a chance whose rebuilds (R4.6) put chosen cards on top.
* :class:`RefDeal`: a small, independent model of the deal's state machine (R2, R4, R6, R7),
  written from RULES.md alone; it uses the engine only to value shown cards (R5.10).
* :func:`random_rules`, :func:`random_deal`, :func:`choose`: seeded random play.
* :func:`play_every_table_size`: a bot's actions are legal to the end at 2 to 8 seats.
* :func:`load_script`: a script outside the package (a benchmark) loaded as a module.
"""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType

from paiute import (
    CARDS,
    JOKERS,
    Action,
    Card,
    Category,
    Deal,
    Evaluator,
    Event,
    RuleSet,
    SeededChance,
    Value,
    pack,
    parse_cards,
)

HAND = 5


def cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from text (R1.4)."""
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def deal_position(players: int, dealer: int, seat: int, index: int) -> int:
    """Where in the deck (top first) the ``index``-th card dealt to ``seat`` lies (R2.5)."""
    return index * players + (seat - dealer - 1) % players


def make_deck(
    players: int,
    dealer: int,
    hands: dict[int, str | Sequence[Card]] | None = None,
    *,
    upcard: str | Card | None = None,
    stock: str | Sequence[Card | None] = (),
    jokers: bool = False,
    seed: int = 0,
) -> list[Card]:
    """A whole pack, top card first, dealt as R2.5-R2.8 say.

    ``hands`` maps seats to (up to five) cards they must be dealt, in dealing order;
    ``upcard`` is the card turned after the hands (R2.6; none with ``jokers``, R2.8);
    ``stock`` are the cards that follow, top of the stock first (with ``open_discard`` the
    first of them starts the discard pile, R2.7); ``None`` in ``stock`` leaves a place free.
    Every other place is filled with the remaining cards in a seeded random order.
    """
    deck: list[Card | None] = [None] * (54 if jokers else 52)
    used: set[Card] = set()

    def put(position: int, value: Card) -> None:
        assert deck[position] is None, f"position {position} used twice"
        assert value not in used, f"{value} used twice"
        deck[position] = value
        used.add(value)

    for seat, hand in (hands or {}).items():
        hand_cards = cards(hand) if isinstance(hand, str) else list(hand)
        assert len(hand_cards) <= HAND
        for index, value in enumerate(hand_cards):
            put(deal_position(players, dealer, seat, index), value)
    position = HAND * players
    if not jokers:
        if upcard is not None:
            put(position, card(upcard) if isinstance(upcard, str) else upcard)
        position += 1
    else:
        assert upcard is None, "R2.8: no upcard with jokers"
    stock_cards = cards(stock) if isinstance(stock, str) else list(stock)
    for offset, value in enumerate(stock_cards):
        if value is not None:
            put(position + offset, value)
    rest = [value for value in pack(jokers) if value not in used]
    random.Random(seed).shuffle(rest)
    filler = iter(rest)
    return [value if value is not None else next(filler) for value in deck]


def make_deal(
    rules: RuleSet,
    players: int,
    dealer: int,
    hands: dict[int, str | Sequence[Card]] | None = None,
    *,
    upcard: str | Card | None = None,
    stock: str | Sequence[Card | None] = (),
    seed: int = 0,
    chance: object | None = None,
    balances: Sequence[int] | None = None,
    pot: int = 0,
) -> Deal:
    deck = make_deck(players, dealer, hands, upcard=upcard, stock=stock, jokers=rules.jokers, seed=seed)
    return Deal(
        rules,
        players,
        dealer,
        deck,
        chance if chance is not None else SeededChance(seed),  # type: ignore[arg-type]
        balances=balances,
        pot=pot,
    )


def play(deal: Deal, *actions: str) -> list[Event]:
    """Apply actions given as text, in order."""
    return [deal.apply(Action.parse(text)) for text in actions]


def legal_texts(deal: Deal) -> list[str]:
    return [str(action) for action in deal.legal_actions()]


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal through its public API (and its full str)."""
    return (
        deal.phase,
        deal.current_seat,
        tuple(deal.hand(seat) for seat in range(deal.players)),
        deal.stock_size,
        deal.stock_bottom,
        deal.discard_pile,
        deal.taken_card,
        deal.calls,
        deal.highest_call,
        deal.events,
        deal.outcome,
        deal.rebuild_orders,
        tuple(deal.legal_actions()),
        str(deal),
    )


class StackedChance:
    """A chance whose shuffles put ``top`` (those present) first, in that order, and keep the
    other cards in their order after them; ``below`` answers ``cut``."""

    def __init__(self, top: str | Sequence[Card] = (), cut: int = 0) -> None:
        self.top = cards(top) if isinstance(top, str) else list(top)
        self.cut = cut
        self.shuffled: list[list[Card]] = []

    def shuffle(self, values: list[Card]) -> None:
        self.shuffled.append(list(values))
        first = [value for value in self.top if value in values]
        values[:] = first + [value for value in values if value not in first]

    def below(self, n: int) -> int:
        return self.cut % n


# -- an independent model of the deal -------------------------------------------------------


class RefDeal:
    """The deal of RULES.md R2, R4, R6, R7, written independently of :mod:`paiute.deal`.

    The stock is a list with its top card first. Rebuilt stocks (R4.6) take their order from
    the engine's ``rebuild_orders`` after checking that they hold exactly the cards R4.6 moves.
    """

    def __init__(self, rules: RuleSet, players: int, dealer: int, deck: Sequence[Card]) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        for index in range(HAND * players):  # R2.5
            self.hands[(dealer + 1 + index) % players].append(deck[index])
        position = HAND * players
        self.upcard: Card | None = None
        if not rules.jokers:  # R2.6, R2.8
            self.upcard = deck[position]
            position += 1
        self.stock: list[Card] = list(deck[position:])
        self.upcard_in_stock = False
        if self.upcard is not None and rules.upcard_under_stock:
            self.stock.append(self.upcard)
            self.upcard_in_stock = True
        self.discard: list[Card] = []
        if rules.open_discard:  # R2.7
            self.discard.append(self.stock.pop(0))
        if rules.jokers:
            wild = set(JOKERS)  # R3.2
        else:
            assert self.upcard is not None
            same_rank = [c for c in CARDS[:52] if c.rank == self.upcard.rank]
            if rules.wild_colour == "opposite":  # R3.3
                wild = {c for c in same_rank if c.is_red != self.upcard.is_red}
            else:
                wild = set(same_rank)
        self.wild = frozenset(wild)
        self.evaluator = Evaluator(self.wild, royal_high=rules.royal_high)
        self.paiute_any_turn = rules.paiute_any_turn or players >= 6
        self.seat = (dealer + 1) % players  # R4.1
        self.phase = "draw"
        self.taken: Card | None = None
        self.draws = [0] * players
        self.called = [False] * players
        self.calls: list[tuple[int, tuple[Card, ...], int, bool]] = []
        self.best = 0
        self.rebuilds = 0
        self.dead = False
        # What every player has seen: cards whose identity is public (R4.5, R9.1) ...
        self.public: set[Card] = set(self.discard)
        if self.upcard is not None:
            self.public.add(self.upcard)
        # ... and the cards everyone knows to be in each hand.
        self.known: list[set[Card]] = [set() for _ in range(players)]

    # R4.6, R4.7
    def can_draw_stock(self) -> bool:
        if self.stock:
            return True
        if not self.calls and self.rebuilds >= self.rules.max_rebuilds:
            return True  # the draw that ends the deal dead
        return len(self.discard) > (1 if self.rules.reshuffle_keeps_top else 0)

    def stock_bottom(self) -> Card | None:
        return self.stock[-1] if self.upcard_in_stock and self.stock else None

    def hidden_stock(self) -> list[Card]:
        """The stock, top first, less a face-up upcard at its bottom."""
        return self.stock[:-1] if self.stock_bottom() is not None else list(self.stock)

    def is_paiute(self, code: int) -> bool:
        value = Value.from_code(code)
        return value is not None and value.category is Category.PAIUTE

    def legal(self) -> list[str]:
        if self.phase == "over":
            return []
        if self.phase == "draw":
            result = []
            if self.can_draw_stock():
                result.append("draw stock")
            if self.discard:
                result.append("draw discard")
            return result
        hand = self.hands[self.seat]
        result = [f"discard {c}" for c in hand if c != self.taken]
        for c in hand:
            if c == self.taken:
                continue
            code = self.evaluator.code([other for other in hand if other != c])
            if code and code >= self.best:
                result.append(f"call {c}")
        code = self.evaluator.code(hand)
        paiute_ok = self.paiute_any_turn or self.draws[self.seat] == 1  # R5.7
        if code and code >= self.best and (paiute_ok or not self.is_paiute(code)):
            result.append("call")
        return result

    def apply(self, text: str, rebuild_order: Sequence[Card] | None = None) -> None:
        assert text in self.legal(), (text, self.legal())
        seat = self.seat
        hand = self.hands[seat]
        if text == "draw stock":
            if not self.stock:
                if not self.calls and self.rebuilds >= self.rules.max_rebuilds:
                    self.phase = "over"  # R4.7
                    self.dead = True
                    return
                if self.rules.reshuffle_keeps_top:
                    moved, self.discard = self.discard[:-1], self.discard[-1:]
                else:
                    moved, self.discard = self.discard[:], []
                assert rebuild_order is not None
                assert sorted(rebuild_order) == sorted(moved), "R4.6 moves the wrong cards"
                self.stock = list(rebuild_order)
                self.rebuilds += 1
            drawn = self.stock.pop(0)
            if self.upcard_in_stock and not self.stock:  # the face-up upcard (R2.6)
                self.upcard_in_stock = False
                self.known[seat].add(drawn)
            hand.append(drawn)
            self.taken = None
            self.draws[seat] += 1
            self.phase = "discard"
            return
        if text == "draw discard":
            drawn = self.discard.pop()
            hand.append(drawn)
            self.known[seat].add(drawn)
            self.taken = drawn
            self.draws[seat] += 1
            self.phase = "discard"
            return
        words = text.split()
        if words[0] == "discard":
            put = card(words[1])
            hand.remove(put)
            self.discard.append(put)
            self.public.add(put)
            self.known[seat].discard(put)
        else:
            put = card(words[1]) if len(words) == 2 else None
            shown = tuple(c for c in hand if c != put)
            if put is not None:
                self.discard.append(put)
                self.public.add(put)
            code = self.evaluator.code(shown)
            assert code
            self.calls.append((seat, shown, code, self.draws[seat] == 1))
            self.best = max(self.best, code)
            self.public.update(shown)
            hand.clear()
            self.known[seat].clear()
            self.called[seat] = True
        self.taken = None
        if self.calls and seat == self.dealer:  # R7.1, R7.3
            self.phase = "over"
            return
        self.seat = (seat + 1) % self.players
        self.phase = "draw"

    def winners(self) -> tuple[int, ...]:
        if self.dead:
            return ()
        tied = [seat for seat, _, code, _ in self.calls if code == self.best]
        if self.rules.ties == "first_call":
            return (tied[0],)
        return tuple(sorted(tied))

    def hidden_cards(self, seat: int | None) -> set[Card]:
        """Cards whose place ``seat`` cannot see (R9.2, R9.3)."""
        hidden = set(self.hidden_stock())
        for other in range(self.players):
            if other != seat:
                hidden.update(c for c in self.hands[other] if c not in self.known[other])
        return hidden


def step_both(deal: Deal, ref: RefDeal, action: Action) -> Event:
    """Apply ``action`` to the engine and the model."""
    event = deal.apply(action)
    order = deal.rebuild_orders[-1] if event.rebuilt else None
    ref.apply(str(action), order)
    return event


def check_same(deal: Deal, ref: RefDeal) -> None:
    """The engine's public state equals the model's."""
    assert deal.phase.value == ref.phase
    if ref.phase != "over":
        assert deal.current_seat == ref.seat
    assert [sorted(deal.hand(s)) for s in range(deal.players)] == [sorted(h) for h in ref.hands]
    assert deal.stock_size == len(ref.stock)
    assert deal.stock_bottom == ref.stock_bottom()
    assert deal.discard_pile == tuple(ref.discard)
    assert deal.taken_card == ref.taken
    assert deal.rebuilds == ref.rebuilds
    assert sorted(str(a) for a in deal.legal_actions()) == sorted(ref.legal())
    assert [(c.seat, sorted(c.shown), c.value.code, c.first_turn) for c in deal.calls] == [
        (s, sorted(shown), code, first) for s, shown, code, first in ref.calls
    ]
    assert deal.in_last_round == bool(ref.calls)
    for s in range(deal.players):
        assert set(deal.known_cards(s)) == ref.known[s]
        assert deal.has_called(s) == ref.called[s]
    if ref.phase == "over":
        assert deal.outcome is not None
        assert deal.outcome.dead == ref.dead
        assert deal.outcome.winners == ref.winners()
    else:
        assert deal.outcome is None
        assert deal.is_first_turn == (ref.draws[ref.seat] == (0 if ref.phase == "draw" else 1))


# -- seeded random play ----------------------------------------------------------------------


def random_rules(rng: random.Random, players: int | None = None) -> tuple[RuleSet, int]:
    """A random rule set (either preset, random options) and a table size it allows."""
    count = players if players is not None else rng.randint(2, 8)
    options: dict[str, object] = {
        "jokers": rng.random() < 0.25,
        "wild_colour": rng.choice(["any", "opposite"]),
        "max_rebuilds": rng.randint(0, 2),
        "royal_high": rng.random() < 0.3,
        "ties": rng.choice(["split", "first_call"]),
        "payout": rng.choice(["pot", "scale"]),
        "max_players": max(5, count),
    }
    for name in ("upcard_under_stock", "open_discard", "reshuffle_keeps_top", "paiute_any_turn"):
        if rng.random() < 0.5:
            options[name] = rng.random() < 0.5
    return RuleSet.from_preset(rng.choice(["pagat", "gamerules"]), **options), count


def choose(rng: random.Random, actions: Sequence[Action], call_bias: float = 0.5) -> Action:
    """A random action, preferring calls with probability ``call_bias``."""
    calls = [a for a in actions if a.kind.is_call]
    if calls and rng.random() < call_bias:
        return rng.choice(calls)
    return rng.choice(list(actions))


def random_deal(seed: int, players: int | None = None) -> tuple[Deal, random.Random]:
    rng = random.Random(seed)
    rules, count = random_rules(rng, players)
    deal = Deal.new(rules, count, rng.randrange(count), SeededChance(seed))
    return deal, rng


# -- reading cards out of text ----------------------------------------------------------------

_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs]|Jk[12])(?![A-Za-z0-9])")


def card_tokens(text: str) -> list[Card]:
    """Every card named in ``text`` in canonical form, in order."""
    return [Card.parse(token) for token in _CARD_TOKEN.findall(text)]


def draw_and_pass(deal: Deal, turns: int = 1) -> None:
    """``turns`` turns of: draw from the stock, discard the card drawn (R4.2, R4.3)."""
    for _ in range(turns):
        event = deal.apply(Action.parse("draw stock"))
        assert event.card is not None
        deal.apply(Action.discard(event.card))


def run_stock_down(deal: Deal, left: int = 0) -> None:
    """Draw-and-pass until the stock holds ``left`` cards."""
    while deal.stock_size > left:
        draw_and_pass(deal)


def clone_ref(ref: RefDeal) -> RefDeal:
    """An independent copy of a model (sharing only the immutable rules and evaluator)."""
    other = object.__new__(RefDeal)
    other.__dict__.update(ref.__dict__)
    other.hands = [hand[:] for hand in ref.hands]
    other.stock = ref.stock[:]
    other.discard = ref.discard[:]
    other.draws = ref.draws[:]
    other.called = ref.called[:]
    other.calls = ref.calls[:]
    other.public = set(ref.public)
    other.known = [set(known) for known in ref.known]
    return other


def play_every_table_size(preset: str, spec_of_seat: Callable[[int], str], *, jokers: bool = False) -> None:
    """Play one deal at each table size from 2 to 8 seats (R2.1, ``max_players=8``), seat
    ``s`` played by ``make_player(spec_of_seat(s), seed=s)``: every action is one of the
    seat's legal actions and the deal ends (bounded)."""
    from paiute.players import make_player

    for players in range(2, 9):
        rules = RuleSet.from_preset(preset, max_players=8, jokers=jokers)
        seats = [make_player(spec_of_seat(seat), seed=seat) for seat in range(players)]
        deal = Deal.new(rules, players, players - 1, SeededChance(players))
        steps = 0
        while not deal.is_over:
            observation = deal.observation(deal.current_seat)
            action = seats[deal.current_seat].act(observation)
            assert action in observation.legal_actions, (preset, players, str(action))
            deal.apply(action)
            steps += 1
            assert steps < 3000
        assert deal.outcome is not None


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` (a benchmark, outside the package) imported as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
