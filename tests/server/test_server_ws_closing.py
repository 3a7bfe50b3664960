"""How the server ends a WebSocket (docs/web-protocol.md, *Closing*): always with a close code
and a reason, after the refusal that ends it.

A connection counts against its address's cap from its opening, hello or not: connections
that never say hello cannot pile up past the cap, and each is closed when its hello has not
come in time (1008 ``timeout``); one past the cap is refused at once (1008 ``rate_limited``);
a flood of refused messages is closed with 1008 ``rate_limited``. Checked in-process and over
a real ``paiute serve`` (uvicorn's WebSocket, where the close frame travels).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import ServerProcess, create, fast_limits, fast_settings, receive
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from paiute.server import create_app
from paiute.server.limits import Limits
from paiute.server.ws import STRIKES

MESSAGES = 2_000  # bound on the messages a test reads from one connection


def closing(ws: WebSocketTestSession) -> tuple[int, str, list[dict[str, Any]]]:
    """Read until the server closes: its close code and reason, and what came before."""
    before: list[dict[str, Any]] = []
    for _ in range(MESSAGES):
        try:
            before.append(receive(ws))
        except WebSocketDisconnect as closed:
            return closed.code, closed.reason, before
    raise AssertionError("the connection was never closed")


def welcomed(ws: WebSocketTestSession) -> str:
    ws.send_json({"type": "hello", "token": None, "since": None})
    kind: str = receive(ws)["type"]
    return kind


def test_silent_connections_count_against_the_cap_of_their_address(db_url: str) -> None:
    limits = fast_limits(ws_per_address=3, hello_seconds=60.0)
    with TestClient(create_app(db_url, limits=limits, settings=fast_settings())) as client:
        table_id, _ = create(client)
        url = f"/ws/tables/{table_id}"
        with contextlib.ExitStack() as stack:
            silent = [stack.enter_context(client.websocket_connect(url)) for _ in range(3)]
            with client.websocket_connect(url) as one_more:  # never says hello either
                code, reason, before = closing(one_more)
            assert (code, reason) == (1008, "rate_limited")
            assert [message["error"]["code"] for message in before] == ["rate_limited"]
            silent[0].close()
            # One of them gone: its place is free again, and this one is served.
            with client.websocket_connect(url) as fresh:
                assert welcomed(fresh) == "welcome"


def test_a_connection_without_hello_is_closed_and_its_place_freed(db_url: str) -> None:
    limits = fast_limits(ws_per_address=1, hello_seconds=0.3)
    with TestClient(create_app(db_url, limits=limits, settings=fast_settings())) as client:
        table_id, _ = create(client)
        url = f"/ws/tables/{table_id}"
        started = time.monotonic()
        with client.websocket_connect(url) as silent:
            code, reason, before = closing(silent)
        assert time.monotonic() - started < 10
        assert (code, reason) == (1008, "timeout")
        assert [message["error"]["code"] for message in before] == ["timeout"]
        assert "0.3 s" in before[0]["error"]["message"]
        with client.websocket_connect(url) as next_one:
            assert welcomed(next_one) == "welcome"


def test_a_flooding_connection_is_closed_with_a_code_and_a_reason(db_url: str) -> None:
    settings = fast_settings(ws_rate=0.001, ws_burst=1)
    with TestClient(create_app(db_url, limits=fast_limits(), settings=settings)) as client:
        table_id, token = create(client)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": None})
            assert receive(ws)["type"] == "welcome"
            for number in range(STRIKES + 10):
                ws.send_json({"type": "chat", "id": f"c{number}", "text": "spam"})
            code, reason, before = closing(ws)
    assert (code, reason) == (1008, "rate_limited")
    refused = [message for message in before if message["type"] == "error"]
    assert len(refused) >= STRIKES - 1
    assert {message["error"]["code"] for message in refused} == {"rate_limited"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory: Path = tmp_path_factory.mktemp("closing")
    running = ServerProcess(f"sqlite:///{directory / 'closing.sqlite'}", directory / "server.log")
    try:
        yield running
    finally:
        running.stop()


def test_over_uvicorn_the_close_frames_carry_their_code_and_reason(served: ServerProcess) -> None:
    """The default cap (64 an address) filled with silent connections: the next is refused at
    once; the silent ones are closed when their hello is late; then a connection is served."""
    table = httpx.post(f"{served.url}/api/tables", json={"player_name": "Ana", "seats": 2}, timeout=10)
    table_id = table.json()["table"]["id"]
    url = f"{served.ws_url}/ws/tables/{table_id}"
    cap, late = Limits().ws_per_address, Limits().hello_seconds

    async def ended(ws: Any) -> tuple[int | None, str | None, list[dict[str, Any]]]:
        before = []
        with contextlib.suppress(ConnectionClosed):
            while True:
                before.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=late + 10)))
        return ws.close_code, ws.close_reason, before

    async def run() -> None:
        silent = [await connect(url, local_addr=("127.0.0.81", 0)) for _ in range(cap)]
        started = time.monotonic()
        async with connect(url, local_addr=("127.0.0.81", 0)) as refused:
            code, reason, before = await ended(refused)
        assert (code, reason) == (1008, "rate_limited")
        assert [message["error"]["code"] for message in before] == ["rate_limited"]
        for ws in silent:
            code, reason, before = await ended(ws)
            assert (code, reason) == (1008, "timeout")
            assert [message["error"]["code"] for message in before] == ["timeout"]
        assert time.monotonic() - started < late + 10
        async with connect(url, local_addr=("127.0.0.81", 0)) as served_now:
            await served_now.send(json.dumps({"type": "hello", "token": None, "since": None}))
            assert json.loads(await served_now.recv())["type"] == "welcome"

    asyncio.run(run())
