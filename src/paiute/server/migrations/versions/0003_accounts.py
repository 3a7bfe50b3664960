"""Accounts (paiute.server.accounts): the accounts, their sessions and the seats they hold.

Revision ID: 0003
Revises: 0002
Create Date: 2027-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paiute_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_fold", sa.String(256), nullable=False),
        sa.Column("name_key", sa.String(256), nullable=False),
        sa.Column("password", sa.String(256), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_accounts_name_fold", "paiute_accounts", ["name_fold"], unique=True)
    op.create_index("ix_paiute_accounts_name_key", "paiute_accounts", ["name_key"], unique=True)
    op.create_table(
        "paiute_sessions",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("paiute_accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_sessions_account_id", "paiute_sessions", ["account_id"])
    op.create_table(
        "paiute_account_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("paiute_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("paiute_accounts.id"), primary_key=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("linked", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_account_seats_account_id", "paiute_account_seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_paiute_account_seats_account_id", table_name="paiute_account_seats")
    op.drop_table("paiute_account_seats")
    op.drop_index("ix_paiute_sessions_account_id", table_name="paiute_sessions")
    op.drop_table("paiute_sessions")
    op.drop_index("ix_paiute_accounts_name_key", table_name="paiute_accounts")
    op.drop_index("ix_paiute_accounts_name_fold", table_name="paiute_accounts")
    op.drop_table("paiute_accounts")
