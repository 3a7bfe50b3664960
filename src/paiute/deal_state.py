"""What a deal holds, and everything that may be read of it (R2, R4.5, R4.6, R9).

:class:`DealState` is the data of one deal: the hands, the stock, the discard pile, the calls
and the history, with the ways to build it (dealing a pack, R2.4-R2.7, or determinizing a
seat's view) and to read it (the public state, the hidden information of R9, copies). The
rules that move it, one phase at a time, are :class:`~paiute.deal.Deal`'s: its legal
actions and :meth:`~paiute.deal.Deal.apply`.

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(1))
>>> isinstance(deal, DealState), deal.stock_size, deal.stock_bottom == deal.upcard
(True, 37, True)
>>> len(deal.hidden_from(1))  # the stock less its face-up upcard, and two other hands
46
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from paiute.actions import DRAW_STOCK, Action
from paiute.cards import Card, format_cards, pack
from paiute.chance import Chance, SeededChance
from paiute.combos import Value
from paiute.determinization import deal_unseen
from paiute.errors import PaiuteError
from paiute.evaluator import Evaluator
from paiute.events import CallMade, Event, Outcome, Phase
from paiute.observation import Observation
from paiute.rules import HAND_SIZE, RuleSet

__all__ = ["HAND_SIZE", "DealState"]


class DealState:
    """The state of one deal, without the rules that move it (see :class:`~paiute.deal.Deal`)."""

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
    ) -> Self:
        """Shuffle a pack and cut it (R2.4) with ``chance``, then deal."""
        deck = pack(rules.jokers)
        chance.shuffle(deck)
        cut = chance.below(len(deck))
        deck = deck[cut:] + deck[:cut]
        return cls(rules, players, dealer, deck, chance, balances=balances, pot=pot)

    @classmethod
    def from_observation(cls, observation: Observation, chance: Chance) -> Self:
        """A full state consistent with what one seat has seen (a *determinization*).

        The seat's own hand and every public fact come from ``observation``; the cards it
        cannot see are dealt at random by ``chance``
        (:func:`~paiute.determinization.deal_unseen`). Search players use this: they only
        ever hold an :class:`~paiute.observation.Observation`, never the true state.
        """
        hands, stock = deal_unseen(observation, chance)  # R9: from the seat's view alone
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
        deal._phase = observation.phase
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
        deal._hands = hands
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

    # -- copies -------------------------------------------------------------------------

    def copy(self, chance: Chance | None = None) -> Self:
        """An independent copy. Its future rebuilds (R4.6) draw from ``chance``; without
        one, from a generator seeded by the state itself, so copies are reproducible and
        the original's chance is never touched."""
        other = object.__new__(type(self))
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

    def __deepcopy__(self, memo: object) -> Self:
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

    def resample_hidden(self, seat: int, chance: Chance) -> Self:
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
    determinized deal, :meth:`DealState.from_observation`, has no deck or rebuild orders)."""
    if first not in order or second not in order:
        return order
    swap = {first: second, second: first}
    return tuple(swap.get(card, card) for card in order)
