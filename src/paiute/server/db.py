"""The database: every table's configuration and its events, and nothing else.

A table's state is the replay of its events (:mod:`paiute.server.table`), so the schema is
two tables: ``paiute_tables`` (configuration, and the version and status kept beside it for
listing and locking) and ``paiute_events`` (one row per version). Seat tokens are stored only
as SHA-256 hashes, inside the ``joined`` events' server-only ``secret`` column.

SQLite (the default, one file, no setup) runs in WAL mode with ``synchronous=NORMAL``: a
committed transaction is in the write-ahead log before the call returns, so it survives the
server process being killed at any moment (only a crash of the whole machine could lose the
last transactions). PostgreSQL lets several server processes share the tables: an action
locks its table's row (``SELECT ... FOR UPDATE``) and each commit sends a ``NOTIFY`` so the
other processes fan the event out (:mod:`paiute.server.pubsub`).

The methods here are synchronous and short; the service calls them in a worker thread
(:mod:`paiute.server.dbcalls`). Each is bounded in time (:class:`DatabaseTimeouts`): on
PostgreSQL by the connection's ``connect_timeout``, ``statement_timeout`` and
``lock_timeout`` and TCP keepalives (a server that vanished is noticed), on SQLite by its busy
timeout (SQLite waits only for the file's lock, and for the disk).
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, InvalidatePoolError, OperationalError, SQLAlchemyError

from paiute.errors import PaiuteError
from paiute.server.availability import Availability, is_lock_timeout, is_outage
from paiute.server.table import TableEvent

__all__ = [
    "JSON_COLUMN",
    "NOTIFY_CHANNEL",
    "POOL_OVERFLOW",
    "POOL_SIZE",
    "Change",
    "DatabaseError",
    "DatabaseTimeouts",
    "Locked",
    "Store",
    "StoredTable",
    "events_table",
    "metadata",
    "normalize_url",
    "tables_table",
]

#: The PostgreSQL channel on which every commit announces ``TABLE_ID:VERSION``.
NOTIFY_CHANNEL = "paiute_events"

#: The column type of every JSON value stored: JSONB on PostgreSQL, JSON on other databases.
JSON_COLUMN = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData()

tables_table = Table(
    "paiute_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("config", JSON_COLUMN, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", Float, nullable=False),
    # The last event's time, or later: when a person was last known at the table (the
    # abandoned-table sweep, paiute.server.abandoned, writes that and reads it back).
    Column("updated", Float, nullable=False),
    Index("ix_paiute_tables_status", "status"),
)

events_table = Table(
    "paiute_events",
    metadata,
    Column("table_id", String(32), ForeignKey("paiute_tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("type", String(16), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("data", JSON_COLUMN, nullable=False),
    Column("secret", JSON_COLUMN, nullable=False),
    Column("created", Float, nullable=False),
)

# The statements of a table's change, built once: each call only binds its values.
_LOCK_ROW = select(tables_table.c.version).where(tables_table.c.id == bindparam("b_id")).with_for_update()
# With SET LOCAL lock_timeout in the locking statement itself, so that the lock and its wait
# take one round trip: the condition is evaluated on the row found, before the row is locked.
_LOCK_ROW_WAITING = (
    select(tables_table.c.version)
    .where(
        tables_table.c.id == bindparam("b_id"),
        func.set_config("lock_timeout", bindparam("b_lock_timeout"), True).is_not(None),
    )
    .with_for_update()
)
# The version moves on only from the one planned for (another process may have got there first).
_MOVE_ON = (
    update(tables_table)
    .where(tables_table.c.id == bindparam("b_id"), tables_table.c.version == bindparam("b_before"))
    .values(version=bindparam("b_version"), status=bindparam("b_status"), updated=bindparam("b_updated"))
)
# And a NOTIFY with the commit (PostgreSQL): RETURNING runs once per row updated, so a
# version that did not move on sends none.
_MOVE_ON_NOTIFYING = _MOVE_ON.returning(func.pg_notify(NOTIFY_CHANNEL, bindparam("b_payload")))
_ADD_EVENTS = insert(events_table)
_EVENTS_AFTER = (
    select(events_table)
    .where(events_table.c.table_id == bindparam("b_id"), events_table.c.version > bindparam("b_version"))
    .order_by(events_table.c.version)
)

#: One table's change to store: its id, its new events and its new status.
Change = tuple[str, list[TableEvent], str]


class DatabaseError(PaiuteError):
    """The database cannot be reached or used (one clear line, never a traceback)."""


@dataclass(frozen=True, slots=True)
class DatabaseTimeouts:
    """How long a database call may take, in seconds (``paiute serve --db-*-timeout``)."""

    #: Opening a connection (PostgreSQL's ``connect_timeout``; a pool with none free waits as long).
    connect: float = 5.0
    #: One statement (PostgreSQL's ``statement_timeout``).
    statement: float = 5.0
    #: Waiting for a lock another transaction holds (PostgreSQL's ``lock_timeout``, SQLite's
    #: busy timeout); a table's change waits this long in all for its row
    #: (:meth:`paiute.server.dbcalls.DatabaseCalls.lock`).
    lock: float = 3.0


#: PostgreSQL's pool: the connections it may open (as calls need them), and how many more may
#: be opened at busy times and closed once given back (none: opening a connection costs the
#: database a new process, which a pool that kept fewer than a busy server uses would pay
#: again and again).
POOL_SIZE = 30
POOL_OVERFLOW = 0

#: Seconds a pooled PostgreSQL connection may have been unused and still be handed out
#: unchecked. One used this recently is taken to be alive (were it dead, its call fails and is
#: refused like any outage's, and the pool replaces every connection opened before); one idle
#: longer is checked first (``SELECT 1``) and replaced if dead (the database restarted, a
#: firewall dropped it), so that a quiet server's first calls never meet a dead connection.
PING_IDLE = 1.0

#: The key, in a pooled connection's ``info``, of when it was last given back to the pool.
_RETURNED = "paiute_returned"

#: TCP keepalives of PostgreSQL connections: a server that vanished without closing them
#: (a cut network) is noticed within about idle + interval * count seconds.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: its configuration, creation time and events in order."""

    id: str
    config: dict[str, Any]
    created: float
    events: list[TableEvent]


