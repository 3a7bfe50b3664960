"""The deal as OpenSpiel plays it, with every card chance places as an explicit chance node.

:class:`SpielTable` is the pure-Python core of :mod:`paiute.envs.openspiel` (it imports no
``pyspiel``): one deal of the engine's :class:`~paiute.deal.Deal` driven by integer actions.

* **The deal (R2.5-R2.7).** One chance node per card dealt, in the order R2.5 deals them: five
  to each seat from the dealer's left, then the upcard (R2.6, none with jokers, R2.8), then
  the card that starts the discard pile with ``open_discard`` (R2.7). Each picks uniformly
  among the cards not dealt yet. The rest of the pack is the stock, in no fixed order.
* **Draws from the stock (R4.2).** A seat's ``draw stock`` is followed by a chance node that
  picks the card drawn, uniformly among the stock's cards: nobody may see the stock's order
  (R9.3), so choosing each card as it is drawn is the same as shuffling once. The upcard
  lying face up under the stock (R2.6) is drawn last. An empty stock is rebuilt from the
  discard pile (R4.6) and the card comes from the rebuilt stock; a draw with only one possible
  card has no chance node. The engine keeps its deck and rebuild orders in step
  (:meth:`Deal.put_on_stock_top <paiute.deal.Deal.put_on_stock_top>`), so a finished deal
  still makes a valid ``paiute-record/1`` record.
* **max_turns.** R4.7 bounds the stock rebuilds, not a deal in which every seat takes the
  discard pile's top card (docs/rules.md, reading 14). A table ends the deal as dead (R8.5:
  every stake is returned, all returns 0) when ``max_turns`` turns have been played without a
  call; after a call the last round (R7.2) is always played out (:mod:`paiute.envs.truncation`).

Action ids are the engine's (:mod:`paiute.actions`) for the seats and card ids
(:class:`~paiute.cards.Card`) for chance. Returns are the chips each seat won or lost in the
deal (R8), counted from before the stakes; a dead deal returns every stake (all 0).

>>> from paiute import RuleSet
>>> table = SpielTable(RuleSet(), players=2, dealer=1, max_turns=50)
>>> table.is_chance, len(table.chance_outcomes())
(True, 52)
>>> for card in range(11):  # five cards each, then the upcard
...     table.apply(card)
>>> table.is_chance, table.current_seat, table.legal_actions()
(False, 0, [0])
>>> table.apply(0)  # draw stock: chance picks one of the 41 cards on the face-up upcard
>>> table.is_chance, len(table.chance_outcomes())
(True, 41)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from paiute.actions import DRAW_DISCARD, DRAW_STOCK, NUM_ACTIONS, Action, ActionKind
from paiute.cards import CARDS, Card, format_cards, pack
from paiute.deal import Deal, Event
from paiute.envs.truncation import cut_outcome, past_max_turns
from paiute.errors import IllegalActionError, PaiuteError
from paiute.rules import HAND_SIZE, RuleSet
from paiute.settlement import collect_stakes, settle

__all__ = ["HAND_SIZE", "SpielTable"]

#: History entries that are a seat's action rather than a chance outcome (see ``_contexts``).
_SEAT_ACTION = -1
#: A card that reached a hand without a chance node (the only card a draw could take).
_PINNED = -1


class _NoShuffle:
    """The deal's chance: every rebuild must go through :class:`_TopFirst` (a chance node)."""

    __slots__ = ()

    def shuffle(self, cards: list[Card]) -> None:
        raise PaiuteError("internal error: a stock rebuild (R4.6) outside a chance node")

    def below(self, n: int) -> int:
        raise PaiuteError("internal error: the table's deal draws no random numbers")


class _TopFirst:
    """A rebuild (R4.6) whose first card is the one the chance node chose; the rest of the
    order does not matter, since every later draw is chosen by a chance node too."""

    __slots__ = ("card",)

    def __init__(self, card: Card) -> None:
        self.card = card

    def shuffle(self, cards: list[Card]) -> None:
        cards.remove(self.card)
        cards.insert(0, self.card)  # index 0 is the new top

    def below(self, n: int) -> int:
        raise PaiuteError("internal error: the table's deal draws no random numbers")


