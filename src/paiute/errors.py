"""The exceptions the engine raises.

Every error is a :class:`ValueError` so that callers that only care about "bad input" can
catch one thing; interfaces decide how to show them. Messages quote the offending text.

An error built from a message template keeps the template (:attr:`PaiuteError.message_id`)
and its parameters (:attr:`PaiuteError.params`) so that an interface can show it in the
reader's language (:meth:`paiute.i18n.Translator.explain`); ``str(error)`` is always the
English text. Templates are marked with :func:`N_` so that the catalogue tools find them.

>>> error = ParseError(N_("unknown rank {text!r}"), text="X")
>>> str(error), error.message_id, error.params
("unknown rank 'X'", 'unknown rank {text!r}', {'text': 'X'})
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = [
    "N_",
    "Excerpt",
    "IllegalActionError",
    "InputError",
    "Message",
    "PaiuteError",
    "ParseError",
    "RecordError",
    "ReplayError",
    "RulesError",
    "plain_text",
    "shorten",
]


def N_(message: str) -> str:  # noqa: N802 - the name the gettext tools look for
    """Mark ``message`` for the translation catalogues; return it unchanged."""
    return message


def plain_text(value: object) -> str:
    """The English text of a message parameter: cards and card lists in canonical text, a
    rank by its name (``"king"``), a combination category by its title (``"Four/Two"``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return " ".join(plain_text(item) for item in value)
    for attribute in ("singular", "title"):  # paiute.cards.Rank, paiute.combos.Category
        text = getattr(value, attribute, None)
        if isinstance(text, str):
            return text
    return str(value)


def format_message(template: str, params: Mapping[str, object]) -> str:
    """Fill ``template``'s ``{placeholders}`` with the English text of ``params``.

    ``!r`` conversions quote the parameter as Python would (a text the user typed).
    """
    return template.format(**{name: _Plain(value) for name, value in params.items()})


class Message:
    """A message template with its parameters, to be shown in English (``str()``) or
    translated later (:meth:`paiute.i18n.Translator.message`); it may be a parameter of
    another message.

    >>> str(Message(N_("a whole number {low}..{high}"), low=2, high=8))
    'a whole number 2..8'
    """

    __slots__ = ("message_id", "params")

    def __init__(self, message_id: str, /, **params: object) -> None:
        self.message_id = message_id
        self.params = params

    def __str__(self) -> str:
        return format_message(self.message_id, self.params) if self.params else self.message_id

    def __repr__(self) -> str:
        return f"Message({self.message_id!r}, **{self.params!r})"


class _Plain:
    """A parameter that formats as :func:`plain_text` and ``!r`` as its ``repr``."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return format(plain_text(self.value), spec)

    def __repr__(self) -> str:
        return repr(self.value)


class PaiuteError(ValueError):
    """Base class of every error raised by :mod:`paiute`.

    ``PaiuteError(text)`` is a finished English message; ``PaiuteError(template, **params)``
    fills the template and keeps both, for translation.
    """

    def __init__(self, message: str = "", /, **params: object) -> None:
        self.message_id = message
        self.params: dict[str, object] = params
        super().__init__(format_message(message, params) if params else message)


class ParseError(PaiuteError):
    """Text that is not a card, an action or a value (R1.4); a long text is quoted cut short."""

    def __init__(self, message: str = "", /, **params: object) -> None:
        super().__init__(
            message,
            **{
                name: Excerpt(value) if isinstance(value, str) and len(value) > 80 else value
                for name, value in params.items()
            },
        )


class RulesError(PaiuteError):
    """A rule set that cannot exist: unknown option, bad value, bad player count."""


class IllegalActionError(PaiuteError):
    """An action the rules forbid now; :attr:`rule` is the rule ID it breaks (``"R4.3"``).

    :attr:`reason` is the English explanation; when it was built from a template,
    :attr:`message_id` and :attr:`params` let an interface translate it.

    >>> error = IllegalActionError("R4.3", "the card taken from the discard pile may not be discarded this turn")
    >>> str(error)
    'R4.3 the card taken from the discard pile may not be discarded this turn'
    >>> str(IllegalActionError("R4.2", N_("seat {seat} does not hold {card}"), "discard 7h", seat=1, card="7h"))
    'R4.2 seat 1 does not hold 7h'
    """

    def __init__(self, rule: str, reason: str, action: str | None = None, /, **params: object) -> None:
        self.rule = rule
        self.reason = format_message(reason, params) if params else reason
        self.action = action
        ValueError.__init__(self, f"{rule} {self.reason}")
        self.message_id = reason
        self.params = params

    def to_actor(self) -> IllegalActionError:
        """This refusal as told to the person whose move it refuses: "you", never "seat 0"
        (itself when its message names no seat).

        >>> refusal = IllegalActionError("R4.2", N_("seat {seat} does not hold {card}"), "discard 7h", seat=0, card="7h")
        >>> str(refusal.to_actor())
        'R4.2 you do not hold 7h'
        """
        variant = _TO_ACTOR.get(self.message_id)
        if variant is None:
            return self
        params = {name: value for name, value in self.params.items() if name != "seat"}
        return IllegalActionError(self.rule, variant, self.action, **params)


#: The engine's refusals that name the acting seat by number, and the same said to that seat.
_TO_ACTOR = {
    N_("seat {seat} must draw before calling"): N_("you must draw before calling"),
    N_("seat {seat} must draw before discarding"): N_("you must draw before discarding"),
    N_("seat {seat} has drawn this turn: discard or call"): N_("you have drawn this turn: discard or call"),
    N_("seat {seat} does not hold {card}"): N_("you do not hold {card}"),
    N_("seat {seat} does not hold {card} to put down"): N_("you do not hold {card} to put down"),
}


class ReplayError(IllegalActionError):
    """A record action that breaks a rule: where it is, its text and the rule (RECORD.md).

    :attr:`deal` and :attr:`index` are the record's indexes, from 0, as :meth:`to_json` gives
    them; the message counts deals and moves from 1, as people do (``deal 1, move 15``).
    Raised by :meth:`paiute.record.Record.replay` (and importable from :mod:`paiute.record`).

    >>> error = ReplayError(0, 14, "discard Ks", "R4.3", "the card taken may not be discarded")
    >>> str(error), error.to_json()["deal"], error.to_json()["action"]
    ('deal 1, move 15 "discard Ks": R4.3 the card taken may not be discarded', 0, 14)
    """

    def __init__(
        self,
        deal: int,
        action: int,
        text: str,
        rule: str,
        reason: str,
        *,
        cause: IllegalActionError | None = None,
    ) -> None:
        super().__init__(rule, reason, text)
        if cause is not None:
            # Keep the template of the rule explanation, so that interfaces can translate it.
            self.message_id, self.params = cause.message_id, cause.params
        self.deal = deal
        self.index = action
        self.text = text
        self.args = (f'deal {deal + 1}, move {action + 1} "{text}": {rule} {reason}',)

    def __str__(self) -> str:
        return str(self.args[0])

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "action": self.index,
            "text": self.text,
            "rule": self.rule,
            "message": str(self),
        }


class RecordError(PaiuteError):
    """A malformed game record (RECORD.md): the message says what is wrong and where.

    The values it quotes are cut short (:class:`Excerpt`): a record may be hostile.
    """

    def __init__(self, message: str = "", /, **params: object) -> None:
        super().__init__(message, **{name: shorten(value) for name, value in params.items()})


class InputError(PaiuteError):
    """An input that cannot be read as asked: a missing file, a directory, several matches
    without ``--match`` (a usage error: exit status 2, where a malformed record is 1)."""


def shorten(value: object) -> object:
    """``value`` as a message may quote it: a list, an object or a long text as an
    :class:`Excerpt`, anything else as it is."""
    if isinstance(value, dict | list) or (isinstance(value, str) and len(value) > 80):
        return Excerpt(value)
    return value


class Excerpt:
    """A value quoted in a message, cut short: a hostile input of megabytes (or nested a
    thousand deep) is shown as its first few dozen characters, never whole.

    >>> repr(Excerpt("x" * 500))[:12], len(repr(Excerpt("x" * 500))) < 100
    ("'xxxxxxxxxxx", True)
    >>> str(Excerpt([[[[[[[1]]]]]]]))
    '[[[[[[[...]]]]]]]'
    """

    __slots__ = ("plain", "quoted")

    def __init__(self, value: object) -> None:
        import reprlib

        shortener = reprlib.Repr()
        shortener.maxlevel, shortener.maxstring, shortener.maxother = 6, 60, 60
        shortener.maxlist = shortener.maxdict = shortener.maxtuple = 8
        self.quoted = shortener.repr(value)
        #: Shown without quotes (``{value}``): a text cut at 60 characters, else as quoted.
        self.plain = (
            (value if len(value) <= 60 else value[:57] + "...") if isinstance(value, str) else self.quoted
        )

    def __str__(self) -> str:
        return self.plain

    def __repr__(self) -> str:
        return self.quoted
