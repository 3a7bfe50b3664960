"""Builders for the server tests: tables, seats, and players that play through the API."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
import warnings
from collections.abc import Sequence
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from paiute.server import Settings
from paiute.server.limits import Limits

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


def fast_limits(**changes: Any) -> Limits:
    """No limit per address or per seat (the tests of those limits set their own)."""
    values: dict[str, Any] = {
        "address_rate": 1e9,
        "address_burst": 1e9,
        "tables_per_minute": 10**9,
        "open_tables": 10**9,
        "seats_per_address": 10**9,
        "ws_per_seat": 10**9,
        "ws_per_address": 10**9,
        "chat_rate": 1e9,
        "chat_burst": 1e9,
        "logins_per_minute": 10**9,
        "logins_per_name": 10**9,
    }
    values.update(changes)
    return Limits(**values)


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


def choose(view: dict[str, Any], rng: random.Random, turns: int) -> dict[str, Any] | None:
    """A legal WebSocket message for ``view``: cut, draw from the stock, discard, call after a
    few turns; None where the viewer has nothing to do."""
    key = f"v{view['version']}"
    if view["status"] == "cut":
        return (
            {"type": "cut", "id": key, "position": rng.randrange(52)}
            if view["cutter"] == view["you"]
            else None
        )
    observation = view["observation"]
    if view["status"] != "playing" or not observation or not observation["legal_actions"]:
        return None
    legal: list[str] = observation["legal_actions"]
    calls = [a for a in legal if a.startswith("call")]
    discards = [a for a in legal if a.startswith("discard")]
    if "draw stock" in legal:
        action = "draw stock"
    elif calls and (turns > 3 or not discards):
        action = calls[0]
    else:
        action = rng.choice(discards)
    return {"type": "action", "id": key, "action": action, "expected_version": view["version"]}


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


# Every server a test starts dies with the test process, whatever happens to it:
# * PR_SET_PDEATHSIG (Linux): the kernel sends the child SIGKILL when the thread that forked
#   it exits. The servers are forked by one long-lived thread (``_SPAWNER``), never by a
#   short-lived worker thread (asyncio.to_thread), so that is when the test process exits;
# * a process group of its own (start_new_session), killed as a whole;
# * atexit and the fixtures' finalizers kill what is still running on a normal exit.
_LIVE: set[Any] = set()
_SPAWNER: Any = None


def _die_with_parent(parent: int) -> Any:
    """The child's pre-exec hook: SIGKILL when the parent goes (at once if it already has)."""
    import ctypes
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up here, before any fork
    pr_set_pdeathsig = 1

    def hook() -> None:
        prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the hook ran
            os._exit(1)

    return hook


def reaped_popen(command: list[str], **kwargs: Any) -> Any:
    """``subprocess.Popen(command)`` that cannot outlive this process (see above)."""
    import atexit
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    global _SPAWNER
    if _SPAWNER is None:
        _SPAWNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="server-spawner")
        atexit.register(_kill_all)
    hook = _die_with_parent(os.getpid())

    def spawn() -> Any:
        return subprocess.Popen(command, preexec_fn=hook, start_new_session=True, **kwargs)

    process = _SPAWNER.submit(spawn).result()
    _LIVE.add(process)
    return process


def kill_group(process: Any) -> None:
    """SIGKILL the process and its group, and wait for it.

    The group even when the process itself has already exited: what it started (worker
    processes, a forkserver) may still be there, and its group id stays theirs (the kernel
    never hands out a process id that is still a group's)."""
    import signal

    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is empty
        if process.poll() is None:
            process.kill()
    process.wait()
    _LIVE.discard(process)


def _kill_all() -> None:
    for process in list(_LIVE):
        kill_group(process)


class ServerProcess:
    """``paiute serve`` as a subprocess on 127.0.0.1; :meth:`kill` is ``kill -9``.

    Its output goes to ``log`` (appended, so restarts on the same log keep the history).
    ``extra`` are more ``paiute serve`` flags (limits). It never outlives the test process
    (:func:`reaped_popen`).
    """

    def __init__(
        self,
        db_url: str,
        log: Any,
        *,
        port: int = 0,
        bot_delay: float = 0.0,
        deal_pause: float = 0.0,
        extra: Sequence[str] = (),
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
            *extra,
            "--away-grace",
            str(away_grace),
        ]
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("a") as out:
            self.process = reaped_popen(command, stdout=out, stderr=subprocess.STDOUT, text=True)
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
        kill_group(self.process)

    def stop(self) -> None:
        """Stop it politely (SIGTERM), or kill it if it does not stop."""
        import subprocess

        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        self.kill()


def receive(ws: Any) -> dict[str, Any]:
    """The next WebSocket message that is not a ``presence`` frame (which come whenever
    someone connects or goes, between the answers these tests wait for)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("type") != "presence":
            return message


async def play_to_the_end(
    ws: Any, view: dict[str, Any], rng: random.Random, seen: list[dict[str, Any]]
) -> list[int]:
    """Play a seat over its open WebSocket (the welcome read) from ``view`` until the table
    closes, one :func:`choose` message at a time, each sent once the last is acknowledged;
    every update's event is appended to ``seen``, its version checked to follow the last.
    The versions acknowledged."""
    acked: list[int] = []
    waiting, turns = False, 0
    while view["status"] != "closed":
        if not waiting:
            message = choose(view, rng, turns)
            if message is not None:
                turns += message.get("action", "").startswith("discard")
                await ws.send(json.dumps(message))
                waiting = True
        reply = json.loads(await ws.recv())
        if reply["type"] == "update":
            assert reply["version"] == len(seen) + 1, "a version missed or repeated"
            seen.append(reply["event"])
            view = reply["state"]
        elif reply["type"] == "ack":
            acked.append(reply["version"])
            waiting = False
        elif reply["type"] != "presence":  # who is connected: pushed whenever it changes
            raise AssertionError(reply)
    return acked
