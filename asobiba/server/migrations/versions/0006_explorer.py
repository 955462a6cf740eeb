"""The opening explorer's index: per explorer, position and move, the games that played it
(asobiba.explorer, docs/explorer.md). Filled as games finish; ``asobiba explorer index``
fills it from the games stored before.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table("explorer_moves",
                    sa.Column("explorer", sa.String(20), nullable=False),
                    sa.Column("position", sa.String(120), nullable=False),
                    sa.Column("move", sa.String(24), nullable=False),
                    sa.Column("games", sa.Integer(), nullable=False),
                    sa.Column("wins", sa.Integer(), nullable=False),
                    sa.Column("draws", sa.Integer(), nullable=False),
                    sa.Column("losses", sa.Integer(), nullable=False),
                    sa.Column("rating_sum", sa.Float(), nullable=False),
                    sa.Column("rated", sa.Integer(), nullable=False),
                    sa.Column("last_played", sa.String(40), nullable=False),
                    sa.PrimaryKeyConstraint("explorer", "position", "move"))


def downgrade() -> None:
    op.drop_table("explorer_moves")
