"""Attacks on a real ``paiute serve`` on 127.0.0.1, each refused while other tables answer.

Every attack of issue 13 is reproduced, bounded in count and time, against one server process
started with the default limits but a lower rate per address and a short header deadline (so
the refusals come within a few hundred requests and seconds). Each test uses its own loopback
source addresses (127.0.0.N are all this machine), so one test's spent allowance is not the
next one's; "another address" is a bystander whose tables must keep answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import ServerProcess
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ADDRESS_RATE = 10  # requests a second per address (burst 100): --address-rate
MAX_TABLES = 3  # --max-tables-per-address
MAX_SEATS = 2  # --max-seats-per-address
HEADER_SECONDS = 2.0  # --header-timeout
SECONDS = 30.0  # no test waits longer than this for anything


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    directory = tmp_path_factory.mktemp("abuse")
    running = ServerProcess(
        f"sqlite:///{directory / 'abuse.sqlite'}",
        directory / "server.log",
        bot_delay=0.0,
        deal_pause=0.0,
        extra=[
            "--address-rate",
            str(ADDRESS_RATE),
            "--max-tables-per-address",
            str(MAX_TABLES),
            "--max-seats-per-address",
            str(MAX_SEATS),
            "--header-timeout",
            str(HEADER_SECONDS),
        ],
    )
    try:
        yield running
    finally:
        running.stop()


def client(server: ServerProcess, address: str, **kwargs: Any) -> httpx.Client:
    """An HTTP client whose connections come from ``address`` (127.0.0.N)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, transport=transport, timeout=10, **kwargs)


def new_table(http: httpx.Client, **body: Any) -> tuple[str, str]:
    payload = {"player_name": "Ana", "seats": 4, "bots": "greedy", **body}
    response = http.post("/api/tables", json=payload)
    assert response.status_code == 201, response.text
    http.cookies.clear()
    data = response.json()
    return data["table"]["id"], data["token"]


def bystander_answers(server: ServerProcess, address: str) -> None:
    """Someone else, elsewhere, can still create a table and read it."""
    with client(server, address) as http:
        table_id, token = new_table(http, name="Bystander")
        response = http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        assert response.json()["you"] == 0


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


# -- 1. limits per address, not per bearer token -----------------------------------------------


def test_random_bearer_tokens_do_not_escape_the_limit_per_address(server: ServerProcess) -> None:
    with client(server, "127.0.0.11") as bystander:
        table_id, _ = new_table(bystander)
    statuses = []
    started = time.monotonic()
    with client(server, "127.0.0.12") as http:
        for _ in range(400):  # GETs too: the state of a table, each with a fresh bearer token
            headers = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
            statuses.append(http.get(f"/api/tables/{table_id}/state", headers=headers).status_code)
    elapsed = time.monotonic() - started
    # a burst of 10 seconds' worth, then the rate: never 400 answers
    assert statuses.count(200) + statuses.count(401) <= 10 * ADDRESS_RATE + ADDRESS_RATE * elapsed + 1
    assert set(statuses) <= {200, 401, 429}
    assert 429 in statuses
    bystander_answers(server, "127.0.0.13")


def test_table_creation_is_capped_per_address(server: ServerProcess) -> None:
    created, refused = [], []
    with client(server, "127.0.0.21") as http:
        for _ in range(MAX_TABLES + 5):
            headers = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
            body = {"player_name": "Spam", "seats": 2, "name": "spam"}
            response = http.post("/api/tables", json=body, headers=headers)
            (created if response.status_code == 201 else refused).append(response)
    assert len(created) == MAX_TABLES
    assert {(r.status_code, code_of(r)) for r in refused} == {(429, "rate_limited")}
    with client(server, "127.0.0.22") as http:
        listed = http.get("/api/tables").json()["tables"]
    assert sum(1 for table in listed if table["name"] == "spam") == MAX_TABLES
    bystander_answers(server, "127.0.0.23")


