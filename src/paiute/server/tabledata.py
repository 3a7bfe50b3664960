"""The values a server table is made of: its configuration, seats and events (and their drafts).

:mod:`paiute.server.tablestate` (its state, the replay of its events) and
:mod:`paiute.server.table` (the plans for new ones) hold the table itself; these are the plain
values it keeps and the small rules about them: the bots a table may seat, the chat's limits,
a table's status after some events, names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiute.deal import Event
from paiute.errors import N_, PaiuteError
from paiute.players import LEVELS
from paiute.rules import RuleSet
from paiute.server.errors import ServiceError
from paiute.server.names import clean_name as _clean_name

__all__ = [
    "AUTOPLAY_REASONS",
    "BOTS",
    "CHAT_KEPT",
    "CHAT_LIMIT",
    "CHAT_PER_SEAT",
    "CHAT_STORED",
    "CLOCK_BOT",
    "HINT_REASONS",
    "IN_MATCH",
    "STATUSES",
    "Draft",
    "HintPolicy",
    "Seat",
    "TableConfig",
    "TableEvent",
    "bot_name",
    "clean_chat",
    "clean_name",
    "hint_policy",
    "status_after",
]

#: The bots a table may seat (a closed list: a client cannot ask for an expensive search):
#: the levels people choose from (paiute.players.LEVELS) and three specs kept for old clients.
BOTS: tuple[str, ...] = (*LEVELS, "greedy", "random", "ismcts:ms=200")
#: Where the clock and timeouts play for a seat (the server plays a greedy turn).
CLOCK_BOT = "greedy"
#: Why a person's seat is played by the bot (event ``autoplay``): its player's connection went
#: and the grace period ran out, the host handed the absent seat over, the player left during
#: the match, or the clock ran out while the seat had no connection.
AUTOPLAY_REASONS = ("away", "host", "left", "clock")
#: The statuses in which a match is under way (seats are held for the whole match).
IN_MATCH = ("cut", "playing", "deal_over")
CHAT_LIMIT = 200
#: Chat lines a table stores, and one seat may say there; past them more are refused (a flood
#: cannot fill the database, and one seat cannot use up the others' chat).
CHAT_STORED = 500
CHAT_PER_SEAT = 150
CHAT_KEPT = 50
STATUSES = ("waiting", "cut", "playing", "deal_over", "closed")


# -- configuration and seats --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What the creator chose; fixed for the table's life."""

    name: str
    rules: RuleSet
    seats: int
    chips: int
    bots: str | None = None
    private: bool = False
    turn_seconds: int | None = None
    max_deals: int | None = None
    invite: str | None = None  # the invitation code of a private table
    bank_seconds: int = 0  # each seat's time bank, spent when a turn takes longer than turn_seconds
    hints: bool = False  # hints between people: allowed, each ask told to the table (hint_policy)
    rated: bool = False  # a rated match: accounts only, no bots, a clock, no hints (paiute.server.ratings)
    lesson: bool = False  # "Learn to play": the prepared deal and its coach (paiute.server.lesson)

    def __post_init__(self) -> None:
        self.rules.check_players(self.seats)  # R2.1, R4.6
        if self.bots is not None and self.bots not in BOTS:
            raise PaiuteError(f"unknown bot {self.bots!r} (bots: {', '.join(BOTS)})")
        if self.rated:
            _check_rated(self)
        if self.lesson and (self.rated or not self.private):
            raise PaiuteError("a lesson table is private and never rated")

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "rules": self.rules.to_dict(),
            "seats": self.seats,
            "chips": self.chips,
            "bots": self.bots,
            "private": self.private,
            "turn_seconds": self.turn_seconds,
            "max_deals": self.max_deals,
            "invite": self.invite,
            "bank_seconds": self.bank_seconds,
            "hints": self.hints,
            "rated": self.rated,
            "lesson": self.lesson,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            name=data["name"],
            rules=RuleSet.from_dict(data["rules"]),
            seats=data["seats"],
            chips=data["chips"],
            bots=data.get("bots"),
            private=data.get("private", False),
            turn_seconds=data.get("turn_seconds"),
            max_deals=data.get("max_deals"),
            invite=data.get("invite"),
            bank_seconds=data.get("bank_seconds", 0),
            hints=data.get("hints", False),
            rated=data.get("rated", False),
            lesson=data.get("lesson", False),
        )


def _check_rated(config: TableConfig) -> None:
    """Refuse a rated table that could not be rated: every seat is a person (no bots fill
    the empty ones), the clock runs (nobody can stall a rated match), no hints."""
    if config.bots is not None:
        raise ServiceError(
            "bad_request", N_("a rated table has no bots: every seat is a person with an account")
        )
    if config.turn_seconds is None:
        raise ServiceError("bad_request", N_("a rated table has a turn clock"))
    if config.hints:
        raise ServiceError("bad_request", N_("a rated table has no hints"))


