"""What happens in a deal, as small immutable values: its :class:`Phase`, each :class:`Event`
(what one action did), each :class:`CallMade` and the :class:`Outcome` (R4, R6, R8).

A :class:`~paiute.deal.Deal` produces them; an :class:`~paiute.observation.Observation` holds
them as one seat may see them (:meth:`Event.seen_by`, R9), and a record is their list written
down (RECORD.md).

>>> from paiute.actions import Action
>>> from paiute.cards import Card
>>> event = Event(2, Action.parse("draw stock"), Card.parse("Ah"), public=False)
>>> str(event), str(event.seen_by(0))
('seat 2: draw stock (Ah)', 'seat 2: draw stock')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from paiute.actions import DRAW_STOCK, Action
from paiute.cards import Card
from paiute.combos import Value

__all__ = ["CallMade", "Event", "Outcome", "Phase"]


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