@dataclass(slots=True)
class Locked:
    """An open transaction holding a table's row lock, and the events it had missed."""

    connection: Connection
    version: int
    missed: list[TableEvent]


def normalize_url(url: str) -> URL:
    """Check a database URL and pick the driver: ``sqlite:///FILE`` or ``postgresql://...``."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(
            f"bad database URL {url!r}: expected sqlite:///FILE or postgresql://USER@HOST/NAME"
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite")
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg")
    raise DatabaseError(f"unsupported database {backend!r} in {url!r}: use sqlite or postgresql")


def libpq_url(url: URL) -> str:
    """The URL as libpq (psycopg's LISTEN connection) reads it."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _row_event(row: Any) -> TableEvent:
    return TableEvent(row.version, row.type, row.seat, dict(row.data), dict(row.secret), row.created)


def _event_row(table_id: str, item: TableEvent) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "version": item.version,
        "type": item.type,
        "seat": item.seat,
        "data": item.data,
        "secret": item.secret,
        "created": item.created,
    }


def _move_on_values(table_id: str, events: list[TableEvent], status: str) -> dict[str, Any]:
    """The values of :data:`_MOVE_ON` for a table's new events and status."""
    return {
        "b_id": table_id,
        "b_before": events[0].version - 1,
        "b_version": events[-1].version,
        "b_status": status,
        "b_updated": events[-1].created,
    }


