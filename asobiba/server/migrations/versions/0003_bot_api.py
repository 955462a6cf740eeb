"""The Bot API's tables (issue 30 item 5; docs/bot-api.md): personal API tokens (hashed),
the accounts upgraded to BOT accounts, and the challenges to them.

Only new tables: no existing row changes.

Revision ID: 0003
Revises: 0001 (after a merge with 0002_name_skeletons: 0002 — one line, ``down_revision``)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_api_tokens",
                    sa.Column("token_hash", sa.String(length=64), nullable=False),
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("scopes", sa.String(length=200), nullable=False),
                    sa.Column("label", sa.String(length=80), nullable=False),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("token_hash"))
    op.create_index("ix_web_api_tokens_player_id", "web_api_tokens", ["player_id"],
                    unique=False)
    op.create_table("web_bot_accounts",
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("upgraded", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("player_id"))
    op.create_table("web_bot_challenges",
                    sa.Column("id", sa.String(length=16), nullable=False),
                    sa.Column("bot_id", sa.Integer(), nullable=False),
                    sa.Column("challenger_id", sa.Integer(), nullable=True),
                    sa.Column("challenger", sa.String(length=80), nullable=False),
                    sa.Column("room_id", sa.String(length=32), nullable=False),
                    sa.Column("game", sa.String(length=40), nullable=False),
                    sa.Column("options", sa.Text(), nullable=False),
                    sa.Column("bot_seat", sa.Integer(), nullable=False),
                    sa.Column("key_hash", sa.String(length=64), nullable=True),
                    sa.Column("status", sa.String(length=16), nullable=False),
                    sa.Column("reason", sa.String(length=40), nullable=True),
                    sa.Column("created", sa.String(length=40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_bot_challenges_bot_id", "web_bot_challenges", ["bot_id"],
                    unique=False)


def downgrade() -> None:
    op.drop_table("web_bot_challenges")
    op.drop_table("web_bot_accounts")
    op.drop_table("web_api_tokens")