def test_free_seats_cannot_all_be_taken_from_one_address(server: ServerProcess) -> None:
    with client(server, "127.0.0.31") as host:
        table_id, _ = new_table(host, seats=5, bots=None)
    joined = []
    with client(server, "127.0.0.32") as http:
        for n in range(4):
            headers = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
            response = http.post(f"/api/tables/{table_id}/join", json={"name": f"Spam {n}"}, headers=headers)
            joined.append(response.status_code)
            http.cookies.clear()
    assert joined == [200] * MAX_SEATS + [429] * (4 - MAX_SEATS)
    with client(server, "127.0.0.33") as friend:
        response = friend.post(f"/api/tables/{table_id}/join", json={"name": "Friend"})
    assert response.status_code == 200, response.text


def test_forwarded_for_is_ignored_without_a_trusted_proxy(server: ServerProcess) -> None:
    statuses = []
    with client(server, "127.0.0.41") as http:
        for n in range(300):
            forwarded = {"X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"}
            statuses.append(http.get("/api/tables", headers=forwarded).status_code)
    assert 429 in statuses


# -- 2. WebSocket limits per seat, chat bounded -----------------------------------------------


async def _hello(server: ServerProcess, table_id: str, token: str | None, address: str, **extra: Any) -> Any:
    ws = await connect(f"{server.ws_url}/ws/tables/{table_id}", local_addr=(address, 0))
    # A connection past the address's cap is refused as it opens: its error may come first.
    with contextlib.suppress(ConnectionClosed):
        await ws.send(json.dumps({"type": "hello", "token": token, "since": None, **extra}))
    return ws, json.loads(await ws.recv())


def test_one_seat_on_many_connections_is_limited_as_one(server: ServerProcess) -> None:
    with client(server, "127.0.0.51") as http:
        table_id, token = new_table(http)

    async def attack() -> tuple[list[str], int, float]:
        sockets, kinds = [], []
        for _ in range(8):
            ws, first = await _hello(server, table_id, token, "127.0.0.52")
            kinds.append(first["type"] if first["type"] == "welcome" else first["error"]["code"])
            sockets.append(ws)
        open_ = [ws for ws, kind in zip(sockets, kinds, strict=True) if kind == "welcome"]
        started = time.monotonic()
        for n in range(300):  # chat from every connection of the seat
            await open_[n % len(open_)].send(json.dumps({"type": "chat", "id": f"c{n}", "text": "spam"}))
        acks = 0
        deadline = time.monotonic() + SECONDS
        for ws in open_:
            while time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                except (TimeoutError, Exception):
                    break
                acks += message["type"] == "ack"
        elapsed = time.monotonic() - started
        for ws in sockets:
            await ws.close()
        return kinds, acks, elapsed

    kinds, acks, elapsed = asyncio.run(attack())
    assert kinds.count("welcome") == 4  # the default cap of connections per seat
    assert set(kinds) == {"welcome", "rate_limited"}
    # chat: 5 lines in a burst, then one a second, over all the seat's connections together
    assert acks <= 5 + elapsed + 1
    with client(server, "127.0.0.53") as http:
        chat = http.get(f"/api/tables/{table_id}/state").json()["chat"]
    assert len(chat) == acks
    bystander_answers(server, "127.0.0.54")


def test_connections_from_one_address_are_capped(server: ServerProcess) -> None:
    with client(server, "127.0.0.56") as http:
        table_id, _ = new_table(http)

    async def many() -> list[str]:
        sockets, kinds = [], []
        for _ in range(66):  # spectators: no seat needed
            ws, first = await _hello(server, table_id, None, "127.0.0.57")
            kinds.append(first["type"] if first["type"] == "welcome" else first["error"]["code"])
            sockets.append(ws)
        for ws in sockets:
            await ws.close()
        return kinds

    kinds = asyncio.run(many())
    assert kinds == ["welcome"] * 64 + ["rate_limited"] * 2  # the default cap per address
    bystander_answers(server, "127.0.0.58")


