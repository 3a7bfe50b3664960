"""The production setup of docs/hosting.md, run on loopback from deploy/'s own files.

Two ``paiute serve`` processes are started with the command line of
``deploy/systemd/paiute@.service`` (the instance is the port) and the variables of
``deploy/env.example`` (the URL without its password, ``PGPASSWORD``), on a fresh schema of
the test PostgreSQL database; Debian's nginx runs ``deploy/nginx/paiute.conf`` as the current
user, rendered with loopback ports, a throwaway certificate and a temporary folder (the main
configuration around it stands in for Debian's ``/etc/nginx/nginx.conf``). Everything then
goes through the proxy, over HTTPS: nginx sends each client (an IPv4 address, an IPv6 /64) to
one process, so the server's limits per address hold as if it ran alone, and answers a flood
from one client itself; two people whose WebSockets land on different processes play a deal
together and each sees the other's moves; the processes count each client by the address
nginx forwards (``--trusted-proxy``), never by nginx's own nor by an ``X-Forwarded-For`` the
client made up; wrong passwords at one account name add up across the processes (they are
counted in the database); the browser's Origin check and the HTTPS-only cookie work behind the
proxy; plain HTTP is sent to HTTPS; while one process restarts, the other takes its clients.
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import ipaddress
import json
import os
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import kill_group, play_to_the_end, reaped_popen
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.typing import Origin

from conftest import _missing, fresh_schema
from paiute.fairness import verify_deal
from paiute.record import Record

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX_SITE = DEPLOY / "nginx" / "paiute.conf"
UNIT = DEPLOY / "systemd" / "paiute@.service"
ENV_EXAMPLE = DEPLOY / "env.example"

#: Where docs/hosting.md installs the package (the unit's ExecStart).
INSTALLED = "/opt/paiute/bin/paiute"
#: The instances docs/hosting.md enables, and the upstreams of the nginx site.
INSTANCES = ("8001", "8002")
#: Seconds for the deal through the proxy, and for the setup to start: the module stays
#: under a minute even when something hangs.
DEAL_SECONDS = 30.0
STARTUP_SECONDS = 25.0
#: Flags the test adds to the unit's command line (the last of a repeated flag wins): no
#: pauses, one open table per client address (so that whose address is counted shows), and
#: the log of each WebSocket accepted, with the client's address.
TEST_FLAGS = ("--bot-delay", "0", "--deal-pause", "0", "--max-tables-per-address", "1", "--log-level", "info")
#: The header a test names a client by where loopback cannot give the address itself (an IPv6
#: address): nginx's realip module believes it from loopback, in the main configuration only,
#: as it would believe a load balancer in front of it (docs/hosting.md).
CLIENT_HEADER = "X-Test-Client"
#: nginx's limit per client (deploy/nginx/paiute.conf): requests a second, and the burst.
NGINX_RATE, NGINX_BURST = 60, 600
PASSWORD = "correct horse battery"


# -- the files themselves --------------------------------------------------------------------


def unit_sections() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def exec_start(port: str, database: str) -> list[str]:
    """The unit's ExecStart as systemd runs it for instance ``port`` (``%i``) with
    ``PAIUTE_DB=database``, but with this environment's interpreter for the installed command."""
    words = shlex.split(unit_sections()["Service"]["ExecStart"])
    assert words[0] == INSTALLED
    substituted = [database if word == "${PAIUTE_DB}" else word.replace("%i", port) for word in words[1:]]
    return [sys.executable, "-m", "paiute", *substituted]


