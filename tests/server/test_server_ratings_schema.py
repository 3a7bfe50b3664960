"""The ratings' schema (migration 0004) and their store, on SQLite and PostgreSQL: a match is
rated once whoever tries and however often, two processes at once included, and a rated match
that ended unrated is found at the next start."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, insert, inspect, select
from test_server_accounts_schema import migrate_to, schema_url  # noqa: F401 - schema_url: a fixture

from paiute.server.accounts import AccountStore, name_keys
from paiute.server.db import Store, tables_table
from paiute.server.migrate import upgrade
from paiute.server.ratings import (
    MU,
    SIGMA,
    RatingStore,
    Standing,
    rated_matches_table,
    rating_history_table,
    ratings_table,
)

RATING_TABLES = {"paiute_ratings", "paiute_rated_matches", "paiute_rating_history"}


def check_migration_adds_the_ratings_and_goes_back(url: str) -> None:
    store = Store(url)
    try:
        migrate_to(store, "0003")
        assert not RATING_TABLES & set(inspect(store.engine).get_table_names())
        upgrade(store)
        assert set(inspect(store.engine).get_table_names()) >= RATING_TABLES
        migrate_to(store, "0003", down=True)
        assert not RATING_TABLES & set(inspect(store.engine).get_table_names())
        assert "paiute_accounts" in inspect(store.engine).get_table_names()
    finally:
        store.dispose()


def test_migration_0004_adds_the_ratings_on_sqlite_and_goes_back(tmp_path: Path) -> None:
    check_migration_adds_the_ratings_and_goes_back(f"sqlite:///{tmp_path / 'paiute.db'}")


def test_migration_0004_adds_the_ratings_on_postgresql_and_goes_back(schema_url: str) -> None:  # noqa: F811
    check_migration_adds_the_ratings_and_goes_back(schema_url)


# -- the store -------------------------------------------------------------------------------------


class World:
    """A migrated database with accounts and closed tables to rate."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        upgrade(self.store)
        self.ratings = RatingStore(self.store)
        self.accounts: dict[str, str] = {}

    def account(self, name: str) -> str:
        made = AccountStore(self.store).create(name, name_keys(name), "not a real hash", 1.0)
        assert made is not None
        self.accounts[name] = made.id
        return made.id

    def table(self, table_id: str, *, rated: bool = True, status: str = "closed") -> str:
        config: dict[str, Any] = {"name": table_id, "seats": 3}
        if rated:
            config["rated"] = True
        row = {"id": table_id, "config": config, "private": False, "status": status, "version": 9}
        with self.store.engine.begin() as connection:
            connection.execute(insert(tables_table).values(**row, created=1.0, updated=2.0))
        return table_id

    def standings(self, *names: str) -> list[Standing]:
        """The seats of ``names`` in that order, placed first to last."""
        return [Standing(seat, self.accounts[name], seat + 1, False) for seat, name in enumerate(names)]

    def rows(self) -> dict[str, tuple[float, float, int]]:
        by_id = {account_id: name for name, account_id in self.accounts.items()}
        with self.store.engine.connect() as connection:
            return {
                by_id[row.account_id]: (row.mu, row.sigma, row.games)
                for row in connection.execute(select(ratings_table))
            }

    def count(self, table: Any) -> int:
        with self.store.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(table)).scalar() or 0)


@pytest.fixture(params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    url = (
        f"sqlite:///{tmp_path / 'paiute.db'}"
        if request.param == "sqlite"
        else request.getfixturevalue("schema_url")
    )
    made = World(url)
    yield made
    made.store.dispose()


def test_a_match_is_rated_once_and_a_second_try_changes_nothing(world: World) -> None:
    for name in ("Ana", "Bo", "Cy"):
        world.account(name)
    rated = world.table("rated")
    world.table("unrated", rated=False)
    world.table("playing", status="playing")
    assert world.ratings.pending() == [rated]
    assert world.ratings.apply(rated, world.standings("Ana", "Bo", "Cy"), 10.0) is True
    first = world.rows()
    assert set(first) == {"Ana", "Bo", "Cy"}
    assert first["Ana"][0] > MU > first["Cy"][0]
    assert all(games == 1 and sigma < SIGMA for _, sigma, games in first.values())
    assert world.ratings.pending() == []
    assert world.ratings.apply(rated, world.standings("Cy", "Bo", "Ana"), 11.0) is False
    assert world.rows() == first
    assert world.count(rating_history_table) == 3
    assert world.ratings.is_rated(rated)


def test_a_match_that_ended_unratable_is_marked_and_changes_nobody(world: World) -> None:
    world.account("Dee")
    void = world.table("void")
    assert world.ratings.apply(void, None, 5.0) is True
    assert world.ratings.pending() == []
    assert world.rows() == {}
    with world.store.engine.connect() as connection:
        assert connection.execute(select(rated_matches_table.c.rated)).scalars().all() == [False]


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(0)``..``work(count - 1)`` in threads released together."""
    gate = threading.Barrier(count)

    def run(index: int) -> Any:
        gate.wait()
        return work(index)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def test_two_processes_rating_one_match_at_once_rate_it_once(schema_url: str) -> None:  # noqa: F811
    world = World(schema_url)
    try:
        for name in ("Ana", "Bo", "Cy"):
            world.account(name)
        table = world.table("raced")
        others = [RatingStore(Store(schema_url)) for _ in range(4)]  # as many server processes
        standings = world.standings("Ana", "Bo", "Cy")
        done = at_once(4, lambda index: others[index].apply(table, standings, 3.0))
        assert sorted(done) == [False, False, False, True]
        assert {games for _, _, games in world.rows().values()} == {1}
        assert world.count(rating_history_table) == 3
        for other in others:
            other.engine.dispose()
    finally:
        world.store.dispose()


def test_matches_of_one_account_ending_at_once_both_count(schema_url: str) -> None:  # noqa: F811
    """No rating is lost when two matches of the same accounts are rated at the same moment
    (the rows are locked in one order; a first rating written meanwhile is tried again)."""
    world = World(schema_url)
    try:
        for name in ("Ana", "Bo", "Cy", "Dee"):
            world.account(name)
        tables = [world.table(f"table-{index}") for index in range(4)]
        seatings = [("Ana", "Bo"), ("Bo", "Ana"), ("Ana", "Cy"), ("Dee", "Ana")]
        others = [RatingStore(Store(schema_url)) for _ in tables]
        done = at_once(
            4, lambda index: others[index].apply(tables[index], world.standings(*seatings[index]), 4.0)
        )
        assert done == [True] * 4
        games = {name: row[2] for name, row in world.rows().items()}
        assert games == {"Ana": 4, "Bo": 2, "Cy": 1, "Dee": 1}
        assert world.count(rating_history_table) == 8
        for other in others:
            other.engine.dispose()
    finally:
        world.store.dispose()
