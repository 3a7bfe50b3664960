"""Alembic migrations of the server's database (run on start by :mod:`paiute.server.migrate`)."""
