"""The first schema: tables and their events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "paiute_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("config", _JSON, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_tables_status", "paiute_tables", ["status"])
    op.create_table(
        "paiute_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("paiute_tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", _JSON, nullable=False),
        sa.Column("secret", _JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("paiute_events")
    op.drop_index("ix_paiute_tables_status", table_name="paiute_tables")
    op.drop_table("paiute_tables")