# -- 3. the Origin of every state-changing request -----------------------------------------------


def test_a_page_on_another_port_cannot_free_a_victims_seat(server: ServerProcess) -> None:
    with client(server, "127.0.0.61") as victim:
        response = victim.post("/api/tables", json={"player_name": "Victim", "seats": 3})
        table_id = response.json()["table"]["id"]
        cookie = victim.cookies.get(f"paiute_seat_{table_id}")
        assert cookie
        port = server.url.rsplit(":", 1)[1]
        foreign = f"http://127.0.0.1:{int(port) + 1}"
        for path in ("leave", "start"):
            attack = victim.post(
                f"/api/tables/{table_id}/{path}",
                content=b"",
                headers={"Content-Type": "text/plain", "Origin": foreign},
            )
            assert attack.status_code == 403, attack.text
            assert code_of(attack) == "forbidden"
        also = victim.post(
            f"/api/tables/{table_id}/leave", content=b"", headers={"Sec-Fetch-Site": "same-site"}
        )
        assert also.status_code == 403
        names = victim.get(f"/api/tables/{table_id}/state").json()["names"]
        assert names[0] == "Victim"  # still seated
        own = victim.post(f"/api/tables/{table_id}/leave", json={"id": "bye"}, headers={"Origin": server.url})
        assert own.status_code == 200, own.text

    async def socket_from_elsewhere() -> int:
        try:
            async with connect(f"{server.ws_url}/ws/tables/{table_id}", origin=foreign):  # type: ignore[arg-type]
                return 101
        except InvalidStatus as refused:
            return refused.response.status_code

    assert asyncio.run(socket_from_elsewhere()) == 403


# -- 4. security headers ----------------------------------------------------------------------


def test_every_response_has_the_security_headers_and_pages_no_inline_script(server: ServerProcess) -> None:
    with client(server, "127.0.0.71") as http:
        table_id, _ = new_table(http)
        paths = ["/", f"/t/{table_id}", f"/t/{table_id}/replay", "/api/tables", "/static/css/paiute.css"]
        paths += ["/t/nosuch", "/api/tables/nosuch/state", "/docs", "/openapi.json"]
        for path in paths:
            response = http.get(path)
            policy = response.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy, path
            scripts = policy.split("script-src ")[1].split(";")[0]
            assert scripts == "'self'", path  # no inline script anywhere, /docs included
            assert response.headers["x-frame-options"] == "DENY"
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["referrer-policy"] == "same-origin"
            if path.startswith("/t/") or path == "/":
                page = response.text
                assert "<style" not in page
                assert " style=" not in page, path
                for script in page.split("<script")[1:]:
                    head = script.split(">", 1)[0]
                    assert "src=" in head or 'type="application/json"' in head, (path, head)
        assert (
            "secure" not in http.post("/api/tables", json={"player_name": "A"}).headers["set-cookie"].lower()
        )


