"""Baseline: the schema of the platform as it was when migrations began, frozen.

Every table, column, key, constraint and index is written out here (rendered once by
Alembic's autogenerate from ``asobiba/tables.py`` on 2026-12-01, then frozen): this revision
never reads the live models, so changing a model later cannot change what it creates. A
model change is a new revision beside this one (docs/web.md, "Schema migrations");
``tests/web/test_migrations.py`` fails until that revision exists.

On an empty database it creates every table. On a database made before migrations existed
(the same tables, no ``alembic_version``) it creates only what is missing — a table, or an
index of a table that is there — and changes no row.

Constraints are unnamed, as ``create_all`` made them before migrations: the database names
them (PostgreSQL: ``<table>_pkey``, ``<table>_<cols>_key``, ``<table>_<col>_fkey``); a later
revision that drops one uses that name (SQLite: a batch operation recreates the table).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_have: set[str] = set()
"""The tables the database held before this revision ran."""


def _table(name: str, *elements: sa.schema.SchemaItem) -> None:
    if name not in _have:
        op.create_table(name, *elements)


def _index(name: str, table: str, columns: list[str]) -> None:
    if table in _have and name in {ix["name"] for ix in
                                   sa.inspect(op.get_bind()).get_indexes(table)}:
        return
    op.create_index(name, table, columns, unique=False)


def upgrade() -> None:
    _have.clear()
    _have.update(sa.inspect(op.get_bind()).get_table_names())
    # parents before the tables whose foreign keys name them
    _table("match_sets",
           sa.Column("id", sa.String(length=32), nullable=False),
           sa.Column("state", sa.Text(), nullable=False),
           sa.Column("updated", sa.String(length=40), nullable=False),
           sa.PrimaryKeyConstraint("id"))
    _table("prog_games",
           sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("pool", sa.String(length=60), nullable=False),
           sa.Column("rated", sa.Boolean(), nullable=False),
           sa.Column("context", sa.String(length=16), nullable=False),
           sa.Column("match_id", sa.String(length=40), nullable=True),
           sa.Column("options", sa.Text(), nullable=False),
           sa.Column("seed", sa.String(length=24), nullable=False),
           sa.Column("record", sa.Text(), nullable=True),
           sa.Column("result", sa.Text(), nullable=False),
           sa.Column("finished", sa.String(length=40), nullable=False),
           sa.PrimaryKeyConstraint("id"))
    _index("ix_prog_games_finished", "prog_games", ["finished"])
    _index("ix_prog_games_game", "prog_games", ["game"])
    _table("prog_players",
           sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
           sa.Column("name", sa.String(length=120), nullable=False),
           sa.Column("kind", sa.String(length=8), nullable=False),
           sa.Column("password_hash", sa.String(length=200), nullable=True),
           sa.Column("game", sa.String(length=40), nullable=True),
           sa.Column("level", sa.String(length=40), nullable=True),
           sa.Column("created", sa.String(length=40), nullable=False),
           sa.Column("last_seen", sa.String(length=40), nullable=False),
           sa.PrimaryKeyConstraint("id"),
           sa.UniqueConstraint("name"))
    _table("prog_secrets",
           sa.Column("name", sa.String(length=40), nullable=False),
           sa.Column("value", sa.String(length=200), nullable=False),
           sa.PrimaryKeyConstraint("name"))
    _table("rooms",
           sa.Column("id", sa.String(length=32), nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("rules_version", sa.Integer(), nullable=False),
           sa.Column("options", sa.Text(), nullable=False),
           sa.Column("seed", sa.BigInteger(), nullable=False),
           sa.Column("casual", sa.Boolean(), nullable=False),
           sa.Column("hotseat", sa.Boolean(), nullable=False),
           sa.Column("clock", sa.Text(), nullable=True),
           sa.Column("status", sa.String(length=16), nullable=False),
           sa.Column("result", sa.Text(), nullable=True),
           sa.Column("rematch_of", sa.String(length=32), nullable=True),
           sa.Column("rematch_id", sa.String(length=32), nullable=True),
           sa.Column("created", sa.String(length=40), nullable=False),
           sa.Column("updated", sa.String(length=40), nullable=False),
           sa.PrimaryKeyConstraint("id"))
    _index("ix_rooms_status", "rooms", ["status"])
    _table("web_daily_rooms",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("day", sa.String(length=10), nullable=False),
           sa.PrimaryKeyConstraint("room_id"))
    _table("web_ladder_sets",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("before", sa.Text(), nullable=False),
           sa.Column("after", sa.Text(), nullable=True),
           sa.Column("next_room", sa.String(length=32), nullable=True),
           sa.PrimaryKeyConstraint("room_id"))
    _table("web_room_context",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("kind", sa.String(length=16), nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("level", sa.String(length=40), nullable=False),
           sa.Column("tier", sa.String(length=16), nullable=True),
           sa.Column("seat", sa.Integer(), nullable=False),
           sa.PrimaryKeyConstraint("room_id"))
    _table("web_room_ratings",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("result", sa.Text(), nullable=False),
           sa.PrimaryKeyConstraint("room_id"))
    _table("web_seat_players",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("seat", sa.Integer(), nullable=False),
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.PrimaryKeyConstraint("room_id", "seat"))
    _table("match_set_rooms",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("set_id", sa.String(length=32), nullable=False),
           sa.Column("game_index", sa.Integer(), nullable=False),
           sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
           sa.ForeignKeyConstraint(["set_id"], ["match_sets.id"]),
           sa.PrimaryKeyConstraint("room_id"),
           sa.UniqueConstraint("set_id", "game_index"))
    _index("ix_match_set_rooms_set_id", "match_set_rooms", ["set_id"])
    _table("moves",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("ply", sa.Integer(), nullable=False),
           sa.Column("seat", sa.Integer(), nullable=False),
           sa.Column("text", sa.Text(), nullable=False),
           sa.Column("at", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
           sa.PrimaryKeyConstraint("room_id", "ply"))
    _table("prog_daily",
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("day", sa.String(length=10), nullable=False),
           sa.Column("attempts", sa.Integer(), nullable=False),
           sa.Column("cleared", sa.Boolean(), nullable=False),
           sa.Column("cleared_at", sa.String(length=40), nullable=True),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("player_id", "game", "day"))
    _table("prog_game_seats",
           sa.Column("game_id", sa.Integer(), nullable=False),
           sa.Column("seat", sa.Integer(), nullable=False),
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("team", sa.Integer(), nullable=False),
           sa.Column("rank", sa.Integer(), nullable=False),
           sa.Column("score", sa.Float(), nullable=False),
           sa.Column("points", sa.Float(), nullable=False),
           sa.Column("rating_before", sa.Float(), nullable=True),
           sa.Column("rating_after", sa.Float(), nullable=True),
           sa.ForeignKeyConstraint(["game_id"], ["prog_games.id"]),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("game_id", "seat"))
    _index("ix_prog_game_seats_player_id", "prog_game_seats", ["player_id"])
    _table("prog_ladder",
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("state", sa.Text(), nullable=False),
           sa.Column("updated", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("player_id", "game"))
    _table("prog_ratings",
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("pool", sa.String(length=60), nullable=False),
           sa.Column("system", sa.String(length=12), nullable=False),
           sa.Column("rating", sa.Float(), nullable=False),
           sa.Column("deviation", sa.Float(), nullable=False),
           sa.Column("volatility", sa.Float(), nullable=False),
           sa.Column("mu", sa.Float(), nullable=False),
           sa.Column("sigma", sa.Float(), nullable=False),
           sa.Column("provisional", sa.Boolean(), nullable=False),
           sa.Column("games", sa.Integer(), nullable=False),
           sa.Column("updated", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("player_id", "pool"))
    _index("ix_prog_ratings_pool_rating", "prog_ratings", ["pool", "rating"])
    _table("prog_sessions",
           sa.Column("token_hash", sa.String(length=64), nullable=False),
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("created", sa.String(length=40), nullable=False),
           sa.Column("expires", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("token_hash"))
    _index("ix_prog_sessions_player_id", "prog_sessions", ["player_id"])
    _table("prog_trophies",
           sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
           sa.Column("player_id", sa.Integer(), nullable=False),
           sa.Column("game", sa.String(length=40), nullable=False),
           sa.Column("kind", sa.String(length=20), nullable=False),
           sa.Column("period", sa.String(length=10), nullable=False),
           sa.Column("earned", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["player_id"], ["prog_players.id"]),
           sa.PrimaryKeyConstraint("id"),
           sa.UniqueConstraint("player_id", "game", "kind", "period"))
    _index("ix_prog_trophies_player_id", "prog_trophies", ["player_id"])
    _table("records",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("record", sa.Text(), nullable=False),
           sa.Column("saved", sa.String(length=40), nullable=False),
           sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
           sa.PrimaryKeyConstraint("room_id"))
    _table("seats",
           sa.Column("room_id", sa.String(length=32), nullable=False),
           sa.Column("seat", sa.Integer(), nullable=False),
           sa.Column("kind", sa.String(length=8), nullable=False),
           sa.Column("level", sa.String(length=40), nullable=True),
           sa.Column("name", sa.String(length=80), nullable=False),
           sa.Column("key_hash", sa.String(length=128), nullable=True),
           sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
           sa.PrimaryKeyConstraint("room_id", "seat"))


def downgrade() -> None:
    raise NotImplementedError("the baseline is not downgraded: it would drop every table")
