"""The server's worker processes (the hint pool, the review worker, multiprocessing's own
helpers) end with ``paiute serve``: stopped by SIGTERM or Ctrl-C (SIGINT), it leaves no
process behind."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import httpx
import pytest
from live_helpers import call, new_table, serve
from server_helpers import hurried

#: Seconds the processes left after the server's exit get to end (they must end at once).
GONE_SECONDS = 10.0
#: Seconds the first hint may take (it starts the worker processes).
HINT_SECONDS = 300.0


def _process_table() -> dict[int, tuple[int, str]]:
    """Every process now: pid -> (parent pid, start time), from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
        if fields[0] != "Z":  # a zombie has ended
            found[int(entry.name)] = (int(fields[1]), fields[19])
    return found


def descendants(root: int) -> dict[int, str]:
    """The live processes whose parent chain includes ``root``: pid -> start time."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: dict[int, str] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found[pid] = table[pid][1]
        todo += children.get(pid, [])
    return found


def survivors(processes: dict[int, str]) -> list[int]:
    """Those of ``processes`` still alive (the same pid with the same start time)."""
    table = _process_table()
    return [pid for pid, started in processes.items() if pid in table and table[pid][1] == started]


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _play_to_the_end(server: object, table_id: str, token: str) -> bool:
    """Play seat 0 (calls whenever it may) until the match closes; asks for one hint on the
    way. Whether the hint was answered."""
    rng = random.Random(3)
    hinted = False
    for _ in range(2000):
        response = call(server, "GET", f"/api/tables/{table_id}/state", token)  # type: ignore[arg-type]
        if response.status_code == 429:  # the per-address limit: wait as the server says
            time.sleep(min(5.0, float(response.headers.get("Retry-After", "1"))))
            continue
        assert response.status_code == 200, response.text
        view = response.json()
        status = view["status"]
        if status == "closed":
            return hinted
        version = view["version"]
        if status == "cut" and view["cutter"] == 0:
            body = {"id": f"c{version}", "position": 5}
            call(server, "POST", f"/api/tables/{table_id}/cut", token, json=body)  # type: ignore[arg-type]
        elif status == "playing" and view["observation"]["legal_actions"]:
            if not hinted:
                # The first hint starts the pool (a fresh interpreter, maybe compiling the estimator).
                answer = httpx.post(
                    f"{server.url}/api/tables/{table_id}/hint",  # type: ignore[attr-defined]
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=HINT_SECONDS,
                )
                assert answer.status_code == 200, answer.text
                hinted = True
            action = hurried(rng, view["observation"]["legal_actions"])
            body = {"id": f"a{version}", "action": action, "expected_version": version}
            call(server, "POST", f"/api/tables/{table_id}/actions", token, json=body)  # type: ignore[arg-type]
        else:
            time.sleep(0.02)
    raise AssertionError(f"the match at {table_id} did not end")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_no_worker_process_outlives_the_server(
    stop: signal.Signals, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIUTE_REVIEW_PLAYOUTS", "1")  # the server's reviews (a quick one)
    with serve(tmp_path) as server:
        table_id, token = new_table(server, bots="greedy", max_deals=1)
        started = call(server, "POST", f"/api/tables/{table_id}/start", token, json={"id": "go"})
        assert started.status_code == 200, started.text
        assert _play_to_the_end(server, table_id, token)
        # The review of the deal starts the review worker; wait until it is at work.
        for _ in range(500):
            review = call(server, "GET", f"/api/tables/{table_id}/deals/1/review").json()
            if review["status"] == "ready" or review.get("done"):
                break
            time.sleep(0.02)
        workers = descendants(server.pid)
        assert any("multiprocessing" in _cmdline(pid) for pid in workers), workers
        server.process.send_signal(stop)
        # uvicorn shuts down gracefully, then raises the signal again (the status says so).
        assert server.process.wait(timeout=30) in (0, -stop, 130)
        deadline = time.monotonic() + GONE_SECONDS
        while survivors(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = {pid: _cmdline(pid) for pid in survivors(workers)}
        assert left == {}, f"processes outlived the server: {left}"
