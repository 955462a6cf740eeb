"""Account settings: one small JSON object per player (issue 27 item 5, the settings page).

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
    op.create_table("web_account_settings",
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("settings", sa.Text(), nullable=False),
                    sa.PrimaryKeyConstraint("player_id"))


def downgrade() -> None:
    op.drop_table("web_account_settings")
