"""The exceptions the engine raises.

Every error is a :class:`ValueError` so that callers that only care about "bad input" can
catch one thing; interfaces decide how to show them. Messages quote the offending text.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "PaiuteError",
    "ParseError",
    "RecordError",
    "RulesError",
]


class PaiuteError(ValueError):
    """Base class of every error raised by :mod:`paiute`."""


class ParseError(PaiuteError):
    """Text that is not a card, an action or a value (R1.4)."""


class RulesError(PaiuteError):
    """A rule set that cannot exist: unknown option, bad value, bad player count."""


class IllegalActionError(PaiuteError):
    """An action the rules forbid now; :attr:`rule` is the rule ID it breaks (``"R4.3"``).

    >>> error = IllegalActionError("R4.3", "the card taken from the discard pile may not be discarded this turn")
    >>> str(error)
    'R4.3 the card taken from the discard pile may not be discarded this turn'
    """

    def __init__(self, rule: str, reason: str, action: str | None = None) -> None:
        self.rule = rule
        self.reason = reason
        self.action = action
        super().__init__(f"{rule} {reason}")


class RecordError(PaiuteError):
    """A malformed game record (RECORD.md): the message says what is wrong and where."""
