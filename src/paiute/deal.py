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

from collections.abc import Iterator

from paiute.actions import (
    ACTIONS,
    CALL_BASE,
    CALL_SIX,
    DISCARD_BASE,
    DRAW_DISCARD,
    DRAW_STOCK,
    Action,
    ActionKind,
)
from paiute.cards import Card
from paiute.chance import SeededChance
from paiute.combos import Value, may_call
from paiute.deal_state import DealState
from paiute.errors import N_, IllegalActionError
from paiute.events import CallMade, Event, Outcome, Phase
from paiute.observation import Observation

__all__ = ["CallMade", "Deal", "Event", "Outcome", "Phase"]


class Deal(DealState):
    """One deal and its rules: the legal actions of each phase and :meth:`apply`.

    Create with :meth:`new` (shuffled by a chance), directly from a dealt ``deck`` (top card
    first, after the shuffle and cut), or with :meth:`from_observation`. What it holds and
    how it is read are :class:`~paiute.deal_state.DealState`'s.
    """

    __slots__ = ()

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
        actions = [ACTIONS[DISCARD_BASE + card] for card in sorted(hand) if card != taken]
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
                    yield ACTIONS[CALL_BASE + card]
        if may_call(evaluator.code(hand), floor, paiute_now=self._paiute_ok()):  # R5.7, R6.4
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
        if not may_call(code, 0, paiute_now=self._paiute_ok()):  # R5.7 (R6.4: _below_highest)
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

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see now (R9); ``None`` for a spectator."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat {seat!r} is not one of the {self.players} seats")
        my_turn = seat == self.current_seat and not self.is_over
        if seat is None:
            first_turn = False
        elif my_turn:
            first_turn = self.is_first_turn
        else:
            first_turn = self.draws(seat) == 0
        return Observation(
            seat=seat,
            rules=self.rules,
            players=self.players,
            dealer=self.dealer,
            current_seat=self.current_seat,
            phase=self.phase,
            balances=self.balances,
            pot=self.pot,
            upcard=self.upcard,
            initial_discard=self.initial_discard,
            wild_cards=tuple(sorted(self.wild_cards)),
            stock_size=self.stock_size,
            stock_bottom=self.stock_bottom,
            rebuilds=self.rebuilds,
            discard_pile=self.discard_pile,
            hand=() if seat is None else self.hand(seat),
            hand_sizes=tuple(self.hand_size(s) for s in range(self.players)),
            known_cards=tuple(self.known_cards(s) for s in range(self.players)),
            taken_card=self.taken_card,
            first_turn=first_turn,
            calls=self.calls,
            highest_call=self.highest_call,
            history=self.history_seen_by(seat),
            legal_actions=tuple(self.legal_actions()) if my_turn else (),
            outcome=self.outcome,
        )
