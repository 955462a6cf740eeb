"""People: challenges to a named player, follows and blocks (issue 28 item 3).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_challenges",
                    sa.Column("id", sa.String(length=16), nullable=False),
                    sa.Column("from_id", sa.Integer(), nullable=False),
                    sa.Column("to_id", sa.Integer(), nullable=False),
                    sa.Column("room_id", sa.String(length=32), nullable=False),
                    sa.Column("game", sa.String(length=40), nullable=False),
                    sa.Column("options", sa.Text(), nullable=False),
                    sa.Column("clock", sa.Text(), nullable=True),
                    sa.Column("casual", sa.Boolean(), nullable=False),
                    sa.Column("from_seat", sa.Integer(), nullable=False),
                    sa.Column("key_hash", sa.String(length=64), nullable=False),
                    sa.Column("status", sa.String(length=16), nullable=False),
                    sa.Column("reason", sa.String(length=40), nullable=True),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.Column("expires", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_challenges_from_id", "web_challenges", ["from_id"])
    op.create_index("ix_web_challenges_to_id", "web_challenges", ["to_id"])
    op.create_table("web_follows",
                    sa.Column("follower_id", sa.Integer(), nullable=False),
                    sa.Column("followed_id", sa.Integer(), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("follower_id", "followed_id"))
    op.create_index("ix_web_follows_followed_id", "web_follows", ["followed_id"])
    op.create_table("web_blocks",
                    sa.Column("blocker_id", sa.Integer(), nullable=False),
                    sa.Column("blocked_id", sa.Integer(), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("blocker_id", "blocked_id"))
    op.create_index("ix_web_blocks_blocked_id", "web_blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_table("web_blocks")
    op.drop_table("web_follows")
    op.drop_table("web_challenges")