# -- hints (paiute.server.hints) ----------------------------------------------------------

#: Why hints are on or off for a seat (the View's ``hints.reason``): ``alone`` (one person
#: with bots: on), ``allowed`` (people, and the creator allowed hints: on, and every ask is
#: told to the table), ``people`` (people, and the creator did not allow them: off), ``rated``
#: (a rated match: off for everyone, whoever plays).
HINT_REASONS = ("alone", "allowed", "people", "rated")

#: Why a hint is refused, for each reason that turns hints off.
_HINTS_OFF: dict[str, str] = {
    "people": N_("hints are off at a table of people: the table's creator did not allow them"),
    "rated": N_("hints are off at a rated table: each player plays on their own"),
}


@dataclass(frozen=True, slots=True)
class HintPolicy:
    """Whether a seat may ask for a hint now (``on``), why (one of :data:`HINT_REASONS`)."""

    on: bool
    reason: str

    @property
    def announced(self) -> bool:
        """Whether each hint asked for is told to the whole table (never its content, R9)."""
        return self.reason == "allowed"

    def check(self) -> None:
        """Refuse a hint (``hints_off``) when hints are off, saying why."""
        if not self.on:
            raise ServiceError("hints_off", _HINTS_OFF[self.reason])


def hint_policy(config: TableConfig, people: int) -> HintPolicy:
    """Whether hints are on at a table of ``config`` where ``people`` persons play now.

    One person with bots gains nothing over another person: hints are on. Between people a
    hint is help the others do not get, so it is off unless the creator allowed it, and then
    the table is told of every ask. A rated match counts for every seat's rating: hints are
    off there, even for the last person left with bots. The one place that decides: the hint
    endpoint and the View both ask it (:meth:`~paiute.server.tablestate.TableState.hints_for`).

    >>> config = TableConfig("t", RuleSet(), 3, 100)
    >>> hint_policy(config, 1), hint_policy(config, 2).on
    (HintPolicy(on=True, reason='alone'), False)
    """
    if config.rated:
        return HintPolicy(False, "rated")
    if people <= 1:
        return HintPolicy(True, "alone")
    if config.hints:
        return HintPolicy(True, "allowed")
    return HintPolicy(False, "people")


@dataclass(slots=True)
class Seat:
    """A seat: empty (``name is None``), a person holding a token (its hash), or a bot."""

    name: str | None = None
    token: str | None = None  # SHA-256 hex of the seat token, never the token itself
    bot: str | None = None
    # At a rated table, the id of the account the person sat down with (server-only; the
    # seat's name is then the account's name).
    account: str | None = None

    @property
    def taken(self) -> bool:
        return self.name is not None


# -- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draft:
    """An event not yet stored: its type, seat, public data and server-only secret data."""

    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class TableEvent:
    """A stored event. ``data`` may be shown (through the views); ``secret`` never is.

    ``engine`` and ``deal`` are filled in memory by
    :meth:`~paiute.server.tablestate.TableState.apply`: the engine's record of an action (whose drawn
    card the views hide from other seats, R9) and the deal number.
    """

    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    secret: dict[str, Any]
    created: float
    engine: Event | None = None
    deal: int | None = None


_STATUS_AFTER = {"commitment": "cut", "deal": "playing", "deal_over": "deal_over", "closed": "closed"}


def status_after(status: str, drafts: Iterable[Draft]) -> str:
    """The table's status once ``drafts`` are applied (kept in the database for listing)."""
    for draft in drafts:
        status = _STATUS_AFTER.get(draft.type, status)
    return status


def clean_name(name: str) -> str:
    """A display name: NFKC, visible, 1 to 32 characters (:mod:`paiute.server.names`)."""
    return _clean_name(name)


def clean_chat(text: str) -> str:
    """A chat line: printable, 1 to 200 characters."""
    line = " ".join("".join(ch for ch in text if ch.isprintable()).split())
    if not 1 <= len(line) <= CHAT_LIMIT:
        raise ServiceError("bad_request", N_("a chat line has 1 to {limit} characters"), limit=CHAT_LIMIT)
    return line


def bot_name(spec: str, seat: int, taken: Sequence[str | None]) -> str:
    """A bot's display name, e.g. "Greedy 3" for a greedy bot at seat 2."""
    base = spec.split(":")[0].upper() if spec.startswith("ismcts") else spec.split(":")[0].capitalize()
    name = f"{base} {seat + 1}"
    return name if name not in taken else f"{base} bot {seat + 1}"
