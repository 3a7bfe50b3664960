"""Failed log-ins per account name, counted in the database that every server process shares.

Log-ins are limited twice (:class:`~paiute.server.limits.Limits`): per address, in each
process's memory (nginx sends one address to one process, docs/hosting.md), and per account
name, here. Guesses at one name come from any number of addresses, so that cap must hold
whichever process each guess reaches: every try is a row (the SHA-256 of what names the
account, never the name typed, and the time), written before its password is checked and
counted with the name's other rows of the last :data:`WINDOW_SECONDS` (a sliding window).
Past the cap a try is refused and nothing of it is kept; a right password takes its row back
too, so what counts is the wrong passwords and the tries still being checked.

Rows older than the window are swept on the way: a process sweeps at the first try a window
after its last sweep, a batch at a time.
"""

from __future__ import annotations

import hashlib
import logging
import math

from sqlalchemy import Column, Float, Index, Integer, String, Table, delete, func, insert, select
from sqlalchemy.exc import SQLAlchemyError

from paiute.server.db import Store, metadata
from paiute.server.limits import UNLIMITED

__all__ = ["UNCOUNTED", "WINDOW_SECONDS", "LoginAttempts", "login_attempts_table"]

log = logging.getLogger("paiute.server")

#: The window the tries per name are counted in, in seconds.
WINDOW_SECONDS = 60.0
#: Old rows deleted by one sweep at most (a sweep never holds the table for long).
SWEEP_BATCH = 1000
#: What :meth:`LoginAttempts.begin` returns for a try it wrote nothing for (no cap).
UNCOUNTED = 0

login_attempts_table = Table(
    "paiute_login_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),  # SHA-256 of what names the account tried
    Column("at", Float, nullable=False),
    Index("ix_paiute_login_attempts_name_at", "name", "at"),
    Index("ix_paiute_login_attempts_at", "at"),
)


def _key(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


class LoginAttempts:
    """The log-in tries per name of one database, at most ``cap`` in any ``window`` seconds
    (synchronous, short calls: run them in a worker thread)."""

    def __init__(self, store: Store, cap: float, window: float = WINDOW_SECONDS) -> None:
        self.engine = store.engine
        self.cap = cap
        self.window = window
        self.unlimited = cap >= UNLIMITED
        self._swept = -math.inf  # when this process last swept

    def begin(self, name: str, now: float) -> int | None:
        """Count a try at ``name``: the id of its row (:data:`UNCOUNTED` without a cap), or
        None when the name has had ``cap`` tries in the window (nothing is counted then)."""
        if self.unlimited:
            return UNCOUNTED
        key = _key(name)
        if self._tries(key, now) >= self.cap:
            return None  # refused without a write, however long the guessing goes on
        with self.engine.begin() as connection:
            inserted = connection.execute(
                insert(login_attempts_table).values(name=key, at=now)
            ).inserted_primary_key
        assert inserted is not None  # an INSERT of one row has its key
        attempt = int(inserted.id)
        # Counted again once the row is committed: of tries racing in several processes, the
        # last to count sees every other's row, so no more than ``cap`` of them go on.
        if self._tries(key, now) > self.cap:
            self.forget(attempt)
            return None
        self._sweep(now)
        return attempt

    def forget(self, attempt: int) -> None:
        """Take a try back (a right password is no failure)."""
        if attempt == UNCOUNTED:
            return
        with self.engine.begin() as connection:
            connection.execute(delete(login_attempts_table).where(login_attempts_table.c.id == attempt))

    def _tries(self, key: str, now: float) -> int:
        column = login_attempts_table.c
        query = select(func.count()).where(column.name == key, column.at > now - self.window)
        with self.engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def _sweep(self, now: float) -> None:
        """Delete a batch of rows older than the window, once a window (again at the next try
        while a full batch was deleted). A sweep that fails is tried again at the next one."""
        if now - self._swept < self.window:
            return
        column = login_attempts_table.c
        old = select(column.id).where(column.at <= now - self.window).limit(SWEEP_BATCH)
        try:
            with self.engine.begin() as connection:
                deleted = connection.execute(delete(login_attempts_table).where(column.id.in_(old)))
        except SQLAlchemyError as error:
            log.warning("old log-in tries not swept: %s", str(error).splitlines()[0])
            return
        if deleted.rowcount < SWEEP_BATCH:
            self._swept = now
