"""Rated matches and the ratings of accounts: openskill's Plackett-Luce model, once per match.

A table is **rated** when its creator asks for it (``"rated": true``), and then only if it can
be fair: every seat is a person logged in to an account when they sit down (each account
once; the seat keeps the account in its ``joined`` event, so a seat link claimed later by
another account changes nothing), no bots fill empty seats, the turn clock runs and hints are
off (:func:`~paiute.server.tabledata.hint_policy`, reason ``rated``). The table's rules refuse
anything else (:class:`~paiute.server.tabledata.TableConfig`,
:meth:`~paiute.server.table.LiveTable.plan_join`).

When a rated match ends (its ``closed`` event), every seat's account is rated once by its
final standing (:func:`standings`): the most chips first, seats with as many sharing a place.
A person's seat that the bot plays at the end (they left, or went away and never came back)
stays in the match and is placed below every seat still played by its person, whatever its
chips, the later it was handed over the better (as lichess scores an abandoned game: the
match counts, and leaving loses it); a seat whose person came back is placed by its chips like
any other. A match that ends before any deal is finished changes nobody's rating.

The rating is written in one transaction with a row per match (``paiute_rated_matches``,
the table's id its key) and a history row per seat (the key: table and account): a second
attempt, by this process after a restart or by another process that applied the same
``closed`` event, finds the match's row and changes nothing. Every process that applies a
rated table's ``closed`` event makes the attempt, and a starting server makes it for every
rated match that ended unrated (:meth:`RatingStore.pending`): each match is rated exactly once.

A rating is shown lichess-like (:func:`display`): 1500 for a new account, ±350, both scaled
from openskill's mu and sigma (25 ± 25/3); it is **provisional** while the account has played
fewer than :data:`PROVISIONAL_GAMES` rated matches or its sigma is above
:data:`PROVISIONAL_SIGMA` (:func:`is_provisional`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from openskill.models import PlackettLuce
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    case,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError

from paiute.errors import N_
from paiute.server.accounts import accounts_table, name_keys
from paiute.server.db import Store, metadata, tables_table
from paiute.server.dbcalls import report
from paiute.server.errors import ServiceError
from paiute.server.table import LiveTable

__all__ = [
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MU",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_SIGMA",
    "SIGMA",
    "RatingStore",
    "Ratings",
    "Standing",
    "deviation",
    "display",
    "is_provisional",
    "places",
    "rate",
    "standings",
]

log = logging.getLogger("paiute.server")

_MODEL = PlackettLuce()
#: A new account's rating: openskill's defaults (mu 25, sigma 25/3).
MU: float = _MODEL.mu
SIGMA: float = _MODEL.sigma
#: The shown rating of mu 25 (a new account) ...
DISPLAY_BASE = 1500
#: ... and the points of one unit of mu or sigma: a new account shows 1500 ± 350.
DISPLAY_SCALE = 350 / SIGMA
#: An account's rating is provisional while it has played fewer rated matches than this ...
PROVISIONAL_GAMES = 10
#: ... or while its sigma is above this (a shown deviation of 315).
PROVISIONAL_SIGMA = 7.5
#: Rated results a profile shows, the newest first.
RECENT = 10
#: Tries of a rating transaction that meets another one (a deadlock, a first rating of the
#: same account written meanwhile) before it gives up (the next start tries again).
TRIES = 5

ratings_table = Table(
    "paiute_ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("paiute_accounts.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    Index("ix_paiute_ratings_mu", "mu"),
)

rated_matches_table = Table(
    "paiute_rated_matches",
    metadata,
    Column("table_id", String(32), ForeignKey("paiute_tables.id"), primary_key=True),
    Column("rated", Boolean, nullable=False),  # false: it ended before any deal was finished
    Column("at", Float, nullable=False),
)

rating_history_table = Table(
    "paiute_rating_history",
    metadata,
    Column("table_id", String(32), ForeignKey("paiute_tables.id"), primary_key=True),
    Column("account_id", String(32), ForeignKey("paiute_accounts.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),  # 1: first; seats with the same place tied
    Column("seats", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_paiute_rating_history_account", "account_id", "at"),
)

P = ParamSpec("P")
R = TypeVar("R")


# -- what is shown ----------------------------------------------------------------------------


def display(mu: float) -> int:
    """The rating shown for ``mu``: 1500 for a new account.

    >>> display(MU), display(MU + 1)
    (1500, 1542)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - MU))


def deviation(sigma: float) -> int:
    """The ± shown for ``sigma``: 350 for a new account.

    >>> deviation(SIGMA)
    350
    """
    return round(DISPLAY_SCALE * sigma)


def is_provisional(games: int, sigma: float) -> bool:
    """Whether a rating is still provisional: too few rated matches, or too uncertain.

    >>> is_provisional(0, SIGMA), is_provisional(PROVISIONAL_GAMES, 7.0), is_provisional(50, 8.0)
    (True, False, True)
    """
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


