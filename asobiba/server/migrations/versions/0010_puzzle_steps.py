"""The puzzle trainer's step-by-step moves: an attempt remembers the steps played since the
last move of the line (Patapata's writes, flaps and turns towards a clear; docs/puzzles.md).

Revision ID: 0010
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None


def _columns() -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns("prog_puzzle_attempts")}


def upgrade() -> None:
    # a database made by the progression layer alone (the CLI) at this version has it already
    if "pending" not in _columns():
        with op.batch_alter_table("prog_puzzle_attempts") as batch:
            batch.add_column(sa.Column("pending", sa.Text(), nullable=True))


def downgrade() -> None:
    if "pending" in _columns():
        with op.batch_alter_table("prog_puzzle_attempts") as batch:
            batch.drop_column("pending")
