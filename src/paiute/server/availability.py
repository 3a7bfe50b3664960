"""Whether the database answers, as the server's calls find it, and the log lines that say so.

Each :class:`~paiute.server.db.Store` keeps one :class:`Availability`. A call that fails
because the database is gone, full, stalled or out of reach (:func:`is_outage`) marks it
*unavailable*; a later call that works marks it *available* again. The change, not each
failure, is what the log shows: one WARNING line when the database goes, with the reason in
one line and never an SQL statement (the full error goes to DEBUG), and one when it is back,
with how long it was gone. Whoever listens (:meth:`Availability.listen`: the service, which
tells the connected clients) hears each change once.

A write that failed is undone only by a write that works: with a full disk, reads still work
while nothing can be stored, so a read alone does not mark the database available again.

A row lock held too long by another PostgreSQL transaction (``lock_not_available``) stalls
that table, not the database: it is not an outage. SQLite's "database is locked" is, since
SQLite locks the whole file.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

__all__ = ["Availability", "describe", "is_lock_timeout", "is_outage", "service_message"]

log = logging.getLogger("paiute.server")

#: The longest reason a log line quotes.
REASON_LIMIT = 200
#: PostgreSQL's SQLSTATE of a lock not obtained within ``lock_timeout``.
LOCK_NOT_AVAILABLE = "55P03"


def service_message(ok: bool) -> dict[str, str]:
    """The WebSocket message that tells a client the database is gone, or back."""
    return {"type": "service", "database": "ok" if ok else "unavailable"}


def describe(error: BaseException) -> str:
    """The error in one line: its driver's class and first line, never the SQL statement."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    lines = str(cause).strip().splitlines()
    first = lines[0].strip() if lines else ""
    text = f"{type(cause).__name__}: {first}" if first else type(cause).__name__
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 1] + "…"


def is_lock_timeout(error: BaseException) -> bool:
    """Whether ``error`` is PostgreSQL giving up on a lock (``lock_timeout``)."""
    cause = error.orig if isinstance(error, DBAPIError) else error
    return getattr(cause, "sqlstate", None) == LOCK_NOT_AVAILABLE


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be used now (gone, full, stalled, out of
    reach, past a timeout), rather than that one request was wrong."""
    if is_lock_timeout(error):
        return False
    if isinstance(error, (OperationalError, InterfaceError, PoolTimeout)):
        return True
    if isinstance(error, DBAPIError):
        return bool(error.connection_invalidated)
    # The driver's own errors (the LISTEN connection's psycopg errors), and a call that ran
    # past its deadline.
    names = {kind.__name__ for kind in type(error).__mro__}
    return bool(names & {"OperationalError", "InterfaceError"}) or isinstance(error, OSError)


class Availability:
    """Whether the database answers; one log line, and one call to each listener, a change."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.ok = True
        #: A write failed since the database was last found available: only a write that
        #: works (or the write probe) makes it available again.
        self.write_failed = False
        self._clock = clock
        self._since = 0.0  # when it went
        self._failures = 0  # failed calls since
        self._listeners: list[Callable[[bool], None]] = []

    def listen(self, listener: Callable[[bool], None]) -> Callable[[], None]:
        """Call ``listener(ok)`` at each change; the answer stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def failed(self, error: BaseException, *, write: bool) -> None:
        """A call failed with an outage (:func:`is_outage`)."""
        log.debug("a database call failed", exc_info=error)
        self.write_failed = self.write_failed or write
        self._failures += 1
        if not self.ok:
            return
        self.ok = False
        self._since = self._clock()
        self._failures = 1
        log.warning(
            "the database is unavailable (%s): requests that need it answer 503 until it is back",
            describe(error),
        )
        self._tell(False)

    def succeeded(self, *, write: bool) -> None:
        """A call worked: the database is available again, unless a write failed and this
        was a read."""
        if self.ok or (self.write_failed and not write):
            return
        self.ok = True
        self.write_failed = False
        log.warning(
            "the database is available again after %.1f s (%d failed calls meanwhile)",
            self._clock() - self._since,
            self._failures,
        )
        self._tell(True)

    def _tell(self, ok: bool) -> None:
        for listener in list(self._listeners):
            try:
                listener(ok)
            except Exception:  # a listener's bug must not stop the others hearing
                log.exception("telling of the database's availability failed")
