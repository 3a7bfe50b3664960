"""A server table in memory (:class:`Runtime`), the server's settings, and seat tokens.

:mod:`paiute.server.core` changes tables (the commit path, bots, clocks) and
:mod:`paiute.server.service` answers requests; both keep their tables as these.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from paiute.players import Player
from paiute.server import views
from paiute.server.db import DatabaseTimeouts
from paiute.server.presence import Remote
from paiute.server.pubsub import Subscriber
from paiute.server.table import LiveTable
from paiute.server.tabledata import Draft
from paiute.server.updates import Updates

__all__ = ["Plan", "Runtime", "Settings", "hash_token", "new_token"]

#: What a change asks of a table: the drafts of its events (a refusal raises ServiceError).
Plan = Callable[[LiveTable], list[Draft]]


@dataclass(frozen=True, slots=True)
class Settings:
    """How the server paces and limits play (``paiute serve`` flags set some of them)."""

    bot_delay: float = 0.6  # seconds a bot waits before acting, so people can follow
    deal_pause: float = 3.0  # seconds between the end of a deal and the next commitment
    ws_rate: float = 20.0  # messages per second a WebSocket connection may send...
    ws_burst: float = 40.0  # ...with bursts up to this many
    http_rate: float = 20.0  # requests per second changing state, per token or address...
    http_burst: float = 60.0
    max_message: int = 4096  # bytes in one WebSocket message
    max_body: int = 16384  # bytes in one HTTP request body
    list_limit: int = 200  # tables in the lobby's list
    away_grace: float = 30.0  # seconds a seat whose player went waits before the bot plays it
    turn_seconds: int = 30  # the turn clock of a new table unless it sets its own...
    bank_seconds: int = 60  # ...and each seat's time bank
    #: A table where no person has been for this many minutes ends (0: never); see
    #: :meth:`~paiute.server.abandoned.AbandonedTables.sweep` (``paiute serve --abandon-after``).
    abandon_minutes: int = 30
    #: Tests only: deal from a generator with this seed instead of the secure source (R10.1).
    #: Anyone who knows it knows every hand (``paiute serve --insecure-deal-seed``, loopback only).
    insecure_deal_seed: int | None = None
    #: How long a database call may take (``paiute serve --db-connect-timeout``,
    #: ``--db-statement-timeout``, ``--db-lock-timeout``; :mod:`paiute.server.dbcalls`).
    db_timeouts: DatabaseTimeouts = field(default_factory=DatabaseTimeouts)


def hash_token(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256 (a stolen database seats nobody)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Runtime:
    """A table in memory with its lock, its connections and its automation task."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task[None] | None = None
        self.wake = asyncio.Event()
        self.players: dict[int, Player] = {}
        self.updates = Updates()  # the update frames, encoded once per version and seat
        self.away: dict[int, float] = {}  # seats whose player went -> when the bot takes over
        self.rematch_lock = asyncio.Lock()
        self.presence_due: asyncio.TimerHandle | None = None  # the next presence frame
        self.presence_publish = False  # the next presence frame also goes to the other processes
        # What the other processes sharing the database hold of this table (paiute.server.presence)
        self.remote: dict[str, Remote] = {}
        # When a person was last known at the table beyond its events (a connection of their
        # seat, a request by their seat token), and the latest of those written to the
        # database (the abandoned-table sweep reads it back after a restart).
        self.seen = 0.0
        self.touched = 0.0
        self.loaded = 0.0  # when this process read the table (its presence not yet heard)

    def local_seats(self) -> frozenset[int]:
        """The seats with a connection to this process."""
        return frozenset(sub.seat for sub in self.subscribers if sub.seat is not None)

    def local_spectators(self) -> int:
        return sum(1 for sub in self.subscribers if sub.seat is None)

    def presence(self) -> views.Presence:
        """Who is at the table, over every process: the union of the connections, the
        spectators added up, and the grace periods of the seats connected nowhere."""
        seats = self.local_seats().union(*(remote.seats for remote in self.remote.values()))
        spectators = self.local_spectators() + sum(remote.spectators for remote in self.remote.values())
        away = dict(self.away)
        for remote in self.remote.values():
            for seat, deadline in remote.away:
                away[seat] = min(deadline, away.get(seat, deadline))
        shown = tuple(sorted((seat, due) for seat, due in away.items() if seat not in seats))
        return views.Presence(seats, spectators, shown)

    def people_connected(self) -> frozenset[int]:
        """The persons' seats connected to any process, less those whose player left the
        match: who keeps the table from being abandoned (spectators never do)."""
        seats = self.local_seats().union(*(remote.seats for remote in self.remote.values()))
        return frozenset(seat for seat in seats if self.table.autoplay.get(seat) != "left")

    def saw(self, seat: int | None, now: float) -> None:
        """A person of ``seat`` is at the table now (a bot, a spectator or a player who left
        the match does not count)."""
        if seat is not None and self.table.autoplay.get(seat) != "left":
            self.seen = max(self.seen, now)

    def connected_here(self, seat: int) -> bool:
        """Whether ``seat`` has a connection to this process."""
        return any(sub.seat == seat for sub in self.subscribers)

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a connection to any process serving the table."""
        return self.connected_here(seat) or any(seat in remote.seats for remote in self.remote.values())

    def away_anywhere(self, seat: int) -> bool:
        """Whether a grace period runs for ``seat`` here or in another process."""
        return seat in self.away or any(
            seat == away for remote in self.remote.values() for away, _ in remote.away
        )
