"""Ratings (paiute.server.ratings): each account's rating, the rated matches and their history.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paiute_ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("paiute_accounts.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_ratings_mu", "paiute_ratings", ["mu"])
    op.create_table(
        "paiute_rated_matches",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("paiute_tables.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "paiute_rating_history",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("paiute_tables.id"), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("paiute_accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_rating_history_account", "paiute_rating_history", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_paiute_rating_history_account", table_name="paiute_rating_history")
    op.drop_table("paiute_rating_history")
    op.drop_table("paiute_rated_matches")
    op.drop_index("ix_paiute_ratings_mu", table_name="paiute_ratings")
    op.drop_table("paiute_ratings")
