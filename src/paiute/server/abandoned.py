"""Abandoned tables: a table no person has been at for ``Settings.abandon_minutes`` ends.

A person is at a table while a connection of their seat is open (to any process; a
spectator's does not count), and when their seat token makes a request or the table gets an
event. The database keeps the latest of those (the table's ``updated``), so that a restart or
another process knows it: each process writes down when a person was last at the tables it
holds (:meth:`AbandonedTables.touch`), at each sweep and when it stops.

A sweep reads a batch of the tables nobody has been at since the cutoff and ends each of them
through the one path that changes a table (:meth:`~paiute.server.core.ServiceCore._commit`),
checked again under its lock: of two processes sweeping at once, one ends it.
:class:`~paiute.server.core.ServiceCore` holds one :class:`AbandonedTables`, over what it uses
of it (:class:`Tables`), and runs its sweep in the background (``paiute serve --abandon-after``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from paiute.errors import N_
from paiute.server import presence
from paiute.server.db import Store
from paiute.server.dbcalls import DatabaseCalls
from paiute.server.errors import ServiceError
from paiute.server.runtime import Plan, Runtime, Settings
from paiute.server.table import LiveTable
from paiute.server.tabledata import Draft

__all__ = ["SWEEP_BATCH", "SWEEP_EVERY", "AbandonedTables", "Tables"]

log = logging.getLogger("paiute.server")

#: Seconds between two sweeps for abandoned tables (:meth:`AbandonedTables.sweep`)...
SWEEP_EVERY = 60.0
#: ...and the most tables one sweep looks at (the next sweep carries on from there).
SWEEP_BATCH = 100


class Tables(Protocol):
    """What the sweep uses of the tables a process holds
    (:class:`~paiute.server.core.ServiceCore`): the tables, the database, and the one path
    that changes a table."""

    store: Store
    settings: Settings
    calls: DatabaseCalls
    runtimes: dict[str, Runtime]
    clock: Callable[[], float]
    _closing: bool

    async def runtime(self, table_id: str, *, fresh: bool = False) -> Runtime: ...

    async def _commit(self, rt: Runtime, plan: Plan, *, expected: int | None = None) -> int: ...


class AbandonedTables:
    """The sweep for abandoned tables of one process's ``tables``."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        # Where the last sweep stopped: (updated, id) of its last table.
        self._swept: tuple[float, str] | None = None

    async def run(self) -> None:
        """:meth:`sweep` on start, then every :data:`SWEEP_EVERY` seconds."""
        while not self.tables._closing:
            try:
                await self.sweep()
            except ServiceError as error:
                level = logging.DEBUG if error.code == "unavailable" else logging.WARNING
                log.log(level, "the sweep for abandoned tables failed: %s", error.message)
            except Exception:
                log.exception("the sweep for abandoned tables failed")
            await asyncio.sleep(SWEEP_EVERY)

    async def sweep(self, batch: int = SWEEP_BATCH) -> list[str]:
        """End the tables no person has been at for ``Settings.abandon_minutes``; their ids.

        A table ends as one whose every person left (a ``closed`` event, with
        ``idle_minutes``). At most ``batch`` tables are looked at; the next sweep carries on
        after the last of them.
        """
        tables = self.tables
        minutes = tables.settings.abandon_minutes
        if minutes <= 0 or tables._closing:
            return []
        now = tables.clock()
        await self.touch(now)
        cutoff = now - 60.0 * minutes
        idle = await tables.calls.read(tables.store.idle, cutoff, self._swept, batch)
        self._swept = idle[-1] if len(idle) >= batch else None  # else: from the start next time
        ended = []
        for _, table_id in idle:
            if await self._abandon(table_id, cutoff, minutes, now):
                ended.append(table_id)
        return ended

    async def touch(self, now: float) -> None:
        """Write down when a person was last at each table this process holds (a seat
        connected here is there now)."""
        runtimes = self.tables.runtimes
        for rt in runtimes.values():
            for seat in rt.local_seats():
                rt.saw(seat, now)
        due = {
            table_id: rt.seen
            for table_id, rt in runtimes.items()
            if rt.seen > rt.touched and rt.table.status != "closed"
        }
        if not due:
            return
        await self.tables.calls.write(self.tables.store.touch, due)
        for table_id, seen in due.items():
            held = runtimes.get(table_id)
            if held is not None:
                held.touched = max(held.touched, seen)

    async def _abandon(self, table_id: str, cutoff: float, minutes: int, now: float) -> bool:
        """End ``table_id`` if no person has been there since ``cutoff`` (checked again under
        its lock, after the events of other processes: of two processes, one ends it)."""
        tables = self.tables
        try:
            rt = await tables.runtime(table_id, fresh=True)
        except ServiceError:
            return False  # a table that cannot be read back is logged where it is read
        if tables.store.shared and now - rt.loaded < presence.TTL:
            return False  # the other processes' connections to it are not known yet

        def quiet(table: LiveTable) -> bool:
            last = max(table.changed, rt.seen)
            return table.status != "closed" and last < cutoff and not rt.people_connected()

        if not quiet(rt.table):
            return False

        def plan(table: LiveTable) -> list[Draft]:
            if not quiet(table):
                raise ServiceError("conflict", N_("the player is back"))
            return table.plan_abandon(minutes)

        try:
            await tables._commit(rt, plan, expected=rt.table.version)
        except ServiceError as error:
            if error.code != "conflict":
                log.warning("table %s: ending it failed: %s", table_id, error.message)
            return False
        log.info("table %s: nobody has been there for %d minutes: it ends", table_id, minutes)
        return True
