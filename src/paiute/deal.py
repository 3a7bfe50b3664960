"""One deal as an explicit state machine (R2, R4, R6, R7).

A :class:`Deal` is in one :class:`Phase` at a time: the current seat must ``DRAW`` (R4.2),
then, holding six cards, must ``DISCARD`` or call (R4.2, R6); after the last turn (R7) the
deal is ``OVER`` and has an :class:`Outcome`. Chance (the shuffle and cut, and every stock
rebuild, R4.6) comes from the injected :class:`~paiute.chance.Chance`.

>>> from paiute import Action, Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> deal.phase, deal.current_seat, [str(a) for a in deal.legal_actions()]
(<Phase.DRAW: 'draw'>, 1, ['draw stock'])
>>> event = deal.apply(Action.parse("draw stock"))
>>> deal.phase, len(deal.hand(1))
(<Phase.DISCARD: 'discard'>, 6)
>>> deal.apply(Action.parse("discard Ah"))
Traceback (most recent call last):
...
paiute.errors.IllegalActionError: R4.2 seat 1 does not hold Ah
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from paiute.actions import (
    _CALL_BASE,
    _DISCARD_BASE,
    ACTIONS,
    CALL_SIX,
    DRAW_DISCARD,
    DRAW_STOCK,
    Action,
    ActionKind,
)
from paiute.cards import Card, format_cards, pack
from paiute.chance import Chance, SeededChance
from paiute.combos import Value
from paiute.errors import N_, IllegalActionError, PaiuteError
from paiute.evaluator import Evaluator
from paiute.observation import Observation, observe, seen_cards
from paiute.rules import RuleSet

__all__ = ["CallMade", "Deal", "Event", "Outcome", "Phase"]

HAND_SIZE = 5
_PAIUTE_ORDER = 1  # Category.PAIUTE.order(): the top bits of a Paiute's code


class Phase(enum.Enum):
    DRAW = "draw"  # the current seat must draw (R4.2)
    DISCARD = "discard"  # the current seat holds six cards: discard or call (R4.2, R6)
    OVER = "over"  # the deal has ended (R4.7, R7.1, R7.3)


@dataclass(frozen=True, slots=True)
class CallMade:
    """A call (R6): who, the shown cards, the card put down (five-card calls), its value,
    and whether it was made on the caller's first turn (R5.7, R8.4)."""

    seat: int
    shown: tuple[Card, ...]
    discard: Card | None
    value: Value
    first_turn: bool

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "cards": [str(card) for card in self.shown],
            "value": self.value.to_json(),
            "first_turn": self.first_turn,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """What one action did. ``card`` is the card drawn, discarded or put down; for a draw
    from the stock it is private to ``seat`` unless ``public`` (R4.5, R9)."""

    seat: int
    action: Action
    card: Card | None = None
    public: bool = True
    rebuilt: int = 0  # cards moved into a new stock by this draw (R4.6)
    call: CallMade | None = None
    ends_deal: bool = False

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` sees it (R9); ``None`` is a spectator."""
        if self.public or seat == self.seat:
            return self
        return Event(self.seat, self.action, None, False, self.rebuilt, self.call, self.ends_deal)

    def __str__(self) -> str:
        text = f"seat {self.seat}: {self.action}"
        if self.action.kind.is_draw and self.card is not None:
            text += f" ({self.card})"
        if self.rebuilt:
            text += f" [rebuild of {self.rebuilt}]"
        if self.call is not None:
            text += f" = {self.call.value}"
        if self.ends_deal and self.action is DRAW_STOCK and self.card is None:
            text += " [dead deal, R4.7]"
        return text


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended: dead (R4.7), or the calls and the seats that win (R8.1, R8.3).

    ``winners`` are the seats that take the winnings: every tied best caller, or with
    ``ties = first_call`` only the first of them to call.
    """

    dead: bool
    calls: tuple[CallMade, ...]
    winners: tuple[int, ...]

    @property
    def best(self) -> Value | None:
        return max((call.value for call in self.calls), default=None)


class Deal:
    """The state of one deal. Create with :meth:`new` (shuffled by a chance) or directly
    from a dealt ``deck`` (top card first, after the shuffle and cut)."""

    __slots__ = (
        "_best_code",
        "_cache",
        "_called",
        "_calls",
        "_chance",
        "_discard",
        "_draws",
        "_evaluator",
        "_events",
        "_hands",
        "_outcome",
        "_paiute_any_turn",
        "_phase",
        "_rebuild_orders",
        "_seat",
        "_stock",
        "_taken",
        "_upcard_in_stock",
        "balances",
        "dealer",
        "deck",
        "initial_discard",
        "players",
        "pot",
        "rules",
        "upcard",
        "wild_cards",
    )

    rules: RuleSet
    players: int
    dealer: int
    deck: tuple[Card, ...]
    upcard: Card | None
    wild_cards: frozenset[Card]
    balances: tuple[int, ...]
    pot: int

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        dealer: int,
        deck: Sequence[Card],
        chance: Chance | None = None,
        *,
        balances: Sequence[int] | None = None,
        pot: int = 0,
    ) -> None:
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {players} seats")
        expected = pack(rules.jokers)
        if sorted(deck) != expected:
            raise PaiuteError(
                f"the deck is not exactly one pack of {len(expected)} cards (R1.1, R1.3): {len(deck)} cards"
            )
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.deck = tuple(deck)
        self.balances = tuple(balances) if balances is not None else (0,) * players
        self.pot = pot
        self._chance: Chance | None = chance if chance is not None else SeededChance()
        # R2.5: five cards each, one at a time, starting at the dealer's left.
        hands: list[list[Card]] = [[] for _ in range(players)]
        for index in range(HAND_SIZE * players):
            hands[(dealer + 1 + index) % players].append(self.deck[index])
        position = HAND_SIZE * players
        upcard: Card | None = None
        if not rules.jokers:  # R2.8: with jokers no upcard is turned
            upcard = self.deck[position]
            position += 1
        stock = list(reversed(self.deck[position:]))  # R2.7: the top of the stock is last
        self._upcard_in_stock = False
        if upcard is not None and rules.upcard_under_stock:  # R2.6
            stock.insert(0, upcard)
            self._upcard_in_stock = True
        discard: list[Card] = []
        if rules.open_discard:  # R2.7
            discard.append(stock.pop())
        self.initial_discard: Card | None = discard[0] if discard else None
        self.upcard = upcard
        self.wild_cards = rules.wild_cards(upcard)  # R3
        self._evaluator = Evaluator(self.wild_cards, royal_high=rules.royal_high)
        self._paiute_any_turn = rules.paiute_allowed_any_turn(players)  # R5.7, R2.1
        self._hands = hands
        self._stock = stock
        self._discard = discard
        self._seat = (dealer + 1) % players  # R4.1
        self._phase = Phase.DRAW
        self._taken: Card | None = None
        self._draws = [0] * players
        self._called = [False] * players
        self._calls: list[CallMade] = []
        self._best_code = 0
        self._events: list[Event] = []
        self._rebuild_orders: list[tuple[Card, ...]] = []
        self._outcome: Outcome | None = None
        self._cache: dict[tuple[str, int | None], Any] = {}  # views derived from the events

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        players: int,
        dealer: int,
        chance: Chance,
        *,
        balances: Sequence[int] | None = None,
        pot: int = 0,
    ) -> Deal:
        """Shuffle a pack and cut it (R2.4) with ``chance``, then deal."""
        deck = pack(rules.jokers)
        chance.shuffle(deck)
        cut = chance.below(len(deck))
        deck = deck[cut:] + deck[:cut]
        return cls(rules, players, dealer, deck, chance, balances=balances, pot=pot)

    @classmethod
    def from_observation(cls, observation: Observation, chance: Chance) -> Deal:
        """A full state consistent with what one seat has seen (a *determinization*).

        The seat's own hand and every public fact come from ``observation``; the cards it
        cannot see are dealt at random by ``chance`` into the stock and the unknown places of
        the other hands. After a rebuild (R4.6) the stock is drawn only from the cards that
        went into the rebuilt stock and are still unseen; otherwise every unseen card is
        equally likely anywhere (finer constraints, such as which stock an opponent's
        unknown card came from, are not modelled). Search players use this: they only ever
        hold an :class:`~paiute.observation.Observation`, never the true state.
        """
        seat = observation.seat
        if seat is None:
            raise PaiuteError("a spectator's observation has no hand to sample around")
        rules = observation.rules
        players = observation.players
        deal = object.__new__(cls)
        deal.rules = rules
        deal.players = players
        deal.dealer = observation.dealer
        deal.deck = ()
        deal.balances = observation.balances
        deal.pot = observation.pot
        deal.upcard = observation.upcard
        deal.initial_discard = observation.initial_discard
        deal.wild_cards = frozenset(observation.wild_cards)
        deal._chance = chance
        deal._evaluator = Evaluator(deal.wild_cards, royal_high=rules.royal_high)
        deal._paiute_any_turn = rules.paiute_allowed_any_turn(players)
        deal._discard = list(observation.discard_pile)
        deal._upcard_in_stock = observation.stock_bottom is not None
        deal._seat = observation.current_seat
        deal._phase = Phase(observation.phase)
        deal._taken = observation.taken_card
        deal._draws = [0] * players
        deal._events = list(observation.history)
        for event in deal._events:
            if event.action.kind.is_draw and not event.ends_deal:  # a dead deal's draw draws nothing
                deal._draws[event.seat] += 1
        deal._calls = list(observation.calls)
        deal._called = [False] * players
        for call in deal._calls:
            deal._called[call.seat] = True
        highest = observation.highest_call
        deal._best_code = 0 if highest is None else highest.code
        deal._rebuild_orders = [()] * observation.rebuilds
        deal._outcome = observation.outcome
        deal._cache = {}

        # Which cards went into the current rebuilt stock, from the public history.
        pile = [] if observation.initial_discard is None else [observation.initial_discard]
        rebuilt: set[Card] = set()
        for event in observation.history:
            if event.rebuilt:
                moved = pile[:-1] if rules.reshuffle_keeps_top else pile[:]
                pile = pile[-1:] if rules.reshuffle_keeps_top else []
                rebuilt = set(moved)
            kind = event.action.kind
            if kind is ActionKind.DRAW_DISCARD:
                pile.pop()
            elif (kind is ActionKind.DISCARD or kind is ActionKind.CALL_FIVE) and event.card is not None:
                pile.append(event.card)
        seen = seen_cards(observation)  # R9: every card whose place the seat knows
        unseen = [card for card in pack(rules.jokers) if card not in seen]
        hidden_stock = observation.stock_size - (1 if observation.stock_bottom is not None else 0)
        if observation.rebuilds:
            candidates = [card for card in unseen if card in rebuilt]
            chance.shuffle(candidates)
            stock_cards = candidates[:hidden_stock]
            chosen = set(stock_cards)
            rest = [card for card in unseen if card not in chosen]
        else:
            chance.shuffle(unseen)
            stock_cards, rest = unseen[:hidden_stock], unseen[hidden_stock:]
        chance.shuffle(rest)
        refill = iter(rest)
        hands: list[list[Card]] = []
        for player in range(players):
            if player == seat:
                hands.append(list(observation.hand))
                continue
            hand = list(observation.known_cards[player])
            hand.extend(next(refill) for _ in range(observation.hand_sizes[player] - len(hand)))
            hands.append(hand)
        if next(refill, None) is not None or len(stock_cards) != hidden_stock:
            raise PaiuteError("the observation does not add up to one pack (R9 view inconsistent)")
        deal._hands = hands
        stock = list(stock_cards)
        if observation.stock_bottom is not None:
            stock.insert(0, observation.stock_bottom)
        deal._stock = stock
        return deal

    # -- the public state ---------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def current_seat(self) -> int:
        """The seat to act; after the deal ends, the seat that acted last."""
        return self._seat

    @property
    def evaluator(self) -> Evaluator:
        """The evaluator for this deal's wild cards and ``royal_high``."""
        return self._evaluator

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (R4.5: public)."""
        return tuple(self._discard)

    @property
    def stock_bottom(self) -> Card | None:
        """The upcard while it still lies face up under the stock (R2.6), else ``None``."""
        return self._stock[0] if self._upcard_in_stock and self._stock else None

    @property
    def taken_card(self) -> Card | None:
        """The card the current seat took from the discard pile this turn (R4.3)."""
        return self._taken

    @property
    def rebuilds(self) -> int:
        return len(self._rebuild_orders)

    @property
    def rebuild_orders(self) -> tuple[tuple[Card, ...], ...]:
        """Each rebuilt stock, top card first (RECORD.md ``rebuilds``)."""
        return tuple(self._rebuild_orders)

    @property
    def calls(self) -> tuple[CallMade, ...]:
        return tuple(self._calls)

    @property
    def highest_call(self) -> Value | None:
        """The highest value called so far (R6.4)."""
        return Value.from_code(self._best_code, royal_high=self.rules.royal_high)

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, with private cards: the state's own history."""
        return tuple(self._events)

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(event.action for event in self._events)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (private, R9.2: for the engine's own use and for that seat)."""
        return tuple(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    def has_called(self, seat: int) -> bool:
        return self._called[seat]

    def draws(self, seat: int) -> int:
        """How many times ``seat`` has drawn this deal."""
        return self._draws[seat]

    @property
    def is_first_turn(self) -> bool:
        """Whether the current turn is the current seat's first turn of the deal (R5.7)."""
        return self._draws[self._seat] == (0 if self._phase is Phase.DRAW else 1)

    @property
    def in_last_round(self) -> bool:
        """A call has been made: the remaining turns are the last round (R7.2)."""
        return bool(self._calls)

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the current seat may take now, in id order."""
        phase = self._phase
        if phase is Phase.DRAW:
            actions = [DRAW_STOCK] if self._can_draw_stock() else []
            if self._discard:
                actions.append(DRAW_DISCARD)
            return actions
        if phase is Phase.OVER:
            return []
        hand = self._hands[self._seat]
        taken = self._taken
        actions = [ACTIONS[_DISCARD_BASE + card] for card in sorted(hand) if card != taken]
        actions.extend(self._legal_calls(hand, taken))
        return actions

    def _legal_calls(self, hand: list[Card], taken: Card | None) -> Iterator[Action]:
        evaluator = self._evaluator
        floor = self._best_code or 1  # R6.4: equal or beat the highest call so far
        if evaluator.best_code(hand) < floor:
            return
        if evaluator.best_five_code(hand) >= floor:
            for card in sorted(hand):
                if card == taken:  # R4.3, R6.2
                    continue
                shown = [other for other in hand if other != card]
                if evaluator.code(shown) >= floor:
                    yield ACTIONS[_CALL_BASE + card]
        code = evaluator.code(hand)
        if code >= floor and (code >> 12 != _PAIUTE_ORDER or self._paiute_ok()):
            yield CALL_SIX

    def _paiute_ok(self) -> bool:
        return self._paiute_any_turn or self._draws[self._seat] == 1  # R5.7

    def _can_draw_stock(self) -> bool:
        # An empty stock is rebuilt (R4.6) or, past max_rebuilds, ends the deal (R4.7);
        # either way the draw is allowed while some card could form a stock.
        if self._stock:
            return True
        if not self._calls and len(self._rebuild_orders) >= self.rules.max_rebuilds:
            return True
        return len(self._discard) > (1 if self.rules.reshuffle_keeps_top else 0)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now (cheaper than building the list)."""
        return self._violation(action) is None

    def why_illegal(self, action: Action) -> IllegalActionError | None:
        """The error :meth:`apply` would raise for ``action``, or ``None`` if it is legal."""
        return self._violation(action)

    def _violation(self, action: Action) -> IllegalActionError | None:
        # Each explanation is a catalogue template (N_) with its parameters, so that
        # interfaces can show it in the player's language (paiute.i18n); str() stays English.
        phase = self._phase
        seat = self._seat
        kind = action.kind
        text = str(action)
        if phase is Phase.OVER:
            return IllegalActionError("R7.3", N_("the deal is over"), text)
        if phase is Phase.DRAW:
            if kind is ActionKind.DRAW_STOCK:
                if not self._can_draw_stock():
                    return IllegalActionError(
                        "R4.6", N_("the stock is empty and no rebuild is possible"), text
                    )
                return None
            if kind is ActionKind.DRAW_DISCARD:
                if not self._discard:
                    return IllegalActionError(
                        "R4.2", N_("the discard pile is empty: draw from the stock"), text
                    )
                return None
            if kind.is_call:
                return IllegalActionError("R6.1", N_("seat {seat} must draw before calling"), text, seat=seat)
            return IllegalActionError("R4.2", N_("seat {seat} must draw before discarding"), text, seat=seat)
        # Phase.DISCARD: the seat holds six cards.
        if kind.is_draw:
            return IllegalActionError(
                "R4.2", N_("seat {seat} has drawn this turn: discard or call"), text, seat=seat
            )
        hand = self._hands[seat]
        card = action.card
        if kind is ActionKind.DISCARD:
            if card not in hand:
                return IllegalActionError(
                    "R4.2", N_("seat {seat} does not hold {card}"), text, seat=seat, card=card
                )
            if card == self._taken:
                return IllegalActionError(
                    "R4.3", N_("the card taken from the discard pile may not be discarded this turn"), text
                )
            return None
        if kind is ActionKind.CALL_FIVE:
            if card not in hand:
                return IllegalActionError(
                    "R6.2", N_("seat {seat} does not hold {card} to put down"), text, seat=seat, card=card
                )
            if card == self._taken:
                return IllegalActionError(
                    "R4.3",
                    N_("the card taken from the discard pile may not be put down with a call this turn"),
                    text,
                )
            shown = [other for other in hand if other != card]
            code = self._evaluator.code(shown)
            if code == 0:
                return IllegalActionError(
                    "R6.2", N_("{cards} make no five-card combination (R5.1-R5.3)"), text, cards=tuple(shown)
                )
            return self._below_highest(code, action)
        code = self._evaluator.code(hand)
        if code == 0:
            return IllegalActionError(
                "R6.3", N_("{cards} make no six-card combination (R5.4-R5.6)"), text, cards=tuple(hand)
            )
        if code >> 12 == _PAIUTE_ORDER and not self._paiute_ok():
            return IllegalActionError(
                "R5.7", N_("a Paiute may be called only on the caller's first turn"), text
            )
        return self._below_highest(code, action)

    def _below_highest(self, code: int, action: Action) -> IllegalActionError | None:
        if code >= self._best_code:
            return None
        value = Value.from_code(code, royal_high=self.rules.royal_high)
        return IllegalActionError(
            "R6.4",
            N_("{value} does not equal or beat the highest call, {highest}"),
            str(action),
            value=value,
            highest=self.highest_call,
        )

    # -- applying actions ---------------------------------------------------------------

    def apply(self, action: Action) -> Event:
        """Apply ``action`` for the current seat; an illegal one raises
        :class:`~paiute.errors.IllegalActionError` naming the rule and changes nothing."""
        error = self._violation(action)
        if error is not None:
            raise error
        kind = action.kind
        if kind is ActionKind.DRAW_STOCK:
            event = self._draw_stock(action)
        elif kind is ActionKind.DRAW_DISCARD:
            card = self._discard.pop()
            self._hands[self._seat].append(card)
            self._taken = card  # R4.3, R4.5: public
            self._draws[self._seat] += 1
            self._phase = Phase.DISCARD
            event = Event(self._seat, action, card)
        elif kind is ActionKind.DISCARD:
            assert action.card is not None
            self._hands[self._seat].remove(action.card)
            self._discard.append(action.card)
            event = self._end_turn(Event(self._seat, action, action.card))
        else:
            event = self._end_turn(self._call(action))
        self._events.append(event)
        return event

    def _draw_stock(self, action: Action) -> Event:
        seat = self._seat
        rebuilt = 0
        if not self._stock:
            if not self._calls and len(self._rebuild_orders) >= self.rules.max_rebuilds:
                return self._finish(Event(seat, action, None, True, 0, None, True), dead=True)  # R4.7
            rebuilt = self._rebuild()
        stock = self._stock
        public = self._upcard_in_stock and len(stock) == 1  # R2.6: the upcard is face up
        card = stock.pop()
        if public:
            self._upcard_in_stock = False
        self._hands[seat].append(card)
        self._taken = None
        self._draws[seat] += 1
        self._phase = Phase.DISCARD
        return Event(seat, action, card, public, rebuilt)

    def _rebuild(self) -> int:
        """R4.6: shuffle the discard pile (but its top card, by default) into a new stock."""
        discard = self._discard
        if self.rules.reshuffle_keeps_top:
            cards, self._discard = discard[:-1], discard[-1:]
        else:
            cards, self._discard = discard[:], []
        if self._chance is None:  # a copy made without a chance (see copy())
            self._chance = SeededChance(hash((self.deck, len(self._events))))
        self._chance.shuffle(cards)  # index 0 is the new top
        self._rebuild_orders.append(tuple(cards))
        cards.reverse()
        self._stock = cards
        return len(cards)

    def _call(self, action: Action) -> Event:
        seat = self._seat
        hand = self._hands[seat]
        first_turn = self._draws[seat] == 1
        if action.kind is ActionKind.CALL_FIVE:  # R6.2
            assert action.card is not None
            shown = tuple(card for card in hand if card != action.card)
            self._discard.append(action.card)
        else:  # R6.3: the discard pile is left as it is
            shown = tuple(hand)
        code = self._evaluator.code(shown)
        value = Value.from_code(code, royal_high=self.rules.royal_high)
        assert value is not None
        call = CallMade(seat, shown, action.card, value, first_turn)
        hand.clear()  # R6.5: the shown cards stay face up, out of play
        self._called[seat] = True
        self._calls.append(call)
        if code > self._best_code:
            self._best_code = code
        return Event(seat, action, action.card, True, 0, call)

    def _end_turn(self, event: Event) -> Event:
        self._taken = None
        if self._calls and self._seat == self.dealer:  # R7.1, R7.3
            return self._finish(event, dead=False)
        self._seat = (self._seat + 1) % self.players  # R2.2, R7.2
        self._phase = Phase.DRAW
        return event

    def _finish(self, event: Event, *, dead: bool) -> Event:
        self._phase = Phase.OVER
        self._taken = None
        winners: tuple[int, ...] = ()
        if not dead:  # R8.1, R8.3
            best = max(call.value.code for call in self._calls)
            tied = [call.seat for call in self._calls if call.value.code == best]
            winners = (tied[0],) if self.rules.ties == "first_call" else tuple(sorted(tied))
        self._outcome = Outcome(dead, tuple(self._calls), winners)
        if event.ends_deal:
            return event
        return Event(event.seat, event.action, event.card, event.public, event.rebuilt, event.call, True)

    # -- copies -------------------------------------------------------------------------

    def copy(self, chance: Chance | None = None) -> Deal:
        """An independent copy. Its future rebuilds (R4.6) draw from ``chance``; without
        one, from a generator seeded by the state itself, so copies are reproducible and
        the original's chance is never touched."""
        other = object.__new__(Deal)
        other.rules = self.rules
        other.players = self.players
        other.dealer = self.dealer
        other.deck = self.deck
        other.upcard = self.upcard
        other.initial_discard = self.initial_discard
        other.wild_cards = self.wild_cards
        other.balances = self.balances
        other.pot = self.pot
        # A copy never draws from the original's generator (that would change the
        # original's future rebuilds); without ``chance`` it gets its own, made on first use.
        other._chance = chance
        other._evaluator = self._evaluator
        other._paiute_any_turn = self._paiute_any_turn
        other._hands = [hand[:] for hand in self._hands]
        other._stock = self._stock[:]
        other._discard = self._discard[:]
        other._upcard_in_stock = self._upcard_in_stock
        other._seat = self._seat
        other._phase = self._phase
        other._taken = self._taken
        other._draws = self._draws[:]
        other._called = self._called[:]
        other._calls = self._calls[:]
        other._best_code = self._best_code
        other._events = self._events[:]
        other._rebuild_orders = self._rebuild_orders[:]
        other._outcome = self._outcome
        other._cache = {}
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Deal:
        return self.copy()

    # -- hidden information ---------------------------------------------------------------

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards in ``seat``'s hand that everyone has seen it take (R4.5, R2.6)."""
        # Worked out from the events, incrementally: the cache holds how far it has read.
        start, known = self._cache.get(("known", seat), (0, []))
        events = self._events
        for event in events[start:]:
            if event.seat != seat:
                continue
            if event.action.kind.is_draw:
                if event.public and event.card is not None:
                    known.append(event.card)
            elif event.card is not None and event.card in known:
                known.remove(event.card)
        self._cache[("known", seat)] = (len(events), known)
        held = self._hands[seat]
        return tuple(card for card in known if card in held)

    def history_seen_by(self, seat: int | None) -> tuple[Event, ...]:
        """Every event as ``seat`` sees it (R9): others' draws from the stock stay hidden."""
        seen: list[Event] = self._cache.setdefault(("history", seat), [])
        events = self._events
        if len(seen) < len(events):
            seen.extend(event.seen_by(seat) for event in events[len(seen) :])
        return tuple(seen)

    def hidden_from(self, seat: int) -> list[Card]:
        """Every card whose place ``seat`` cannot know: the stock (less a visible upcard)
        and the unknown cards of the other hands (R9.3)."""
        return [card for group in self._hidden_groups(seat).values() for card in group]

    def _hidden_groups(self, seat: int) -> dict[int, list[Card]]:
        """The cards hidden from ``seat``, grouped by the stock they came from: 0 for the
        dealt pack, ``k`` for the k-th rebuilt stock (whose cards were public once, R4.6).

        A card can only be swapped with another of its group without contradicting what
        ``seat`` has seen.
        """
        source: dict[Card, int] = {}
        generation = 0
        for event in self._events:
            if event.rebuilt:
                generation += 1
            if event.action is DRAW_STOCK and event.card is not None:
                source[event.card] = generation
        groups: dict[int, list[Card]] = {}
        stock = self._stock[1:] if self.stock_bottom is not None else self._stock
        if stock:
            groups[generation] = list(stock)
        for other in range(self.players):
            if other == seat:
                continue
            known = self.known_cards(other)
            for card in self._hands[other]:
                if card not in known:
                    groups.setdefault(source.get(card, 0), []).append(card)
        return groups

    def resample_hidden(self, seat: int, chance: Chance) -> Deal:
        """A copy in which every card ``seat`` cannot see has been dealt anew at random,
        consistently with everything ``seat`` has seen (for search and for R9 tests)."""
        other = self.copy(chance)
        groups = self._hidden_groups(seat)
        replacement: dict[Card, Card] = {}
        for cards in groups.values():
            shuffled = cards[:]
            chance.shuffle(shuffled)
            replacement.update(zip(cards, shuffled, strict=True))
        other._stock = [replacement.get(card, card) for card in self._stock]
        for player in range(self.players):
            if player != seat:
                other._hands[player] = [replacement.get(card, card) for card in self._hands[player]]
        # Private draws by others now name cards nobody can check: hide them.
        other._events = [
            event if event.public or event.seat == seat else event.seen_by(seat) for event in self._events
        ]
        return other

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see now (R9); ``None`` for a spectator."""
        return observe(self, seat)

    # -- explicit chance nodes ------------------------------------------------------------

    def stock_cards(self) -> tuple[Card, ...]:
        """The stock, bottom card first: the last card is drawn next.

        Hidden from every seat while the deal lasts (R9.3); for the engine's own use and for
        frameworks that model each stock draw as a chance node (see :meth:`put_on_stock_top`).
        """
        return tuple(self._stock)

    def put_on_stock_top(self, card: Card) -> None:
        """Swap ``card`` with the stock's top card, so that the next ``draw stock`` draws it.

        For frameworks with explicit chance nodes (OpenSpiel) that choose each stock card as
        it is drawn rather than fixing the whole order at the shuffle: since nobody may see
        the stock's order (R9.3), no seat's view changes. The upcard lying face up under the
        stock (R2.6) is drawn last and cannot be moved while cards lie on it. The deck (or,
        after a rebuild, the rebuilt stock's recorded order, R4.6) is swapped the same way,
        so the deal still replays from its deck and rebuild orders (RECORD.md).
        """
        stock = self._stock
        if card not in stock:
            raise PaiuteError(f"{card} is not in the stock")
        index = stock.index(card)
        top = len(stock) - 1
        if index == top:
            return
        if index == 0 and self._upcard_in_stock:
            raise PaiuteError(f"R2.6 the upcard {card} lies face up under the stock and is drawn last")
        other = stock[top]
        stock[index], stock[top] = other, card
        if self._rebuild_orders:
            self._rebuild_orders[-1] = _swapped(self._rebuild_orders[-1], card, other)
        else:
            self.deck = _swapped(self.deck, card, other)

    def __str__(self) -> str:
        lines = [
            f"deal: {self.players} players, dealer {self.dealer}, upcard "
            f"{self.upcard if self.upcard is not None else '-'}, wild "
            f"{format_cards(sorted(self.wild_cards))}",
            f"phase {self._phase.value}, seat {self._seat}, stock {len(self._stock)}, "
            f"discard [{format_cards(self._discard)}]",
        ]
        for seat, hand in enumerate(self._hands):
            mark = "*" if seat == self._seat and not self.is_over else " "
            called = " called" if self._called[seat] else ""
            lines.append(f"{mark} seat {seat}: {format_cards(hand)}{called}")
        for call in self._calls:
            lines.append(f"  call by seat {call.seat}: {format_cards(call.shown)} = {call.value}")
        if self._outcome is not None:
            if self._outcome.dead:
                lines.append("  dead deal (R4.7)")
            else:
                lines.append(f"  winners: {', '.join(map(str, self._outcome.winners))}")
        return "\n".join(lines)


def _swapped(order: tuple[Card, ...], first: Card, second: Card) -> tuple[Card, ...]:
    """``order`` with ``first`` and ``second`` exchanged; unchanged if either is missing (a
    determinized deal, :meth:`Deal.from_observation`, has no deck or rebuild orders)."""
    if first not in order or second not in order:
        return order
    swap = {first: second, second: first}
    return tuple(swap.get(card, card) for card in order)
