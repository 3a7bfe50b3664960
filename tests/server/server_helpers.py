"""Builders for the server tests: tables, seats, and players that play through the API."""

from __future__ import annotations

import random
import time
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from paiute.server import Settings

#: Polls of a table's state before a test gives up (each waits at most a few milliseconds).
POLLS = 20_000


def fast_settings(**changes: Any) -> Settings:
    """No bot or deal pauses and no rate limits (tests of the limits set their own)."""
    values: dict[str, Any] = {
        "bot_delay": 0.0,
        "deal_pause": 0.0,
        "http_rate": 1e9,
        "http_burst": 1e9,
        "ws_rate": 1e9,
        "ws_burst": 1e9,
        "away_grace": 1e6,  # a seat whose connection goes is not handed to the bot in these tests
    }
    values.update(changes)
    return Settings(**values)


def steady(view: dict[str, Any]) -> dict[str, Any]:
    """A View less what only says who is connected now (a grace period after a connection
    went): what must not change when a refused message changes nothing."""
    table = {**view["table"], "players": [{**p, "away_until": None} for p in view["table"]["players"]]}
    return {**view, "table": table}


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> tuple[str, str]:
    """A new table (the creator at seat 0): its id and the creator's token."""
    payload = {"player_name": "Ana", "seats": 3, "bots": "greedy", "max_deals": 1, **body}
    response = client.post("/api/tables", json=payload)
    assert response.status_code == 201, response.text
    client.cookies.clear()  # the tests name seats by their tokens only
    data = response.json()
    return data["table"]["id"], data["token"]


def join(client: TestClient, table_id: str, name: str, **body: Any) -> tuple[int, str]:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name, **body})
    assert response.status_code == 200, response.text
    client.cookies.clear()
    return response.json()["seat"], response.json()["token"]


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def wait_for(client: TestClient, table_id: str, token: str | None, done: Any) -> dict[str, Any]:
    """Poll the state until ``done(state)`` (bots and the next deal run in the server)."""
    for _ in range(POLLS):
        current = state(client, table_id, token)
        if done(current):
            return current
        time.sleep(0.001)
    raise AssertionError(f"table {table_id} never got there: {current['status']} v{current['version']}")


def my_move(view: dict[str, Any]) -> bool:
    """Whether the viewer must act now: cut, or play."""
    if view["status"] == "closed":
        return True
    if view["status"] == "cut":
        return view["cutter"] == view["you"]
    observation = view["observation"]
    return view["status"] == "playing" and bool(observation and observation["legal_actions"])


def hurried(rng: random.Random, legal: list[str]) -> str:
    """A random legal action, but a call whenever one is legal (deals end sooner)."""
    calls = [action for action in legal if action.startswith("call")]
    return rng.choice(calls or legal)


def play_http(
    client: TestClient, table_id: str, tokens: dict[int, str], rng: random.Random
) -> dict[str, Any]:
    """Play the table to its end over HTTP: seated people choose at random, bots play."""
    moves = 0
    for _ in range(POLLS):
        views = {seat: state(client, table_id, token) for seat, token in tokens.items()}
        first = next(iter(views.values()))
        if first["status"] == "closed":
            return first
        acted = False
        for seat, view in views.items():
            if view["status"] == "cut" and view["cutter"] == seat:
                position = rng.randrange(52)
                body = {"id": f"cut-{view['version']}", "position": position}
                response = client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(tokens[seat]))
                assert response.status_code == 200, response.text
                acted = True
            elif view["status"] == "playing" and view["observation"]["legal_actions"]:
                action = hurried(rng, view["observation"]["legal_actions"])
                body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
                response = client.post(
                    f"/api/tables/{table_id}/actions", json=body, headers=auth(tokens[seat])
                )
                assert response.status_code == 200, response.text
                acted = True
                moves += 1
        if not acted:
            time.sleep(0.001)
    raise AssertionError(f"the match at {table_id} did not end")


def start(client: TestClient, table_id: str, token: str) -> int:
    response = client.post(f"/api/tables/{table_id}/start", headers=auth(token), json={"id": "start"})
    assert response.status_code == 200, response.text
    version: int = response.json()["version"]
    return version


# -- a real ``paiute serve`` in a subprocess (crash, PostgreSQL and fuzz tests) ---------------

#: Seconds a ``paiute serve`` subprocess may take to print its address.
STARTUP_SECONDS = 60.0


def two_people_playing(client: TestClient, *, position: int = 0) -> tuple[str, dict[int, str], int]:
    """A two-seat table (no bots) whose first deal is being played, cut at ``position``: its
    id, the seats' tokens and the seat to move."""
    table_id, token = create(client, seats=2, bots=None)
    _, other = join(client, table_id, "Bo")
    tokens = {0: token, 1: other}
    start(client, table_id, token)
    cutter = state(client, table_id)["cutter"]
    cut = client.post(
        f"/api/tables/{table_id}/cut",
        json={"id": "the-cut", "position": position},
        headers=auth(tokens[cutter]),
    )
    assert cut.status_code == 200, cut.text
    return table_id, tokens, state(client, table_id)["observation"]["current_seat"]


def free_port() -> int:
    """A port of 127.0.0.1 free right now (kept across restarts of a killed server)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``paiute serve`` as a subprocess on 127.0.0.1; :meth:`kill` is ``kill -9``.

    Its output goes to ``log`` (appended, so restarts on the same log keep the history).
    """

    def __init__(
        self,
        db_url: str,
        log: Any,
        *,
        port: int = 0,
        bot_delay: float = 0.0,
        deal_pause: float = 0.0,
        away_grace: float = 30.0,
    ) -> None:
        import re
        import subprocess
        import sys
        from pathlib import Path

        self.log = Path(log)
        command = [
            sys.executable,
            "-m",
            "paiute",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            db_url,
            "--bot-delay",
            str(bot_delay),
            "--deal-pause",
            str(deal_pause),
            "--away-grace",
            str(away_grace),
        ]
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("a") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            text = self.log.read_text()[offset:]
            found = re.search(r"serving at (http://\S+?)/? ", text)
            if found:
                self.url = found.group(1).rstrip("/")
                self.ws_url = "ws" + self.url[len("http") :]
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"paiute serve did not start: {self.log.read_text()[offset:][-2000:]}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``: no shutdown code runs at all."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        """Stop it politely (SIGTERM), or kill it if it does not stop."""
        import subprocess

        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def receive(ws: Any) -> dict[str, Any]:
    """The next WebSocket message that is not a ``presence`` frame (which come whenever
    someone connects or goes, between the answers these tests wait for)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") != "presence":
            return message
