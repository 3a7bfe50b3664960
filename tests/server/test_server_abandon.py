"""Abandoned tables: a table no person has been at for ``Settings.abandon_minutes`` ends.

The server's clock is injected (``create_app(clock=...)``) and the sweep is called directly,
so nothing waits for real minutes; the background sweeper is held off (``SWEEP_EVERY``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from server_helpers import POLLS, auth, fast_limits, fast_settings, hurried, my_move, receive, state, wait_for

from conftest import fresh_schema
from paiute.cli.main import main
from paiute.cli.serve_command import ABANDON_MINUTES
from paiute.fairness import verify_deal
from paiute.record import Record
from paiute.server import Settings, abandoned, create_app
from paiute.server.limits import Limits
from paiute.server.presence import message

LIMIT = 30  # minutes: the default
LATER = 60.0 * LIMIT + 1.0  # seconds: just past the limit


@pytest.fixture(autouse=True)
def _one_sweep_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep at start runs; the next would come only after the test (each test sweeps)."""
    monkeypatch.setattr(abandoned, "SWEEP_EVERY", 1e6)


@contextmanager
def serving(
    db_url: str, now: list[float], *, limits: Limits | None = None, **settings: Any
) -> Iterator[TestClient]:
    app = create_app(
        db_url,
        limits=limits or fast_limits(),
        settings=fast_settings(**settings),
        clock=lambda: now[0],
    )
    with TestClient(app) as client:
        yield client


def sweep(client: TestClient, batch: int = abandoned.SWEEP_BATCH) -> list[str]:
    service = client.app.state.service  # type: ignore[attr-defined]
    ended: list[str] = client.portal.call(service.abandoned.sweep, batch)  # type: ignore[union-attr]
    return ended


def play_now(client: TestClient, seats: int = 2) -> dict[str, Any]:
    """A "play now" table (private, no clock, against bots), left once it waits on its person:
    its id, the person's token and its invitation code."""
    response = client.post("/api/play", json={"player_name": "Ana", "seats": seats, "level": "hard"})
    assert response.status_code == 201, response.text
    client.cookies.clear()  # the tests name seats by their tokens only
    answer = response.json()
    table_id, token = answer["table"]["id"], answer["token"]
    wait_for(client, table_id, token, my_move)  # the bots wait on the person: quiet
    invite = parse_qs(urlsplit(answer["invite"]).query)["invite"][0]
    return {"id": table_id, "token": token, "invite": invite}


