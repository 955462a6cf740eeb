"""The analysis board's CPU budget, shared by every web process (issue 29 item 5).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_analysis_cpu",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("who", sa.String(length=80), nullable=False),
                    sa.Column("at", sa.Float(), nullable=False),
                    sa.Column("cpu", sa.Float(), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_analysis_cpu_who_at", "web_analysis_cpu", ["who", "at"])


def downgrade() -> None:
    op.drop_index("ix_web_analysis_cpu_who_at", table_name="web_analysis_cpu")
    op.drop_table("web_analysis_cpu")
