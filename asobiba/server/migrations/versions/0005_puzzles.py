"""The puzzle trainer: attempts and first attempts (issue 29 item 2, docs/puzzles.md).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a database made by the progression layer alone (the CLI) already has every prog_
    # table of its version, these two included: they are made only where missing
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "prog_puzzle_attempts" not in have:
        _attempts()
    if "prog_puzzle_seen" not in have:
        _seen()


def _attempts() -> None:
    op.create_table("prog_puzzle_attempts",
                    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("puzzle_set", sa.String(length=40), nullable=False),
                    sa.Column("puzzle_id", sa.String(length=60), nullable=False),
                    sa.Column("mode", sa.String(length=12), nullable=False),
                    sa.Column("rated", sa.Boolean(), nullable=False),
                    sa.Column("status", sa.String(length=10), nullable=False),
                    sa.Column("step", sa.Integer(), nullable=False),
                    sa.Column("run", sa.Integer(), nullable=True),
                    sa.Column("started", sa.String(length=40), nullable=False),
                    sa.Column("finished", sa.String(length=40), nullable=True),
                    sa.Column("rating_before", sa.Float(), nullable=True),
                    sa.Column("rating_after", sa.Float(), nullable=True),
                    sa.Column("puzzle_before", sa.Float(), nullable=True),
                    sa.Column("puzzle_after", sa.Float(), nullable=True),
                    sa.PrimaryKeyConstraint("id"))
    op.create_index(op.f("ix_prog_puzzle_attempts_player_id"), "prog_puzzle_attempts",
                    ["player_id"], unique=False)


def _seen() -> None:
    op.create_table("prog_puzzle_seen",
                    sa.Column("player_id", sa.Integer(), nullable=False),
                    sa.Column("puzzle_set", sa.String(length=40), nullable=False),
                    sa.Column("puzzle_id", sa.String(length=60), nullable=False),
                    sa.Column("attempt_id", sa.Integer(), nullable=False),
                    sa.PrimaryKeyConstraint("player_id", "puzzle_set", "puzzle_id"))


def downgrade() -> None:
    op.drop_table("prog_puzzle_seen")
    op.drop_index(op.f("ix_prog_puzzle_attempts_player_id"), table_name="prog_puzzle_attempts")
    op.drop_table("prog_puzzle_attempts")
