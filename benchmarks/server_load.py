"""Load on ``paiute serve``: many people playing over WebSockets at once, on one database.

The server runs as a subprocess on 127.0.0.1 (a temporary SQLite database, or with ``--db`` a
fresh schema of a PostgreSQL database, dropped after; no bots: every seat is a simulated client). ``--tables`` tables of ``--seats`` seats each are created, joined and
started over HTTP; then every client connects to its table's WebSocket and plays with a simple
legal policy read from its own observation (cut at random; draw from the stock; discard at
random; call when it may after a few turns) until each table has played ``--deals`` deals or
``--seconds`` have passed.

Figures: actions per second (moves and cuts, all tables together), the latency from an action
sent to the acting client's own ``update`` for it (p50, p90, p95, p99, max), updates received per
second (the fan-out), the server's CPU (user + system from /proc, as a share of one core and
per action), the clients' CPU (this process, ``time.process_time``), and errors (error frames,
lost connections). Both the server and this process share the machine, so the client's own
event-loop lag is inside the latency (its CPU share is printed beside it).

    .venv/bin/python benchmarks/server_load.py                      # 200 clients, 50 tables
    .venv/bin/python benchmarks/server_load.py --deals 2 --seconds 60 --json out.json
    .venv/bin/python benchmarks/server_load.py --db postgresql://USER:PASSWORD@HOST/NAME
    .venv/bin/python benchmarks/server_load.py --tables 10 --profile prof.out  # cProfile the server
    .venv/bin/python benchmarks/server_load.py --py-spy stacks.txt  # sample it (the test extra)

The goal (issues 5 and 40): p99 < 100 ms, 200 clients on 50 tables, on this 2-core machine,
with every limit of the server on (issue 13): each simulated person connects from its own
loopback address (127.0.x.y), as real players come from their own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from paiute.server.patch import apply as apply_patch

GOAL_P99_MS = 100.0
STARTUP_SECONDS = 60.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- the server ------------------------------------------------------------------------------


class Server:
    """``paiute serve`` in a subprocess (optionally under cProfile)."""

    def __init__(self, directory: Path, db_url: str | None, profile: Path | None, log_level: str) -> None:
        command = [sys.executable]
        if profile is not None:
            command += ["-m", "cProfile", "-o", str(profile)]
        command += [
            "-m",
            "paiute",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            db_url or f"sqlite:///{directory / 'load.sqlite'}",
            "--bot-delay",
            "0",
            "--deal-pause",
            "0",
            "--log-level",
            log_level,
        ]
        self.log = directory / "server.log"
        with self.log.open("w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            found = re.search(r"serving at (http://\S+?)/? ", self.log.read_text())
            if found:
                self.url = found.group(1).rstrip("/")
                self.ws_url = "ws" + self.url[len("http") :]
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"paiute serve did not start:\n{self.log.read_text()[-2000:]}")

    def cpu_seconds(self) -> float:
        """User + system CPU of the server process so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def stop(self) -> None:
        if self.process.poll() is None:
            # SIGINT: uvicorn shuts down and raises it again, ``paiute`` returns 130 from the
            # KeyboardInterrupt, and cProfile writes its file (a SIGTERM would end it first).
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# -- the clients -----------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, action sent -> own update
    actions: int = 0
    updates: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    tables_done: int = 0
    connected: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def address_of(index: int) -> str:
    """The loopback address of client ``index``: every 127.x.y.z is this machine, so each
    simulated person comes from an address of its own, as real players do (the server's
    limits per address stay on)."""
    return f"127.0.{1 + index // 250}.{2 + index % 250}"


@dataclass
class Client:
    table: str
    seat: int
    token: str
    rng: random.Random
    address: str = "127.0.0.1"
    turns: int = 0
    pending: tuple[int, float] | None = None  # (version acted at, perf_counter at send)
    sent: set[int] = field(default_factory=set)


def choose(client: Client, view: dict[str, Any]) -> dict[str, Any] | None:
    """A legal message for this client's view, at most one per version."""
    version: int = view["version"]
    if version in client.sent:
        return None
    if view["status"] == "cut":
        if view["cutter"] != client.seat:
            return None
        return {"type": "cut", "id": f"v{version}", "position": client.rng.randrange(52)}
    observation = view["observation"]
    if view["status"] != "playing" or not observation or not observation["legal_actions"]:
        return None
    legal: list[str] = observation["legal_actions"]
    if "draw stock" in legal:
        action = "draw stock"
    else:
        client.turns += 1
        calls = [a for a in legal if a.startswith("call")]
        discards = [a for a in legal if a.startswith("discard")]
        action = calls[0] if calls and (client.turns > 4 or not discards) else client.rng.choice(discards)
    return {"type": "action", "id": f"v{version}", "action": action, "expected_version": version}


async def act(ws: ClientConnection, client: Client, view: dict[str, Any], think: float) -> None:
    if client.pending is not None:
        return
    message = choose(client, view)
    if message is None:
        return
    version = view["version"]
    if think > 0:
        client.pending = (version, 0.0)  # thinking: one message at a time
        await asyncio.sleep(client.rng.uniform(0, 2 * think))
    client.sent.add(version)
    client.pending = (version, time.perf_counter())
    await ws.send(json.dumps(message))


