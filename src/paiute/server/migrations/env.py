"""Alembic environment: migrate the connection that :func:`paiute.server.migrate.upgrade` passes.

Only Alembic runs this file; importing it anywhere else (a doctest collector) does nothing.
"""

from __future__ import annotations

from alembic import context


def run() -> None:
    from paiute.server.db import metadata

    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # set only while Alembic runs an environment
    run()