# -- a match's result ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a rated match left one seat: its account, its place (1: first; equal places
    tie) and whether the bot played the seat at the end."""

    seat: int
    account: str
    place: int
    handed_over: bool


def places(keys: Sequence[tuple[int, int]]) -> list[int]:
    """Each key's place, the smallest key first; equal keys share a place, and the next
    place counts them all.

    >>> places([(0, -120), (0, -90), (0, -120), (1, -7)])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def standings(table: LiveTable) -> list[Standing] | None:
    """The standing of every seat of the finished rated match ``table``, or None where it is
    not rated: not a rated table, not over, no deal finished, or a seat without an account.

    The seats its people still play are placed by their chips (the most first, R8); below
    them, the seats the bot plays at the end, the one handed over last first.
    """
    match = table.match
    if not table.config.rated or table.status != "closed" or match is None or not match.results:
        return None
    accounts = [seat.account for seat in table.seats]
    handed: dict[int, int] = {}  # seat -> the version at which the bot took it over for good
    for event in table.events:
        if event.seat is None:
            continue
        if event.type == "autoplay":
            handed[event.seat] = event.version
        elif event.type == "returned":
            handed.pop(event.seat, None)
    keys = [
        (1, -handed.get(seat, 0)) if seat in table.autoplay else (0, -balance)
        for seat, balance in enumerate(match.balances)
    ]
    result = []
    for seat, (account, place) in enumerate(zip(accounts, places(keys), strict=True)):
        if account is None:
            return None
        result.append(Standing(seat, account, place, seat in table.autoplay))
    return result


