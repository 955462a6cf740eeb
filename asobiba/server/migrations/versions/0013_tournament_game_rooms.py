"""An index on the tournament games' room ids: a room page opened before the pairing driver
has made its room looks its game up by room id (docs/tournaments.md).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_web_tournament_games_room_id", "web_tournament_games", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_web_tournament_games_room_id", table_name="web_tournament_games")
