"""The store's change path over PostgreSQL (paiute.server.db): the statements a change takes,
the lock's wait, the NOTIFY sent with the commit, and pooled connections that died.

Skipped without PAIUTE_TEST_POSTGRES (bash .ci/services.sh prints it), unless
PAIUTE_REQUIRE_SERVICES is set."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import SQLAlchemyError

from conftest import fresh_schema
from paiute.server import db
from paiute.server.availability import is_outage
from paiute.server.db import NOTIFY_CHANNEL, DatabaseError, DatabaseTimeouts, Store
from paiute.server.migrate import upgrade
from paiute.server.table import TableEvent

LOCK_SECONDS = 3.0  # the connections' lock timeout
WAIT = 0.2  # the wait one attempt at a row lock asks for
TABLE = f"db{secrets.token_hex(4)}"  # the table each test changes (its NOTIFYs are told apart)


@pytest.fixture
def schema_url() -> Iterator[str]:
    """A fresh schema, whose connections are ended before it is dropped (a test that failed
    may have left a row lock's transaction open, which the drop would wait for)."""
    name = f"paiute_test_{secrets.token_hex(4)}"
    with fresh_schema() as url:
        try:
            yield f"{url}&application_name={name}"
        finally:
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                    [name],
                )


@pytest.fixture
def store(schema_url: str) -> Iterator[Store]:
    store = Store(schema_url, DatabaseTimeouts(lock=LOCK_SECONDS))
    try:
        upgrade(store)
        store.create(TABLE, {}, False, time.time(), [])
        yield store
    finally:
        store.dispose()


def moved(version: int) -> list[TableEvent]:
    return [TableEvent(version, "test", None, {"n": version}, {}, time.time())]


def statements_of(store: Store) -> list[str]:
    """The statements ``store`` sends from now on (their first words), as they go."""
    sent: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(" ".join(statement.split()[:2]))

    event.listen(store.engine, "before_cursor_execute", before)
    return sent


def notifications(listener: psycopg.Connection[Any], table_id: str) -> list[str]:
    """The payloads about ``table_id`` that reached ``listener`` (LISTENing) within a moment
    (the channel is the whole database's: other tests' tables may be heard too)."""
    heard = [item.payload for item in listener.notifies(timeout=0.5)]
    return [payload for payload in heard if payload.startswith(f"{table_id}:")]


def test_a_change_locks_its_row_in_one_statement_and_stores_it_in_two(schema_url: str, store: Store) -> None:
    with psycopg.connect(schema_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        sent = statements_of(store)
        locked = store.lock(TABLE, 0, wait=WAIT)
        assert locked is not None
        assert sent == ["SELECT paiute_tables.version"]
        assert locked.connection.execute(text("SHOW lock_timeout")).scalar_one() == f"{round(WAIT * 1000)}ms"
        sent.clear()
        store.append(TABLE, moved(1), "playing", locked)
        # The version (with the NOTIFY) and the events; the commit is not a statement.
        assert sent == ["UPDATE paiute_tables", "INSERT INTO"]
        assert notifications(listener, TABLE) == [f"{TABLE}:1"]
    assert [item.version for item in store.events_after(TABLE, 0)] == [1]
    with store.engine.connect() as connection:  # the wait was the transaction's only
        assert connection.execute(text("SHOW lock_timeout")).scalar_one() == f"{round(LOCK_SECONDS)}s"


def test_a_version_written_meanwhile_stores_nothing_and_notifies_nobody(
    schema_url: str, store: Store
) -> None:
    locked = store.lock(TABLE, 0)
    assert locked is not None
    store.append(TABLE, moved(1), "playing", locked)
    with psycopg.connect(schema_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        stale = store.lock(TABLE, 1)
        assert stale is not None
        with pytest.raises(DatabaseError, match="changed in the database since version 0"):
            store.append(TABLE, moved(1), "playing", stale)  # planned for version 0 again
        assert notifications(listener, TABLE) == []
    assert [item.data for item in store.events_after(TABLE, 0)] == [{"n": 1}]


def test_a_row_held_elsewhere_is_waited_for_only_as_long_as_asked(schema_url: str, store: Store) -> None:
    with psycopg.connect(schema_url) as holder:
        holder.execute("SELECT id FROM paiute_tables WHERE id = %s FOR UPDATE", [TABLE])
        started = time.monotonic()
        assert store.lock(TABLE, 0, wait=WAIT) is None
        assert WAIT <= time.monotonic() - started < LOCK_SECONDS / 2
        holder.rollback()
    locked = store.lock(TABLE, 0, wait=WAIT)
    assert locked is not None
    store.abort(locked)


def kill_the_pooled_connection(schema_url: str, store: Store) -> None:
    """Terminate the one connection ``store``'s pool holds (every call so far took it)."""
    assert store.engine.pool.checkedin() == 1  # type: ignore[attr-defined]
    with store.engine.connect() as connection:
        pid = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
    with psycopg.connect(schema_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.2)  # the backend is gone


def pings_of(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The connections the pool pings from now on."""
    pinged: list[object] = []
    ping = store.engine.dialect.do_ping

    def counted(dbapi_connection: object) -> bool:
        pinged.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(store.engine.dialect, "do_ping", counted)
    return pinged


def test_a_pooled_connection_that_died_while_idle_is_replaced_unseen(
    schema_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    kill_the_pooled_connection(schema_url, store)
    monkeypatch.setattr(db, "PING_IDLE", 0.05)  # it has idled longer
    pinged = pings_of(store, monkeypatch)
    locked = store.lock(TABLE, 0, wait=WAIT)  # pinged, found dead, replaced
    assert locked is not None
    store.append(TABLE, moved(1), "playing", locked)
    assert len(pinged) == 1
    assert [item.version for item in store.events_after(TABLE, 0)] == [1]


def test_a_connection_used_just_now_is_not_pinged_and_if_dead_fails_once(
    schema_url: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    kill_the_pooled_connection(schema_url, store)
    pinged = pings_of(store, monkeypatch)
    # Used within PING_IDLE: handed out unchecked, its call fails as an outage (refused, and
    # retried like any), nothing is stored, and the pool makes a new connection.
    with pytest.raises(SQLAlchemyError) as failure:
        store.lock(TABLE, 0, wait=WAIT)
    assert is_outage(failure.value)
    assert pinged == []
    locked = store.lock(TABLE, 0, wait=WAIT)
    assert locked is not None
    store.append(TABLE, moved(1), "playing", locked)
    assert [item.version for item in store.events_after(TABLE, 0)] == [1]