def watched(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """The table's state as its invitation link shows it (no seat: a look that keeps nothing alive)."""
    response = client.get(f"/api/tables/{table['id']}/state", params={"invite": table["invite"]})
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def wait_for_watched(
    client: TestClient, table: dict[str, Any], done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Poll as a spectator until ``done(view)`` (a seat's poll would count as its person)."""
    for _ in range(POLLS):
        view = watched(client, table)
        if done(view):
            return view
        time.sleep(0.001)
    raise AssertionError(f"table {table['id']} never got there: {view['status']} v{view['version']}")


def closing(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """The table's last event, which must say it ended because nobody played."""
    answer = client.get(f"/api/tables/{table['id']}/events", params={"invite": table["invite"]}).json()
    last: dict[str, Any] = answer["events"][-1]
    assert last["type"] == "closed"
    assert last["idle_minutes"] == LIMIT
    assert last["reason"] == f"nobody played for {LIMIT} minutes"
    return last


def test_ten_abandoned_play_now_tables_end_and_the_eleventh_is_accepted(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now, limits=fast_limits(open_tables=10)) as client:
        tables = [play_now(client) for _ in range(10)]
        refused = client.post("/api/play", json={"player_name": "Ana", "seats": 2, "level": "hard"})
        assert refused.status_code == 429
        assert "10 open tables" in refused.json()["error"]["message"]
        now[0] += 60.0 * LIMIT - 1.0
        assert sweep(client) == []  # not yet
        now[0] += 2.0
        assert sorted(sweep(client)) == sorted(table["id"] for table in tables)
        for table in tables:
            assert watched(client, table)["status"] == "closed"
            closing(client, table)
        client.cookies.clear()
        again = client.post("/api/play", json={"player_name": "Ana", "seats": 2, "level": "hard"})
        assert again.status_code == 201, again.text


def test_a_table_with_its_person_connected_is_not_ended_and_a_spectator_keeps_none(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        kept, left = play_now(client), play_now(client)
        with client.websocket_connect(f"/ws/tables/{kept['id']}") as person:
            person.send_json({"type": "hello", "token": kept["token"], "since": None})
            assert receive(person)["type"] == "welcome"
            with client.websocket_connect(f"/ws/tables/{left['id']}") as spectator:
                spectator.send_json({"type": "hello", "token": None, "since": None, "invite": left["invite"]})
                assert receive(spectator)["type"] == "welcome"
                now[0] += LATER
                assert sweep(client) == [left["id"]]
                update = receive(spectator)  # the spectator is told, as anyone who opens it later
                assert update["event"]["type"] == "closed"
                assert update["event"]["idle_minutes"] == LIMIT
            assert watched(client, kept)["status"] != "closed"
        # The person was there until the connection went: the limit runs from then.
        now[0] += 60.0 * LIMIT - 1.0
        assert sweep(client) == []
        now[0] += 2.0
        assert sweep(client) == [kept["id"]]


def test_a_request_by_a_seat_token_keeps_the_table(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        table = play_now(client)
        now[0] += LATER - 10.0
        state(client, table["id"], table["token"])  # the person looks at the table
        now[0] += 20.0
        assert sweep(client) == []
        now[0] += LATER
        assert sweep(client) == [table["id"]]


def test_a_table_the_bot_plays_for_its_only_person_ends_too(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now, away_grace=0.0) as client:
        table = play_now(client, seats=3)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as person:
            person.send_json({"type": "hello", "token": table["token"], "since": None})
            assert receive(person)["type"] == "welcome"
        # Gone: with no grace period the bot takes the seat, and the bots wait on it.
        view = wait_for_watched(client, table, lambda v: v["table"]["players"][0]["autoplay"] == "away")
        assert view["status"] != "closed"
        now[0] += LATER
        assert sweep(client) == [table["id"]]
        closing(client, table)


def test_a_connection_to_another_process_keeps_the_table_and_its_spectators_do_not(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        kept, left = play_now(client), play_now(client)
        service = client.app.state.service  # type: ignore[attr-defined]
        hear = service._presence_heard
        client.portal.call(hear, message("other", kept["id"], {0}, 0, {}))  # type: ignore[union-attr]
        client.portal.call(hear, message("other", left["id"], (), 3, {}))  # type: ignore[union-attr]
        now[0] += LATER
        assert sweep(client) == [left["id"]]
        client.portal.call(hear, message("other", kept["id"], (), 0, {}))  # type: ignore[union-attr]
        now[0] += LATER
        assert sweep(client) == [kept["id"]]


def test_a_person_who_left_the_match_keeps_nothing_alive_by_watching(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        body = {"player_name": "Ana", "seats": 3, "bots": "greedy", "private": True, "turn_seconds": None}
        created = client.post("/api/tables", json=body).json()
        client.cookies.clear()
        table_id, ana = created["table"]["id"], created["token"]
        invite = parse_qs(urlsplit(created["invite"]).query)["invite"][0]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "invite": invite}).json()
        client.cookies.clear()
        bo = joined["token"]
        assert (
            client.post(f"/api/tables/{table_id}/start", json={"id": "s"}, headers=auth(ana)).status_code
            == 200
        )
        with client.websocket_connect(f"/ws/tables/{table_id}") as watching:
            watching.send_json({"type": "hello", "token": ana, "since": None})
            assert receive(watching)["type"] == "welcome"
            left = client.post(f"/api/tables/{table_id}/leave", json={"id": "l"}, headers=auth(ana))
            assert left.status_code == 200, left.text
            wait_for(client, table_id, bo, my_move)  # the bot plays Ana's seat; the table waits on Bo
            now[0] += LATER
            assert sweep(client) == [table_id]


def test_a_restart_ends_a_table_abandoned_while_the_server_was_down(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        stale, connected = play_now(client), play_now(client)
        now[0] += LATER - 60.0
        with client.websocket_connect(f"/ws/tables/{connected['id']}") as person:
            person.send_json({"type": "hello", "token": connected["token"], "since": None})
            assert receive(person)["type"] == "welcome"
    now[0] += 120.0  # the server was down two minutes
    with serving(db_url, now) as client:
        # The sweep on start ends the table nobody was at; the one whose person was connected
        # just before the stop carries on.
        assert wait_for_watched(client, stale, lambda v: v["status"] == "closed")
        closing(client, stale)
        assert watched(client, connected)["status"] != "closed"
        now[0] += LATER
        assert sweep(client) == [connected["id"]]


def test_finished_deals_of_an_abandoned_table_keep_their_record_replay_and_proof(db_url: str) -> None:
    now = [1000.0]
    rng = random.Random(3)
    with serving(db_url, now) as client:
        table = play_now(client)
        table_id, token = table["id"], table["token"]
        for number in range(5000):
            view = wait_for(client, table_id, token, my_move)
            if view["table"]["deals"] >= 1:
                break  # the second deal waits on its person, unfinished
            if view["status"] == "cut":
                body: dict[str, Any] = {"id": f"c{number}", "position": rng.randrange(52)}
                path = "cut"
            else:
                body = {"id": f"a{number}", "action": hurried(rng, view["observation"]["legal_actions"])}
                path = "actions"
            response = client.post(f"/api/tables/{table_id}/{path}", json=body, headers=auth(token))
            assert response.status_code == 200, response.text
        assert view["status"] in ("cut", "playing")
        pot = view["pot"]
        now[0] += LATER
        assert sweep(client) == [table_id]
        ended = state(client, table_id, token)
        assert ended["status"] == "closed"
        assert ended["table"]["deals"] == 1
        assert ended["pot"] == pot  # the unfinished deal is not scored: its stakes stay in the pot
        record = Record.loads(client.get(f"/api/tables/{table_id}/record", headers=auth(token)).text)
        assert len(record.deals) == 1
        assert [verify_deal(deal) for deal in record.deals] == [[]]
        replay = client.get(f"/api/tables/{table_id}/deals/1/replay", headers=auth(token))
        assert replay.status_code == 200
        proof = client.get(f"/api/tables/{table_id}/deals/1/proof", headers=auth(token))
        assert proof.status_code == 200
        unfinished = client.get(f"/api/tables/{table_id}/deals/2/proof", headers=auth(token))
        assert unfinished.status_code in (404, 409)  # its commitment is never revealed


def test_one_sweep_ends_at_most_its_batch_and_the_next_carries_on(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now) as client:
        tables = {play_now(client)["id"] for _ in range(5)}
        now[0] += LATER
        first, second, third = sweep(client, 2), sweep(client, 2), sweep(client, 2)
        assert (len(first), len(second), len(third)) == (2, 2, 1)
        assert set(first) | set(second) | set(third) == tables
        assert sweep(client, 2) == []


def test_zero_minutes_never_ends_a_table(db_url: str) -> None:
    now = [1000.0]
    with serving(db_url, now, abandon_minutes=0) as client:
        table = play_now(client)
        now[0] += 1e9
        assert sweep(client) == []
        assert watched(client, table)["status"] != "closed"


def test_the_serve_flag_default_is_the_settings_default() -> None:
    assert ABANDON_MINUTES == Settings().abandon_minutes == LIMIT


def test_a_negative_abandon_after_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--abandon-after", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--abandon-after is minutes" in err
    assert err.count("\n") == 1


@pytest.fixture
def postgres_schema() -> Iterator[str]:
    """A fresh schema of the test PostgreSQL database (PAIUTE_TEST_POSTGRES), dropped after."""
    pytest.importorskip("psycopg")
    with fresh_schema() as url:
        yield url


def test_of_two_processes_sweeping_at_once_one_ends_each_table(postgres_schema: str) -> None:
    now = [1000.0]
    with serving(postgres_schema, now) as first, serving(postgres_schema, now) as second:
        tables = [play_now(first) for _ in range(6)]
        for table in tables:
            watched(second, table)  # the second process holds them too
        now[0] += LATER
        with ThreadPoolExecutor(max_workers=2) as pool:
            ended = list(pool.map(sweep, (first, second)))
        assert sorted(ended[0] + ended[1]) == sorted(table["id"] for table in tables)
        for table in tables:
            events = first.get(f"/api/tables/{table['id']}/events", params={"invite": table["invite"]}).json()
            assert [event["type"] for event in events["events"]].count("closed") == 1
            assert watched(second, table)["status"] == "closed"