_NO_SHUFFLE = _NoShuffle()


class SpielTable:
    """One deal for OpenSpiel: chance nodes for every dealt and drawn card, integer actions.

    ``dealer`` deals (R2.5) and the seat to its left plays first (R4.1). ``max_turns`` turns
    without a call end the deal as dead (see the module docstring).
    """

    __slots__ = (
        "_actions",
        "_contexts",
        "_deal",
        "_dealt",
        "_over",
        "_pack",
        "_pending",
        "_placed",
        "_to_deal",
        "_truncated",
        "_turns",
        "_views",
        "dealer",
        "max_turns",
        "players",
        "rules",
    )

    def __init__(self, rules: RuleSet, players: int, dealer: int, max_turns: int) -> None:
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise PaiuteError(f"R2.2 dealer seat {dealer!r} is not one of the {players} seats")
        if max_turns < 1:
            raise PaiuteError(f"max_turns must be at least 1, not {max_turns!r}")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.max_turns = max_turns
        self._pack: tuple[Card, ...] = tuple(pack(rules.jokers))
        # R2.5-R2.7: the hands, the upcard (not with jokers), the card that opens the pile.
        self._to_deal = HAND_SIZE * players + (0 if rules.jokers else 1) + (1 if rules.open_discard else 0)
        self._dealt: list[Card] = []
        self._deal: Deal | None = None
        self._pending = False  # a seat chose `draw stock`; a chance node picks the card
        self._turns = 0  # turns started: draws (R4.2)
        self._truncated = False  # ended as dead by max_turns
        self._over = False  # the deal has ended (kept up to date by apply: asked very often)
        self._actions: list[int] = []  # the whole history, chance outcomes included
        # Per history entry: _SEAT_ACTION, or the stock a chance card came from: 0 for the
        # dealt pack, k for the k-th rebuilt stock (R4.6).
        self._contexts: list[int] = []
        # Where each card last reached a hand or the table by chance: its context, or _PINNED.
        self._placed: dict[Card, int] = {}
        # What each seat has seen, one short text per event, in order: its information state;
        # the last list is what everyone has seen (a spectator's view, R9.1).
        self._views: list[list[str]] = [[] for _ in range(players + 1)]

    # -- copies and replays ------------------------------------------------------------------

    def copy(self) -> SpielTable:
        """An independent copy (OpenSpiel clones states all the time: this is cheap)."""
        other = object.__new__(SpielTable)
        other.rules = self.rules
        other.players = self.players
        other.dealer = self.dealer
        other.max_turns = self.max_turns
        other._pack = self._pack
        other._to_deal = self._to_deal
        other._dealt = self._dealt[:]
        other._deal = None if self._deal is None else self._deal.copy(_NO_SHUFFLE)
        other._pending = self._pending
        other._turns = self._turns
        other._truncated = self._truncated
        other._over = self._over
        other._actions = self._actions[:]
        other._contexts = self._contexts[:]
        other._placed = dict(self._placed)
        other._views = [view[:] for view in self._views]
        return other

    def __deepcopy__(self, memo: object) -> SpielTable:
        return self.copy()

    def __reduce__(self) -> tuple[Callable[..., SpielTable], tuple[Any, ...]]:
        # Pickled as its history and replayed: the chance outcomes are in the history.
        return (replay, (self.rules, self.players, self.dealer, self.max_turns, tuple(self._actions)))

    # -- the state -------------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The engine's deal, once every card of R2.5-R2.7 is dealt."""
        return self._deal

    @property
    def is_terminal(self) -> bool:
        return self._over

    @property
    def is_chance(self) -> bool:
        return not self._over and (self._deal is None or self._pending)

    @property
    def truncated(self) -> bool:
        """Whether the deal ended as dead because ``max_turns`` turns passed without a call."""
        return self._truncated

    @property
    def turns(self) -> int:
        """Turns started so far (each turn starts with a draw, R4.2)."""
        return self._turns

    @property
    def current_seat(self) -> int:
        """The seat to act (the drawing seat at a draw's chance node)."""
        if self._deal is None:
            raise PaiuteError("the cards are still being dealt (R2.5): chance acts")
        return self._deal.current_seat

    @property
    def actions(self) -> tuple[int, ...]:
        """Every action so far, chance outcomes included, as OpenSpiel's history holds them."""
        return tuple(self._actions)

    @property
    def dealt_count(self) -> int:
        """How many cards of R2.5-R2.7 have been dealt."""
        return len(self._dealt)

    def dealt_to(self, seat: int) -> tuple[Card, ...]:
        """The cards dealt to ``seat`` so far (R2.5)."""
        players = self.players
        first = (seat - self.dealer - 1) % players
        count = min(len(self._dealt), HAND_SIZE * players)
        return tuple(self._dealt[index] for index in range(first, count, players))

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards: those dealt so far while dealing, then its hand (R9.2: private)."""
        if self._deal is None:
            return self.dealt_to(seat)
        return self._deal.hand(seat)

    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending (chance nodes: the possible cards)."""
        if self.is_terminal:
            return []
        if self.is_chance:
            return [card for card, _ in self.chance_outcomes()]
        assert self._deal is not None
        return [action.id for action in self._deal.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each possible card with its probability: uniform over the cards chance may place."""
        if not self.is_chance:
            raise PaiuteError("not a chance node")
        cards = self._candidates()
        probability = 1.0 / len(cards)
        return [(int(card), probability) for card in cards]

    def _candidates(self) -> list[Card]:
        deal = self._deal
        if deal is None:
            dealt = set(self._dealt)
            return [card for card in self._pack if card not in dealt]
        stock = deal.stock_cards()
        if stock:
            bottom = deal.stock_bottom  # R2.6: face up, drawn last
            hidden = [card for card in stock if card != bottom]
            return sorted(hidden) if hidden else list(stock)
        pile = deal.discard_pile  # R4.6: the pile, but its top card by default, is rebuilt
        return sorted(pile[:-1] if self.rules.reshuffle_keeps_top else pile)

    def returns(self) -> list[float]:
        """Chips each seat won or lost in the deal (R8), from before the stakes (R8.2); all 0
        until the deal ends and for a dead deal (R8.5: every stake is returned)."""
        deal = self._deal
        if deal is None:
            return [0.0] * self.players
        outcome = cut_outcome(deal) if self._truncated else deal.outcome
        if outcome is None or outcome.dead:
            return [0.0] * self.players
        after, _ = settle(self.rules, outcome, deal.balances, deal.pot, deal.dealer)
        return [float(chips) for chips in after]

    # -- applying actions ------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a chance outcome (a card id) or the current seat's action id."""
        action = int(action)
        if self.is_terminal:
            raise IllegalActionError("R7.3", "the deal is over", str(action))
        if self._deal is None:
            card = self._chance_card(action)
            self._record(action, 0)
            self._deal_card(card)
        elif self._pending:
            card = self._chance_card(action)
            self._pending = False
            self._record(action, self._draw(card))
        else:
            if not 0 <= action < NUM_ACTIONS:
                raise PaiuteError(f"unknown action id {action!r} (0..{NUM_ACTIONS - 1})")
            move = Action.from_id(action)
            error = self._deal.why_illegal(move)
            if error is not None:
                raise error  # before anything changes
            self._record(action, _SEAT_ACTION)
            self._seat_action(move)
        deal = self._deal
        self._over = self._truncated or (deal is not None and deal.is_over)

    def _record(self, action: int, context: int) -> None:
        self._actions.append(action)
        self._contexts.append(context)

    def _chance_card(self, action: int) -> Card:
        for card in self._candidates():
            if card == action:
                return card
        raise PaiuteError(f"chance outcome {action!r} is not a card chance may place here")

    def _deal_card(self, card: Card) -> None:
        index = len(self._dealt)
        self._dealt.append(card)
        self._placed[card] = 0
        players = self.players
        if index < HAND_SIZE * players:  # R2.5: one at a time from the dealer's left
            seat = (self.dealer + 1 + index) % players
            self._see(f"deal {seat}:{card}", seat, f"deal {seat}:??")
        elif index == HAND_SIZE * players and not self.rules.jokers:
            self._see(f"upcard {card}")  # R2.6
        else:
            self._see(f"open {card}")  # R2.7
        if len(self._dealt) == self._to_deal:
            deck = self._dealt + [other for other in self._pack if other not in self._placed]
            balances, pot = collect_stakes(self.rules, [0] * players, 0)  # R8.2
            self._deal = Deal(self.rules, players, self.dealer, deck, _NO_SHUFFLE, balances=balances, pot=pot)

    def _seat_action(self, action: Action) -> None:
        deal = self._deal
        assert deal is not None
        seat = deal.current_seat
        if action is not DRAW_STOCK:
            if action is DRAW_DISCARD:
                self._turns += 1
            self._show(deal.apply(action))
            self._check_turns()
            return
        self._turns += 1
        self._see(f"{seat}:draw stock")
        # R4.7: past max_rebuilds before a call, the draw ends the deal and draws nothing.
        if deal.stock_size == 0 and not deal.calls and deal.rebuilds >= self.rules.max_rebuilds:
            self._show(deal.apply(DRAW_STOCK))
            return
        candidates = self._candidates()
        if len(candidates) == 1:  # nothing to choose: no chance node
            self._draw(candidates[0], pinned=True)
        else:
            self._pending = True

    def _draw(self, card: Card, *, pinned: bool = False) -> int:
        """Draw ``card`` from the stock for the current seat; returns the stock it came from."""
        deal = self._deal
        assert deal is not None
        if deal.stock_size == 0:  # R4.6: rebuild with the chosen card on top
            deal = self._deal = deal.copy(_TopFirst(card))
            context = deal.rebuilds + 1
        else:
            deal.put_on_stock_top(card)
            context = deal.rebuilds
        event = deal.apply(DRAW_STOCK)
        assert event.card == card
        self._placed[card] = _PINNED if pinned else context
        self._show(event)
        self._check_turns()
        return context

    def _check_turns(self) -> None:
        deal = self._deal
        assert deal is not None
        if past_max_turns(deal, self._turns, self.max_turns):
            self._truncated = True
            self._see("dead deal (max_turns)")

    # -- what each seat sees ---------------------------------------------------------------

    def _see(self, text: str, seat: int | None = None, others: str | None = None) -> None:
        """Append ``text`` to ``seat``'s view (every seat's if None), ``others`` to the rest
        (the spectator's view, last, is never ``seat``'s)."""
        for viewer, view in enumerate(self._views):
            if seat is None or viewer == seat:
                view.append(text)
            elif others is not None:
                view.append(others)

    def _show(self, event: Event) -> None:
        seat = event.seat
        kind = event.action.kind
        if kind is ActionKind.DRAW_STOCK:
            if event.card is None and event.ends_deal:
                self._see("dead deal (R4.7)")
                return
            if event.rebuilt:
                self._see(f"rebuild {event.rebuilt}")  # R4.6: public
            drew = f"{seat}:drew {event.card}"
            if event.public:  # R2.6: the face-up upcard
                self._see(drew)
            else:  # R9.2: only the drawer sees it
                self._see(drew, seat)
            return
        text = f"{seat}:{event.action}"
        if kind is ActionKind.DRAW_DISCARD:
            text += f" {event.card}"  # R4.5: public
        if event.call is not None:
            text += f" = {event.call.value}"
        self._see(text)

    def view(self, seat: int) -> str:
        """``seat``'s information state as text: everything it has seen, in order (perfect
        recall, R9), then its hand."""
        hand = format_cards(sorted(self.hand(seat)))
        return f"seat {seat}: " + ", ".join(self._views[seat]) + f" | hand {hand}"

    def public_view(self) -> str:
        """What everyone has seen, in order (R9.1): the public information state."""
        return "public: " + ", ".join(self._views[self.players])

    def action_text(self, action: int, chance: bool) -> str:
        """Text for an action id: a seat's action as RECORD.md writes it, or a chance card."""
        if not chance:
            return str(Action.from_id(action)) if 0 <= action < NUM_ACTIONS else f"action {action}"
        if not 0 <= action < len(self._pack):
            return f"card {action}"
        card = CARDS[action]
        if self._deal is None and self.is_chance:
            index = len(self._dealt)
            if index < HAND_SIZE * self.players:
                return f"deal {card} to seat {(self.dealer + 1 + index) % self.players}"
            if index == HAND_SIZE * self.players and not self.rules.jokers:
                return f"upcard {card}"
            return f"open the discard pile with {card}"
        if self._pending and self._deal is not None:
            return f"seat {self._deal.current_seat} draws {card}"
        return f"card {card}"

    def __str__(self) -> str:
        if self._deal is None:
            hands = "; ".join(
                f"seat {seat}: {format_cards(self.dealt_to(seat))}" for seat in range(self.players)
            )
            return f"dealing, card {len(self._dealt) + 1} of {self._to_deal}, dealer {self.dealer}\n{hands}"
        text = str(self._deal) + f"\nturn {self._turns} of at most {self.max_turns} before a call"
        if self._pending:
            text += f"\nseat {self._deal.current_seat} draws from the stock: chance picks the card"
        if self._truncated:
            text += "\ndead deal: max_turns reached without a call"
        return text

    # -- resampling hidden cards -------------------------------------------------------------

    def resampled_actions(self, seat: int, uniform: Callable[[], float]) -> list[int]:
        """A history that ``seat`` cannot tell from this one (R9), with the cards it cannot
        see dealt anew: the same actions, chance outcomes changed.

        Every card whose place ``seat`` does not know (the stock but a face-up upcard, and the
        cards of other hands it has not seen, R9.3) is permuted at random, by ``uniform`` (a
        source of floats in [0, 1)), with the others that came from the same stock: the dealt
        pack or one rebuilt stock (R4.6), whose cards were public once. Each such card is
        changed in the chance outcome that put it where it is now, so the new history replays
        to a legal deal. As in :meth:`Deal.resample_hidden <paiute.deal.Deal.resample_hidden>`,
        every arrangement of the hidden cards is equally likely (what the players' choices may
        say about their cards is not modelled).
        """
        if not 0 <= seat < self.players:
            raise PaiuteError(f"seat {seat!r} is not one of the {self.players} seats")
        groups: dict[int, list[Card]] = {}
        deal = self._deal
        if deal is None:
            # Still dealing: every card but the seat's own and the public ones may be anywhere.
            seen = set(self.dealt_to(seat))
            seen.update(self._dealt[HAND_SIZE * self.players :])
            groups[0] = [card for card in self._pack if card not in seen]
        else:
            bottom = deal.stock_bottom
            groups[deal.rebuilds] = [card for card in deal.stock_cards() if card != bottom]
            for other in range(self.players):
                if other == seat:
                    continue
                known = deal.known_cards(other)
                for card in deal.hand(other):
                    context = self._placed.get(card, _PINNED)
                    if card not in known and context != _PINNED:
                        groups.setdefault(context, []).append(card)
        replacement: dict[Card, Card] = {}
        group_of: dict[Card, int] = {}
        for context, cards in groups.items():
            shuffled = cards[:]
            _shuffle(shuffled, uniform)
            replacement.update(zip(cards, shuffled, strict=True))
            group_of.update(dict.fromkeys(cards, context))
        actions = self._actions[:]
        for index, context in enumerate(self._contexts):
            if context == _SEAT_ACTION:
                continue
            card = CARDS[actions[index]]
            if group_of.get(card) == context:
                actions[index] = int(replacement[card])
        return actions


def replay(rules: RuleSet, players: int, dealer: int, max_turns: int, actions: Sequence[int]) -> SpielTable:
    """The table reached by applying ``actions`` (chance outcomes included) to a new one."""
    table = SpielTable(rules, players, dealer, max_turns)
    for action in actions:
        table.apply(action)
    return table


def _shuffle(cards: list[Card], uniform: Callable[[], float]) -> None:
    """Fisher-Yates with floats from ``uniform`` (OpenSpiel hands resamplers such a sampler)."""
    for high in range(len(cards) - 1, 0, -1):
        pick = min(int(uniform() * (high + 1)), high)
        cards[high], cards[pick] = cards[pick], cards[high]
