"""Per-seat views of a deal: exactly what R9 lets a seat see, nothing more.

Every interface (bots, the terminal, the server, the learning environments) shows a player
only an :class:`Observation`; it is built from the deal's public properties and the seat's own
hand, so the stock order and other seats' unshown cards (R9.2, R9.3) never enter it.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiute.actions import Action
from paiute.cards import Card, format_cards
from paiute.combos import Value
from paiute.evaluator import Call, Evaluator
from paiute.events import CallMade, Event, Outcome, Phase
from paiute.rules import RuleSet

__all__ = ["Observation", "history_entry_json", "legal_calls", "seen_cards"]


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat (or a spectator, ``seat is None``) may see of a deal (R9.1, R9.2)."""

    seat: int | None
    rules: RuleSet
    players: int
    dealer: int
    current_seat: int
    phase: Phase
    balances: tuple[int, ...]
    pot: int
    upcard: Card | None
    initial_discard: Card | None  # turned face up to start the discard pile (R2.7)
    wild_cards: tuple[Card, ...]
    stock_size: int
    stock_bottom: Card | None  # the upcard, face up under the stock (R2.6)
    rebuilds: int
    discard_pile: tuple[Card, ...]  # bottom first (R4.5)
    hand: tuple[Card, ...]  # the seat's own cards (R9.2); empty for a spectator
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[Card, ...], ...]  # cards seen going into each hand (R4.5)
    taken_card: Card | None  # taken from the discard pile this turn (R4.3, R4.5)
    first_turn: bool  # whether the seat's current or next turn is its first (R5.7)
    calls: tuple[CallMade, ...]
    highest_call: Value | None
    history: tuple[Event, ...]  # every action, private draws hidden (R4.5)
    legal_actions: tuple[Action, ...]  # empty unless it is the seat's turn
    outcome: Outcome | None

    @property
    def is_my_turn(self) -> bool:
        return self.seat == self.current_seat and self.phase is not Phase.OVER

    def to_json(self, *, history: bool = True) -> dict[str, object]:
        """A JSON-ready dict (cards in canonical text; values in RECORD.md's form).

        ``history=False`` leaves out the ``history`` key: a caller that sends views often (the
        web server) keeps the history's JSON per seat and adds only the new events, since the
        history grows with every action and converting it whole each time is O(n) per view.
        """

        def card(c: Card | None) -> str | None:
            return None if c is None else str(c)

        def cards(cs: tuple[Card, ...]) -> list[str]:
            return [str(c) for c in cs]

        data: dict[str, object] = {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "dealer": self.dealer,
            "current_seat": self.current_seat,
            "phase": self.phase.value,
            "balances": list(self.balances),
            "pot": self.pot,
            "upcard": card(self.upcard),
            "initial_discard": card(self.initial_discard),
            "wild_cards": cards(self.wild_cards),
            "stock_size": self.stock_size,
            "stock_bottom": card(self.stock_bottom),
            "rebuilds": self.rebuilds,
            "discard_pile": cards(self.discard_pile),
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "known_cards": [cards(known) for known in self.known_cards],
            "taken_card": card(self.taken_card),
            "first_turn": self.first_turn,
            "calls": [call.to_json() for call in self.calls],
            "highest_call": None if self.highest_call is None else self.highest_call.to_json(),
            "history": [history_entry_json(event) for event in self.history] if history else None,
            "legal_actions": [str(action) for action in self.legal_actions],
            "outcome": None
            if self.outcome is None
            else {
                "dead": self.outcome.dead,
                "winners": list(self.outcome.winners),
            },
        }
        if not history:
            del data["history"]
        return data

    def __str__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        lines = [
            f"{who}: {self.phase.value}, seat {self.current_seat} to act, dealer {self.dealer}",
            f"upcard {self.upcard if self.upcard is not None else '-'}, wild "
            f"{format_cards(self.wild_cards)}, stock {self.stock_size}, pot {self.pot}",
            f"discard pile: {format_cards(self.discard_pile) or '(empty)'}",
        ]
        if self.seat is not None:
            lines.append(f"hand: {format_cards(self.hand)}")
        for call in self.calls:
            lines.append(f"call by seat {call.seat}: {format_cards(call.shown)} = {call.value}")
        return "\n".join(lines)


def history_entry_json(event: Event) -> dict[str, object]:
    """One event of :attr:`Observation.history` as :meth:`Observation.to_json` writes it.

    ``event`` must already be as the seat sees it (:meth:`~paiute.events.Event.seen_by`, R9).
    """
    return {
        "seat": event.seat,
        "action": str(event.action),
        "card": None if event.card is None else str(event.card),
        "rebuilt": event.rebuilt,
    }


def legal_calls(observation: Observation, evaluator: Evaluator) -> list[Call]:
    """Every call the seat may make now (R6), best first; calls of equal value stay in the
    order of the legal actions. ``evaluator`` must hold the deal's wild cards (R3) and
    ``royal_high`` (R5.8). The call's action is ``Action.call(call.discard)``."""
    calls = []
    for action in observation.legal_actions:
        if not action.kind.is_call:
            continue
        shown = tuple(card for card in observation.hand if card != action.card)
        value = evaluator.value(shown)
        if value is not None:  # always, for a legal call (R6.1)
            calls.append(Call(value, shown, action.card))
    calls.sort(key=lambda call: call.value, reverse=True)
    return calls


def seen_cards(observation: Observation) -> frozenset[Card]:
    """Every card whose place ``observation``'s seat knows (R9.1, R9.2)."""
    seen = set(observation.hand)
    seen.update(observation.discard_pile)  # R4.5: the whole pile is public
    for call in observation.calls:
        seen.update(call.shown)  # R6.5: shown cards stay face up
    for known in observation.known_cards:
        seen.update(known)  # R4.5: cards seen going into a hand
    if observation.stock_bottom is not None:
        seen.add(observation.stock_bottom)  # R2.6: face up under the stock
    if observation.upcard is not None and not observation.rules.upcard_under_stock:
        seen.add(observation.upcard)  # R2.6 [gamerules]: out of play, face up
    return frozenset(seen)