def test_behind_a_trusted_proxy_the_forwarded_address_and_https_count(tmp_path: Path) -> None:
    proxied = ServerProcess(
        f"sqlite:///{tmp_path / 'proxied.sqlite'}",
        tmp_path / "server.log",
        extra=["--trusted-proxy", "127.0.0.1", "--address-rate", str(ADDRESS_RATE)],
    )
    try:
        with httpx.Client(base_url=proxied.url, timeout=10) as http:
            https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
            created = http.post("/api/tables", json={"player_name": "Ana", "seats": 2}, headers=https)
            assert created.status_code == 201, created.text
            assert "secure" in created.headers["set-cookie"].lower()
            assert "max-age" in created.headers["strict-transport-security"]
            # many clients behind the proxy: each forwarded address has its own allowance...
            spread = [
                http.get("/api/tables", headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                for n in range(1, 201)
            ]
            assert spread == [200] * 200
            # ...and one of them alone is limited
            alone = [
                http.get("/api/tables", headers={"X-Forwarded-For": "192.0.2.1"}).status_code
                for _ in range(300)
            ]
            assert 429 in alone
    finally:
        proxied.stop()


# -- 5. slow headers -----------------------------------------------------------------------------


def test_unfinished_headers_are_closed_and_others_are_served(server: ServerProcess) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    sockets = []
    for n in range(300):
        sock = socket.create_connection((host, int(port)), timeout=SECONDS, source_address=("127.0.0.81", 0))
        sock.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow-" + str(n).encode())
        sockets.append(sock)
    started = time.monotonic()
    with client(server, "127.0.0.82") as http:
        assert http.get("/api/health").status_code == 200  # served while they hang
    closed = 0
    deadline = started + SECONDS
    for sock in sockets:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            closed += sock.recv(1024) == b""  # the server closed it (EOF)
        except TimeoutError:
            pass  # still open after SECONDS: not closed
        except OSError:
            closed += 1  # reset: closed too
        finally:
            sock.close()
    waited = time.monotonic() - started
    assert closed == 300
    assert waited < SECONDS
    bystander_answers(server, "127.0.0.83")


def test_a_body_that_never_comes_is_answered_408_and_closed(server: ServerProcess) -> None:
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection(
        (host, int(port)), timeout=SECONDS, source_address=("127.0.0.84", 0)
    ) as sock:
        head = f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        sock.sendall((head + "Content-Length: 100\r\n\r\n{").encode())
        answer = b""
        while chunk := sock.recv(4096):  # until the server closes the connection
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b'"code": "timeout"' in answer
    bystander_answers(server, "127.0.0.85")


# -- 6. private tables ------------------------------------------------------------------------


def test_a_private_table_shows_nothing_without_a_seat_or_the_invitation(server: ServerProcess) -> None:
    with client(server, "127.0.0.91") as http:
        created = http.post("/api/tables", json={"player_name": "Ana", "seats": 2, "private": True}).json()
    table_id, code = created["table"]["id"], created["invite"].split("invite=")[1]
    with client(server, "127.0.0.92") as stranger:
        for path in ("state", "events?since=0", "record", "deals/1/replay", "deals/1/proof"):
            response = stranger.get(f"/api/tables/{table_id}/{path}")
            assert response.status_code == 403, (path, response.text)
        assert table_id not in [t["id"] for t in stranger.get("/api/tables").json()["tables"]]
        assert stranger.get(f"/api/tables/{table_id}/state", params={"invite": code}).status_code == 200

    async def watch(**extra: Any) -> str:
        ws, first = await _hello(server, table_id, None, "127.0.0.93", **extra)
        await ws.close()
        return str(first["type"] if first["type"] == "welcome" else first["error"]["code"])

    assert asyncio.run(watch()) == "forbidden"
    assert asyncio.run(watch(invite=code)) == "welcome"
    assert asyncio.run(watch(invite="wrong")) == "forbidden"


# -- 7, 8. only the host starts; a reused id ---------------------------------------------------


def test_only_the_host_starts_and_a_reused_id_is_refused(server: ServerProcess) -> None:
    with client(server, "127.0.0.101") as http:
        table_id, host = new_table(http, seats=2, bots=None)
        guest = http.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
        http.cookies.clear()
        refused = http.post(
            f"/api/tables/{table_id}/start", json={"id": "s"}, headers={"Authorization": f"Bearer {guest}"}
        )
        assert refused.status_code == 403
        assert code_of(refused) == "forbidden"
        said = {"id": "m1", "text": "hello"}
        auth = {"Authorization": f"Bearer {host}"}
        first = http.post(f"/api/tables/{table_id}/chat", json=said, headers=auth)
        again = http.post(f"/api/tables/{table_id}/chat", json=said, headers=auth)
        assert again.status_code == 200
        assert again.json() == first.json()
        other = http.post(f"/api/tables/{table_id}/chat", json={"id": "m1", "text": "else"}, headers=auth)
        assert other.status_code == 409
        assert code_of(other) == "id_reused"

    async def over_the_socket() -> dict[str, Any]:
        ws, _ = await _hello(server, table_id, host, "127.0.0.102")
        await ws.send(json.dumps({"type": "chat", "id": "m1", "text": "different"}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=SECONDS))
            if message["type"] in ("ack", "error"):
                await ws.close()
                return dict(message)

    answer = asyncio.run(over_the_socket())
    assert answer["type"] == "error"
    assert answer["error"]["code"] == "id_reused"


# -- 9. names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "A\u200bna", "Ana\u202e", "\u200f", "Bo\x00"])
def test_blank_looking_and_invisible_names_are_refused(server: ServerProcess, name: str) -> None:
    with client(server, "127.0.0.111") as http:
        response = http.post("/api/tables", json={"player_name": name, "seats": 2})
    assert response.status_code == 400, response.text


def test_names_are_unique_at_a_table_after_case_and_lookalikes(server: ServerProcess) -> None:
    with client(server, "127.0.0.121") as http:
        table_id, _ = new_table(http, player_name="Ana", seats=5, bots=None)
        for lookalike in ("\u0410na", "ANA", "Ａｎａ"):  # a Cyrillic А; capitals; full width
            response = http.post(f"/api/tables/{table_id}/join", json={"name": lookalike})
            assert response.status_code == 409, (lookalike, response.text)
        response = http.post(f"/api/tables/{table_id}/join", json={"name": "Ｂｏ"})
        assert response.status_code == 200
        http.cookies.clear()
        assert http.get(f"/api/tables/{table_id}/state").json()["names"][1] == "Bo"  # NFKC


# -- 10. bugs: 404, HEAD, /docs offline, the name's limit ----------------------------------------


def test_missing_tables_head_docs_and_the_name_limit(server: ServerProcess) -> None:
    with client(server, "127.0.0.131") as http:
        assert http.get("/t/nosuchtable").status_code == 404
        assert "No such table" in http.get("/t/nosuchtable").text
        assert http.get("/api/tables/nosuchtable/state").status_code == 404
        assert http.head("/").status_code == 200
        docs = http.get("/docs")
        assert docs.status_code == 200
        assert "//cdn" not in docs.text
        assert "https://" not in docs.text
        for asset in (
            "/docs/assets/swagger-ui-bundle.js",
            "/docs/assets/swagger-ui.css",
            "/static/js/docs.js",
        ):
            assert http.get(asset).status_code == 200, asset
        lobby = http.get("/").text
        assert 'id="player-name" name="player_name" type="text" required maxlength="32"' in lobby
        too_long = http.post("/api/tables", json={"player_name": "x" * 33, "seats": 2})
        assert too_long.json()["error"]["message"] == "a name has 1 to 32 characters"
        in_romanian = http.post(
            "/api/tables", json={"player_name": "x" * 33, "seats": 2}, headers={"Accept-Language": "ro"}
        )
        assert in_romanian.json()["error"]["message"] != "a name has 1 to 32 characters"


# -- 11. a server dies with its test process ----------------------------------------------------


def test_a_server_dies_with_the_test_process_that_started_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    helpers = Path(__file__).resolve().parent
    script = f"""
import sys, time
sys.path.insert(0, {str(helpers)!r})
from server_helpers import ServerProcess
server = ServerProcess({f"sqlite:///{tmp_path / 'orphan.sqlite'}"!r}, {str(tmp_path / "server.log")!r})
print(server.pid, flush=True)
time.sleep(600)
"""
    test_process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert test_process.stdout is not None
        server_pid = int(test_process.stdout.readline())
        assert _alive(server_pid)
        test_process.kill()  # kill -9: no finalizer, no atexit runs in it
        test_process.wait()
        deadline = time.monotonic() + SECONDS
        while _alive(server_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(server_pid), "the server outlived its test process"
    finally:
        test_process.kill()
        test_process.wait()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status
