"""Actions of a turn (R4.2, R6), in the text form of RECORD.md.

Every action is interned and has a fixed integer :attr:`Action.id` over the 54-card pack,
so legal-action lists are cheap and the same ids serve as an encoding for learning agents:

====== ==================================
id     action
====== ==================================
0      ``draw stock``
1      ``draw discard``
2-55   ``discard C`` (2 + card index)
56-109 ``call C`` (56 + card index): a five-card call putting down C (R6.2)
110    ``call``: a six-card call (R6.3)
====== ==================================

>>> action = Action.parse("discard 10h")
>>> str(action), action.id
('discard Th', 36)
>>> Action.parse("call") is CALL_SIX
True
"""

from __future__ import annotations

import enum

from paiute.cards import CARDS, Card
from paiute.errors import N_, ParseError

__all__ = [
    "ACTIONS",
    "CALL_BASE",
    "CALL_SIX",
    "CALL_SIX_ID",
    "DISCARD_BASE",
    "DRAW_DISCARD",
    "DRAW_STOCK",
    "NUM_ACTIONS",
    "Action",
    "ActionKind",
]


class ActionKind(enum.Enum):
    DRAW_STOCK = "draw stock"
    DRAW_DISCARD = "draw discard"
    DISCARD = "discard"
    CALL_FIVE = "call"  # with the card put down
    CALL_SIX = "call "  # distinct value; prints as plain "call"

    @property
    def is_draw(self) -> bool:
        return self in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD)

    @property
    def is_call(self) -> bool:
        return self in (ActionKind.CALL_FIVE, ActionKind.CALL_SIX)


class Action:
    """One action; use :meth:`parse`, the constants, :meth:`discard` or :meth:`call`."""

    __slots__ = ("_text", "card", "id", "kind")

    kind: ActionKind
    card: Card | None
    id: int
    _text: str

    def __new__(cls, kind: ActionKind, card: Card | None, action_id: int) -> Action:
        self = object.__new__(cls)
        self.kind = kind
        self.card = card
        self.id = action_id
        if kind is ActionKind.CALL_SIX:
            self._text = "call"
        elif card is None:
            self._text = kind.value
        else:
            self._text = f"{kind.value} {card}"
        return self

    @staticmethod
    def discard(card: Card) -> Action:
        """``discard C`` (R4.2)."""
        return ACTIONS[DISCARD_BASE + card]

    @staticmethod
    def call(card: Card | None = None) -> Action:
        """``call C``: a five-card call putting down C (R6.2); ``call``: six cards (R6.3)."""
        return CALL_SIX if card is None else ACTIONS[CALL_BASE + card]

    @staticmethod
    def from_id(action_id: int) -> Action:
        if not 0 <= action_id < NUM_ACTIONS:
            raise ParseError(N_("unknown action id {id!r} (0..{last})"), id=action_id, last=NUM_ACTIONS - 1)
        return ACTIONS[action_id]

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the record form: ``draw stock``, ``draw discard``, ``discard C``,
        ``call C``, ``call``; card text as R1.4 allows."""
        words = text.split()
        lowered = [word.lower() for word in words]
        if lowered == ["draw", "stock"]:
            return DRAW_STOCK
        if lowered == ["draw", "discard"]:
            return DRAW_DISCARD
        if lowered == ["call"]:
            return CALL_SIX
        if len(words) == 2 and lowered[0] in ("discard", "call"):
            card = Card.parse(words[1])
            return Action.discard(card) if lowered[0] == "discard" else Action.call(card)
        raise ParseError(
            N_("unknown action {text!r} (expected draw stock, draw discard, discard C, call C or call)"),
            text=text,
        )

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_id, (self.id,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self

    def __lt__(self, other: Action) -> bool:
        return self.id < other.id


#: ``discard C`` has the id DISCARD_BASE + C, ``call C`` CALL_BASE + C (C a card id).
DISCARD_BASE = 2
CALL_BASE = 56
#: The id of ``call``, the six-card call: the last.
CALL_SIX_ID = 110
NUM_ACTIONS = 111

#: Every action, indexed by id.
ACTIONS: tuple[Action, ...] = tuple(
    [
        Action(ActionKind.DRAW_STOCK, None, 0),
        Action(ActionKind.DRAW_DISCARD, None, 1),
        *(Action(ActionKind.DISCARD, card, DISCARD_BASE + card) for card in CARDS),
        *(Action(ActionKind.CALL_FIVE, card, CALL_BASE + card) for card in CARDS),
        Action(ActionKind.CALL_SIX, None, CALL_SIX_ID),
    ]
)
DRAW_STOCK = ACTIONS[0]
DRAW_DISCARD = ACTIONS[1]
CALL_SIX = ACTIONS[CALL_SIX_ID]
