"""Group commit: one thread writes every table's changes, several tables to a transaction.

SQLite has one writer at a time. With a pool of threads each committing its own table's
change, the threads queue on the database's write lock (sleeping in SQLite's busy handler)
while the event loop has nothing to do. :class:`Writer` instead takes every change waiting
when it is free and commits them together (:meth:`~paiute.server.db.Store.append_many`):
under load, one transaction carries the changes of many tables, and no change waits for more
than the transaction before it. Each caller is answered only once its change is committed,
so "committed before anyone is told" holds as before; a change that fails fails alone.

PostgreSQL (several processes, row locks held across the plan) does not use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading

from paiute.server.db import Change, Store
from paiute.server.table import TableEvent

__all__ = ["Writer"]

log = logging.getLogger("paiute.server")

#: The most changes one transaction carries (bounds how long the first of them waits).
BATCH_LIMIT = 64

_Item = tuple[Change, asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class Writer:
    """The one thread that commits changes, in batches."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="paiute-writer", daemon=True)
        self._thread.start()

    async def append(self, table_id: str, events: list[TableEvent], status: str) -> None:
        """Store ``events`` and the table's new status; return once they are committed (or
        raise the database's error, nothing stored)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put(((table_id, events, status), loop, future))
        await future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH_LIMIT:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            results: list[BaseException | None]
            try:
                results = list(self._store.append_many([change for change, _, _ in batch]))
            except Exception as failure:  # not a database error (a bug): every caller hears it
                log.exception("the writer failed on %d change(s)", len(batch))
                results = [failure] * len(batch)
            for (_, loop, future), result in zip(batch, results, strict=True):
                # A closed loop (RuntimeError) has nobody waiting any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, future, result)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
