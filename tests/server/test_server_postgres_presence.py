"""Presence across two ``paiute serve`` processes on one PostgreSQL database
(paiute.server.presence): a player connected to one process is connected at the other too,
and no process starts a grace period, or hands the seat to the bot, while the player is
connected to another one; once the player is connected nowhere, the grace period runs (the
other process shows it) and the bot takes the seat exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from live_helpers import RELAXED_LIMITS, Seat, call, new_table, sit
from server_helpers import ServerProcess
from test_server_postgres import schema_url  # noqa: F401 - the fixture: a fresh schema

GRACE = 1.5  # seconds of grace (--away-grace) in these servers


@pytest.fixture(scope="module")
def servers(schema_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:  # noqa: F811
    directory = tmp_path_factory.mktemp("presence")
    started: list[ServerProcess] = []
    try:
        for n in (1, 2):
            log = directory / f"server{n}.log"
            started.append(ServerProcess(schema_url, log, away_grace=GRACE, extra=RELAXED_LIMITS))
        yield started
    finally:
        for server in started:
            server.stop()


def player(view: dict[str, Any], seat: int) -> dict[str, Any]:
    found: dict[str, Any] = view["table"]["players"][seat]
    return found


def autoplays(server: ServerProcess, table_id: str, seat: int) -> list[dict[str, Any]]:
    events = call(server, "GET", f"/api/tables/{table_id}/events").json()["events"]
    return [e for e in events if e["type"] == "autoplay" and e["seat"] == seat]


def test_a_seat_connected_to_one_process_is_connected_at_the_other(servers: list[ServerProcess]) -> None:
    a, b = servers
    table_id, ana = new_table(a, seats=2, bots=None, turn_seconds=600)
    _, bo = sit(b, table_id, "Bo")
    assert call(a, "POST", f"/api/tables/{table_id}/start", ana, json={"id": "go"}).status_code == 200

    async def scenario() -> None:
        bo_at_b = await Seat(b, table_id, bo).open()
        # Ana connects to B, then to A, then leaves B: she is still there (at A).
        ana_at_b = await Seat(b, table_id, ana).open()
        ana_at_a = await Seat(a, table_id, ana).open()
        await ana_at_a.until(lambda: player(ana_at_a.view, 1)["connected"])  # Bo, at B, seen at A
        await ana_at_b.close()
        # B runs no grace period for her, and shows her connected: past the grace period,
        # the seat is still hers (its latest presence frame, and its state, say she is there).
        await asyncio.sleep(2 * GRACE)
        last = bo_at_b.presences()[-1]
        assert 0 in last["connected"], last
        assert last["away"] == [], last
        view = call(b, "GET", f"/api/tables/{table_id}/state", bo).json()
        assert player(view, 0)["connected"] is True
        assert player(view, 0)["away_until"] is None
        assert autoplays(a, table_id, 0) == []
        # Now she goes from A too: connected nowhere. A runs the grace period; B shows it...
        await ana_at_a.close()
        await bo_at_b.until(lambda: player(bo_at_b.view, 0)["away_until"] is not None)
        assert not player(bo_at_b.view, 0)["connected"]
        assert player(bo_at_b.view, 0)["away_until"] is not None
        # ...and then the bot plays her seat, handed over once.
        await bo_at_b.until(lambda: bo_at_b.events("autoplay"), seconds=GRACE + 20)
        assert [(e["seat"], e["reason"]) for e in bo_at_b.events("autoplay")] == [(0, "away")]
        await asyncio.sleep(GRACE)
        assert len(autoplays(b, table_id, 0)) == 1
        await bo_at_b.close()

    asyncio.run(scenario())
