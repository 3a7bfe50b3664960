"""Two ``paiute serve`` processes on one PostgreSQL database serve the same tables.

Each process is a real subprocess over a fresh schema of the test database. A person
connected to one process and a person connected to the other play a deal at one table (with
a bot, which both processes would move: the row lock lets one win): each sees the other's
moves through LISTEN/NOTIFY, every version once and in order, and both processes agree on
the history. Then the same and conflicting requests are fired at both processes at once: the
row lock serializes them, so a repeated id is applied once and of two conflicting actions
exactly one is.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import ServerProcess, play_to_the_end
from websockets.asyncio.client import connect

from conftest import fresh_schema
from paiute.fairness import verify_deal
from paiute.record import Record

SECONDS = 60.0  # one deal, bounded
ROUNDS = 12  # rounds of simultaneous requests


@pytest.fixture(scope="module")
def schema_url() -> Iterator[str]:
    """A fresh schema of the test database (dropped afterwards): runs are independent."""
    with fresh_schema() as url:
        yield url


@pytest.fixture(scope="module")
def servers(schema_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Two server processes on the same database (they migrate it at the same time)."""
    directory = tmp_path_factory.mktemp("postgres")
    started: list[ServerProcess] = []
    try:
        # Both start together: the migration's advisory lock makes them take turns.
        async def both() -> list[ServerProcess]:
            return list(
                await asyncio.gather(
                    *(
                        asyncio.to_thread(ServerProcess, schema_url, directory / f"server{n}.log")
                        for n in (1, 2)
                    )
                )
            )

        started = asyncio.run(both())
        yield started
    finally:
        for server in started:
            server.stop()