class Store:
    """The tables and events of one database (SQLite or PostgreSQL), and whether it answers
    (:attr:`availability`, which every caller of it reports to)."""

    def __init__(self, url: str, timeouts: DatabaseTimeouts | None = None) -> None:
        self.url = normalize_url(url)
        self.shared = self.url.get_backend_name() == "postgresql"
        self.timeouts = timeouts = timeouts or DatabaseTimeouts()
        self.availability = Availability()
        try:
            if self.shared:
                self.engine: Engine = create_engine(
                    self.url,
                    pool_size=POOL_SIZE,
                    max_overflow=POOL_OVERFLOW,
                    # The connection given back last is taken first: at ordinary loads a few
                    # stay busy (and are never pinged, PING_IDLE) while the others idle.
                    pool_use_lifo=True,
                    pool_timeout=timeouts.connect,
                    connect_args=_postgres_options(self.url, timeouts),
                )
                _ping_when_idle(self.engine)
            else:
                self.engine = create_engine(
                    self.url,
                    connect_args={"check_same_thread": False, "timeout": timeouts.lock},
                    pool_size=8,
                    pool_timeout=timeouts.connect,
                )
                event.listen(self.engine, "connect", functools.partial(_sqlite_pragmas, timeouts.lock))
        except (SQLAlchemyError, ImportError) as error:
            raise DatabaseError(f"cannot use the database {self.display_url}: {error}") from None

    @property
    def display_url(self) -> str:
        """The URL without its password, for messages."""
        return self.url.render_as_string(hide_password=True)

    @property
    def listen_url(self) -> str:
        return libpq_url(self.url)

    @property
    def listen_options(self) -> dict[str, Any]:
        """The LISTEN connection's connection parameters: its timeouts (PostgreSQL)."""
        options = _postgres_options(self.url, self.timeouts)
        options.pop("options", None)  # no statement runs long on it; it waits for NOTIFYs
        return options

    def ping(self, *, write: bool = False) -> None:
        """Check that the database answers (``SELECT 1``); with ``write``, that it can also
        store (SQLite: a transaction that rewrites the file's header, which needs the disk
        and the write lock; PostgreSQL stores nothing for it: its server stops when its disk
        is full)."""
        with self.engine.connect() as connection:
            if write and not self.shared:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    version = connection.exec_driver_sql("PRAGMA user_version").scalar_one()
                    connection.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
                    connection.exec_driver_sql("COMMIT")
                except BaseException:
                    with contextlib.suppress(SQLAlchemyError):  # SQLite may have rolled back itself
                        connection.exec_driver_sql("ROLLBACK")
                    raise
            else:
                connection.execute(text("SELECT 1"))

    def dispose(self) -> None:
        self.engine.dispose()

    # -- reading ------------------------------------------------------------------------

    def active_ids(self) -> list[str]:
        """Every table not closed, oldest first (recovered on start)."""
        query = select(tables_table.c.id).where(tables_table.c.status != "closed")
        with self.engine.connect() as connection:
            return [row.id for row in connection.execute(query.order_by(tables_table.c.created))]

    def public_ids(self, limit: int) -> list[str]:
        """The public tables not closed, newest first (the lobby)."""
        query = (
            select(tables_table.c.id)
            .where(tables_table.c.status != "closed", tables_table.c.private.is_(False))
            .order_by(tables_table.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [row.id for row in connection.execute(query)]

    def idle(self, before: float, after: tuple[float, str] | None, limit: int) -> list[tuple[float, str]]:
        """Up to ``limit`` tables not closed that nobody has been at since ``before``: their
        ``(updated, id)``, in that order, from just past ``after`` (where the last call ended)."""
        columns = tables_table.c
        query = select(columns.updated, columns.id).where(
            columns.status != "closed", columns.updated < before
        )
        if after is not None:
            time, table_id = after
            query = query.where(
                or_(columns.updated > time, and_(columns.updated == time, columns.id > table_id))
            )
        query = query.order_by(columns.updated, columns.id).limit(limit)
        with self.engine.connect() as connection:
            return [(row.updated, row.id) for row in connection.execute(query)]

    def load(self, table_id: str) -> StoredTable | None:
        """A table and all its events, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(select(tables_table).where(tables_table.c.id == table_id)).first()
            if row is None:
                return None
            events = self._events_after(connection, table_id, 0)
        return StoredTable(row.id, dict(row.config), row.created, events)

    def events_after(self, table_id: str, version: int) -> list[TableEvent]:
        with self.engine.connect() as connection:
            return self._events_after(connection, table_id, version)

    @staticmethod
    def _events_after(connection: Connection, table_id: str, version: int) -> list[TableEvent]:
        rows = connection.execute(_EVENTS_AFTER, {"b_id": table_id, "b_version": version})
        return [_row_event(row) for row in rows]

    # -- writing ------------------------------------------------------------------------

    def create(
        self, table_id: str, config: dict[str, Any], private: bool, created: float, events: list[TableEvent]
    ) -> None:
        """Store a new table and its first events in one transaction."""
        with self.engine.begin() as connection:
            connection.execute(
                insert(tables_table).values(
                    id=table_id,
                    config=config,
                    private=private,
                    status="waiting",
                    version=events[-1].version if events else 0,
                    created=created,
                    updated=created,
                )
            )
            self._insert(connection, table_id, events)

    def lock(self, table_id: str, version: int, *, wait: float | None = None) -> Locked | None:
        """Begin a transaction holding the table's row lock; return the events after ``version``
        that other processes committed (PostgreSQL; the caller catches up before planning).

        ``wait``: give up (None, nothing held) when another transaction holds the row for
        that many seconds, instead of the connection's ``lock_timeout``.
        """
        connection = self.engine.connect()
        try:
            connection.begin()
            try:
                if wait is None:
                    row = connection.execute(_LOCK_ROW, {"b_id": table_id}).first()
                else:
                    milliseconds = str(max(1, round(wait * 1000)))
                    values = {"b_id": table_id, "b_lock_timeout": milliseconds}
                    row = connection.execute(_LOCK_ROW_WAITING, values).first()
            except OperationalError as error:
                if wait is None or not is_lock_timeout(error):
                    raise
                connection.rollback()
                connection.close()
                return None
            if row is None:
                raise DatabaseError(f"table {table_id!r} is not in the database")
            missed = self._events_after(connection, table_id, version) if row.version > version else []
            return Locked(connection, row.version, missed)
        except BaseException:
            connection.close()
            raise

    def append(self, table_id: str, events: list[TableEvent], status: str, locked: Locked | None) -> None:
        """Store ``events`` (the next versions) and the table's new status, and commit.

        Under ``locked`` (PostgreSQL) the open transaction is used and a NOTIFY is sent with
        it; otherwise a new transaction. A version already written (another process got
        there first) raises, and nothing is written.
        """
        if locked is None:
            with self.engine.begin() as connection:
                self._append(connection, table_id, events, status)
            return
        connection = locked.connection
        try:
            self._append(connection, table_id, events, status, notify=f"{table_id}:{events[-1].version}")
            connection.commit()
        finally:
            connection.close()

    def touch(self, seen: dict[str, float]) -> None:
        """Write down that a person was at each table at the time given (``updated`` never
        goes back), in one transaction; rows in id order, so two processes never deadlock."""
        if not seen:
            return
        columns = tables_table.c
        statement = (
            update(tables_table)
            .where(columns.id == bindparam("b_id"), columns.updated < bindparam("b_seen"))
            .values(updated=bindparam("b_seen"))
        )
        with self.engine.begin() as connection:
            connection.execute(statement, [{"b_id": key, "b_seen": seen[key]} for key in sorted(seen)])

    def notify(self, payload: str) -> None:
        """Send ``payload`` to every process LISTENing (PostgreSQL): a presence message."""
        with self.engine.begin() as connection:
            connection.execute(
                text("SELECT pg_notify(:channel, :payload)"), {"channel": NOTIFY_CHANNEL, "payload": payload}
            )

    def append_many(self, changes: list[Change]) -> list[Exception | None]:
        """Store several tables' changes (no lock held, SQLite) in ONE transaction: group commit.

        One commit for many tables is what lets a single-writer database keep up; each change
        is still checked and written as :meth:`append` would. Should the transaction fail, it
        is rolled back and each change is tried in its own, so that one change's failure (its
        version written meanwhile) never fails the others; when the database itself failed
        (full, locked past the busy timeout, gone) every change gets that error at once, since
        each alone would wait and fail the same way. The answer: per change, None (it is
        committed) or the error that kept it out.
        """
        try:
            with self.engine.begin() as connection:
                self._append_many(connection, changes)
        except (SQLAlchemyError, DatabaseError) as error:
            if len(changes) == 1 or is_outage(error):
                # The database failed, not one change: each alone would fail the same way.
                return [error] * len(changes)
        else:
            return [None] * len(changes)
        errors: list[Exception | None] = []
        for table_id, events, status in changes:
            try:
                self.append(table_id, events, status, None)
            except (SQLAlchemyError, DatabaseError) as error:
                errors.append(error)
            else:
                errors.append(None)
        return errors

    def abort(self, locked: Locked) -> None:
        """Roll back a locked transaction that wrote nothing."""
        try:
            locked.connection.rollback()
        finally:
            locked.connection.close()

    def _append(
        self,
        connection: Connection,
        table_id: str,
        events: list[TableEvent],
        status: str,
        *,
        notify: str | None = None,
    ) -> None:
        """Write a table's new version and events; with ``notify`` (PostgreSQL), send it on
        :data:`NOTIFY_CHANNEL` with the commit, in the same statement as the version."""
        values = _move_on_values(table_id, events, status)
        if notify is None:
            result = connection.execute(_MOVE_ON, values)
        else:
            result = connection.execute(_MOVE_ON_NOTIFYING, {**values, "b_payload": notify})
        if result.rowcount != 1:
            before = events[0].version - 1
            raise DatabaseError(f"table {table_id!r} changed in the database since version {before}")
        self._insert(connection, table_id, events)

    @staticmethod
    def _append_many(connection: Connection, changes: list[Change]) -> None:
        """:meth:`_append` for several tables in two statements (one UPDATE and one INSERT,
        each executed for many rows), fewer round trips than two per table."""
        result = connection.execute(
            _MOVE_ON, [_move_on_values(table_id, events, status) for table_id, events, status in changes]
        )
        if result.rowcount != len(changes):  # the dialects used report executemany's rows
            raise DatabaseError("a table changed in the database since the version planned for")
        rows = [_event_row(table_id, item) for table_id, events, _ in changes for item in events]
        if rows:
            connection.execute(_ADD_EVENTS, rows)

    @staticmethod
    def _insert(connection: Connection, table_id: str, events: list[TableEvent]) -> None:
        if events:
            connection.execute(_ADD_EVENTS, [_event_row(table_id, item) for item in events])


def _postgres_options(url: URL, timeouts: DatabaseTimeouts) -> dict[str, Any]:
    """psycopg's connection parameters for the timeouts; those the URL sets itself win, and
    its ``options`` are kept (the timeouts are added to them)."""
    settings = (
        f"-c statement_timeout={max(1, round(timeouts.statement * 1000))} "
        f"-c lock_timeout={max(1, round(timeouts.lock * 1000))}"
    )
    given = url.query.get("options")
    given_text = " ".join(given) if isinstance(given, tuple) else given or ""
    seconds = math.ceil(timeouts.connect + timeouts.statement)
    wanted: dict[str, Any] = {
        "connect_timeout": max(1, math.ceil(timeouts.connect)),
        **KEEPALIVES,
        "tcp_user_timeout": 1000 * seconds,  # data sent and not acknowledged: the peer is gone
    }
    options = {key: value for key, value in wanted.items() if key not in url.query}
    options["options"] = f"{given_text} {settings}".strip()
    return options


def _ping_when_idle(engine: Engine) -> None:
    """Have the pool check a connection that has idled :data:`PING_IDLE` seconds before it
    hands it out, and replace it (with every connection opened before it) if it is dead."""

    @event.listens_for(engine.pool, "checkin")
    def returned(dbapi_connection: Any, record: Any) -> None:
        if dbapi_connection is not None:  # None: the connection was invalidated
            record.info[_RETURNED] = time.monotonic()

    @event.listens_for(engine.pool, "checkout")
    def handed_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        # A connection not yet given back is new (``info`` goes with the DBAPI connection).
        since = record.info.get(_RETURNED)
        if since is None or time.monotonic() - since < PING_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise InvalidatePoolError(f"a pooled connection is dead: {error}") from error


def _sqlite_pragmas(busy_seconds: float, connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cursor.execute("PRAGMA synchronous=NORMAL")  # in WAL mode: durable against a killed process
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={max(1, round(busy_seconds * 1000))}")
    cursor.close()