def rate(before: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """The (mu, sigma) of each seat after a match, from its (mu, sigma) before and its place
    (openskill Plackett-Luce, one player a team; equal places tie).

    >>> after = rate([(MU, SIGMA)] * 3, [1, 2, 3])
    >>> after[0][0] > MU > after[2][0], all(sigma < SIGMA for _, sigma in after)
    (True, True)
    """
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


# -- the database ---------------------------------------------------------------------------------


class RatingStore:
    """The ratings of one database (synchronous, short calls; run them in worker threads)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def apply(self, table_id: str, result: Sequence[Standing] | None, now: float) -> bool:
        """Rate the match of ``table_id`` (None: it ends unrated) unless it was: whether this
        call did. All of it in one transaction, or nothing."""
        for attempt in range(1, TRIES + 1):
            try:
                with self.engine.begin() as connection:
                    self._apply(connection, table_id, result, now)
                return True
            except IntegrityError:
                if self.is_rated(table_id):
                    return False  # rated already, here or by another process
                if attempt == TRIES:
                    raise
            except OperationalError:  # a deadlock or a busy database: again, from the start
                if attempt == TRIES:
                    raise
        return False  # pragma: no cover - the last try returns or raises

    @staticmethod
    def _apply(connection: Connection, table_id: str, result: Sequence[Standing] | None, now: float) -> None:
        # The match's row first: a second attempt stops here (and, on PostgreSQL, waits here
        # for the first to end), before reading any rating.
        connection.execute(
            insert(rated_matches_table).values(table_id=table_id, rated=result is not None, at=now)
        )
        if not result:
            return
        column = ratings_table.c
        ids = sorted(standing.account for standing in result)  # rows locked in one order
        rows = {
            row.account_id: row
            for row in connection.execute(
                select(ratings_table)
                .where(column.account_id.in_(ids))
                .order_by(column.account_id)
                .with_for_update()
            )
        }
        before = [
            (rows[s.account].mu, rows[s.account].sigma) if s.account in rows else (MU, SIGMA) for s in result
        ]
        after = rate(before, [standing.place for standing in result])
        for standing, (mu_before, sigma_before), (mu, sigma) in zip(result, before, after, strict=True):
            if standing.account in rows:
                connection.execute(
                    update(ratings_table)
                    .where(column.account_id == standing.account)
                    .values(mu=mu, sigma=sigma, games=column.games + 1, updated=now)
                )
            else:
                connection.execute(
                    insert(ratings_table).values(
                        account_id=standing.account, mu=mu, sigma=sigma, games=1, updated=now
                    )
                )
            connection.execute(
                insert(rating_history_table).values(
                    table_id=table_id,
                    account_id=standing.account,
                    seat=standing.seat,
                    place=standing.place,
                    seats=len(result),
                    mu_before=mu_before,
                    sigma_before=sigma_before,
                    mu_after=mu,
                    sigma_after=sigma,
                    at=now,
                )
            )

    def is_rated(self, table_id: str) -> bool:
        """Whether the match of ``table_id`` was rated (or found unratable) already."""
        query = select(rated_matches_table.c.table_id).where(rated_matches_table.c.table_id == table_id)
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    def pending(self) -> list[str]:
        """The rated tables that are closed but not rated: their match ended while no
        process could rate it (stopped between the end and the rating)."""
        tables = tables_table.c
        done = exists().where(rated_matches_table.c.table_id == tables.id)
        query = (
            select(tables.id)
            .where(tables.status == "closed", tables.config["rated"].as_boolean().is_(True), ~done)
            .order_by(tables.updated)
        )
        with self.engine.connect() as connection:
            return [row.id for row in connection.execute(query)]

    def find(self, keys: tuple[str, str]) -> tuple[str, str] | None:
        """The id and name of the account of a name: the same but for case, else its lookalike."""
        column = accounts_table.c
        with self.engine.connect() as connection:
            for key, value in ((column.name_fold, keys[0]), (column.name_key, keys[1])):
                row = connection.execute(select(column.id, column.name).where(key == value)).first()
                if row is not None:
                    return row.id, row.name
        return None

    def profile(self, account_id: str, recent: int) -> tuple[Any, list[Any]]:
        """An account's rating row (None: never rated) and its latest rated results, with each
        table's configuration and whether it is private."""
        history = rating_history_table.c
        query = (
            select(rating_history_table, tables_table.c.private, tables_table.c.config)
            .join(tables_table, tables_table.c.id == history.table_id)
            .where(history.account_id == account_id)
            .order_by(history.at.desc(), history.table_id)
            .limit(recent)
        )
        with self.engine.connect() as connection:
            row = connection.execute(
                select(ratings_table).where(ratings_table.c.account_id == account_id)
            ).first()
            return row, list(connection.execute(query))

    def leaderboard(self, offset: int, limit: int, *, provisional: bool) -> tuple[list[Any], int]:
        """One page of the rated accounts, the established ones first, each part by rating
        (``provisional`` False: those only), and how many there are."""
        column = ratings_table.c
        unsure = case(
            (or_(column.games < PROVISIONAL_GAMES, column.sigma > PROVISIONAL_SIGMA), 1), else_=0
        ).label("unsure")
        where = [column.games > 0]
        if not provisional:
            where.append(column.games >= PROVISIONAL_GAMES)
            where.append(column.sigma <= PROVISIONAL_SIGMA)
        query = (
            select(accounts_table.c.name, column.mu, column.sigma, column.games, unsure)
            .join(accounts_table, accounts_table.c.id == column.account_id)
            .where(*where)
            .order_by(unsure, column.mu.desc(), column.games.desc(), accounts_table.c.name_fold)
            .offset(offset)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = list(connection.execute(query))
            total = connection.execute(select(func.count()).select_from(ratings_table).where(*where)).scalar()
        return rows, int(total or 0)


# -- what the routes ask (paiute.server.ratings_api) --------------------------------------------


class Ratings:
    """The ratings' answers for the routes: the database calls in worker threads."""

    def __init__(self, store: Store) -> None:
        self.store = RatingStore(store)
        self.database = store  # whom a failed call is reported to (paiute.server.dbcalls.report)

    async def _db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await asyncio.to_thread(functools.partial(function, *args, **kwargs))
        except SQLAlchemyError as error:
            raise report(self.database, error, write=False) from None

    async def profile(self, name: str) -> dict[str, Any]:
        """A player's public profile: name, rating, and its latest rated results (a private
        table's without its id or name). Every result is of a finished match."""
        try:
            keys: tuple[str, str] | None = name_keys(name)
        except ServiceError:
            keys = None  # no account can have this name
        found = None if keys is None else await self._db(self.store.find, keys)
        if found is None:
            raise ServiceError("not_found", N_("there is no player {name!r}"), name=name)
        account_id, shown = found
        row, history = await self._db(self.store.profile, account_id, RECENT)
        mu, sigma, games = (MU, SIGMA, 0) if row is None else (row.mu, row.sigma, row.games)
        return {**_rating(shown, mu, sigma, games), "recent": [_result(item) for item in history]}

    async def leaderboard(self, page: int, per_page: int, *, provisional: bool) -> dict[str, Any]:
        first = (page - 1) * per_page
        rows, total = await self._db(self.store.leaderboard, first, per_page, provisional=provisional)
        players = [
            {"rank": first + index, **_rating(row.name, row.mu, row.sigma, row.games)}
            for index, row in enumerate(rows, start=1)
        ]
        return {"players": players, "total": total, "page": page, "per_page": per_page}


def _rating(name: str, mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {
        "name": name,
        "rating": display(mu),
        "deviation": deviation(sigma),
        "provisional": is_provisional(games, sigma),
        "games": games,
        "mu": mu,
        "sigma": sigma,
    }


def _result(row: Any) -> dict[str, Any]:
    """One rated result of a profile; a private table's id and name are not shown."""
    before, after = display(row.mu_before), display(row.mu_after)
    return {
        "table": None if row.private else row.table_id,
        "table_name": None if row.private else row.config.get("name"),
        "place": row.place,
        "of": row.seats,
        "rating_before": before,
        "rating": after,
        "change": after - before,
        "at": row.at,
    }
