"""Schema migrations (issue 13 item 6): a database made by main before migrations existed —
built here from that schema's DDL, frozen as a fixture file — is upgraded in place by the
first Store opened on it, keeping every room, move, account and rating; on SQLite and on
PostgreSQL. And the revision the code expects is the newest migration script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from asobiba.server.db import Store
from asobiba.server.schema import HEAD, config, current

FIXTURES = Path(__file__).parent / "fixtures"


def build_old_database(url: str) -> None:
    dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
    ddl = (FIXTURES / f"schema_before_migrations_{dialect}.sql").read_text()
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in ddl.split(";"):
            body = "\n".join(line for line in statement.splitlines()
                             if not line.startswith("--")).strip()
            if body:
                conn.exec_driver_sql(body)
        conn.execute(text(
            "INSERT INTO rooms (id, game, rules_version, options, seed, casual, hotseat, "
            "status, created, updated) VALUES ('old1', 'reversi', :rv, '{}', 281474976710655, "
            "true, false, 'active', '2026-11-30T10:00:00.000+00:00', "
            "'2026-11-30T10:00:01.000+00:00')"), {"rv": rules_version()})
        for seat in (0, 1):
            conn.execute(text("INSERT INTO seats (room_id, seat, kind, name, key_hash) VALUES "
                              "('old1', :s, 'human', 'あき', :h)"), {"s": seat, "h": "k" * 64})
        for ply, (seat, move) in enumerate([(0, "d3"), (1, "c5")]):
            conn.execute(text("INSERT INTO moves (room_id, ply, seat, text, at) VALUES "
                              "('old1', :p, :s, :t, '2026-11-30T10:00:01.000+00:00')"),
                         {"p": ply, "s": seat, "t": move})
        conn.execute(text("INSERT INTO prog_players (id, name, kind, created, last_seen) "
                          "VALUES (7, 'hana', 'human', '2026-11-30T10:00:00+00:00', "
                          "'2026-11-30T10:00:00+00:00')"))
        conn.execute(text(
            "INSERT INTO prog_ratings (player_id, pool, system, rating, deviation, volatility, "
            "mu, sigma, provisional, games, updated) VALUES (7, 'reversi', 'glicko2', 1612.5, "
            "80.0, 0.06, 0, 0, false, 12, '2026-11-30T10:00:00+00:00')"))
    engine.dispose()


def rules_version() -> int:
    from asobiba.games import get

    return int(get("reversi").rules_version)


def test_rule_upgrading_a_database_from_before_migrations_keeps_everything(
        db_url: str) -> None:
    build_old_database(db_url)
    engine = create_engine(db_url)
    assert current(engine) is None, "an old database has no migration version"
    store = Store(db_url)  # the first process on it upgrades it
    assert current(store.engine) == HEAD
    room = store.load_room("old1")
    assert room is not None and room.seed == 2**48 - 1 and room.status == "active"
    assert [(m.seat, m.text) for m in room.moves] == [(0, "d3"), (1, "c5")]
    assert [s.name for s in room.seats] == ["あき", "あき"]
    with store.engine.connect() as conn:
        player = conn.execute(text("SELECT name FROM prog_players WHERE id = 7")).scalar()
        rating = conn.execute(text("SELECT rating, games FROM prog_ratings "
                                   "WHERE player_id = 7")).one()
    assert player == "hana" and tuple(rating) == (1612.5, 12)
    # the room plays on after the upgrade
    from asobiba.server.db import MoveData, utcnow

    store.add_move("old1", MoveData(2, 0, "c4", utcnow()), None, None)
    again = Store(db_url)  # a second start: already at the newest revision, nothing redone
    assert current(again.engine) == HEAD
    loaded = again.load_room("old1")
    assert loaded is not None and len(loaded.moves) == 3
    store.close()
    again.close()
    engine.dispose()


def test_the_code_expects_the_newest_migration() -> None:
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(config()).get_current_head() == HEAD  # type: ignore[arg-type]


def _differences(engine: Any, target: Any = None) -> list[Any]:
    """What Alembic's autogenerate finds between the database and the one metadata (or
    ``target``)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from asobiba.server.schema import metadata

    with engine.connect() as conn:
        # types and server-side defaults compared too, not only tables, columns and keys
        context = MigrationContext.configure(conn, opts={"compare_type": True,
                                                         "compare_server_default": True})
        return list(compare_metadata(context, metadata() if target is None else target))


