"""Bring a database's schema up to date with Alembic, from code (no alembic.ini needed).

The migration scripts live inside the package (``paiute/server/migrations``), so this works
from an installed wheel. Several server processes starting at once on one PostgreSQL
database take turns (an advisory lock).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from paiute.server.db import DatabaseError, Store

__all__ = ["MIGRATIONS", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_LOCK_KEY = 0x7061_6975  # "paiu": the advisory lock that serializes migrations


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def upgrade(store: Store) -> None:
    """Run every migration the database lacks; a database that cannot be used raises
    :class:`~paiute.server.db.DatabaseError` with one clear line."""
    config = alembic_config()
    try:
        with store.engine.begin() as connection:
            if store.shared:
                # A migration may take long, and may wait for another process's: no time limit.
                connection.execute(text("SET LOCAL statement_timeout = 0"))
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except SQLAlchemyError as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise DatabaseError(f"cannot use the database {store.display_url}: {reason}") from None
