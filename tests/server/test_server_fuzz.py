"""Fuzzing: the HTTP API against its own OpenAPI schema, and bad WebSocket messages.

HTTP: schemathesis generates requests for every operation of ``/openapi.json`` (in-process,
over ASGI; half of them aimed at a real table with a real seat token) and checks that no
answer is a 5xx and that every answer conforms to the schema (status code, content type,
body).

WebSocket: hypothesis sends a seated connection of a table in play random JSON, wrong types,
huge strings, unknown types, binary frames and floods. Every bad message gets an ``error``
frame (or the connection is closed cleanly), the connection still answers a ``ping``, and the
table's version and state are unchanged.
"""

from __future__ import annotations

import itertools
import json
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from server_helpers import (
    auth,
    create,
    fast_limits,
    fast_settings,
    receive,
    state,
    steady,
    two_people_playing,
)
from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from paiute.server import create_app
from paiute.server.api import ChatBody, StartBody

HTTP_EXAMPLES = 25  # per operation
WS_EXAMPLES = 150
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# -- HTTP: schemathesis over ASGI -------------------------------------------------------------


class Target:
    """A real table and seat token, so that generated requests reach more than 404s."""

    table_id = ""
    token = ""
    turn = itertools.count()
    statuses: ClassVar[Counter[int]] = Counter()


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db_url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.db'}"
    app = create_app(db_url, limits=fast_limits(), settings=fast_settings())
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    with asgi.get_client(cast(Any, app)) as session:  # starts the app (its lifespan) for the whole module
        body: dict[str, Any] = {"player_name": "Ana", "seats": 2, "bots": "greedy", "max_deals": 1}
        created = session.post("/api/tables", json=body).json()
        Target.table_id, Target.token = created["table"]["id"], created["token"]
        session.post(f"/api/tables/{Target.table_id}/start", json={"id": "s"}, headers=auth(Target.token))
        yield schema
    asgi.shutdown_lifespans()


def test_api_answers_every_generated_request_within_its_schema(api_schema: Any) -> None:
    # Each operation is fuzzed by its own hypothesis run (schemathesis's pytest plugin,
    # ``schemathesis.pytest.from_fixture``, does not work with pytest 9: it reads a private
    # attribute pytest no longer has).
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 12

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=HTTP_EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        def fuzz(case: Any) -> None:
            headers: dict[str, str] = {}
            if next(Target.turn) % 2 == 0:
                if case.path_parameters and "table_id" in case.path_parameters:
                    case.path_parameters["table_id"] = Target.table_id
                headers = auth(Target.token)
            response = case.call_and_validate(headers=headers, checks=CHECKS)
            Target.statuses[response.status_code] += 1

        fuzz()
    print(sorted(Target.statuses.items()))
    # The fuzzing reached past validation: some requests were accepted, some refused.
    assert any(200 <= status < 300 for status in Target.statuses)
    assert any(400 <= status < 500 for status in Target.statuses)


# -- WebSocket: hypothesis against a live table --------------------------------------------------


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    """A two-person table in play; the seat returned is NOT to move, so that no well-formed
    message of it can change the table either (except a chat, which the strategy leaves out)."""
    db_url = f"sqlite:///{tmp_path_factory.mktemp('wsfuzz') / 'ws.db'}"
    with TestClient(
        create_app(db_url, limits=fast_limits(), settings=fast_settings(ws_rate=1e9, ws_burst=1e9))
    ) as client:
        table_id, tokens, current = two_people_playing(client, position=5)
        yield client, table_id, tokens[1 - current]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
TYPES = st.sampled_from(
    ["action", "cut", "chat", "start", "leave", "hello", "ping", "welcome", "ack", ""]
) | st.text(max_size=12)
FIELDS = st.sampled_from(["id", "action", "expected_version", "position", "text", "seat", "token", "since"])
WRONG_VALUES = (
    JSON_VALUES
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from(["draw stock", "draw discard", "call", "discard 7h", "call 7h", "discard Jk1"])
    | st.text(min_size=60, max_size=300)
)
#: Messages with a type (known or not) and fields of any type.
TYPED = st.builds(
    lambda kind, fields: {"type": kind, **fields}, TYPES, st.dictionaries(FIELDS, WRONG_VALUES, max_size=5)
)
FRAMES = st.one_of(
    TYPED.map(lambda message: ("text", json.dumps(message))),
    JSON_VALUES.map(lambda value: ("text", json.dumps(value))),
    st.text(max_size=200).map(lambda text: ("text", text)),
    st.binary(max_size=200).map(lambda data: ("bytes", data)),
    st.integers(min_value=4097, max_value=20_000).map(
        lambda n: ("text", json.dumps({"type": "chat", "id": "x", "text": "a" * n}))
    ),
    st.integers(min_value=4097, max_value=70_000).map(lambda n: ("bytes", b"\xff" * n)),
)