def test_one_metadata_holds_every_table_and_autogenerate_finds_no_difference(
        db_url: str) -> None:
    """Issue 13 item 6, one metadata: the store, progression and the web's tables are one
    MetaData, and a database made by the migrations (an old one upgraded) and one made on an
    empty database (created from the metadata and stamped, without Alembic) both match it."""
    from asobiba.progression.models import Base as ProgressionBase
    from asobiba.server.db import Base as StoreBase
    from asobiba.server.schema import metadata
    from asobiba.tables import SEAT_PLAYERS

    assert StoreBase.metadata is ProgressionBase.metadata is SEAT_PLAYERS.metadata is metadata()
    assert {"rooms", "moves", "prog_players", "prog_ratings", "web_seat_players"} <= set(
        metadata().tables)
    build_old_database(db_url)
    upgraded = Store(db_url)
    assert _differences(upgraded.engine) == []
    upgraded.close()


def test_an_empty_database_is_created_at_head_without_alembic(tmp_path: Path) -> None:
    """The start-up path for an empty database: the tables from the one metadata and the
    version stamp, in one transaction — the same schema the migrations give (no difference),
    and Alembic's own command then finds nothing to do."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    # a separate interpreter: whether Alembic was imported is a fact about that process
    out = subprocess.run([sys.executable, "-c", (
        "import sys; from asobiba.server.db import Store; "
        f"s = Store({url!r}); s.close(); print('alembic' in sys.modules)")],
        capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.strip() == "False"
    engine = create_engine(url)
    assert current(engine) == HEAD
    assert _differences(engine) == []
    from alembic import command

    with engine.begin() as conn:
        cfg = config()
        cfg.attributes["connection"] = conn  # type: ignore[attr-defined]
        command.upgrade(cfg, "head")  # type: ignore[arg-type]
    assert current(engine) == HEAD
    engine.dispose()


def test_every_stored_time_comes_from_the_one_clock() -> None:
    """One utcnow: the store and progression write times through asobiba.tables.utcnow (ISO
    8601, UTC, milliseconds), and no module keeps a clock of its own for stored times."""
    import re

    from asobiba.progression import models
    from asobiba.server import db
    from asobiba.tables import utcnow

    assert db.utcnow is utcnow and models.utcnow is utcnow
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", utcnow())
    root = Path(__file__).resolve().parents[2] / "asobiba"
    own = [str(p.relative_to(root)) for p in root.rglob("*.py")
           if p.name != "tables.py" and re.search(r"^def utcnow\(", p.read_text(), re.M)]
    assert own == []
    # the store and progression read the time of day only through asobiba.tables.now
    direct = [str(p.relative_to(root)) for part in ("server", "progression")
              for p in (root / part).rglob("*.py") if "datetime.now(" in p.read_text()]
    assert direct == []


def test_the_rooms_light_imports_do_not_load_the_progression_service() -> None:
    """Start-up (issue 13 item 5): the rooms import ``progression.matches``; the progression
    package imports its names on first use, so that import loads neither SQLAlchemy nor the
    accounts/ratings/ladder/daily/tutorial modules (measured: bench/web_restart.py)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", (
        "import sys, asobiba.progression.matches, asobiba.progression as p; "
        "print(sorted(m for m in ('sqlalchemy', 'asobiba.progression.service', "
        "'asobiba.progression.tutorials', 'argon2') if m in sys.modules)); "
        "print(p.Progression.__module__)")],
        capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split("\n")[:2] == ["[]", "asobiba.progression.service"]


# ---- the frozen baseline: the migrations alone make the models' schema ----------------------
def _migrate(url: str) -> Any:
    """``alembic upgrade head`` on the database at ``url`` — the migration scripts alone,
    never the start-up shortcut that creates an empty database from the metadata."""
    from alembic import command

    engine = create_engine(url)
    with engine.begin() as conn:
        cfg = config()
        cfg.attributes["connection"] = conn  # type: ignore[attr-defined]
        command.upgrade(cfg, "head")  # type: ignore[arg-type]
    return engine


