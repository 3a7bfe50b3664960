"""The wrong passwords per account name, counted in the database (paiute.server.logins,
migration 0005): two servers' accounts on one database (SQLite and PostgreSQL) share the cap,
the right password waits out the window like any other try, and tries racing in several
threads never pass the cap together."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, inspect, select
from test_server_accounts_schema import migrate_to, schema_url  # noqa: F401 - schema_url: a fixture

from paiute.server.accounts import Accounts
from paiute.server.db import Store
from paiute.server.errors import ServiceError
from paiute.server.limits import Limits
from paiute.server.logins import WINDOW_SECONDS, LoginAttempts, login_attempts_table
from paiute.server.migrate import upgrade

PASSWORD = "correct horse battery"
#: The per-name cap of these tests (the default) and a per-address cap that never bites.
LIMITS = Limits(logins_per_name=5, logins_per_minute=10**9)


def check_migration_adds_the_tries_and_goes_back(url: str) -> None:
    store = Store(url)
    try:
        migrate_to(store, "0004")
        assert "paiute_login_attempts" not in inspect(store.engine).get_table_names()
        upgrade(store)
        assert "paiute_login_attempts" in inspect(store.engine).get_table_names()
        migrate_to(store, "0004", down=True)
        assert "paiute_login_attempts" not in inspect(store.engine).get_table_names()
        assert "paiute_accounts" in inspect(store.engine).get_table_names()
    finally:
        store.dispose()


def test_migration_0005_adds_the_login_tries_on_sqlite_and_goes_back(tmp_path: Path) -> None:
    check_migration_adds_the_tries_and_goes_back(f"sqlite:///{tmp_path / 'paiute.db'}")


def test_migration_0005_adds_the_login_tries_on_postgresql_and_goes_back(schema_url: str) -> None:  # noqa: F811
    check_migration_adds_the_tries_and_goes_back(schema_url)


class Clock:
    """A clock the test moves (both servers read it, as two processes read one wall clock)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class TwoServers:
    """The accounts of two server processes over one migrated database."""

    def __init__(self, url: str) -> None:
        self.stores = [Store(url), Store(url)]
        upgrade(self.stores[0])
        self.clock = Clock()
        self.accounts = [Accounts(store, LIMITS, self.clock) for store in self.stores]

    def log_in(self, server: int, name: str, password: str, address: str) -> str:
        """``ok``, or the refusal's code and message."""

        async def attempt() -> str:
            try:
                await self.accounts[server].log_in(name, password, address)
            except ServiceError as error:
                return f"{error.code}: {error.message}"
            return "ok"

        return asyncio.run(attempt())

    def rows(self) -> int:
        with self.stores[0].engine.connect() as connection:
            return int(
                connection.execute(select(func.count()).select_from(login_attempts_table)).scalar_one()
            )

    def close(self) -> None:
        for store in self.stores:
            store.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    url = (
        f"sqlite:///{tmp_path / 'paiute.db'}"
        if request.param == "sqlite"
        else request.getfixturevalue("schema_url")
    )
    made = TwoServers(url)
    yield made
    made.close()


WRONG = "login_failed: wrong name or password"
#: What a refused log-in is told (as before the count moved to the database).
REFUSED = "rate_limited: too many log-in attempts: wait a minute"


def test_wrong_passwords_on_both_servers_share_one_cap_per_name(servers: TwoServers) -> None:
    asyncio.run(servers.accounts[0].sign_up("Ottilie", PASSWORD, "10.0.0.1"))
    # Five wrong passwords from five addresses, spread over both servers: each server saw
    # fewer than five, yet the sixth try, the right password included, is refused on either.
    for number in range(5):
        assert servers.log_in(number % 2, "Ottilie", f"guess {number}", f"10.1.0.{number}") == WRONG
    assert servers.log_in(0, "Ottilie", PASSWORD, "10.2.0.1") == REFUSED
    assert servers.log_in(1, "OTTILIE", PASSWORD, "10.2.0.2") == REFUSED  # a lookalike: one count
    assert servers.rows() == 5  # the refused tries left nothing
    # A window later the right password works, on either server, and counts for nothing.
    servers.clock.now += WINDOW_SECONDS
    for server in (0, 1, 0, 1, 0, 1, 0):
        assert servers.log_in(server, "Ottilie", PASSWORD, "10.2.0.3") == "ok"
    assert servers.log_in(1, "Ottilie", "one more guess", "10.2.0.4") == WRONG


def test_an_unknown_name_is_counted_per_name_typed(servers: TwoServers) -> None:
    for number in range(5):
        assert servers.log_in(number % 2, "Nobody Here", f"guess {number}", f"10.3.0.{number}") == WRONG
    assert servers.log_in(1, "nobody here", "guess 5", "10.3.0.9") == REFUSED
    assert servers.log_in(0, "Somebody Else", "guess 5", "10.3.0.9") == WRONG


def test_old_tries_are_swept_on_the_way(servers: TwoServers) -> None:
    for number in range(4):
        assert servers.log_in(0, f"Stranger {number}", "a guess", "10.4.0.1") == WRONG
    assert servers.rows() == 4
    servers.clock.now += WINDOW_SECONDS + 1
    assert servers.log_in(0, "Stranger 9", "a guess", "10.4.0.1") == WRONG
    assert servers.rows() == 1  # the try just made


def test_tries_racing_in_two_servers_never_pass_the_cap_together(servers: TwoServers) -> None:
    counters = [LoginAttempts(store, 5) for store in servers.stores]
    start = threading.Barrier(24)

    def attempt(number: int) -> int | None:
        start.wait()
        return counters[number % 2].begin("a name guessed at", servers.clock())

    with ThreadPoolExecutor(24) as pool:
        passed = [row for row in pool.map(attempt, range(24)) if row is not None]
    assert len(passed) <= 5  # maybe fewer: racing tries may all see each other and step back
    assert servers.rows() == len(passed)  # the refused ones took their rows back
