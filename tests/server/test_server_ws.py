"""The WebSocket protocol: welcome, updates, acks, reconnecting with ``since``, refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import auth, create, fast_limits, fast_settings, join, receive, start, state
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from paiute.record import Record
from paiute.server import create_app

MESSAGES = 20_000  # bound on the messages a test reads from one connection


def hello(ws: WebSocketTestSession, token: str | None = None, since: int | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "since": since})
    welcome: dict[str, Any] = receive(ws)
    assert welcome["type"] == "welcome", welcome
    return welcome


def receive_until(ws: WebSocketTestSession, done: Any) -> dict[str, Any]:
    for _ in range(MESSAGES):
        message: dict[str, Any] = receive(ws)
        if done(message):
            return message
    raise AssertionError("the awaited message never came")


def two_people_cut(client: TestClient) -> tuple[str, dict[int, str]]:
    table_id, token = create(client, seats=2, bots=None)
    _, other = join(client, table_id, "Bo")
    tokens = {0: token, 1: other}
    start(client, table_id, token)
    cutter = state(client, table_id)["cutter"]
    client.post(
        f"/api/tables/{table_id}/cut", json={"id": "the-cut", "position": 0}, headers=auth(tokens[cutter])
    )
    return table_id, tokens


def test_full_match_over_websockets(client: TestClient) -> None:
    table_id, token = create(client, seats=3, bots="greedy", max_deals=2)
    rng = random.Random(7)
    acks = 0
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, token)
        assert welcome["seat"] == 0
        assert welcome["state"]["you"] == 0
        ws.send_json({"type": "start", "id": "s"})
        last = welcome["version"]
        for _ in range(MESSAGES):
            message = receive(ws)
            assert message["type"] in ("update", "ack"), message
            if message["type"] == "ack":
                acks += 1
                continue
            assert message["version"] == last + 1  # every version, in order, exactly once
            last = message["version"]
            view = message["state"]
            assert view["version"] == message["version"]
            if view["status"] == "closed":
                break
            if view["status"] == "cut" and view["cutter"] == 0:
                ws.send_json({"type": "cut", "id": f"c{last}", "position": rng.randrange(52)})
            elif view["status"] == "playing" and view["observation"]["legal_actions"]:
                action = rng.choice(view["observation"]["legal_actions"])
                ws.send_json({"type": "action", "id": f"a{last}", "action": action, "expected_version": last})
        ws.send_json({"type": "ping"})
        assert receive_until(ws, lambda m: m["type"] == "pong") == {"type": "pong"}
    assert acks > 0
    record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert len(record.deals) == 2
    record.replay()


def test_reconnect_with_since_gets_exactly_the_missed_events(client: TestClient) -> None:
    table_id, tokens = two_people_cut(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        seen = hello(ws)["version"]
    # While away: a few actions and a chat line.
    for number in range(3):
        view = state(client, table_id)
        mover = tokens[view["observation"]["current_seat"]]
        action = (
            "draw stock"
            if view["observation"]["phase"] == "draw"
            else f"discard {state(client, table_id, mover)['observation']['hand'][0]}"
        )
        response = client.post(
            f"/api/tables/{table_id}/actions",
            json={"id": f"m{number}", "action": action},
            headers=auth(mover),
        )
        assert response.status_code == 200
    client.post(
        f"/api/tables/{table_id}/chat", json={"id": "hi", "text": "back soon"}, headers=auth(tokens[0])
    )
    now = state(client, table_id)["version"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws, tokens[1], since=seen)
    assert [event["version"] for event in welcome["events"]] == list(range(seen + 1, now + 1))
    assert welcome["version"] == now
    assert welcome["events"][-1]["type"] == "chat"
    http = client.get(f"/api/tables/{table_id}/events?since={seen}", headers=auth(tokens[1])).json()
    assert http["events"] == welcome["events"]  # one builder for both


def test_repeated_id_over_websocket_is_acked_again_and_applied_once(client: TestClient) -> None:
    table_id, tokens = two_people_cut(client)
    mover = state(client, table_id)["observation"]["current_seat"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[mover])
        ws.send_json({"type": "action", "id": "once", "action": "draw stock"})
        first = receive_until(ws, lambda m: m["type"] == "ack")
        ws.send_json({"type": "action", "id": "once", "action": "draw stock"})
        again = receive_until(ws, lambda m: m["type"] in ("ack", "error"))
    assert again == first
    assert len(state(client, table_id, tokens[mover])["observation"]["hand"]) == 6
    assert state(client, table_id)["version"] == first["version"]


def test_websocket_refusals_change_nothing(client: TestClient) -> None:
    table_id, tokens = two_people_cut(client)
    view = state(client, table_id)
    version = view["version"]
    mover = view["observation"]["current_seat"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[1 - mover])
        cases = [
            ({"type": "action", "id": "1", "action": "draw stock"}, "not_your_turn"),
            ({"type": "action", "id": "2", "action": "draw stock", "seat": mover}, "forbidden"),
            ({"type": "action", "id": "3", "action": "fly"}, "bad_request"),
            ({"type": "action", "action": "draw stock"}, "bad_request"),
            ({"type": "teleport", "id": "4"}, "bad_request"),
            ({"type": "hello", "token": None}, "bad_request"),
            ({"type": "chat", "id": "5", "text": ""}, "bad_request"),
        ]
        for message, code in cases:
            ws.send_json(message)
            answer = receive(ws)
            assert answer["type"] == "error", (message, answer)
            assert answer["error"]["code"] == code, (message, answer)
        ws.send_text("{not json")
        assert receive(ws)["error"]["code"] == "bad_request"
        ws.send_text("[1, 2]")
        assert receive(ws)["error"]["code"] == "bad_request"
        ws.send_text('{"type": "chat", "id": "6", "text": "' + "x" * 5000 + '"}')
        assert receive(ws)["error"]["code"] == "too_large"
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[mover])
        ws.send_json({"type": "action", "id": "7", "action": "discard 2c"})
        answer = receive(ws)
        assert answer["error"]["code"] == "illegal_action"
        assert answer["error"]["rule"] == "R4.2"
        assert answer["id"] == "7"
    assert state(client, table_id)["version"] == version


def test_websocket_hello_refusals_close_the_connection(client: TestClient) -> None:
    table_id, _ = create(client)
    for first, code in (
        ({"type": "action", "id": "x", "action": "draw stock"}, "bad_request"),
        ({"type": "hello", "token": "forged", "since": None}, "bad_token"),
        ({"type": "hello", "token": None, "since": -3}, "bad_request"),
    ):
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json(first)
            assert receive(ws)["error"]["code"] == code
            with pytest.raises(WebSocketDisconnect):
                receive(ws)
    with client.websocket_connect("/ws/tables/missing") as ws:
        ws.send_json({"type": "hello", "token": None, "since": None})
        assert receive(ws)["error"]["code"] == "not_found"


def test_spectator_sees_updates_but_cannot_act(client: TestClient) -> None:
    table_id, tokens = two_people_cut(client)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        welcome = hello(ws)
        assert welcome["seat"] is None
        assert welcome["state"]["observation"]["hand"] == []
        ws.send_json({"type": "action", "id": "x", "action": "draw stock"})
        assert receive(ws)["error"]["code"] == "bad_token"
        said = client.post(
            f"/api/tables/{table_id}/chat", json={"id": "c", "text": "hello"}, headers=auth(tokens[0])
        )
        assert said.status_code == 200, said.text
        update = receive(ws)
        assert update["type"] == "update"
        assert update["event"]["type"] == "chat"
        assert update["state"]["table"]["spectators"] == 1


def test_websocket_flood_is_rate_limited(db_url: str) -> None:
    with TestClient(
        create_app(db_url, limits=fast_limits(), settings=fast_settings(ws_rate=0.001, ws_burst=5))
    ) as client:
        table_id, token = create(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, token)  # the hello itself is not counted
            for number in range(12):
                ws.send_json({"type": "chat", "id": f"c{number}", "text": "spam"})
            answers = [receive_until(ws, lambda m: m["type"] in ("ack", "error")) for _ in range(12)]
        limited = [a for a in answers if a["type"] == "error"]
        assert len(limited) >= 7
        assert {a["error"]["code"] for a in limited} == {"rate_limited"}
        assert len(state(client, table_id)["chat"]) == 12 - len(limited)