def test_the_migrations_alone_make_exactly_the_schema_of_the_models(db_url: str) -> None:
    """THE GUARD of the migrations (issue 13 item 6): ``upgrade head`` on an empty database
    runs every revision — 0001's frozen DDL and whatever follows — and Alembic's
    autogenerate comparison against the live models (``schema.metadata()``) finds no
    difference: no table, column, type, nullability, key, unique constraint or index
    missing or extra. A model changed in ``asobiba/tables.py`` without a new revision that
    makes the same change fails this test (the next test shows the comparison catches it).
    It is also what makes the start-up shortcut (an empty database created from the
    metadata and stamped HEAD) equal to running the migrations."""
    engine = _migrate(db_url)
    assert current(engine) == HEAD
    assert _differences(engine) == []
    engine.dispose()


def test_the_guard_sees_a_model_change_made_without_a_revision(db_url: str) -> None:
    """The comparison above can fail: against models changed with no revision — a column
    and a table added, a column's type, nullability and server default changed, an index
    added — a migrated database shows each of those differences."""
    from sqlalchemy import Column, DefaultClause, Index, Integer, MetaData, String, Table, text

    from asobiba.server.schema import metadata

    changed = MetaData()
    for table in metadata().sorted_tables:
        table.to_metadata(changed)
    rooms, players = changed.tables["rooms"], changed.tables["prog_players"]
    rooms.append_column(Column("theme", String(20), nullable=True))
    Table("web_new_things", changed, Column("id", Integer, primary_key=True))
    players.c.kind.type = String(12)
    players.c.password_hash.nullable = False
    players.c.level.server_default = DefaultClause(text("'none'"))
    Index("ix_rooms_game", rooms.c.game)
    engine = _migrate(db_url)
    kinds = set()
    for diff in _differences(engine, changed):
        for change in diff if isinstance(diff, list) else [diff]:
            kinds.add(change[0])
    assert kinds == {"add_column", "add_table", "modify_type", "modify_nullable",
                     "modify_default", "add_index"}
    engine.dispose()


def test_the_baseline_does_not_follow_the_live_models(tmp_path: Path) -> None:
    """0001 is frozen DDL: with a model changed (a column added to ``rooms`` in the running
    process), ``upgrade head`` on an empty database still creates the baseline's ``rooms``
    — the change needs a revision of its own. (A separate interpreter: the change to the
    models must not leak into other tests.)"""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'frozen.db'}"
    script = (
        "import json\n"
        "from sqlalchemy import Column, String, create_engine, inspect\n"
        "from alembic import command\n"
        "from asobiba.tables import RoomRow\n"
        "from asobiba.server.schema import config\n"
        "RoomRow.__table__.append_column(Column('theme', String(20), nullable=True))\n"
        f"engine = create_engine({url!r})\n"
        "with engine.begin() as conn:\n"
        "    cfg = config(); cfg.attributes['connection'] = conn\n"
        "    command.upgrade(cfg, 'head')\n"
        "print(json.dumps([c['name'] for c in inspect(engine).get_columns('rooms')]))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=300)
    import json

    columns = json.loads(out.stdout.strip().splitlines()[-1])
    assert "theme" not in columns
    assert {"id", "game", "seed", "status", "clock", "updated"} <= set(columns)


def test_an_old_database_missing_a_table_and_an_index_gets_only_those(db_url: str) -> None:
    """Baseline on a database from before migrations that lacks part of the schema (a table
    added late, an index): 0001 creates what is missing, keeps every row, and the result
    is the models' schema."""
    from sqlalchemy import inspect

    build_old_database(db_url)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE web_daily_rooms"))
        conn.execute(text("DROP INDEX ix_rooms_status"))
    engine.dispose()
    store = Store(db_url)
    assert current(store.engine) == HEAD
    inspector = inspect(store.engine)
    assert inspector.has_table("web_daily_rooms")
    assert "ix_rooms_status" in {ix["name"] for ix in inspector.get_indexes("rooms")}
    room = store.load_room("old1")
    assert room is not None and [m.text for m in room.moves] == ["d3", "c5"]
    assert _differences(store.engine) == []
    store.close()
