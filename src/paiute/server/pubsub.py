"""Fan-out: each connection's outgoing queue, and PostgreSQL LISTEN for other processes' commits.

Inside one process, the service puts every update into the queue of each
:class:`Subscriber` of the table (a WebSocket connection), right after the event is
committed and applied; a writer task per connection sends them in order. A connection that
falls too far behind is closed (its client reconnects with ``since`` and gets exactly the
missed events), so one slow client never holds up a table.

Across processes sharing one PostgreSQL database, every commit also sends
``NOTIFY paiute_events, 'TABLE_ID:VERSION'`` in its transaction (:mod:`paiute.server.db`).
:class:`Listener` keeps one psycopg 3 async connection LISTENing and hands each notification
to the service, which reads the new events from the database, applies them and fans them
out to its own subscribers. After the listening connection is lost and made again, every
table is caught up, since notifications sent meanwhile are gone; the loss is reported to the
service (``on_lost``: the database may be gone), which logs it. The same channel carries
each process's presence (who is connected to it, JSON objects: :mod:`paiute.server.presence`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Listener", "Subscriber"]

log = logging.getLogger("paiute.server")

#: Updates a connection may have waiting before it is dropped as too slow.
QUEUE_LIMIT = 512
#: The longest pause, in seconds, between two attempts to make the LISTEN connection again.
RECONNECT_LIMIT = 2.0


class Subscriber:
    """One connection's seat (None: a spectator), whether its updates are patches (``hello``'s
    ``patches``: :mod:`paiute.server.updates`), and its queue of JSON texts to send."""

    __slots__ = ("overflowed", "patches", "queue", "seat")

    def __init__(self, seat: int | None, limit: int = QUEUE_LIMIT, *, patches: bool = False) -> None:
        self.seat = seat
        self.patches = patches
        self.queue: asyncio.Queue[str] = asyncio.Queue(limit)
        self.overflowed = False

    def push(self, text: str) -> None:
        """Queue a message; a full queue marks the connection to be closed (never blocks)."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True

    def drop(self) -> None:
        """Have the connection closed (its client reconnects and gets a fresh state)."""
        self.overflowed = True
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait("")  # wake the writer, which closes on seeing ``overflowed``


class Listener:
    """LISTEN on PostgreSQL for commits made by other server processes."""

    def __init__(
        self,
        url: str,
        channel: str,
        on_notify: Callable[[str, int], None],
        on_connect: Callable[[], Awaitable[None]],
        on_presence: Callable[[str], None] | None = None,
        *,
        options: dict[str, Any] | None = None,
        on_lost: Callable[[Exception], None] | None = None,
    ) -> None:
        self.url = url
        self.channel = channel
        self.on_notify = on_notify
        self.on_connect = on_connect
        self.on_presence = on_presence
        self.options = options or {}  # connection parameters: its timeouts
        self.on_lost = on_lost
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="paiute-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        import psycopg
        from psycopg import sql

        delay = 0.5
        while True:
            try:
                connecting = psycopg.AsyncConnection.connect(self.url, autocommit=True, **self.options)
                async with await connecting as connection:
                    await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    # Notifications sent before LISTEN (or while away) are lost: catch up.
                    await self.on_connect()
                    delay = 0.5
                    self.ready.set()
                    async for notify in connection.notifies():
                        if notify.payload.startswith("{"):  # a process's presence (a JSON object)
                            if self.on_presence is not None:
                                self.on_presence(notify.payload)
                            continue
                        table_id, _, version = notify.payload.rpartition(":")
                        if table_id and version.isdigit():
                            self.on_notify(table_id, int(version))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again, a little later each time
                if self.on_lost is not None:
                    self.on_lost(error)
                else:
                    log.warning("LISTEN connection lost (%s); reconnecting in %.1f s", error, delay)
                log.debug("the LISTEN connection is made again in %.1f s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_LIMIT)
