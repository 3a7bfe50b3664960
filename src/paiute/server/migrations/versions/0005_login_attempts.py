"""Log-in tries per account name (paiute.server.logins), shared by every server process.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paiute_login_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_paiute_login_attempts_name_at", "paiute_login_attempts", ["name", "at"])
    op.create_index("ix_paiute_login_attempts_at", "paiute_login_attempts", ["at"])


def downgrade() -> None:
    op.drop_index("ix_paiute_login_attempts_at", table_name="paiute_login_attempts")
    op.drop_index("ix_paiute_login_attempts_name_at", table_name="paiute_login_attempts")
    op.drop_table("paiute_login_attempts")
