"""The database lanes (paiute.server.dbcalls) over PostgreSQL: tables holding their row locks
never take the connections the lanes' threads need.

Skipped without PAIUTE_TEST_POSTGRES (bash .ci/services.sh prints it), unless
PAIUTE_REQUIRE_SERVICES is set."""

from __future__ import annotations

import asyncio
import time

from test_server_postgres import schema_url  # noqa: F401 - the fixture: a fresh schema

from paiute.server.db import POOL_OVERFLOW, POOL_SIZE, DatabaseTimeouts, Store
from paiute.server.dbcalls import LOCKED_TABLES, READ_THREADS, WRITE_THREADS, DatabaseCalls
from paiute.server.migrate import upgrade
from paiute.server.table import TableEvent

CONNECT_SECONDS = 2.0  # how long a thread may wait for a pooled connection before failing
TABLES = 2 * (POOL_SIZE + POOL_OVERFLOW)  # more tables changing at once than the pool has connections


def test_locked_tables_leave_the_lanes_threads_a_connection_each() -> None:
    assert LOCKED_TABLES + WRITE_THREADS + READ_THREADS + 1 <= POOL_SIZE + POOL_OVERFLOW
    assert LOCKED_TABLES > WRITE_THREADS  # more tables than threads plan while holding theirs


def test_more_tables_changing_at_once_than_the_pool_has_connections_all_commit_in_time(
    schema_url: str,  # noqa: F811
) -> None:
    store = Store(schema_url, DatabaseTimeouts(connect=CONNECT_SECONDS))
    try:
        upgrade(store)
        ids = [f"pool{number}" for number in range(TABLES)]
        for table_id in ids:
            store.create(table_id, {}, False, time.time(), [])

        async def change(calls: DatabaseCalls, table_id: str) -> None:
            locked = await calls.lock(table_id, 0)
            await asyncio.sleep(0.05)  # the table plans its change in the event loop meanwhile
            event = TableEvent(1, "test", None, {}, {}, time.time())
            await calls.append(table_id, [event], "waiting", locked)

        async def all_at_once() -> list[BaseException | None]:
            calls = DatabaseCalls(store)
            try:
                return await asyncio.gather(
                    *(change(calls, table_id) for table_id in ids), return_exceptions=True
                )
            finally:
                await calls.close()

        started = time.monotonic()
        outcomes = asyncio.run(all_at_once())
        seconds = time.monotonic() - started
        assert [outcome for outcome in outcomes if outcome is not None] == []
        # No thread waited out the pool's timeout for a connection that a table held.
        assert seconds < CONNECT_SECONDS, seconds
        assert [len(store.events_after(table_id, 0)) for table_id in ids] == [1] * TABLES
    finally:
        store.dispose()