async def play(
    url: str, client: Client, stats: Stats, go: asyncio.Event, stop: asyncio.Event, args: argparse.Namespace
) -> None:
    """One simulated person: connect, wait for the start signal, play until the table closes."""
    compression = None if args.no_compression else "deflate"
    try:
        async with connect(
            f"{url}/ws/tables/{client.table}",
            max_size=2**22,
            compression=compression,
            local_addr=(client.address, 0),
        ) as ws:
            hello = {"type": "hello", "token": client.token, "since": None, "patches": not args.whole_views}
            await ws.send(json.dumps(hello))
            welcome = json.loads(await ws.recv())
            view = welcome["state"]
            stats.connected += 1
            await go.wait()
            await act(ws, client, view, args.think)
            while not stop.is_set():
                message = json.loads(await ws.recv())
                kind = message["type"]
                if kind == "update":
                    stats.updates += 1
                    if "patch" in message:  # the page's way (hello's "patches"): apply it
                        if message["version"] != view["version"] + 1:
                            raise RuntimeError(
                                f"a patch for version {message['version']} after {view['version']}"
                            )
                        view = apply_patch(view, message["patch"])
                    else:
                        view = message["state"]
                    event = message["event"]
                    if (
                        client.pending is not None
                        and event["seat"] == client.seat
                        and event["type"] in ("action", "cut")
                    ):
                        stats.latencies.append(time.perf_counter() - client.pending[1])
                        stats.actions += 1
                    if view["status"] == "closed":
                        if client.seat == 0:
                            stats.tables_done += 1
                        return
                elif kind == "ack":
                    client.pending = None
                    await act(ws, client, view, args.think)
                elif kind == "error":
                    stats.error(message["error"]["code"])
                    client.pending = None
                elif kind == "presence":  # merged into the View, as the page does (the patches' base)
                    away = {item["seat"]: item["deadline"] for item in message["away"]}
                    for player in view["table"]["players"]:
                        player["connected"] = player["seat"] in message["connected"]
                        player["away_until"] = away.get(player["seat"])
                    view["table"]["spectators"] = message["spectators"]
                await act(ws, client, view, args.think)
    except ConnectionClosed:
        stats.error("connection closed")


