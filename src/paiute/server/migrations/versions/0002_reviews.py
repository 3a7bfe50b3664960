"""Game reviews of finished deals (paiute.server.reviews), kept with the deal.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "paiute_reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("paiute_tables.id"), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("playouts", sa.Integer, nullable=False),
        sa.Column("data", _JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("paiute_reviews")
