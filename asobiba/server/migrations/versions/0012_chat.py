"""Chat and moderation: chat lines, the players' chat choice of a room, reports and the
audit of moderation actions (issue 28 item 4).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_chat_lines",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("place", sa.String(length=48), nullable=False),
                    sa.Column("channel", sa.String(length=12), nullable=False),
                    sa.Column("author_id", sa.Integer(), nullable=False),
                    sa.Column("author", sa.String(length=80), nullable=False),
                    sa.Column("seat", sa.Integer(), nullable=True),
                    sa.Column("text", sa.Text(), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.Column("removed", sa.Boolean(), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_chat_lines_place", "web_chat_lines", ["place"])
    op.create_index("ix_web_chat_lines_author_id", "web_chat_lines", ["author_id"])
    op.create_table("web_chat_rooms",
                    sa.Column("room_id", sa.String(length=32), nullable=False),
                    sa.Column("players", sa.Boolean(), nullable=False),
                    sa.PrimaryKeyConstraint("room_id"))
    op.create_table("web_chat_reports",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("reporter_id", sa.Integer(), nullable=False),
                    sa.Column("target_id", sa.Integer(), nullable=False),
                    sa.Column("line_id", sa.Integer(), nullable=True),
                    sa.Column("reason", sa.String(length=16), nullable=False),
                    sa.Column("status", sa.String(length=12), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_chat_reports_reporter_id", "web_chat_reports", ["reporter_id"])
    op.create_table("web_moderation",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("target_id", sa.Integer(), nullable=True),
                    sa.Column("action", sa.String(length=16), nullable=False),
                    sa.Column("until", sa.String(length=40), nullable=True),
                    sa.Column("report_id", sa.Integer(), nullable=True),
                    sa.Column("line_id", sa.Integer(), nullable=True),
                    sa.Column("reason", sa.Text(), nullable=False),
                    sa.Column("by", sa.String(length=80), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_moderation_target_id", "web_moderation", ["target_id"])


def downgrade() -> None:
    op.drop_table("web_moderation")
    op.drop_table("web_chat_reports")
    op.drop_table("web_chat_rooms")
    op.drop_table("web_chat_lines")
