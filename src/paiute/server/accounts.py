"""Accounts: an optional name and password that gathers the seats a person takes, on any device.

Play needs no account: a seat is held by its token (:mod:`paiute.server.api`), as always. An
account adds three things (routes in :mod:`paiute.server.account_api`):

* **identity**: a name that no other account's could be mistaken for, as at a table
  (:func:`~paiute.server.names.clashes`: "Ana", "ANA" and "Ana" with a Cyrillic А are one
  name; so are "Ian" and "lan"): two keys of it are each unique (:func:`name_keys`), and
  a password of at least
  :data:`PASSWORD_MIN` characters, stored only as its Argon2id hash (``argon2-cffi``), never
  logged or sent back;
* **sessions**: a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
  HTTPS), stored only as its SHA-256, until it expires, its device logs out, or the account
  logs out everywhere; a session slides, renewed while it is used, up to a lifetime
  (:mod:`paiute.server.sessions`: how long, and its cookie);
* **seats gathered**: a seat taken while logged in, or claimed by presenting its token once,
  is linked to the account (table, seat, and the hash of the token it was taken with). A link
  counts while that token still holds the seat (:func:`holds`): a seat left before the start
  and taken by someone else is no longer the account's. From another device the account may
  ask for a fresh seat link of its own seat
  (:meth:`~paiute.server.service.Service.fresh_seat_link`).

Log-ins are limited per address, in the process's memory, and per name, in the database every
process shares (:class:`~paiute.server.limits.Limits`, :mod:`paiute.server.logins`); an
unknown name and a wrong password get the same answer, after the same work.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.requests import HTTPConnection

from paiute.errors import N_
from paiute.server.db import Store, metadata, tables_table
from paiute.server.dbcalls import report
from paiute.server.errors import ServiceError
from paiute.server.limits import Limiter, Limits
from paiute.server.logins import LoginAttempts
from paiute.server.names import clean_name, skeleton
from paiute.server.runtime import hash_token, new_token
from paiute.server.sessions import (
    SESSION_COOKIE,
    SESSION_IDLE_SECONDS,
    SESSION_LIFETIME_SECONDS,
    SESSION_RENEW_SECONDS,
    SessionTimes,
    mark_renewed,
)
from paiute.server.table import LiveTable

__all__ = [
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "Account",
    "AccountStore",
    "Accounts",
    "SeatLink",
    "holds",
    "link_new_seat",
    "name_keys",
]

log = logging.getLogger("paiute.server")

PASSWORD_MIN = 8
PASSWORD_MAX = 256
#: Passwords hashed at once per process (each takes 64 MiB and a core for a moment).
HASHING_AT_ONCE = 2

accounts_table = Table(
    "paiute_accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),  # as shown
    Column("name_fold", String(256), nullable=False),  # name_keys(name)[0]: unique
    Column("name_key", String(256), nullable=False),  # name_keys(name)[1]: unique
    Column("password", String(256), nullable=False),  # the Argon2id hash, never the password
    Column("created", Float, nullable=False),
    Index("ix_paiute_accounts_name_fold", "name_fold", unique=True),
    Index("ix_paiute_accounts_name_key", "name_key", unique=True),
)

sessions_table = Table(
    "paiute_sessions",
    metadata,
    Column("token", String(64), primary_key=True),  # SHA-256 of the cookie's token
    Column("account_id", String(32), ForeignKey("paiute_accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_paiute_sessions_account_id", "account_id"),
)

account_seats_table = Table(
    "paiute_account_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("paiute_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("paiute_accounts.id"), primary_key=True),
    Column("token", String(64), nullable=False),  # SHA-256 of the token the seat was taken with
    Column("linked", Float, nullable=False),
    Index("ix_paiute_account_seats_account_id", "account_id"),
)

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the API shows it: its id and its name."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True, slots=True)
class SeatLink:
    """A seat linked to an account: the table, the seat and the hash of the token it was taken with."""

    table_id: str
    seat: int
    token: str


def name_keys(name: str) -> tuple[str, str]:
    """What two account names must not share, either of them: the name cleaned (as a table
    shows it) and case folded, and its skeleton (each lookalike mapped to one representative,
    :func:`~paiute.server.names.skeleton`). Two keys, as :func:`~paiute.server.names.clashes`
    has two tests: "ANNELIESE" and "Anneliese" differ in skeleton (an I looks like an l, an i
    does not), "Ian" and "lan" in case folding.

    >>> name_keys("ANNELIESE")[0] == name_keys("Anneliese")[0]
    True
    >>> name_keys("Ian")[1] == name_keys("lan")[1] == name_keys("\\u0406an")[1]
    True
    """
    shown = clean_name(name)
    return shown.casefold(), skeleton(shown)


def holds(table: LiveTable, link: SeatLink) -> bool:
    """Whether the link's token still holds its seat (a seat left before the start does not)."""
    return table.seat_of(link.token) == link.seat


