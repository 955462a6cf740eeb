"""Tournaments: Swiss, Arena and tables (issue 28 item 1, docs/tournaments.md).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("web_tournaments",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("name", sa.String(80), nullable=False),
                    sa.Column("kind", sa.String(8), nullable=False),
                    sa.Column("game", sa.String(40), nullable=False),
                    sa.Column("options", sa.Text(), nullable=False),
                    sa.Column("clock", sa.Text(), nullable=True),
                    sa.Column("casual", sa.Boolean(), nullable=False),
                    sa.Column("rounds", sa.Integer(), nullable=False),
                    sa.Column("minutes", sa.Integer(), nullable=False),
                    sa.Column("starts", sa.String(40), nullable=False),
                    sa.Column("ends", sa.String(40), nullable=True),
                    sa.Column("status", sa.String(12), nullable=False),
                    sa.Column("creator_id", sa.Integer(), nullable=True),
                    sa.Column("created", sa.String(40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_tournaments_created", "web_tournaments", ["created"])
    op.create_table("web_tournament_entries",
                    sa.Column("tournament_id", sa.Integer(), nullable=False),
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("name", sa.String(80), nullable=False),
                    sa.Column("rating", sa.Float(), nullable=False),
                    sa.Column("status", sa.String(12), nullable=False),
                    sa.Column("joined", sa.String(40), nullable=False),
                    sa.Column("seen", sa.String(40), nullable=False),
                    sa.PrimaryKeyConstraint("tournament_id", "player_id"))
    op.create_table("web_tournament_rounds",
                    sa.Column("tournament_id", sa.Integer(), nullable=False),
                    sa.Column("round", sa.Integer(), nullable=False),
                    sa.Column("created", sa.String(40), nullable=False),
                    sa.PrimaryKeyConstraint("tournament_id", "round"))
    op.create_table("web_tournament_games",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("tournament_id", sa.Integer(), nullable=False),
                    sa.Column("round", sa.Integer(), nullable=False),
                    sa.Column("room_id", sa.String(32), nullable=True),
                    sa.Column("players", sa.Text(), nullable=False),
                    sa.Column("keys", sa.Text(), nullable=True),
                    sa.Column("points", sa.Text(), nullable=True),
                    sa.Column("created", sa.String(40), nullable=False),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_web_tournament_games_tournament_id", "web_tournament_games",
                    ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_web_tournament_games_tournament_id", "web_tournament_games")
    op.drop_table("web_tournament_games")
    op.drop_table("web_tournament_rounds")
    op.drop_table("web_tournament_entries")
    op.drop_index("ix_web_tournaments_created", "web_tournaments")
    op.drop_table("web_tournaments")
