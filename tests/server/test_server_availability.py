"""Whether the database answers (paiute.server.availability, paiute.server.dbcalls): one log
line when it goes and one when it is back, never an SQL statement; the health forms; each
call bounded in time (the timeouts reach the database driver)."""

from __future__ import annotations

import logging
import sqlite3
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import create, fast_limits, fast_settings, start
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, OperationalError

from paiute.cli.serve_command import DB_TIMEOUTS
from paiute.server import create_app
from paiute.server.availability import Availability, describe, is_outage, service_message
from paiute.server.db import DatabaseTimeouts, Store, _postgres_options
from paiute.server.dbcalls import PROBE_CACHE
from paiute.server.runtime import Settings

STATEMENT = "INSERT INTO paiute_events (table_id, version) VALUES (?, ?)"


def outage() -> OperationalError:
    return OperationalError(STATEMENT, ("t1", 3), sqlite3.OperationalError("disk I/O error\nsecond line"))


def test_describe_is_one_line_with_the_drivers_error_and_no_sql() -> None:
    text = describe(outage())
    assert text == "OperationalError: disk I/O error"
    assert "INSERT" not in text


def test_outages_are_the_databases_state_not_a_requests_fault() -> None:
    assert is_outage(outage())
    assert not is_outage(IntegrityError(STATEMENT, (), sqlite3.IntegrityError("UNIQUE constraint failed")))
    assert is_outage(ConnectionRefusedError("refused"))  # the LISTEN connection's own errors


class _LockTimeoutError(Exception):
    sqlstate = "55P03"  # PostgreSQL's lock_not_available


def test_a_postgres_lock_timeout_stalls_a_table_not_the_database() -> None:
    assert not is_outage(OperationalError("SELECT ... FOR UPDATE", (), _LockTimeoutError("lock timeout")))


def test_the_database_going_and_coming_back_is_one_line_each(caplog: pytest.LogCaptureFixture) -> None:
    heard: list[bool] = []
    availability = Availability()
    availability.listen(heard.append)
    with caplog.at_level(logging.DEBUG, logger="paiute.server"):
        for _ in range(50):
            availability.failed(outage(), write=True)
        availability.succeeded(write=False)  # a read works: nothing is stored yet
        assert not availability.ok
        availability.succeeded(write=True)
        availability.succeeded(write=True)
    loud = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert [record.getMessage().split(" (")[0] for record in loud] == [
        "the database is unavailable",
        "the database is available again after 0.0 s",
    ]
    assert all("\n" not in record.getMessage() and not record.exc_info for record in loud)
    assert "INSERT" not in "".join(record.getMessage() for record in loud)
    assert "50 failed calls" in loud[1].getMessage()
    assert any(record.exc_info for record in caplog.records if record.levelno == logging.DEBUG)
    assert heard == [False, True]


def test_the_service_message() -> None:
    assert service_message(False) == {"type": "service", "database": "unavailable"}
    assert service_message(True) == {"type": "service", "database": "ok"}


def test_postgres_connections_carry_the_timeouts_and_keep_the_urls_options() -> None:
    url = make_url("postgresql+psycopg://u:p@db/paiute?options=-csearch_path%3Dschema_1")
    options = _postgres_options(url, DatabaseTimeouts(connect=4, statement=2.5, lock=1.5))
    assert options["options"] == "-csearch_path=schema_1 -c statement_timeout=2500 -c lock_timeout=1500"
    assert options["connect_timeout"] == 4
    assert options["keepalives"] == 1
    # What the URL sets itself wins.
    given = make_url("postgresql+psycopg://u:p@db/paiute?connect_timeout=9")
    assert "connect_timeout" not in _postgres_options(given, DatabaseTimeouts())


def test_sqlite_waits_for_the_files_lock_at_most_the_lock_timeout(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}", DatabaseTimeouts(lock=0.4))
    try:
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == 400
        holder = sqlite3.connect(tmp_path / "a.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            started = time.perf_counter()
            with pytest.raises(OperationalError, match="locked"):
                store.ping(write=True)
            assert time.perf_counter() - started < 2.0
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        store.ping(write=True)
    finally:
        store.dispose()


def test_the_serve_flags_defaults_are_the_settings_defaults() -> None:
    timeouts = Settings().db_timeouts
    assert {
        "connect": timeouts.connect,
        "statement": timeouts.statement,
        "lock": timeouts.lock,
    } == DB_TIMEOUTS


def test_health_asks_the_database_at_most_once_a_second_and_says_when_it_does_not_answer(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        pings: list[bool] = []
        real = store.ping

        def counted(*, write: bool = False) -> None:
            pings.append(write)
            real(write=write)

        monkeypatch.setattr(store, "ping", counted)
        time.sleep(PROBE_CACHE)
        started = time.monotonic()
        for _ in range(20):
            answer = client.get("/api/health")
            assert answer.status_code == 200
            assert answer.json()["database"] == "ok"
        assert client.get("/api/health/ready").json() == {"ok": True, "database": "ok"}
        # One probe a second at most, however slow the machine makes these 21 requests.
        assert 1 <= len(pings) <= 1 + (time.monotonic() - started) / PROBE_CACHE

        def gone(*, write: bool = False) -> None:
            pings.append(write)
            raise outage()

        monkeypatch.setattr(store, "ping", gone)
        time.sleep(PROBE_CACHE)
        answer = client.get("/api/health")
        assert answer.status_code == 503
        assert {key: answer.json()[key] for key in ("ok", "database")} == {
            "ok": False,
            "database": "unavailable",
        }
        assert client.get("/api/health/ready").status_code == 503
        # Liveness never asks the database.
        before = len(pings)
        assert client.get("/api/health/live").json() == {"ok": True}
        assert len(pings) == before
        # The recovery probe finds it again (a write probe: the last failure was a probe's
        # read, so a read probe would do; either is a ping).
        monkeypatch.setattr(store, "ping", counted)
        deadline = time.monotonic() + 10
        while client.get("/api/health").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_a_table_page_connection_is_told_when_the_database_goes_and_comes_back(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        table_id, token = create(client, seats=2, bots="greedy")
        store = client.app.state.store  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": None})
            assert ws.receive_json()["type"] == "welcome"
            portal = client.portal  # type: ignore[attr-defined]
            portal.call(lambda: _fail(store))
            assert _next_service(ws) == {"type": "service", "database": "unavailable"}
            # A connection made meanwhile is told right after its welcome.
            with client.websocket_connect(f"/ws/tables/{table_id}") as late:
                late.send_json({"type": "hello", "token": None, "since": None})
                assert late.receive_json()["type"] == "welcome"
                assert _next_service(late) == {"type": "service", "database": "unavailable"}
            portal.call(lambda: _back(store))
            assert _next_service(ws) == {"type": "service", "database": "ok"}
        start(client, table_id, token)  # the table plays on


async def _fail(store: Store) -> None:
    store.availability.failed(outage(), write=False)


async def _back(store: Store) -> None:
    store.availability.succeeded(write=False)


def _next_service(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "service":
            return message
