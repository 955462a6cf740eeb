"""Account names' look-alike keys (issue 25 item 7; docs/fair-play.md, "Names").

Adds ``prog_players.skeleton`` — the UTS #39 skeleton of a person's case-folded NFKC name
(:func:`asobiba.progression.names.skeleton`) — with a unique index, so that "аdmin" (a
Cyrillic а) or "ＡＤＭＩＮ" cannot be registered beside "admin": the check is the index's,
race-free. Existing human accounts get their skeleton, oldest first; a later account whose
name looks like an older one's (possible before this revision) keeps its name and no
skeleton (it blocks nothing; the older name does). Guests, bots and puzzles have none.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from asobiba.progression.names import skeleton

    bind = op.get_bind()
    # a database made by progression alone (``progression.create_all``: the CLI, or a test
    # dealing a daily before the server's first start) has today's prog_players already,
    # skeleton column and index included, but no alembic version: the baseline adopts it,
    # and this revision then only fills what is missing
    inspector = sa.inspect(bind)
    if "skeleton" not in {c["name"] for c in inspector.get_columns("prog_players")}:
        op.add_column("prog_players",
                      sa.Column("skeleton", sa.String(length=200), nullable=True))
    rows = bind.execute(sa.text("SELECT id, name FROM prog_players WHERE kind = 'human' "
                                "AND skeleton IS NULL ORDER BY id")).all()
    seen: set[str] = set(bind.execute(sa.text(
        "SELECT skeleton FROM prog_players WHERE skeleton IS NOT NULL")).scalars())
    for player_id, name in rows:
        key = skeleton(name)
        if key in seen:
            continue
        seen.add(key)
        bind.execute(sa.text("UPDATE prog_players SET skeleton = :k WHERE id = :i"),
                     {"k": key, "i": player_id})
    if "ix_prog_players_skeleton" not in {ix["name"] for ix in
                                          sa.inspect(bind).get_indexes("prog_players")}:
        op.create_index("ix_prog_players_skeleton", "prog_players", ["skeleton"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("prog_players") as batch:  # SQLite: the table rebuilt
        batch.drop_index("ix_prog_players_skeleton")
        batch.drop_column("skeleton")
