"""Helpers of the fault tests: people who play over HTTP and resend until answered, a WebSocket
watcher, a TCP proxy that can cut PostgreSQL away from a server, and the checks that nothing
acknowledged was lost or applied twice and that the log says each outage in one line."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from live_helpers import RELAXED_LIMITS
from server_helpers import ServerProcess, free_port
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

#: ``paiute serve`` flags of the fault tests: no caps per address or token.
NO_LIMITS = (*RELAXED_LIMITS, "--rate-limit", "0")
#: What the log says when the database goes, and when it is back (paiute.server.availability).
GONE = "the database is unavailable"
BACK = "the database is available again"


def call(url: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    kwargs.setdefault("timeout", 20)
    return httpx.request(method, url + path, headers=headers, **kwargs)


@dataclass
class Ack:
    """An acknowledged move: the seat, what it sent and the version it was answered with."""

    seat: int
    kind: str  # "action" or "cut"
    body: dict[str, Any]
    version: int


@dataclass
class Table:
    """A table of two people (no bots, a long clock: nothing moves by itself) and their moves.

    :meth:`move` sends the next move of whoever must move, and a move that was not answered
    (the database failed) goes again with the same id until it is: a change that was stored
    before its answer was lost is then answered as it was, never applied twice."""

    table_id: str
    tokens: dict[int, str]
    acks: list[Ack] = field(default_factory=list)
    pending: tuple[int, str, dict[str, Any]] | None = None  # seat, kind, body
    refused: int = 0  # moves answered 503

    @classmethod
    def create(cls, url: str, *, seats: int = 2) -> Table:
        body = {"player_name": "Ana", "seats": seats, "bots": None, "turn_seconds": 3600, "max_deals": 1}
        created = call(url, "POST", "/api/tables", json=body)
        assert created.status_code == 201, created.text
        table_id = created.json()["table"]["id"]
        tokens = {0: created.json()["token"]}
        for number in range(1, seats):
            joined = call(url, "POST", f"/api/tables/{table_id}/join", json={"name": f"P{number}"})
            assert joined.status_code == 200, joined.text
            tokens[joined.json()["seat"]] = joined.json()["token"]
        started = call(url, "POST", f"/api/tables/{table_id}/start", tokens[0], json={"id": "start"})
        assert started.status_code == 200, started.text
        return cls(table_id, tokens)

    def next_move(self, url: str) -> tuple[int, str, dict[str, Any]]:
        """Whoever must move now, and a legal move (a draw, else a discard: the deal goes on)."""
        view = call(url, "GET", f"/api/tables/{self.table_id}/state").json()
        version = view["version"]
        if view["status"] == "cut":
            return view["cutter"], "cut", {"id": f"v{version}", "position": 7, "expected_version": version}
        assert view["status"] == "playing", view["status"]
        seat = view["observation"]["current_seat"]
        mine = call(url, "GET", f"/api/tables/{self.table_id}/state", self.tokens[seat]).json()
        legal = [action for action in mine["observation"]["legal_actions"] if not action.startswith("call")]
        action = "draw stock" if "draw stock" in legal else legal[0]
        return seat, "action", {"id": f"v{version}", "action": action, "expected_version": version}

    def move(self, url: str, timeout: float = 20) -> httpx.Response:
        """Send the next move (or the one not answered yet); 200 records its ack."""
        if self.pending is None:
            self.pending = self.next_move(url)
        seat, kind, body = self.pending
        path = f"/api/tables/{self.table_id}/{'cut' if kind == 'cut' else 'actions'}"
        answer = call(url, "POST", path, self.tokens[seat], json=body, timeout=timeout)
        if answer.status_code == 200:
            self.acks.append(Ack(seat, kind, body, answer.json()["version"]))
            self.pending = None
        elif answer.status_code == 503:
            self.refused += 1
            assert answer.json()["error"]["code"] == "unavailable", answer.text
        else:
            raise AssertionError(f"{answer.status_code}: {answer.text}")
        return answer

    def check(self, url: str) -> None:
        """Nothing acknowledged was lost, nothing applied twice, no version skipped."""
        assert self.pending is None, "a move was never answered"
        for seat, token in self.tokens.items():
            events = call(url, "GET", f"/api/tables/{self.table_id}/events", token).json()["events"]
            assert [event["version"] for event in events] == list(range(1, len(events) + 1))
            by_version = {event["version"]: event for event in events}
            mine = sorted(
                event["version"]
                for event in events
                if event["seat"] == seat
                and event.get("by") == "player"
                and event["type"] in ("action", "cut")
            )
            acks = [ack for ack in self.acks if ack.seat == seat]
            # An ack names the last version of its change; the seat's own event is the latest
            # of its events up to it. Each ack has its own event, and every event an ack.
            matched = [max(version for version in mine if version <= ack.version) for ack in acks]
            assert sorted(matched) == mine, (matched, mine)
            for ack, version in zip(acks, matched, strict=True):
                event = by_version[version]
                assert event["type"] == ack.kind, (event, ack)
                if ack.kind == "action":
                    assert event["action"] == ack.body["action"], (event, ack)
                else:
                    assert event["position"] == ack.body["position"], (event, ack)


class Watcher:
    """A spectator's WebSocket connection to a table, in a thread: every message it gets."""

    def __init__(self, ws_url: str, table_id: str) -> None:
        self.messages: list[dict[str, Any]] = []
        self._open = contextlib.ExitStack()
        self._ws = self._open.enter_context(connect(f"{ws_url}/ws/tables/{table_id}", open_timeout=20))
        self._ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        self.wait_for(lambda: any(message["type"] == "welcome" for message in self.messages))

    def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            for text in self._ws:
                self.messages.append(json.loads(text))

    def is_open(self) -> bool:
        """Whether the server has not closed the connection yet."""
        return self._thread.is_alive()

    def services(self) -> list[str]:
        """The ``database`` of every ``service`` message so far, in order."""
        return [message["database"] for message in self.messages if message.get("type") == "service"]

    def wait_for(self, done: Callable[[], bool], seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"not in {seconds} s: {self.messages[-5:]}"
            time.sleep(0.02)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._open.close()
        self._thread.join(timeout=5)


def health(url: str) -> tuple[int, dict[str, Any]]:
    answer = call(url, "GET", "/api/health", timeout=10)
    return answer.status_code, answer.json()


def wait_until(done: Callable[[], bool], seconds: float = 20, what: str = "it") -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen in {seconds} s"
        time.sleep(0.05)


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = work()
    return time.perf_counter() - started, result


def check_log(server: ServerProcess, outages: int) -> str:
    """The server's log says each outage in one line when it went and one when it was back,
    and never an SQL statement or a traceback."""
    text = server.log.read_text()
    lines = text.splitlines()
    assert len([line for line in lines if GONE in line]) == outages, text[-3000:]
    assert len([line for line in lines if BACK in line]) == outages, text[-3000:]
    for marker in ("Traceback", "[SQL:", "INSERT INTO", "UPDATE paiute", "SELECT paiute"):
        assert marker not in text, f"{marker!r} in the log:\n{text[-3000:]}"
    assert not re.search(r"^\s+File \"", text, re.MULTILINE), text[-3000:]
    return text


class Proxy:
    """A TCP proxy in front of PostgreSQL that the test can cut: :meth:`restart` drops every
    connection (as a restarted server does), :meth:`stop` also refuses new ones until
    :meth:`start`. The shared PostgreSQL itself is never stopped."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._server: asyncio.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.start()

    def _run(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=10)

    def start(self) -> None:
        async def listen() -> None:
            self._server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

        self._run(listen())

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
                self._server = None
            self._drop()

        self._run(close())

    def restart(self) -> None:
        async def drop() -> None:
            self._drop()

        self._run(drop())

    def close(self) -> None:
        self.stop()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def _drop(self) -> None:
        for client, upstream in list(self._links):
            client.transport.abort()
            upstream.transport.abort()
        self._links.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        link = (writer, up_writer)
        self._links.add(link)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._links.discard(link)
