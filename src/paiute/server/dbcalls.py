"""The service's database calls: worker threads in lanes, each call bounded in time.

Every call runs in a worker thread of one of three lanes, so that tables stuck on a lock
never take the threads the other tables need:

* **reads** (a table loaded, the events other processes committed, the lobby's and the
  sweep's lists) never wait for a row lock: PostgreSQL reads a snapshot, SQLite in WAL mode
  reads beside the writer;
* **writes** (a table's new events, a new table, presence NOTIFYs, the sweep's marks) may
  wait for a lock, at most :attr:`~paiute.server.db.DatabaseTimeouts.lock` seconds; SQLite's
  changes go through the one writer thread instead (:mod:`paiute.server.writer`);
* a **row lock** a change needs (PostgreSQL ``SELECT ... FOR UPDATE``, :meth:`DatabaseCalls.lock`)
  is asked for in slices of :data:`LOCK_SLICE` seconds. A table whose row another transaction
  holds gives its thread back between slices, and such tables take their slices from half of
  the write lane only (:data:`STALLED_SHARE`), so however many tables are stalled, the others'
  changes find a thread within a slice. After the lock timeout in all, the change is refused
  (``unavailable``) and nothing is stored;
* a table holding its row lock keeps its transaction's pooled connection until its commit,
  which needs a write thread: at most :data:`LOCKED_TABLES` tables hold one at once, so that
  the pool always has connections for the threads, and a thread never waits for a connection
  that only a write thread could give back (many tables changing at once would otherwise
  hold every connection while the write threads wait for one, until the pool's timeout).

The database bounds each statement too (:class:`~paiute.server.db.DatabaseTimeouts`), so every
thread comes back within seconds. A read that waited for a thread past the statement timeout
is not run at all (its caller has had its answer).

Every outcome is reported to the store's :class:`~paiute.server.availability.Availability`;
while the database is unavailable, :meth:`DatabaseCalls.recover` probes it every
:data:`RECOVER_EVERY` seconds (a write probe after a failed write), so that it is found again
even when nothing asks for it. :meth:`DatabaseCalls.check` answers ``GET /api/health``: a
``SELECT 1`` of at most :data:`PROBE_TIMEOUT` seconds, cached :data:`PROBE_CACHE` seconds, so
that health checks cannot hammer the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from paiute.errors import N_
from paiute.server.availability import describe, is_lock_timeout, is_outage
from paiute.server.db import POOL_OVERFLOW, POOL_SIZE, DatabaseError, Locked, Store
from paiute.server.errors import ServiceError
from paiute.server.table import TableEvent
from paiute.server.writer import Writer

__all__ = [
    "LOCKED_TABLES",
    "LOCK_SLICE",
    "PROBE_CACHE",
    "PROBE_TIMEOUT",
    "READ_THREADS",
    "RECOVER_EVERY",
    "STALLED_SHARE",
    "WRITE_THREADS",
    "DatabaseCalls",
    "report",
    "unavailable",
]

log = logging.getLogger("paiute.server")

P = ParamSpec("P")
R = TypeVar("R")

#: Threads of the read lane and of the write lane.
READ_THREADS = 4
WRITE_THREADS = 8
#: The write threads that tables waiting for a row lock may hold at once.
STALLED_SHARE = WRITE_THREADS // 2
#: Seconds one attempt at a row lock may wait before its thread is given back.
LOCK_SLICE = 0.2
#: Tables that may hold a row lock's transaction at once (PostgreSQL): the pool's connections
#: less those the threads of the lanes and the probe may hold.
LOCKED_TABLES = POOL_SIZE + POOL_OVERFLOW - READ_THREADS - WRITE_THREADS - 1
#: Seconds a health probe may take, and how long its answer is reused.
PROBE_TIMEOUT = 2.0
PROBE_CACHE = 1.0
#: Seconds between two probes while the database is unavailable.
RECOVER_EVERY = 1.0


def unavailable() -> ServiceError:
    """The refusal of a request that needed the database while it failed."""
    return ServiceError("unavailable", N_("the database is not available; try again"))


def report(store: Store, error: SQLAlchemyError | DatabaseError, *, write: bool) -> ServiceError:
    """Report a failed database call (an outage to the store's availability, which logs it
    once; anything else in one line) and return the refusal its request gets."""
    if is_outage(error):
        store.availability.failed(error, write=write)
    elif is_lock_timeout(error):  # another transaction held a row: that table is stalled
        log.info("a database call waited for a lock past the lock timeout: %s", describe(error))
    else:  # not the database's state: a bug, or data that breaks a constraint
        log.error("a database call failed: %s", describe(error))
        log.debug("the failed call's error", exc_info=error)
    return unavailable()


class _TooLateError(Exception):
    """A call that waited for a thread past its deadline, and so was not run."""


class DatabaseCalls:
    """The threads the service's database calls run in (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.timeouts = store.timeouts
        self.availability = store.availability
        self._reads = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="paiute-db-read")
        self._writes = ThreadPoolExecutor(WRITE_THREADS, thread_name_prefix="paiute-db-write")
        self._probes = ThreadPoolExecutor(1, thread_name_prefix="paiute-db-probe")
        self._stalled = asyncio.Semaphore(STALLED_SHARE)
        self._locked = asyncio.Semaphore(LOCKED_TABLES)  # held from a row lock to its commit
        # SQLite: one writer thread commits the changes of several tables at once (group
        # commit); PostgreSQL commits each change in the transaction that holds its row lock.
        self.writer = None if store.shared else Writer(store)
        self._probe: asyncio.Future[None] | None = None
        self._probe_writes = False  # whether the probe in flight is a write probe
        self._probed = -PROBE_CACHE  # when the last probe worked (time.monotonic)
        self._recovering: asyncio.Task[None] | None = None
        self._stop_listening = self.availability.listen(self._changed)

    # -- the lanes --------------------------------------------------------------------------

    async def read(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a read in the read lane (a database failure raises ``unavailable``)."""
        deadline = time.monotonic() + self.timeouts.statement
        call = functools.partial(_in_time, deadline, functools.partial(function, *args, **kwargs))
        return await self._run(self._reads, call, write=False)

    async def write(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a call that may write, or wait for a lock, in the write lane."""
        return await self._run(self._writes, functools.partial(function, *args, **kwargs), write=True)

    async def append(
        self, table_id: str, events: list[TableEvent], status: str, locked: Locked | None
    ) -> None:
        """Store a table's change: in the transaction of its row lock (PostgreSQL, which
        commits and closes it), else through the writer (SQLite). A version written meanwhile
        raises :class:`~paiute.server.db.DatabaseError`; a failed database ``unavailable``."""
        if locked is None and self.writer is not None:
            try:
                await self.writer.append(table_id, events, status)
            except SQLAlchemyError as error:
                raise self._refusal(error, write=True) from None
            self.availability.succeeded(write=True)
            return
        try:
            await self.write(self.store.append, table_id, events, status, locked)
        finally:
            if locked is not None:
                self._locked.release()

    async def release(self, locked: Locked) -> None:
        """Roll back a row lock's transaction that wrote nothing (a failure only closes it)."""
        # The connection is closed whatever happens: the lock goes with it.
        try:
            with contextlib.suppress(ServiceError):
                await self.write(self.store.abort, locked)
        finally:
            self._locked.release()

    async def lock(self, table_id: str, version: int) -> Locked:
        """The table's row lock, with the events after ``version`` (PostgreSQL), waiting for
        it at most the lock timeout in all, in slices (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeouts.lock
        pause = 0.02
        locked = await self._try_lock(table_id, version, min(LOCK_SLICE, self.timeouts.lock), deadline)
        while locked is None:
            left = deadline - loop.time()
            if left <= 0:
                log.info(
                    "table %s: its row stayed locked %.1f s: the change is refused",
                    table_id,
                    self.timeouts.lock,
                )
                raise ServiceError(
                    "unavailable", N_("this table is busy in the database; try again in a moment")
                )
            await asyncio.sleep(min(pause, left))
            pause = min(2 * pause, LOCK_SLICE)
            try:
                await asyncio.wait_for(self._stalled.acquire(), timeout=max(0.0, deadline - loop.time()))
            except TimeoutError:
                continue  # the deadline passed while the stalled tables' threads were busy
            try:
                wait = min(LOCK_SLICE, max(0.001, deadline - loop.time()))
                locked = await self._try_lock(table_id, version, wait, deadline)
            finally:
                self._stalled.release()
        return locked

    async def _try_lock(self, table_id: str, version: int, wait: float, deadline: float) -> Locked | None:
        """One attempt at the row lock, once fewer than :data:`LOCKED_TABLES` tables hold
        theirs (None: not had by ``deadline``, or the row held past ``wait``)."""
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(self._locked.acquire(), timeout=max(0.0, deadline - loop.time()))
        except TimeoutError:
            return None
        try:
            locked = await self.write(self.store.lock, table_id, version, wait=wait)
        except BaseException:
            self._locked.release()
            raise
        if locked is None:
            self._locked.release()
        return locked

    async def _run(self, lane: ThreadPoolExecutor, call: Callable[[], R], *, write: bool) -> R:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(lane, call)
        except _TooLateError:
            log.info("a database read waited for a thread past its deadline: refused")
            raise unavailable() from None
        except SQLAlchemyError as error:
            raise self._refusal(error, write=write) from None
        self.availability.succeeded(write=write)
        return result

    def _refusal(self, error: SQLAlchemyError | DatabaseError, *, write: bool) -> ServiceError:
        return report(self.store, error, write=write)

    # -- whether the database answers ---------------------------------------------------------

    async def check(self) -> bool:
        """Whether the database answers now (``GET /api/health``): False while it is known to
        be unavailable (:meth:`recover` probes it meanwhile), else a probe at most every
        :data:`PROBE_CACHE` seconds."""
        if not self.availability.ok:
            return False
        if time.monotonic() - self._probed < PROBE_CACHE:
            return True
        return await self._probe_now(write=False)

    async def _probe_now(self, *, write: bool) -> bool:
        """Probe the database (one probe at a time: a caller that comes while one runs waits
        for that one); its outcome is reported like any call's."""
        if self._probe is None or self._probe.done():
            loop = asyncio.get_running_loop()
            self._probe = loop.run_in_executor(self._probes, functools.partial(self.store.ping, write=write))
            self._probe_writes = write
        probe, writes = self._probe, self._probe_writes
        try:
            await asyncio.wait_for(asyncio.shield(probe), timeout=PROBE_TIMEOUT)
        except TimeoutError:
            self.availability.failed(
                TimeoutError(f"no answer to a probe in {PROBE_TIMEOUT:.0f} s"), write=False
            )
            return False
        except SQLAlchemyError as error:
            if is_outage(error):
                self.availability.failed(error, write=False)
            else:
                log.error("the database probe failed: %s", describe(error))
            return False
        self._probed = time.monotonic()
        self.availability.succeeded(write=writes)
        return self.availability.ok

    def _changed(self, ok: bool) -> None:
        if not ok and (self._recovering is None or self._recovering.done()):
            with contextlib.suppress(RuntimeError):  # no loop running: a call from a thread
                self._recovering = asyncio.get_running_loop().create_task(
                    self.recover(), name="paiute-db-recover"
                )

    async def recover(self) -> None:
        """Probe the database every :data:`RECOVER_EVERY` seconds until it answers (and, after
        a failed write, stores) again."""
        while not self.availability.ok:
            await asyncio.sleep(RECOVER_EVERY)
            await self._probe_now(write=self.availability.write_failed)

    # -- the end ------------------------------------------------------------------------------

    async def close(self) -> None:
        """Commit what the writer holds, stop probing, and let the threads go."""
        self._stop_listening()
        if self._recovering is not None:
            self._recovering.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._recovering
        if self.writer is not None:
            await asyncio.get_running_loop().run_in_executor(self._writes, self.writer.close)
        for lane in (self._reads, self._writes, self._probes):
            lane.shutdown(wait=False)


def _in_time(deadline: float, call: Callable[[], R]) -> R:
    """Run ``call`` unless its deadline passed while it waited for a thread."""
    if time.monotonic() > deadline:
        raise _TooLateError
    return call()