def api(url: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.request(method, url + path, headers=headers, timeout=30, **kwargs)
    assert response.status_code < 300, response.text
    return response.json()


def two_people(first: str, second: str, *, seats: int, bots: str | None) -> tuple[str, dict[int, str]]:
    """A table created on one process and joined on the other; started on the second (by the
    host: only the host starts a match)."""
    created = api(
        first,
        "POST",
        "/api/tables",
        json={"player_name": "Ana", "seats": seats, "bots": bots, "max_deals": 1},
    )
    table_id = created["table"]["id"]
    joined = api(second, "POST", f"/api/tables/{table_id}/join", json={"name": "Bo"})
    tokens = {0: created["token"], joined["seat"]: joined["token"]}
    api(second, "POST", f"/api/tables/{table_id}/start", created["token"], json={"id": "start"})
    return table_id, tokens


async def person(ws_url: str, table_id: str, token: str, seat: int, seen: list[dict[str, Any]]) -> list[int]:
    """Play one seat over the WebSocket of one process to the end; the versions acknowledged."""
    async with connect(f"{ws_url}/ws/tables/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome"
        assert welcome["seat"] == seat
        seen.extend(welcome["events"])
        return await play_to_the_end(ws, welcome["state"], random.Random(seat), seen)


def test_people_on_two_processes_play_a_deal_together(servers: list[ServerProcess]) -> None:
    one, two = servers
    table_id, tokens = two_people(one.url, two.url, seats=3, bots="greedy")
    seen: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    async def play() -> list[list[int]]:
        return list(
            await asyncio.wait_for(
                asyncio.gather(
                    person(one.ws_url, table_id, tokens[0], 0, seen[0]),
                    person(two.ws_url, table_id, tokens[1], 1, seen[1]),
                ),
                timeout=SECONDS,
            )
        )

    acked = asyncio.run(play())
    histories = [api(server.url, "GET", f"/api/tables/{table_id}/events")["events"] for server in servers]
    assert histories[0] == histories[1]  # both processes hold the same history
    events = histories[0]
    assert [event["version"] for event in events] == list(range(1, len(events) + 1))
    for seat in (0, 1):
        # Each person saw every version once, in order, including the other's moves.
        assert [event["version"] for event in seen[seat]] == [event["version"] for event in events]
        other = 1 - seat
        assert any(
            e["seat"] == other and e.get("by") == "player" for e in seen[seat] if e["type"] == "action"
        )
        # Nothing applied twice: this seat's own moves are exactly its acknowledged ones.
        mine = [
            e
            for e in events
            if e["seat"] == seat and e.get("by") == "player" and e["type"] in ("action", "cut")
        ]
        assert len(mine) == len(acked[seat])
    bot_moves = [event for event in events if event.get("by") == "bot" and event["type"] == "action"]
    assert bot_moves
    assert events[-1]["type"] == "closed"
    record = Record.loads(httpx.get(f"{two.url}/api/tables/{table_id}/record", timeout=30).text)
    assert len(record.deals) == 1
    record.replay()
    assert verify_deal(record.deals[0]) == []


async def at_once(requests: list[tuple[str, str, dict[str, Any]]]) -> list[httpx.Response]:
    """POST every (url, token, body) at the same moment."""
    async with httpx.AsyncClient(timeout=30) as client:
        return list(
            await asyncio.gather(
                *(
                    client.post(url, json=body, headers={"Authorization": f"Bearer {token}"})
                    for url, token, body in requests
                )
            )
        )


def test_simultaneous_requests_on_two_processes_are_applied_once(servers: list[ServerProcess]) -> None:
    urls = [server.url for server in servers]
    table_id, tokens = two_people(urls[0], urls[1], seats=2, bots=None)  # nothing moves by itself
    view = api(urls[0], "GET", f"/api/tables/{table_id}/state")
    cutter = view["cutter"]
    cuts = [
        (f"{url}/api/tables/{table_id}/cut", tokens[cutter], {"id": f"cut{n}", "position": n})
        for n, url in enumerate(urls)
    ]
    answers = asyncio.run(at_once(cuts))
    assert sorted(answer.status_code for answer in answers) == [200, 409]  # one cut, not two
    rng = random.Random(3)
    for round_number in range(ROUNDS):
        views = [api(url, "GET", f"/api/tables/{table_id}/state", tokens[0]) for url in urls]
        assert views[0]["version"] == views[1]["version"]  # both processes agree
        view = views[0]
        if view["status"] != "playing":
            break
        actor = view["observation"]["current_seat"]
        mine = api(urls[0], "GET", f"/api/tables/{table_id}/state", tokens[actor])
        legal = [a for a in mine["observation"]["legal_actions"] if not a.startswith("call")]
        version = mine["version"]
        path = f"/api/tables/{table_id}/actions"
        if round_number % 2 == 0:
            # The same message (one id) at both processes: one change, the same ack twice.
            body = {"id": f"same{round_number}", "action": legal[0], "expected_version": version}
            answers = asyncio.run(at_once([(url + path, tokens[actor], body) for url in urls]))
            assert [answer.status_code for answer in answers] == [200, 200], [a.text for a in answers]
            assert answers[0].json() == answers[1].json()
        else:
            # Two different (conflicting) actions at both processes: exactly one is applied.
            choices = rng.sample(legal, 2) if len(legal) > 1 else legal * 2
            bodies = [
                {"id": f"r{round_number}p{n}", "action": choices[n], "expected_version": version}
                for n in (0, 1)
            ]
            answers = asyncio.run(
                at_once([(url + path, tokens[actor], body) for url, body in zip(urls, bodies, strict=True)])
            )
            assert sorted(answer.status_code for answer in answers) == [200, 409], [a.text for a in answers]
            refused = next(answer for answer in answers if answer.status_code == 409)
            assert refused.json()["error"]["code"] == "conflict"
        after = [
            api(url, "GET", f"/api/tables/{table_id}/events", tokens[actor], params={"since": version})[
                "events"
            ]
            for url in urls
        ]
        assert after[0] == after[1]
        assert [e["type"] for e in after[0]][:1] == ["action"]
        assert len([e for e in after[0] if e["type"] == "action"]) == 1  # applied once
    events = api(urls[1], "GET", f"/api/tables/{table_id}/events")["events"]
    assert [event["version"] for event in events] == list(range(1, len(events) + 1))
    assert len([event for event in events if event["type"] == "cut"]) == 1
