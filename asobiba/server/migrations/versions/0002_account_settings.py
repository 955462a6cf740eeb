"""Account settings: one small JSON object per player (issue 27 item 5, the settings page).

Revision ID: 0002_settings
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_settings"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_account_settings",
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("settings", sa.Text(), nullable=False),
                    sa.PrimaryKeyConstraint("player_id"))


def downgrade() -> None:
    op.drop_table("web_account_settings")