def environment_file(text: str) -> dict[str, str]:
    """The NAME=value lines of an EnvironmentFile (comments and blank lines left out)."""
    pairs = (line.split("=", 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {name.strip(): value.strip() for name, value in pairs}


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (systemd)")
    # The unit as installed, but for the command's path: verify checks that it is executable.
    unit = tmp_path / UNIT.name
    paiute = Path(sys.executable).with_name("paiute")
    assert paiute.exists(), paiute
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(INSTALLED, str(paiute)), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    # verify exits 0 even for an unknown key or a bad value: every line about the unit counts.
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "paiute" in line]
    assert done.returncode == 0, done.stderr
    assert complaints == []
    # The hardening, as systemd rates it (no rating before systemd 250's --offline).
    rated = subprocess.run(
        [analyze, "security", "--offline=yes", str(unit)], capture_output=True, text=True, timeout=60
    )
    level = re.search(r"Overall exposure level for \S+: ([\d.]+) (\w+)", rated.stdout)
    if rated.returncode == 0 and level is not None:
        assert level[2] in ("SAFE", "OK"), level[0]


def test_unit_is_hardened_and_its_command_is_paiute_serve() -> None:
    service = unit_sections()["Service"]
    assert service["DynamicUser"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["StateDirectory"] == "paiute"
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"] == "/etc/paiute/paiute.env"
    assert "MemoryDenyWriteExecute" not in service  # Numba's kernels are compiled at run time
    from paiute.cli.main import build_parser

    args = build_parser().parse_args(exec_start("8001", "postgresql://paiute@127.0.0.1/paiute")[3:])
    assert (args.host, args.port, args.trusted_proxy) == ("127.0.0.1", 8001, ["127.0.0.1"])
    assert args.db == "postgresql://paiute@127.0.0.1/paiute"


def test_env_example_names_the_url_and_keeps_the_password_off_the_command_line() -> None:
    variables = environment_file(ENV_EXAMPLE.read_text(encoding="utf-8"))
    assert set(variables) == {"PAIUTE_DB", "PGPASSWORD"}
    url = make_url(variables["PAIUTE_DB"])
    assert url.get_backend_name() == "postgresql"
    assert url.password is None
    assert "${PAIUTE_DB}" in unit_sections()["Service"]["ExecStart"]


def test_nginx_site_sends_to_both_instances() -> None:
    site = NGINX_SITE.read_text(encoding="utf-8")
    assert re.findall(r"server 127\.0\.0\.1:(\d+)", site) == list(INSTANCES)


def test_nginx_site_limits_each_client_as_the_test_expects() -> None:
    site = NGINX_SITE.read_text(encoding="utf-8")
    assert f"rate={NGINX_RATE}r/s;" in site
    assert f"burst={NGINX_BURST} nodelay;" in site


# -- the setup, started ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render_site(ports: dict[str, int], certificate: Path, key: Path) -> str:
    """deploy/nginx/paiute.conf on loopback: each placeholder replaced where it stands."""
    site = NGINX_SITE.read_text(encoding="utf-8")
    changes = {
        "listen 80;": f"listen 127.0.0.1:{ports['http']};",
        "listen [::]:80;": "",  # IPv6 may be off here
        "listen 443 ssl http2;": f"listen 127.0.0.1:{ports['https']} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{ports['8001']} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{ports['8002']} ",
        "/etc/letsencrypt/live/paiute.example.org/fullchain.pem": str(certificate),
        "/etc/letsencrypt/live/paiute.example.org/privkey.pem": str(key),
    }
    for old, new in changes.items():
        assert site.count(old) == 1, f"{old!r} is not in {NGINX_SITE} once"
        site = site.replace(old, new)
    return site


def main_config(folder: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf is around the site: here, every path in ``folder``,
    two worker processes (they share the limit per client), an access log that names the
    process each request went to, and the client's address taken from :data:`CLIENT_HEADER`
    where a test sends it."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # else the workers would be nobody
    return (
        f"{user}worker_processes 2;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
        "events { worker_connections 256; }\nhttp {\n"
        "    log_format upstreams '$remote_addr [$upstream_addr] $status \"$request\"';\n"
        f"    access_log {folder}/access.log upstreams;\n"
        f"    set_real_ip_from 127.0.0.0/8;\n    real_ip_header {CLIENT_HEADER};\n"
        + "".join(
            f"    {kind}_temp_path {folder}/{kind}_temp;\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + f"    include {folder}/paiute.conf;\n}}\n"
    )


def certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 (openssl)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        _missing("openssl is not installed: apt-get install openssl")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            str(openssl),
            *("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"),
            *("-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def wait_for(process: Any, done: Any, what: str, log: Path, deadline: float) -> None:
    """Wait until ``done()``, failing with the end of ``log`` if the process ends or time is up."""
    while time.monotonic() < deadline:
        if done():
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not start: {log.read_text()[-3000:] if log.exists() else ''}")


def accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def stop(processes: list[Any], sig: int) -> None:
    """Ask each process to stop (all at once), then kill its group whatever it did."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(sig)
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        kill_group(process)


@dataclass
class Site:
    """The running setup: the proxy's addresses and certificate, and the server processes."""

    https: str
    http: str
    tls: ssl.SSLContext
    logs: dict[str, Path]  # instance -> its log
    commands: dict[str, list[str]]  # instance -> its command line
    environment: dict[str, str]
    access_log: Path  # nginx's: each request's client and the processes it was sent to
    upstreams: dict[str, str]  # "127.0.0.1:PORT" -> its instance
    servers: dict[str, Any] = field(default_factory=dict)  # instance -> its process

    def start(self, instance: str, deadline: float) -> None:
        """Start the process of ``instance`` and wait until it serves (its log is appended)."""
        log = self.logs[instance]
        offset = log.stat().st_size if log.exists() else 0
        with log.open("a") as out:
            process = reaped_popen(
                self.commands[instance], stdout=out, stderr=subprocess.STDOUT, text=True, env=self.environment
            )
        self.servers[instance] = process
        wait_for(
            process, lambda: "serving at" in log.read_text()[offset:], f"paiute@{instance}", log, deadline
        )

    def client(self, address: str, **headers: str) -> httpx.Client:
        """An HTTP client of the proxy from loopback address ``address``, a browser's Origin sent."""
        transport = httpx.HTTPTransport(local_address=address, verify=self.tls)
        return httpx.Client(
            transport=transport,
            base_url=self.https,
            headers={"Origin": self.https, **headers},
            timeout=20,
            trust_env=False,
        )

    def process_of(self, address: str, **headers: str) -> str:
        """The instance that served a request from ``address`` (or the one
        :data:`CLIENT_HEADER` names) just now: nginx's access log names it (the last process
        tried, where one was down)."""
        probe = secrets.token_hex(8)
        client_address = ipaddress.ip_address(headers.get(CLIENT_HEADER, address))
        with self.client(address, **headers) as client:
            assert client.get("/api/health/live", params={"probe": probe}).status_code == 200
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:  # nginx logs a request once it is answered
            for line in self.access_log.read_text().splitlines():
                if probe in line:
                    tried = re.search(r"\[([^]]*)\]", line)
                    assert tried is not None, line
                    assert ipaddress.ip_address(line.split()[0]) == client_address, line
                    return self.upstreams[tried[1].split(", ")[-1]]
            time.sleep(0.02)
        raise AssertionError(f"nginx logged no request with {probe}")

    def one_client_each(self, first: int) -> dict[str, str]:
        """For each instance, an address 127.0.0.N (N from ``first`` on) that nginx sends to it."""
        found: dict[str, str] = {}
        for number in range(first, first + 40):
            address = f"127.0.0.{number}"
            found.setdefault(self.process_of(address), address)
            if len(found) == len(INSTANCES):
                return found
        raise AssertionError(f"40 addresses all went to {found}")


@pytest.fixture(scope="module")
def schema_url() -> Iterator[str]:
    """A fresh schema of the test database (dropped afterwards)."""
    with fresh_schema() as url:
        yield url


@pytest.fixture(scope="module")
def site(schema_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if nginx is None:
        _missing("nginx is not installed: apt-get install nginx")
    assert nginx is not None
    folder = tmp_path_factory.mktemp("hosting")
    cert, key = certificate(folder)
    ports = {"http": free_port(), "https": free_port(), "8001": free_port(), "8002": free_port()}
    # deploy/env.example's variables with this database: the password apart, in PGPASSWORD.
    url = make_url(schema_url)
    variables = environment_file(ENV_EXAMPLE.read_text(encoding="utf-8"))
    variables["PAIUTE_DB"] = url.set(password=None).render_as_string(hide_password=False)
    variables["PGPASSWORD"] = url.password or ""
    site = Site(
        https=f"https://127.0.0.1:{ports['https']}",
        http=f"http://127.0.0.1:{ports['http']}",
        tls=ssl.create_default_context(cafile=str(cert)),
        logs={instance: folder / f"paiute@{instance}.log" for instance in INSTANCES},
        commands={
            instance: [*exec_start(str(ports[instance]), variables["PAIUTE_DB"]), *TEST_FLAGS]
            for instance in INSTANCES
        },
        environment={**os.environ, **variables},
        access_log=folder / "access.log",
        upstreams={f"127.0.0.1:{ports[instance]}": instance for instance in INSTANCES},
    )
    proxy: Any = None
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        # Both at once, as systemd starts them (they take turns to migrate the schema).
        with ThreadPoolExecutor(len(INSTANCES)) as pool:
            for started in [pool.submit(site.start, instance, deadline) for instance in INSTANCES]:
                started.result()
        (folder / "paiute.conf").write_text(render_site(ports, cert, key), encoding="utf-8")
        (folder / "nginx.conf").write_text(main_config(folder), encoding="utf-8")
        error_log = folder / "error.log"
        command = [nginx, "-e", str(error_log), "-p", str(folder), "-c", str(folder / "nginx.conf")]
        with error_log.open("a") as out:  # what nginx says before it opens its log, too
            proxy = reaped_popen([*command, "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
        wait_for(
            proxy, lambda: accepts(ports["https"]) and accepts(ports["http"]), "nginx", error_log, deadline
        )
        yield site
    finally:
        stop([proxy] if proxy is not None else [], signal.SIGQUIT)  # nginx's graceful stop
        stop(list(site.servers.values()), signal.SIGTERM)


# -- through the proxy -----------------------------------------------------------------------


def test_plain_http_is_sent_to_https(site: Site) -> None:
    response = httpx.get(site.http + "/api/health", timeout=10, trust_env=False)
    assert response.status_code == 301
    assert response.headers["location"].startswith("https://127.0.0.1/api/health")


def test_over_https_the_seat_cookie_is_secure_and_hsts_is_sent(site: Site) -> None:
    # X-Forwarded-Proto from a trusted proxy makes the request HTTPS to the server.
    with site.client("127.0.0.20") as client:
        response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    assert response.status_code == 201, response.text
    assert "secure" in response.headers["set-cookie"].lower()
    assert "max-age" in response.headers["strict-transport-security"]


def test_a_page_of_another_site_is_refused_through_the_proxy(site: Site) -> None:
    with site.client("127.0.0.21", Origin="https://paiute.example.com") as client:
        response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"


def test_one_client_always_reaches_the_same_process(site: Site) -> None:
    # Each address, each time, to one process; the addresses spread over both.
    by_address = {
        address: {site.process_of(address) for _ in range(4)}
        for address in (f"127.0.0.{number}" for number in range(60, 76))
    }
    assert all(len(processes) == 1 for processes in by_address.values()), by_address
    assert set.union(*by_address.values()) == set(INSTANCES)
    # An IPv6 client is its /64 network, as the server counts it: all its addresses go to one
    # process, and the networks spread over both.
    one_network = {
        site.process_of("127.0.0.76", **{CLIENT_HEADER: f"2001:db8:6:1:{host}"})
        for host in (":1", ":2", "ffff::9", "1:2:3:4")
    }
    assert len(one_network) == 1, one_network
    networks = {
        site.process_of("127.0.0.76", **{CLIENT_HEADER: f"2001:db8:6:{n:x}::1"}) for n in range(2, 18)
    }
    assert networks == set(INSTANCES)


def open_tables(site: Site, address: str, clients: list[dict[str, str]]) -> list[int]:
    """The status of a new table asked for from ``address`` by each client (the headers it
    sends)."""
    body = {"player_name": "Ana", "seats": 2, "bots": "greedy"}
    codes = []
    for headers in clients:
        with site.client(address, **headers) as client:
            response = client.post("/api/tables", json=body)
        codes.append(response.status_code)
        if response.status_code == 429:
            assert "your address already has 1 open tables" in response.json()["error"]["message"]
    return codes


def test_each_client_is_counted_by_its_own_address_not_the_proxys(site: Site) -> None:
    # One open table per address (--max-tables-per-address 1): of three tables from one
    # address only the first is made, though there are two processes (nginx sends the address
    # to one of them) and each request makes up another X-Forwarded-For (nginx replaces it
    # with the peer's address).
    made_up = [{"X-Forwarded-For": f"198.51.100.{n}"} for n in range(3)]
    assert open_tables(site, "127.0.0.30", made_up) == [201, 429, 429]
    # Another address is another count, on the same process: had the server counted nginx's
    # address, it would refuse it now.
    process = site.process_of("127.0.0.30")
    other = next(f"127.0.0.{n}" for n in range(31, 60) if site.process_of(f"127.0.0.{n}") == process)
    assert open_tables(site, other, [{}]) == [201]


def test_an_ipv6_network_is_one_client_of_one_process(site: Site) -> None:
    # The server counts an IPv6 address as its /64, and nginx sends the /64 to one process:
    # three addresses of one network make one table between them.
    network = [{CLIENT_HEADER: f"2001:db8:7:1::{host}"} for host in (1, 2, 3)]
    assert open_tables(site, "127.0.0.32", network) == [201, 429, 429]
    assert open_tables(site, "127.0.0.32", [{CLIENT_HEADER: "2001:db8:7:2::1"}]) == [201]


def test_a_flood_from_one_client_is_refused_by_nginx(site: Site) -> None:
    # The server's own limit per address (30 a second, bursts of 300) answers first; past
    # nginx's (NGINX_RATE a second, bursts of NGINX_BURST), nginx answers itself, with the
    # server's kind of error, from either of its workers, and the server sees nothing more.
    address, stop = "127.0.0.90", threading.Event()
    answers: list[tuple[int, str | None]] = []  # each status, and a refusal's message

    def flood() -> None:
        with site.client(address) as client:
            while not stop.is_set() and len(answers) < 20_000:
                response = client.get("/api/health/live")
                refused = response.status_code == 429
                answers.append(
                    (response.status_code, response.json()["error"]["message"] if refused else None)
                )
                if refused and response.json()["error"]["message"] == "":
                    assert response.json()["error"]["code"] == "rate_limited"
                    assert response.headers["retry-after"] == "1"
                    stop.set()

    begun = time.monotonic()
    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(flood) for _ in range(4)]:
            done.result(timeout=120)
    seconds = time.monotonic() - begun
    by_nginx = answers.count((429, ""))
    by_server = len(answers) - by_nginx
    assert by_nginx >= 1
    assert by_server <= NGINX_BURST + 1 + NGINX_RATE * seconds + 4, (by_server, seconds)
    assert answers.count((200, None)) >= 300  # the server's own burst went through
    assert (429, "too many requests from your address: slow down") in answers  # then its refusal


async def person(site: Site, address: str, table_id: str, token: str, seen: list[dict[str, Any]]) -> None:
    """Play one seat over a WebSocket through the proxy, from ``address``, to the table's end."""
    url = site.https.replace("https", "wss", 1) + f"/ws/tables/{table_id}"
    async with connect(
        url,
        ssl=site.tls,
        origin=Origin(site.https),  # as a browser on the site's page sends it
        local_addr=(address, 0),
        proxy=None,
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome", welcome
        seen.extend(welcome["events"])
        await play_to_the_end(ws, welcome["state"], random.Random(address), seen)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def accepted_on(site: Site, address: str, table_id: str) -> list[str]:
    """The processes whose log shows a WebSocket of ``table_id`` accepted from ``address``."""
    line = re.compile(rf'{re.escape(address)}:\d+ - "WebSocket /ws/tables/{table_id}" \[accepted\]')
    return [instance for instance, log in site.logs.items() if line.search(log.read_text())]


def test_two_people_play_a_deal_through_the_proxy_on_both_processes(site: Site) -> None:
    clients = site.one_client_each(100)  # two people whom nginx sends to different processes
    ana, bo = clients["8001"], clients["8002"]
    with site.client(ana) as client:
        created = client.post(
            "/api/tables", json={"player_name": "Ana", "seats": 3, "bots": "greedy", "max_deals": 1}
        )
        assert created.status_code == 201, created.text
        table_id, ana_token = created.json()["table"]["id"], created.json()["token"]
    with site.client(bo) as client:
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
        assert joined.status_code == 200, joined.text
        bo_seat, bo_token = joined.json()["seat"], joined.json()["token"]
    with site.client(ana) as client:
        # only the host starts a match
        started = client.post(f"/api/tables/{table_id}/start", json={"id": "start"}, headers=auth(ana_token))
        assert started.status_code < 300, started.text
    seen: dict[str, list[dict[str, Any]]] = {ana: [], bo: []}

    async def play() -> None:
        await asyncio.gather(
            person(site, ana, table_id, ana_token, seen[ana]), person(site, bo, table_id, bo_token, seen[bo])
        )

    asyncio.run(asyncio.wait_for(play(), timeout=DEAL_SECONDS))
    # Each process logged the person it accepted by the person's own address (X-Forwarded-For
    # believed from nginx alone), not nginx's 127.0.0.1; and they were not the same process.
    where = {address: accepted_on(site, address, table_id) for address in (ana, bo)}
    assert len(where[ana]) == len(where[bo]) == 1, where
    assert where[ana] != where[bo], where
    with site.client("127.0.0.42") as client:
        events = client.get(f"/api/tables/{table_id}/events").json()["events"]
        record = Record.loads(client.get(f"/api/tables/{table_id}/record").text)
    assert [event["type"] for event in events][-2:] == ["deal_over", "closed"]
    record.replay()
    assert verify_deal(record.deals[0]) == []
    for address, seat, other in ((ana, 0, bo_seat), (bo, bo_seat, 0)):
        # Each saw every version once, in order: its own moves and the other's, made through
        # the other process.
        assert [event["version"] for event in seen[address]] == [event["version"] for event in events]
        moved = {e["seat"] for e in seen[address] if e["type"] == "action" and e.get("by") == "player"}
        assert {seat, other} <= moved


def test_wrong_passwords_at_one_name_are_counted_across_both_processes(site: Site) -> None:
    # Five wrong passwords a minute per account name, from any address: the tries are counted
    # in the database, so three on one process and two on the other are five, and the right
    # password is refused next, on either (neither address has reached its own limit).
    clients = site.one_client_each(180)
    with site.client(clients["8001"]) as client:
        credentials = {"name": "Philippa", "password": PASSWORD}
        assert client.post("/api/accounts", json=credentials).status_code == 201
    for number, instance in enumerate(("8001", "8002", "8001", "8002", "8001")):
        with site.client(clients[instance]) as client:
            wrong = client.post("/api/login", json={"name": "Philippa", "password": f"guess {number}"})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "login_failed")
    for instance in INSTANCES:
        with site.client(clients[instance]) as client:
            right = client.post("/api/login", json=credentials)
        assert right.status_code == 429, right.text
        assert right.json()["error"]["message"] == "too many log-in attempts: wait a minute"


def test_a_process_restarting_goes_unnoticed_through_the_proxy(site: Site) -> None:
    # A rolling restart (docs/hosting.md): while paiute@8001 is down, nginx sends its clients
    # to paiute@8002: a refused connection is retried on the other process, a POST included
    # (nothing was sent yet), and for a few seconds paiute@8001 is not tried again. Once it is
    # back, they go to it again.
    clients = site.one_client_each(140)
    stop([site.servers.pop("8001")], signal.SIGTERM)
    try:
        tables = []
        for address in clients.values():
            with site.client(address) as client:
                created = client.post(
                    "/api/tables", json={"player_name": "Ana", "seats": 2, "bots": "greedy"}
                )
            assert created.status_code == 201, created.text
            tables.append((address, created.json()["table"]["id"]))

        async def spectate(address: str, table_id: str) -> str:
            url = site.https.replace("https", "wss", 1) + f"/ws/tables/{table_id}"
            async with connect(
                url, ssl=site.tls, origin=Origin(site.https), local_addr=(address, 0), proxy=None
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None, "since": 0}))
                return str(json.loads(await ws.recv())["type"])

        assert [asyncio.run(spectate(*table)) for table in tables] == ["welcome", "welcome"]
        assert site.process_of(clients["8001"]) == "8002"
    finally:
        site.start("8001", time.monotonic() + STARTUP_SECONDS)
    deadline = time.monotonic() + 15.0  # nginx tries paiute@8001 again after fail_timeout
    while site.process_of(clients["8001"]) != "8001":
        assert time.monotonic() < deadline, "paiute@8001 did not get its clients back"
        time.sleep(0.5)