def could_change_the_table(kind: str, payload: str | bytes) -> bool:
    """A well-formed chat, or leave (during a match the bot then plays the seat), is not fuzz:
    the seat not to move may send them."""
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return False
    if not isinstance(data, dict) or data.get("type") not in ("chat", "leave"):
        return False
    model = ChatBody if data["type"] == "chat" else StartBody
    if data["type"] == "leave" and not isinstance(data.get("id"), str):
        return False
    try:
        model.model_validate(data)
    except ValueError:
        return False
    return True


def answer(ws: Any) -> dict[str, Any] | None:
    """The server's answer to one message: its error frame, or None when it closed."""
    try:
        message: dict[str, Any] = receive(ws)
    except WebSocketDisconnect:
        return None
    return message


@given(frames=st.lists(FRAMES, min_size=1, max_size=4))
@settings(
    max_examples=WS_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_bad_websocket_messages_get_an_error_and_change_nothing(
    live: tuple[TestClient, str, str], frames: list[tuple[str, Any]]
) -> None:
    client, table_id, token = live
    before = state(client, table_id, token)
    frames = [frame for frame in frames if not could_change_the_table(*frame)]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "since": before["version"]})
        welcome = receive(ws)
        assert welcome["type"] == "welcome"
        assert welcome["events"] == []
        for kind, payload in frames:
            if kind == "text":
                ws.send_text(payload)
            else:
                ws.send_bytes(payload)
            reply = answer(ws)
            if reply is None:
                break
            if reply["type"] == "pong":  # a ping among the fuzz is fine
                continue
            assert reply["type"] == "error", reply
            assert set(reply["error"]) == {"code", "message", "rule"}
        else:
            ws.send_json({"type": "ping"})
            assert receive(ws) == {"type": "pong"}  # still serving this connection
    after = state(client, table_id, token)
    assert steady(after) == steady(before)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_request"),
        ("[1, 2]", "bad_request"),
        ('{"type": "nope"}', "bad_request"),
        ('{"type": "action", "id": 5, "action": "draw stock"}', "bad_request"),
        ('{"type": "action", "id": "x", "action": "draw sideways"}', "bad_request"),
        ('{"type": "action", "id": "x", "action": "draw stock"}', "not_your_turn"),
        ('{"type": "cut", "id": "x", "position": 3}', "conflict"),
        ('{"type": "start", "id": "x"}', "conflict"),
        ('{"type": "chat", "id": "x", "text": "' + "a" * 5000 + '"}', "too_large"),
        (b"\xff\xfe", "bad_request"),
    ],
)
def test_each_kind_of_bad_message_gets_its_error(
    live: tuple[TestClient, str, str], frame: str | bytes, code: str
) -> None:
    client, table_id, token = live
    before = state(client, table_id, token)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "since": None})
        assert receive(ws)["type"] == "welcome"
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        reply = receive(ws)
        assert reply["type"] == "error", reply
        assert reply["error"]["code"] == code, reply
    assert steady(state(client, table_id, token)) == steady(before)


def test_a_flood_is_rate_limited_then_closed_and_changes_nothing(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'flood.db'}"
    with TestClient(
        create_app(db_url, limits=fast_limits(), settings=fast_settings(ws_rate=5, ws_burst=5))
    ) as client:
        table_id, token = create(client, seats=2, bots=None)
        before = state(client, table_id, token)
        codes = []
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": None})
            assert receive(ws)["type"] == "welcome"
            # Sent at once, without waiting for the answers: a flood however slow the machine.
            for number in range(400):  # bounded: far past the strikes that close a flood
                try:
                    ws.send_json({"type": "action", "id": f"f{number}", "action": "draw stock"})
                except WebSocketDisconnect:
                    break
            for _ in range(400):
                try:
                    reply = receive(ws)
                except WebSocketDisconnect:
                    break
                codes.append(reply["error"]["code"])
            else:
                raise AssertionError("a flooding connection was never closed")
        assert "rate_limited" in codes
        assert set(codes) <= {"rate_limited", "conflict", "not_your_turn", "illegal_action"}
        assert steady(state(client, table_id, token)) == steady(before)
