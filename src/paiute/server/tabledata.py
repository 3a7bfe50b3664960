"""The values a server table is made of: its configuration, seats and events (and their drafts).

:mod:`paiute.server.table` holds the table itself (its state, the replay of its events and the
plans for new ones); these are the plain values it keeps and the small rules about them: the
bots a table may seat, the chat's limits, a table's status after some events, names.
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
    "IN_MATCH",
    "STATUSES",
    "Draft",
    "Seat",
    "TableConfig",
    "TableEvent",
    "bot_name",
    "clean_chat",
    "clean_name",
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

    def __post_init__(self) -> None:
        self.rules.check_players(self.seats)  # R2.1, R4.6
        if self.bots is not None and self.bots not in BOTS:
            raise PaiuteError(f"unknown bot {self.bots!r} (bots: {', '.join(BOTS)})")

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
        )


@dataclass(slots=True)
class Seat:
    """A seat: empty (``name is None``), a person holding a token (its hash), or a bot."""

    name: str | None = None
    token: str | None = None  # SHA-256 hex of the seat token, never the token itself
    bot: str | None = None

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
    :meth:`~paiute.server.table.LiveTable.apply`: the engine's record of an action (whose drawn
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