class AccountStore:
    """The accounts, sessions and seat links of one database (synchronous, short calls)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, name: str, keys: tuple[str, str], password_hash: str, now: float) -> Account | None:
        """A new account, or None when the name is taken (either of its keys)."""
        account = Account(secrets.token_urlsafe(12), name)
        row = {
            "id": account.id,
            "name": name,
            "name_fold": keys[0],
            "name_key": keys[1],
            "password": password_hash,
            "created": now,
        }
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(accounts_table).values(**row))
        except IntegrityError:
            return None
        return account

    def find(self, keys: tuple[str, str]) -> tuple[Account, str] | None:
        """The account of a name and its password hash: the one whose name is the same but
        for case, else the one it looks like."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(accounts_table).where(accounts_table.c.name_fold == keys[0])
            ).first()
            if row is None:
                row = connection.execute(
                    select(accounts_table).where(accounts_table.c.name_key == keys[1])
                ).first()
        return None if row is None else (Account(row.id, row.name), row.password)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                accounts_table.update()
                .where(accounts_table.c.id == account_id)
                .values(password=password_hash)
            )

    def open_session(self, account_id: str, token_hash: str, now: float) -> None:
        """A new session; the account's ended ones are swept on the way."""
        with self.engine.begin() as connection:
            connection.execute(
                delete(sessions_table).where(
                    sessions_table.c.account_id == account_id,
                    (sessions_table.c.expires <= now)
                    | (sessions_table.c.created <= now - SESSION_LIFETIME_SECONDS),
                )
            )
            connection.execute(
                insert(sessions_table).values(
                    token=token_hash,
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_IDLE_SECONDS,
                )
            )

    def session(self, token_hash: str, now: float) -> tuple[Account, SessionTimes] | None:
        """The account of a session that has neither expired nor reached its absolute end
        (the lifetime is checked here too, should it be shortened), and the session's times."""
        query = (
            select(
                accounts_table.c.id,
                accounts_table.c.name,
                sessions_table.c.created,
                sessions_table.c.expires,
            )
            .join(sessions_table, sessions_table.c.account_id == accounts_table.c.id)
            .where(
                sessions_table.c.token == token_hash,
                sessions_table.c.expires > now,
                sessions_table.c.created > now - SESSION_LIFETIME_SECONDS,
            )
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        return Account(row.id, row.name), SessionTimes(row.created, row.expires)

    def renew(self, token_hash: str, times: SessionTimes, now: float) -> float | None:
        """Push a session due for renewal to its new expiry (:meth:`SessionTimes.renewal`);
        the new expiry, or None when it was not due or another request or process renewed
        (or ended) it first: the UPDATE holds only while the session is still due."""
        pushed = times.renewal(now)
        if pushed is None:
            return None
        with self.engine.begin() as connection:
            result = connection.execute(
                sessions_table.update()
                .where(
                    sessions_table.c.token == token_hash,
                    sessions_table.c.expires > now,
                    sessions_table.c.expires <= now + SESSION_IDLE_SECONDS - SESSION_RENEW_SECONDS,
                    sessions_table.c.expires < pushed,
                )
                .values(expires=pushed)
            )
        return pushed if result.rowcount == 1 else None

    def close_session(self, token_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(sessions_table).where(sessions_table.c.token == token_hash))

    def close_all(self, account_id: str) -> int:
        """End every session of the account; how many there were."""
        with self.engine.begin() as connection:
            result = connection.execute(
                delete(sessions_table).where(sessions_table.c.account_id == account_id)
            )
        return int(result.rowcount)

    def link(self, account_id: str, link: SeatLink, now: float) -> None:
        """Link a seat to the account (again: with the token it is held by now)."""
        key = (
            (account_seats_table.c.table_id == link.table_id)
            & (account_seats_table.c.seat == link.seat)
            & (account_seats_table.c.account_id == account_id)
        )
        with self.engine.begin() as connection:
            connection.execute(delete(account_seats_table).where(key))
            connection.execute(
                insert(account_seats_table).values(
                    table_id=link.table_id,
                    seat=link.seat,
                    account_id=account_id,
                    token=link.token,
                    linked=now,
                )
            )

    def unlink(self, account_id: str, links: list[SeatLink]) -> None:
        with self.engine.begin() as connection:
            for link in links:
                connection.execute(
                    delete(account_seats_table).where(
                        account_seats_table.c.table_id == link.table_id,
                        account_seats_table.c.seat == link.seat,
                        account_seats_table.c.account_id == account_id,
                    )
                )

    def links(self, account_id: str, offset: int, limit: int) -> tuple[list[SeatLink], int]:
        """One page of the account's seats, the newest table first, and how many there are."""
        mine = account_seats_table.c.account_id == account_id
        query = (
            select(account_seats_table.c.table_id, account_seats_table.c.seat, account_seats_table.c.token)
            .join(tables_table, tables_table.c.id == account_seats_table.c.table_id)
            .where(mine)
            .order_by(
                tables_table.c.created.desc(), account_seats_table.c.table_id, account_seats_table.c.seat
            )
            .offset(offset)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = [SeatLink(row.table_id, row.seat, row.token) for row in connection.execute(query)]
            total = connection.execute(
                select(func.count()).select_from(account_seats_table).where(mine)
            ).scalar()
        return rows, int(total or 0)

    def links_at(self, account_id: str, table_id: str) -> list[SeatLink]:
        """The account's seats at one table (usually one)."""
        query = (
            select(account_seats_table.c.seat, account_seats_table.c.token)
            .where(account_seats_table.c.account_id == account_id, account_seats_table.c.table_id == table_id)
            .order_by(account_seats_table.c.seat)
        )
        with self.engine.connect() as connection:
            return [SeatLink(table_id, row.seat, row.token) for row in connection.execute(query)]

    def of_table(self, table_id: str) -> list[tuple[SeatLink, Account]]:
        """Every seat of a table linked to an account, with the account."""
        query = (
            select(
                account_seats_table.c.seat,
                account_seats_table.c.token,
                accounts_table.c.id,
                accounts_table.c.name,
            )
            .join(accounts_table, accounts_table.c.id == account_seats_table.c.account_id)
            .where(account_seats_table.c.table_id == table_id)
        )
        with self.engine.connect() as connection:
            return [
                (SeatLink(table_id, row.seat, row.token), Account(row.id, row.name))
                for row in connection.execute(query)
            ]


class Accounts:
    """The accounts of one server process: passwords hashed off the event loop, the log-in
    limits, sessions read from their cookie, and the database calls in worker threads."""

    def __init__(self, store: Store, limits: Limits, clock: Callable[[], float]) -> None:
        self.store = AccountStore(store)
        self.database = store  # whom a failed call is reported to (paiute.server.dbcalls.report)
        self.clock = clock
        self.hasher = PasswordHasher()
        per_address, per_name = limits.logins_per_minute, limits.logins_per_name
        self.by_address = Limiter(per_address / 60.0, per_address, exact=True)
        self.by_name = LoginAttempts(store, per_name)  # shared by every process: in the database
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._decoy: str | None = None  # a hash checked for unknown names: the same work

    async def _db(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await asyncio.to_thread(functools.partial(function, *args, **kwargs))
        except SQLAlchemyError as error:
            raise report(self.database, error, write=True) from None

    async def _hash(self, function: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        async with self._hashing:
            return await asyncio.to_thread(functools.partial(function, *args, **kwargs))

    # -- identity ---------------------------------------------------------------------------

    async def sign_up(self, name: str, password: str, address: str) -> Account:
        """A new account (its name cleaned as a table shows it); refused when the name, or
        one that looks like it, is taken."""
        shown = clean_name(name)
        check_password(password)
        if not self.by_address.take(address):
            raise _too_many()
        hashed = await self._hash(self.hasher.hash, password)
        account = await self._db(self.store.create, shown, name_keys(shown), hashed, self.clock())
        if account is None:
            raise ServiceError(
                "conflict", N_("the name {name!r} is taken (or one that looks like it)"), name=shown
            )
        return account

    async def log_in(self, name: str, password: str, address: str) -> Account:
        """The account of a name and password; one answer for an unknown name and a wrong
        password, after the same work (a hash is checked either way). The tries per name are
        counted per account, whichever of its lookalikes is typed."""
        if not self.by_address.take(address):
            raise _too_many()
        try:
            keys: tuple[str, str] | None = name_keys(name)
        except ServiceError:
            keys = None  # no account can have this name
        found = None if keys is None else await self._db(self.store.find, keys)
        tried = found[0].id if found is not None else keys[0] if keys is not None else name[:64]
        attempt = await self._db(self.by_name.begin, tried, self.clock())
        if attempt is None:
            raise _too_many()
        stored = found[1] if found is not None else await self._decoy_hash()
        if not await self._hash(_verify, self.hasher, stored, password) or found is None:
            raise ServiceError("login_failed", N_("wrong name or password"))
        await self._db(self.by_name.forget, attempt)  # only wrong passwords count
        account = found[0]
        if self.hasher.check_needs_rehash(stored):  # the hashing parameters were raised since
            rehashed = await self._hash(self.hasher.hash, password)
            await self._db(self.store.set_password, account.id, rehashed)
        return account

    async def _decoy_hash(self) -> str:
        if self._decoy is None:
            self._decoy = await self._hash(self.hasher.hash, secrets.token_urlsafe(16))
        return self._decoy

    # -- sessions ---------------------------------------------------------------------------

    async def open_session(self, account: Account) -> str:
        """A new session of ``account``: its token (for the cookie; only its hash is stored)."""
        token = new_token()
        await self._db(self.store.open_session, account.id, hash_token(token), self.clock())
        return token

    async def current(self, request: HTTPConnection) -> Account | None:
        """The account whose session cookie came with the request (None: no session). A
        session due for renewal is renewed, and the response carries its cookie again
        (:func:`~paiute.server.sessions.mark_renewed`)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 128:
            return None
        digest, now = hash_token(token), self.clock()
        found = await self._db(self.store.session, digest, now)
        if found is None:
            return None
        account, times = found
        if times.renewal(now) is not None:
            try:
                pushed = await self._db(self.store.renew, digest, times, now)
            except ServiceError:  # reported; the session is valid all the same (renewed later)
                pushed = None
            if pushed is not None:
                mark_renewed(request, token, int(pushed - now))
        return account

    async def required(self, request: HTTPConnection) -> Account:
        """:meth:`current`, refusing a request without a session (``bad_token``)."""
        account = await self.current(request)
        if account is None:
            raise ServiceError("bad_token", N_("log in first: this needs your account"))
        return account

    async def log_out(self, request: HTTPConnection) -> None:
        """End the session of the request's cookie (this device)."""
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await self._db(self.store.close_session, hash_token(token))

    async def log_out_everywhere(self, account: Account) -> int:
        return await self._db(self.store.close_all, account.id)

    # -- seats ------------------------------------------------------------------------------

    async def link(self, account: Account, link: SeatLink) -> None:
        await self._db(self.store.link, account.id, link, self.clock())

    async def unlink(self, account: Account, links: list[SeatLink]) -> None:
        if links:
            await self._db(self.store.unlink, account.id, links)

    async def links(self, account: Account, offset: int, limit: int) -> tuple[list[SeatLink], int]:
        return await self._db(self.store.links, account.id, offset, limit)

    async def links_at(self, account: Account, table_id: str) -> list[SeatLink]:
        return await self._db(self.store.links_at, account.id, table_id)

    async def accounts_of_table(self, table: LiveTable) -> dict[int, Account]:
        """The account of each seat of ``table`` that one holds (its link's token still
        holds the seat)."""
        linked = await self._db(self.store.of_table, table.id)
        return {link.seat: account for link, account in linked if holds(table, link)}


def check_password(password: str) -> None:
    """Refuse a password shorter than :data:`PASSWORD_MIN` or longer than :data:`PASSWORD_MAX`
    (the message never quotes it)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ServiceError(
            "bad_request",
            N_("a password has {low} to {high} characters"),
            low=PASSWORD_MIN,
            high=PASSWORD_MAX,
        )


def _verify(hasher: PasswordHasher, stored: str, password: str) -> bool:
    try:
        return bool(hasher.verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


def _too_many() -> ServiceError:
    return ServiceError("rate_limited", N_("too many log-in attempts: wait a minute"))


async def link_new_seat(request: HTTPConnection, table_id: str, seat: int | None, token: str) -> None:
    """Link a seat just taken (create, play now, join, rematch) to the request's account, if
    it comes with a session. A failure to link is logged: the seat is taken all the same."""
    accounts: Accounts = request.app.state.accounts
    if seat is None or SESSION_COOKIE not in request.cookies:
        return
    try:
        account = await accounts.current(request)
        if account is not None:
            await accounts.link(account, SeatLink(table_id, seat, hash_token(token)))
    except ServiceError as error:
        log.warning("table %s: seat %d not linked to its account: %s", table_id, seat, error.message)
