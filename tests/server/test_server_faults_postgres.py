"""Faults met by ``paiute serve`` over PostgreSQL: rows locked by another connection, the
database restarted and stopped for a while, one of two server processes killed in the middle
of racing requests. Nothing acknowledged is lost or applied twice; a stalled table answers 503
within the lock timeout and never holds up the others; an outage is told to the pages and
logged in one line each way.

The database is cut away from the server by a TCP proxy the test owns (fault_helpers.Proxy):
the shared PostgreSQL is never stopped. Skipped without PAIUTE_TEST_POSTGRES (bash
.ci/services.sh prints it), unless PAIUTE_REQUIRE_SERVICES is set."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fault_helpers import (
    NO_LIMITS,
    Proxy,
    Table,
    Watcher,
    call,
    check_log,
    health,
    timed,
    wait_until,
)
from server_helpers import ServerProcess
from sqlalchemy.engine import make_url
from test_server_postgres import schema_url  # noqa: F401 - the fixture: a fresh schema

LOCK_SECONDS = 2.0  # --db-lock-timeout of these servers
STALLED = 6  # tables whose rows another connection locks: more than the write lane lends them
STOP_SECONDS = 4.0  # how long the database is away (a 20 s stop, shortened)


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    return tmp_path


def test_tables_whose_rows_are_locked_answer_503_in_time_and_never_stall_the_others(
    schema_url: str,  # noqa: F811
    directory: Path,
) -> None:
    server = ServerProcess(
        schema_url, directory / "server.log", extra=(*NO_LIMITS, "--db-lock-timeout", str(LOCK_SECONDS))
    )
    try:
        url = server.url
        tables = [Table.create(url) for _ in range(STALLED + 1)]
        for table in tables:
            for _ in range(2):  # the cut, then a move
                assert table.move(url).status_code == 200
        stalled, free = tables[:STALLED], tables[STALLED]
        for table in tables:  # each move chosen now: the timed parts are the requests alone
            table.pending = table.next_move(url)
        with psycopg.connect(schema_url) as holder:
            holder.execute(
                "SELECT id FROM paiute_tables WHERE id = ANY(%s) FOR UPDATE",
                [[table.table_id for table in stalled]],
            )
            with ThreadPoolExecutor(STALLED) as pool:
                moves = [pool.submit(timed, lambda t=table: t.move(url)) for table in stalled]
                time.sleep(0.3)  # they all wait for their rows now
                # Another table's reads and changes go on as if nothing were stalled: its
                # state within a second (the best of three: the machine may be busy), its
                # change well within the lock timeout that the stalled ones wait out.
                reads = [
                    timed(lambda: call(url, "GET", f"/api/tables/{free.table_id}/state")) for _ in range(3)
                ]
                assert all(view.status_code == 200 for _, view in reads)
                assert min(seconds for seconds, _ in reads) < 1.0, reads
                seconds, answer = timed(lambda: free.move(url))
                assert answer.status_code == 200, answer.text
                assert seconds < LOCK_SECONDS - 0.5, seconds
                assert health(url)[0] == 200  # the database answers: a stall is not an outage
                for move in moves:
                    seconds, answer = move.result()
                    assert answer.status_code == 503, answer.text
                    assert "busy" in answer.json()["error"]["message"]
                    assert LOCK_SECONDS - 0.5 < seconds < LOCK_SECONDS + 3.0, seconds
            holder.rollback()
        for table in tables:  # the refused move again, with its id: applied once
            assert table.move(url).status_code == 200
            table.check(url)
        assert [table.refused for table in tables] == [1] * STALLED + [0]
        check_log(server, outages=0)
    finally:
        server.stop()


def through(proxy: Proxy, url: str) -> str:
    """``url`` with its host and port those of the proxy."""
    parsed = make_url(url).set(host="127.0.0.1", port=proxy.port)
    return parsed.render_as_string(hide_password=False)


@pytest.fixture
def proxy(schema_url: str) -> Iterator[Proxy]:  # noqa: F811
    target = make_url(schema_url)
    cut = Proxy(target.host or "127.0.0.1", target.port or 5432)
    try:
        yield cut
    finally:
        cut.close()


def move_until_answered(table: Table, url: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while table.move(url).status_code != 200:
        assert time.monotonic() < deadline, "the move was never answered"
        time.sleep(0.2)


def test_postgres_restarted_then_away_for_seconds_loses_nothing_and_everyone_is_told(
    schema_url: str,  # noqa: F811
    proxy: Proxy,
    directory: Path,
) -> None:
    server = ServerProcess(through(proxy, schema_url), directory / "server.log", extra=NO_LIMITS)
    watcher = None
    try:
        url = server.url
        table = Table.create(url)
        for _ in range(4):
            assert table.move(url).status_code == 200
        watcher = Watcher(server.ws_url, table.table_id)
        # Restarted: every connection is dropped, new ones are taken at once.
        proxy.restart()
        watcher.wait_for(lambda: watcher.services() == ["unavailable", "ok"], seconds=15)
        for _ in range(3):
            move_until_answered(table, url)
        # Away for a few seconds: connections are refused. (The next move is chosen first:
        # reading a table's state needs the database too.)
        table.pending = table.next_move(url)
        proxy.stop()
        stopped = time.monotonic()
        seconds, answer = timed(lambda: table.move(url))
        assert answer.status_code == 503, answer.text
        assert seconds < 3.0, seconds
        watcher.wait_for(lambda: watcher.services()[-1:] == ["unavailable"])
        status, body = health(url)
        assert (status, body["ok"], body["database"]) == (503, False, "unavailable")
        assert call(url, "GET", "/api/health/live").status_code == 200
        time.sleep(max(0.0, STOP_SECONDS - (time.monotonic() - stopped)))
        assert table.move(url).status_code == 503
        proxy.start()
        watcher.wait_for(lambda: watcher.services() == ["unavailable", "ok", "unavailable", "ok"])
        wait_until(lambda: health(url)[0] == 200, what="health answering 200")
        for _ in range(4):
            move_until_answered(table, url)
        table.check(url)
        # The updates of the moves made after the outage reached the page.
        last = table.acks[-1].version
        watcher.wait_for(lambda: any(m.get("version") == last for m in watcher.messages))
        check_log(server, outages=2)
    finally:
        if watcher is not None:
            watcher.close()
        server.stop()


async def race(requests: list[tuple[str, str, dict[str, Any]]], kill: ServerProcess | None) -> list[Any]:
    """POST every (url, token, body) at once; ``kill`` is killed (SIGKILL) as they go."""
    async with httpx.AsyncClient(timeout=20) as client:
        sent = [
            asyncio.ensure_future(client.post(url, json=body, headers={"Authorization": f"Bearer {token}"}))
            for url, token, body in requests
        ]
        if kill is not None:
            await asyncio.sleep(0.003)
            kill.kill()
        return list(await asyncio.gather(*sent, return_exceptions=True))


ROUNDS = 8
KILLED_IN = 3  # the round in which the second process is killed


def test_one_of_two_processes_killed_mid_race_loses_nothing_acknowledged(
    schema_url: str,  # noqa: F811
    directory: Path,
) -> None:
    log = directory / "server{}.log"
    servers = [ServerProcess(schema_url, str(log).format(n), extra=NO_LIMITS) for n in (1, 2)]
    try:
        table = Table.create(servers[0].url)
        assert table.move(servers[0].url).status_code == 200  # the cut
        acked: dict[str, tuple[int, str]] = {}  # id -> (version, action)
        for number in range(ROUNDS):
            urls = [server.url for server in servers]
            seat, _, body = table.next_move(urls[0])
            version = body["expected_version"]
            mine = call(urls[0], "GET", f"/api/tables/{table.table_id}/state", table.tokens[seat]).json()
            legal = [a for a in mine["observation"]["legal_actions"] if not a.startswith("call")]
            if number % 2 == 0:  # the same message at both
                bodies = [body, body]
            else:  # two different moves at both: one is applied
                choices = (legal * 2)[:2] if len(legal) < 2 else legal[:2]
                bodies = [{**body, "id": f"{body['id']}p{n}", "action": choices[n]} for n in (0, 1)]
            path = f"/api/tables/{table.table_id}/actions"
            requests = [
                (url + path, table.tokens[seat], sent) for url, sent in zip(urls, bodies, strict=True)
            ]
            answers = asyncio.run(race(requests, servers[1] if number == KILLED_IN else None))
            for sent, answer in zip(bodies, answers, strict=True):
                if isinstance(answer, httpx.Response) and answer.status_code == 200:
                    first = acked.setdefault(sent["id"], (answer.json()["version"], sent["action"]))
                    assert first[0] == answer.json()["version"]  # one id, one answer
                elif isinstance(answer, httpx.Response):
                    assert answer.status_code == 409, answer.text  # the other move won
                else:
                    assert number == KILLED_IN, answer  # only the killed process fails to answer
            events = call(urls[0], "GET", f"/api/tables/{table.table_id}/events", params={"since": version})
            applied = [event for event in events.json()["events"] if event["type"] == "action"]
            assert len(applied) == 1, applied  # one move a round, never two
            if number == KILLED_IN:
                servers[1] = ServerProcess(schema_url, str(log).format(2), extra=NO_LIMITS)
        histories = [
            call(server.url, "GET", f"/api/tables/{table.table_id}/events", table.tokens[0]).json()["events"]
            for server in servers
        ]
        assert histories[0] == histories[1]
        events = histories[0]
        assert [event["version"] for event in events] == list(range(1, len(events) + 1))
        by_version = {event["version"]: event for event in events}
        for version, action in acked.values():  # every acknowledged move is in the history
            assert by_version[version]["type"] == "action"
            assert by_version[version]["action"] == action
        assert len([e for e in events if e["type"] == "action"]) == ROUNDS
        assert len(acked) >= ROUNDS - 1  # at most the killed round's move went unanswered
    finally:
        for server in servers:
            server.stop()
