"""A real ``paiute serve`` and WebSocket seats for the liveness tests (presence, grace, bots).

Every test talks to a server started on 127.0.0.1 by the test itself (``serve`` below), over
HTTP (httpx) and WebSockets (websockets), and the server is always stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from server_helpers import ServerProcess
from websockets.asyncio.client import ClientConnection, connect

#: Seconds a test waits for one thing the server must do (a frame, a bot's move).
WAIT = 20.0
#: Seconds between two messages of one connection.
PACE = 0.06


#: ``paiute serve`` flags that lift the caps per address.
RELAXED_LIMITS = ("--address-rate", "0", "--max-tables-per-address", "500", "--max-seats-per-address", "500")


@contextlib.contextmanager
def serve(directory: Path, **flags: Any) -> Iterator[ServerProcess]:
    """``paiute serve`` on a free port until the block ends (stopped whatever happens).

    Every client of these tests comes from 127.0.0.1: the caps per address are lifted (the
    tests of those caps, tests/server/test_server_abuse.py, set their own).
    """
    flags.setdefault("extra", RELAXED_LIMITS)
    server = ServerProcess(f"sqlite:///{directory / 'db.sqlite'}", directory / "server.log", **flags)
    try:
        yield server
    finally:
        server.stop()


def call(
    server: ServerProcess, method: str, path: str, token: str | None = None, **kwargs: Any
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.request(method, server.url + path, headers=headers, timeout=10, **kwargs)


def new_table(server: ServerProcess, **body: Any) -> tuple[str, str]:
    """A table made over HTTP: its id and its creator's token."""
    payload = {"player_name": "Ana", "seats": 2, "bots": None, "turn_seconds": 600, **body}
    response = call(server, "POST", "/api/tables", json=payload)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["table"]["id"], data["token"]


def sit(server: ServerProcess, table_id: str, name: str) -> tuple[int, str]:
    response = call(server, "POST", f"/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code == 200, response.text
    return response.json()["seat"], response.json()["token"]


class Seat:
    """One WebSocket connection to a table: every frame it got, and the latest View."""

    def __init__(self, server: ServerProcess, table_id: str, token: str | None) -> None:
        self.url = f"{server.ws_url}/ws/tables/{table_id}"
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._count = 0

    async def open(self) -> Seat:
        self.ws = await connect(self.url)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "since": 0}))
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.until(lambda: bool(self.view))
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] in ("welcome", "update"):
                    self.view = frame["state"]
                elif frame["type"] == "presence" and self.view:
                    self._merge(frame)
                self._changed.set()

    def _merge(self, frame: dict[str, Any]) -> None:
        """A presence frame changes the View's players as the pages show it."""
        away = {item["seat"]: item["deadline"] for item in frame["away"]}
        for player in self.view["table"]["players"]:
            player["connected"] = player["seat"] in frame["connected"]
            player["away_until"] = away.get(player["seat"])
        self.view["table"]["spectators"] = frame["spectators"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def until(self, done: Callable[[], Any], seconds: float = WAIT) -> Any:
        """Wait until ``done()`` is true (checked after each frame), at most ``seconds``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            result = done()
            if result:
                return result
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"never got there; last frames: {self.frames[-3:]}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=left)

    async def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a message with a fresh id; its ack or error."""
        assert self.ws is not None
        await asyncio.sleep(PACE)  # under the server's --rate-limit (20 a second per connection)
        self._count += 1
        ident = f"m{self._count}-{random.random()}"
        start = len(self.frames)
        await self.ws.send(json.dumps({"id": ident, **message}))
        answer: dict[str, Any] = await self.until(
            lambda: next(
                (f for f in self.frames[start:] if f["type"] in ("ack", "error") and f.get("id") == ident),
                None,
            )
        )
        return answer

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The events of ``kind`` this connection was told of (updates and the welcome's)."""
        found: dict[int, dict[str, Any]] = {}
        for frame in self.frames:
            listed = frame.get("events", []) if frame["type"] == "welcome" else [frame.get("event")]
            for event in listed:
                if event and event["type"] == kind:
                    found[event["version"]] = event
        return [found[version] for version in sorted(found)]

    def presences(self) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == "presence"]

    def my_move(self) -> bool:
        view = self.view
        if view.get("status") == "cut":
            return bool(view["cutter"] == view["you"] and view["you"] is not None)
        observation = view.get("observation")
        return view.get("status") == "playing" and bool(observation and observation["legal_actions"])

    async def play(self, rng: random.Random) -> dict[str, Any]:
        """Make this seat's move (a cut, or a legal action that does not call)."""
        view = self.view
        if view["status"] == "cut":
            return await self.send({"type": "cut", "position": rng.randrange(52)})
        legal = view["observation"]["legal_actions"]
        quiet = [action for action in legal if not action.startswith("call")] or legal
        # Mostly from the stock, so that it runs out and the deal ends (R4.6, R4.7).
        action = "draw stock" if "draw stock" in legal and rng.random() < 0.9 else rng.choice(quiet)
        return await self.send({"type": "action", "action": action})
