"""Presence across server processes: who is at a table, whichever process they are connected to.

Each process knows its own connections (a table's subscribers) and the grace periods it runs
(a seat whose player's last connection to it went). With several processes on one PostgreSQL
database, each also publishes, per table, what it holds, over the channel that carries the
commits (``NOTIFY``, :mod:`paiute.server.pubsub`): a :func:`message` whenever that changes,
and again every :data:`HEARTBEAT` seconds while it holds anything. Every other process keeps
the latest message of each process (:class:`Remote`), and a table's presence is the union:
a seat is connected if any process has a connection of it, spectators add up, and a grace
period runs only where the seat's last connection went, and only while it is connected
nowhere (so no process hands a seat to the bot while its player is at another process).

A process that stops publishes an empty message for its tables; one that dies is forgotten
after :data:`TTL` seconds without a message, and then the seats only it had count as gone:
their grace period starts in the process that notices. A process that loads a table learns
of the others' connections with their next message (at most :data:`HEARTBEAT` seconds).

>>> text = message("p1", "t1", {0, 2}, 1, {1: 99.5})
>>> heard = parse(text, 5.0)
>>> heard.process, heard.table_id, sorted(heard.remote.seats), heard.remote.away
('p1', 't1', [0, 2], ((1, 99.5),))
>>> parse('{"p": 3}', 5.0) is None
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["HEARTBEAT", "TTL", "Heard", "Remote", "message", "parse"]

#: Seconds between two messages of a process for a table it holds connections of.
HEARTBEAT = 10.0
#: Seconds after which a process not heard from is forgotten (it died).
TTL = 25.0
#: The most seats a table has (RuleSet.check_players allows fewer); larger numbers are refused.
_MAX_SEAT = 64
_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


@dataclass(frozen=True, slots=True)
class Remote:
    """What one other process holds of a table: seats connected, spectators, grace periods."""

    seats: frozenset[int]
    spectators: int
    away: tuple[tuple[int, float], ...]
    heard: float  # when its message came (this process's clock)

    @property
    def empty(self) -> bool:
        return not self.seats and not self.spectators and not self.away

    def claims(self) -> frozenset[int]:
        """The seats this process has something of: a connection or a grace period."""
        return self.seats | {seat for seat, _ in self.away}


@dataclass(frozen=True, slots=True)
class Heard:
    """A presence message received: from which process, about which table."""

    process: str
    table_id: str
    remote: Remote


def message(
    process: str, table_id: str, seats: Iterable[int], spectators: int, away: Mapping[int, float]
) -> str:
    """The JSON object a process publishes of what it holds of a table (a NOTIFY payload)."""
    body = {
        "p": process,
        "t": table_id,
        "s": sorted(seats),
        "n": spectators,
        "a": [[seat, deadline] for seat, deadline in sorted(away.items())],
    }
    return json.dumps(body, separators=(",", ":"))


def parse(payload: str, now: float) -> Heard | None:
    """A presence message read back, or None if it is not one (anything else is ignored)."""
    try:
        body = json.loads(payload)
        process, table_id = body["p"], body["t"]
        seats = frozenset(_seat(seat) for seat in body["s"])
        spectators = body["n"]
        away = tuple((_seat(seat), float(deadline)) for seat, deadline in body["a"])
    except (ValueError, KeyError, TypeError):
        return None
    if not (isinstance(process, str) and _ID.match(process) and isinstance(table_id, str)):
        return None
    if not _ID.match(table_id) or not isinstance(spectators, int) or spectators < 0:
        return None
    return Heard(process, table_id, Remote(seats, spectators, away, now))


def _seat(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _MAX_SEAT:
        raise ValueError("not a seat")
    return value
