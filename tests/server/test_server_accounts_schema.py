"""The accounts' schema (migration 0003) on SQLite and PostgreSQL, and the accounts of a table's
seats (what ratings will stand on)."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import insert, inspect, select
from test_server_accounts import PASSWORD, error, log_in, me, my_tables, play_now, sign_up

from conftest import fresh_schema
from paiute.server.accounts import Account
from paiute.server.db import Store, tables_table
from paiute.server.migrate import alembic_config, upgrade

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ACCOUNT_TABLES = {"paiute_accounts", "paiute_sessions", "paiute_account_seats"}


def migrate_to(store: Store, revision: str, *, down: bool = False) -> None:
    config = alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def check_upgrade_keeps_the_tables_and_adds_the_accounts(url: str) -> None:
    store = Store(url)
    try:
        migrate_to(store, "0002")
        assert not ACCOUNT_TABLES & set(inspect(store.engine).get_table_names())
        row = {"id": "kept", "config": {}, "private": False, "status": "waiting", "version": 0}
        with store.engine.begin() as connection:
            connection.execute(insert(tables_table).values(**row, created=1.0, updated=1.0))
        upgrade(store)
        assert set(inspect(store.engine).get_table_names()) >= ACCOUNT_TABLES
        with store.engine.connect() as connection:
            assert connection.execute(select(tables_table.c.id)).scalars().all() == ["kept"]
        migrate_to(store, "0002", down=True)
        assert not ACCOUNT_TABLES & set(inspect(store.engine).get_table_names())
    finally:
        store.dispose()


def test_migration_0003_adds_the_accounts_on_sqlite_and_goes_back(tmp_path: Path) -> None:
    check_upgrade_keeps_the_tables_and_adds_the_accounts(f"sqlite:///{tmp_path / 'paiute.db'}")


@pytest.fixture
def schema_url() -> Iterator[str]:
    """A fresh schema of the PostgreSQL test database, dropped afterwards."""
    with fresh_schema() as url:
        yield url


def test_migration_0003_adds_the_accounts_on_postgresql_and_goes_back(schema_url: str) -> None:
    check_upgrade_keeps_the_tables_and_adds_the_accounts(schema_url)


def test_accounts_work_end_to_end_on_postgresql(schema_url: str, tmp_path: Path) -> None:
    from live_helpers import RELAXED_LIMITS
    from server_helpers import ServerProcess, auth

    flags = (*RELAXED_LIMITS, "--logins-per-minute", "0")
    server = ServerProcess(schema_url, tmp_path / "server.log", extra=flags)
    try:
        with (
            httpx.Client(base_url=server.url, timeout=30) as home,
            httpx.Client(base_url=server.url, timeout=30) as work,
        ):
            assert sign_up(home, "Gwendolyn").status_code == 201
            assert error(sign_up(work, "GWENDOLYN")) == (409, "conflict")  # the unique keys hold
            table_id, _ = play_now(home, "Gwendolyn")
            assert log_in(work, "gwendolyn").status_code == 200
            assert [entry["table"]["id"] for entry in my_tables(work)["tables"]] == [table_id]
            fresh = work.post(f"/api/me/tables/{table_id}/seat", json={"seat": 0})
            assert fresh.status_code == 200, fresh.text
            view = work.get(f"/api/tables/{table_id}/state", headers=auth(fresh.json()["token"]))
            assert view.json()["you"] == 0
            assert work.post("/api/logout/everywhere").json() == {"sessions": 2}
            assert me(home) is None
            assert log_in(home, "Gwendolyn", PASSWORD).status_code == 200
    finally:
        server.stop()


# -- the accounts of a table's seats ----------------------------------------------------------------


def test_the_accounts_of_a_tables_seats_are_those_whose_token_still_holds_the_seat(
    client: TestClient,
) -> None:
    app: Any = client.app
    other = TestClient(app)  # a second browser on the same server
    anonymous = TestClient(app)
    assert client.post("/api/accounts", json={"name": "Hortensia", "password": PASSWORD}).status_code == 201
    assert other.post("/api/accounts", json={"name": "Ignatius", "password": PASSWORD}).status_code == 201
    created = client.post("/api/tables", json={"player_name": "Hortensia", "seats": 3, "turn_seconds": 600})
    table_id = created.json()["table"]["id"]
    joined = other.post(f"/api/tables/{table_id}/join", json={"name": "Ignatius"}).json()
    assert anonymous.post(f"/api/tables/{table_id}/join", json={"name": "Jocasta"}).status_code == 200

    def accounts_now() -> dict[int, Account]:
        table = app.state.service.runtimes[table_id].table
        found: dict[int, Account] = asyncio.run(app.state.accounts.accounts_of_table(table))
        return found

    seats = accounts_now()
    assert {seat: account.name for seat, account in seats.items()} == {0: "Hortensia", 1: "Ignatius"}
    assert seats[0].id == client.get("/api/me").json()["account"]["id"]

    left = other.post(
        f"/api/tables/{table_id}/leave",
        json={"id": "go"},
        headers={"Authorization": f"Bearer {joined['token']}"},
    )
    assert left.status_code == 200, left.text
    assert (
        anonymous.post(f"/api/tables/{table_id}/join", json={"name": "Kunigunde", "seat": 1}).status_code
        == 200
    )
    assert {seat: account.name for seat, account in accounts_now().items()} == {0: "Hortensia"}


def test_a_fresh_seat_link_holds_the_seat_until_it_is_left_and_is_bounded(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paiute.server.table as table_module

    monkeypatch.setattr(table_module, "RELINKS_PER_SEAT", 2)
    assert client.post("/api/accounts", json={"name": "Leopold", "password": PASSWORD}).status_code == 201
    created = client.post("/api/tables", json={"player_name": "Leopold", "seats": 2, "turn_seconds": 600})
    table_id, first = created.json()["table"]["id"], created.json()["token"]
    links = [client.post(f"/api/me/tables/{table_id}/seat").json()["token"] for _ in range(2)]
    refused = client.post(f"/api/me/tables/{table_id}/seat")
    assert error(refused) == (429, "rate_limited")  # RELINKS_PER_SEAT a seat
    for token in (first, *links):
        view = client.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"})
        assert view.json()["you"] == 0
    left = client.post(
        f"/api/tables/{table_id}/leave", json={"id": "go"}, headers={"Authorization": f"Bearer {links[1]}"}
    )
    assert left.status_code == 200, left.text
    for token in (first, *links):  # leaving before the start frees the seat from every token
        view = client.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"})
        assert error(view) == (401, "bad_token")
    assert error(client.post(f"/api/me/tables/{table_id}/seat")) == (403, "forbidden")
