"""Faults met by a real ``paiute serve`` over SQLite: the database file locked by another
program, a full disk, and SIGTERM. Each is handled, not just survived: a change that cannot
be stored is refused at once (503 ``unavailable``, nothing applied), ``/api/health`` says the
database is unavailable, the connected pages are told (a ``service`` message) and told again
when it is back, the log says it in one line each way, and in the end nothing acknowledged
was lost or applied twice (a move sent again with its id is answered as it was, or applied
once). The PostgreSQL faults are in test_server_faults_postgres.py."""

from __future__ import annotations

import re
import resource
import sqlite3
from pathlib import Path

import pytest
from fault_helpers import (
    NO_LIMITS,
    Table,
    Watcher,
    call,
    check_log,
    health,
    timed,
    wait_until,
)
from server_helpers import ServerProcess

LOCK_SECONDS = 1.0  # --db-lock-timeout of these servers


def db_file(directory: Path) -> Path:
    return directory / "faults.sqlite"


def serve(directory: Path, *extra: str) -> ServerProcess:
    return ServerProcess(
        f"sqlite:///{db_file(directory)}", directory / "server.log", extra=(*NO_LIMITS, *extra)
    )


def test_a_locked_database_file_refuses_changes_at_once_and_loses_nothing(tmp_path: Path) -> None:
    server = serve(tmp_path, "--db-lock-timeout", str(LOCK_SECONDS))
    watcher = None
    try:
        url = server.url
        first, other = Table.create(url), Table.create(url)
        for _ in range(4):
            assert first.move(url).status_code == 200
            assert other.move(url).status_code == 200
        watcher = Watcher(server.ws_url, first.table_id)
        # Another program takes the file's write lock (SQLite locks the whole file).
        holder = sqlite3.connect(db_file(tmp_path), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            seconds, answer = timed(lambda: first.move(url))
            assert answer.status_code == 503
            assert seconds < LOCK_SECONDS + 2.0, seconds  # refused within the lock timeout
            # What needs no write is served at once, from memory.
            seconds, view = timed(lambda: call(url, "GET", f"/api/tables/{other.table_id}/state"))
            assert view.status_code == 200
            assert seconds < 1.0, seconds
            watcher.wait_for(lambda: watcher.services() == ["unavailable"])
            assert health(url) == (503, {**health(url)[1], "ok": False, "database": "unavailable"})
            assert call(url, "GET", "/api/health/live").json() == {"ok": True}
            assert call(url, "GET", "/api/health/ready").status_code == 503
            assert other.move(url).status_code == 503
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        # The probe finds the database again by itself, and the pages are told.
        watcher.wait_for(lambda: watcher.services() == ["unavailable", "ok"], seconds=10)
        assert health(url)[0] == 200
        for table in (first, other):
            for _ in range(4):  # the refused move first, with its id, then more
                assert table.move(url).status_code == 200
            table.check(url)
        assert first.refused == 1
        assert other.refused == 1
        check_log(server, outages=1)
    finally:
        if watcher is not None:
            watcher.close()
        server.stop()


def wal_size(directory: Path) -> int:
    return (directory / "faults.sqlite-wal").stat().st_size


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="a full disk is made with Linux's prlimit")
def test_a_full_disk_refuses_changes_tells_everyone_and_loses_nothing(tmp_path: Path) -> None:
    server = serve(tmp_path)
    watcher = None
    try:
        url = server.url
        table = Table.create(url)
        for _ in range(6):
            assert table.move(url).status_code == 200
        watcher = Watcher(server.ws_url, table.table_id)
        # The disk is full: the server may write no file past what the write-ahead log has
        # now (its log, on standard output, is far smaller).
        size = wal_size(tmp_path)
        assert (tmp_path / "server.log").stat().st_size < size
        resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
        try:
            answer = table.move(url)
            assert answer.status_code == 503, answer.text
            watcher.wait_for(lambda: watcher.services() == ["unavailable"])
            status, body = health(url)
            assert (status, body["ok"], body["database"]) == (503, False, "unavailable")
            assert table.move(url).status_code == 503  # still full: the same move, refused again
            # Reads still work while nothing can be stored; the database stays unavailable.
            assert call(url, "GET", f"/api/tables/{table.table_id}/events").status_code == 200
            assert health(url)[0] == 503
        finally:
            resource.prlimit(
                server.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
            )
        watcher.wait_for(lambda: watcher.services() == ["unavailable", "ok"], seconds=10)
        assert health(url)[0] == 200
        for _ in range(4):
            assert table.move(url).status_code == 200
        table.check(url)
        assert table.refused == 2
        check_log(server, outages=1)
    finally:
        if watcher is not None:
            watcher.close()
        server.stop()


STOPPED = re.compile(r"paiute serve: stopped cleanly; tables closed: (\d+), connections closed: (\d+)")


def test_sigterm_stops_cleanly_says_so_and_keeps_every_acknowledged_move(tmp_path: Path) -> None:
    server = serve(tmp_path)
    watchers: list[Watcher] = []
    try:
        url = server.url
        tables = [Table.create(url), Table.create(url)]
        for _ in range(5):
            for table in tables:
                assert table.move(url).status_code == 200
        watchers = [Watcher(server.ws_url, tables[0].table_id) for _ in range(2)]
        watchers.append(Watcher(server.ws_url, tables[1].table_id))
        seconds, _ = timed(server.stop)  # SIGTERM, then waits
        assert seconds < 10, seconds
        log = server.log.read_text()
        found = STOPPED.findall(log)
        assert found == [("2", "3")], log[-2000:]
        assert "Traceback" not in log
        wait_until(lambda: not any(w.is_open() for w in watchers), what="the connections closing")
    finally:
        for watcher in watchers:
            watcher.close()
        server.stop()
    again = serve(tmp_path)
    try:
        for table in tables:
            table.check(again.url)
            assert table.move(again.url).status_code == 200
            table.check(again.url)
    finally:
        again.stop()