def post(http: httpx.Client, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    """POST, waiting out the server's rate limit on HTTP requests from one address."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for attempt in range(200):
        response = http.post(path, json=body, headers=headers)
        if response.status_code != 429:
            response.raise_for_status()
            return response.json()
        time.sleep(0.05 * min(attempt + 1, 10))
    raise RuntimeError(f"{path}: still rate limited")


def set_up(url: str, tables: int, seats: int, deals: int, seed: int) -> list[Client]:
    """Create, join and start the tables over HTTP, each person from their own address."""
    clients: list[Client] = []
    rng = random.Random(seed)
    https: dict[str, httpx.Client] = {}

    def http_from(address: str) -> httpx.Client:
        if address not in https:
            transport = httpx.HTTPTransport(local_address=address)
            https[address] = httpx.Client(base_url=url, timeout=30, transport=transport)
        return https[address]

    try:
        for number in range(tables):
            addresses = [address_of(number * seats + seat) for seat in range(seats)]
            body = {"player_name": "p0", "name": f"load {number}", "seats": seats, "max_deals": deals}
            created = post(http_from(addresses[0]), "/api/tables", body)
            table_id = created["table"]["id"]
            tokens = {0: created["token"]}
            for seat in range(1, seats):
                body = {"name": f"p{seat}", "seat": seat}
                tokens[seat] = post(http_from(addresses[seat]), f"/api/tables/{table_id}/join", body)["token"]
            post(http_from(addresses[0]), f"/api/tables/{table_id}/start", {"id": "start"}, tokens[0])
            clients += [
                Client(table_id, seat, token, random.Random(rng.random()), addresses[seat])
                for seat, token in tokens.items()
            ]
    finally:
        for http in https.values():
            http.close()
    return clients


async def run_clients(
    server: Server, clients: list[Client], args: argparse.Namespace
) -> tuple[Stats, float, float, float]:
    stats = Stats()
    go, stop = asyncio.Event(), asyncio.Event()
    tasks = [asyncio.create_task(play(server.ws_url, client, stats, go, stop, args)) for client in clients]
    deadline = time.monotonic() + STARTUP_SECONDS
    while stats.connected < len(clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)  # every client connects and has its welcome before the start
    cpu0, client0, wall0 = server.cpu_seconds(), time.process_time(), time.perf_counter()
    go.set()
    done, pending = await asyncio.wait(tasks, timeout=args.seconds)
    stop.set()
    wall = time.perf_counter() - wall0
    server_cpu = server.cpu_seconds() - cpu0
    client_cpu = time.process_time() - client0
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    for task in done:
        if task.exception() is not None:
            stats.error(type(task.exception()).__name__)
    return stats, wall, server_cpu, client_cpu


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema of the PostgreSQL database at ``url`` (the server's URL points at it
    through ``search_path``), dropped after, so that every run starts from empty tables."""
    import psycopg

    schema = f"paiute_load_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1, help="deals per table (default 1)")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the play (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db",
        metavar="URL",
        help="a PostgreSQL database (postgresql://...) to run on, in a fresh schema dropped after "
        "(default: a temporary SQLite file)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="mean pause before each move (uniform 0..2x; default 0: every client acts at once, "
        "the server saturated)",
    )
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="clients do not ask for permessage-deflate (browsers ask; paiute serve declines it)",
    )
    parser.add_argument(
        "--whole-views",
        action="store_true",
        help="clients ask for the whole View in every update (the page asks for patches)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    parser.add_argument("--server-log", type=Path, help="keep the server's output here")
    parser.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="the server's --log-level (default warning)",
    )
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, write the stats here")
    parser.add_argument(
        "--py-spy",
        type=Path,
        help="sample the server's stacks with py-spy while the clients play (raw folded stacks here)",
    )
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with contextlib.ExitStack() as stack:
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="paiute-load-"))
        db_url = stack.enter_context(postgres_schema(args.db)) if args.db else None
        server = Server(Path(directory), db_url, args.profile, args.log_level)
        spy = None
        try:
            clients = set_up(server.url, args.tables, args.seats, args.deals, args.seed)
            if args.py_spy:
                # A sampling profile of the running server (its CPU as it is, unlike cProfile's).
                binary = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
                record = [binary, "record", "-p", str(server.process.pid), "-f", "raw", "-r", "100"]
                spy = subprocess.Popen(
                    [*record, "--nonblocking", "-o", str(args.py_spy)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            stats, wall, server_cpu, client_cpu = asyncio.run(run_clients(server, clients, args))
        finally:
            if spy is not None:
                spy.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
                spy.wait(timeout=60)
            server.stop()
            if args.server_log:
                shutil.copyfile(server.log, args.server_log)
    ms = [value * 1000 for value in stats.latencies]
    figures = {
        "clients": len(clients),
        "tables": args.tables,
        "database": "postgresql" if args.db else "sqlite",
        "seats": args.seats,
        "deals_per_table": args.deals,
        "think_seconds": args.think,
        "compression": not args.no_compression,
        "patches": not args.whole_views,
        "tables_finished": stats.tables_done,
        "seconds": round(wall, 2),
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / wall, 1),
        "updates_per_second": round(stats.updates / wall, 1),
        "latency_ms": {
            "p50": round(percentile(ms, 0.50), 2),
            "p90": round(percentile(ms, 0.90), 2),
            "p95": round(percentile(ms, 0.95), 2),
            "p99": round(percentile(ms, 0.99), 2),
            "max": round(max(ms, default=float("nan")), 2),
            "mean": round(statistics.fmean(ms), 2) if ms else None,
        },
        "server_cpu_seconds": round(server_cpu, 2),
        "server_cpu_share_of_one_core": round(server_cpu / wall, 3),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, stats.actions), 3),
        "client_cpu_seconds": round(client_cpu, 2),
        "errors": stats.errors,
        "load_average_before": load_before,
        "load_average": os.getloadavg(),
        "goal_p99_ms": GOAL_P99_MS,
    }
    latency = figures["latency_ms"]
    rows = [
        (
            "clients / tables",
            f"{len(clients)} / {args.tables} ({args.seats} seats, {args.deals} deal(s) each, "
            f"think {args.think} s, compression {'off' if args.no_compression else 'on'}, "
            f"{'whole Views' if args.whole_views else 'patches'})",
        ),
        ("database", "PostgreSQL (a fresh schema)" if args.db else "SQLite (a temporary file)"),
        ("tables finished", f"{stats.tables_done} in {wall:.1f} s"),
        ("actions", f"{stats.actions} ({figures['actions_per_second']} per second)"),
        ("updates received", f"{figures['updates_per_second']} per second"),
        ("latency p50 / p90 / p95", f"{latency['p50']} / {latency['p90']} / {latency['p95']} ms"),
        ("latency p99 / max", f"{latency['p99']} / {latency['max']} ms  (goal p99 < {GOAL_P99_MS:.0f} ms)"),
        (
            "server CPU",
            f"{server_cpu:.1f} s = {figures['server_cpu_share_of_one_core']:.0%} of a core, "
            f"{figures['server_cpu_ms_per_action']} ms per action",
        ),
        ("clients' CPU", f"{client_cpu:.1f} s (this process)"),
        ("errors", json.dumps(stats.errors) if stats.errors else "none"),
        ("load average before", " ".join(f"{x:.2f}" for x in load_before)),
        ("load average after", " ".join(f"{x:.2f}" for x in os.getloadavg())),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if args.profile:
        print(f"server profile: {args.profile} (python -m pstats {args.profile})")
    if args.py_spy:
        print(f"server samples: {args.py_spy} (folded stacks: flamegraph.pl, speedscope)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
