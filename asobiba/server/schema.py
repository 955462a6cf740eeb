"""The database schema, versioned with Alembic (docs/web.md, "Schema migrations").

Every table of the platform — rooms, accounts, ratings, ladders, dailies and the web's own
links — is defined in :mod:`asobiba.tables` on one SQLAlchemy metadata (:func:`metadata`),
the one target the migrations are checked against (a test runs Alembic's autogenerate
comparison: no difference). :func:`upgrade` brings any database to the newest revision: an
empty one is created, one made before migrations existed (the tables, no ``alembic_version``)
is taken as the baseline and upgraded in place, keeping every row. It runs in one
transaction under a lock (PostgreSQL: an advisory lock; SQLite: ``BEGIN IMMEDIATE``), so web
processes and workers starting together migrate once.

Start-up cost: a database already at :data:`HEAD` costs one query; an empty one is created
from the metadata and stamped :data:`HEAD` without importing Alembic (the metadata *is* the
schema at HEAD — the autogenerate test proves it); only an older database loads Alembic.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, inspect, text
from sqlalchemy.engine import Connection, Engine

HEAD = "0013"
"""The newest revision (checked against the migration scripts by a test)."""
LOCK = 0x61736F  # the advisory lock's key ("aso")
_done: set[str] = set()


def metadata() -> MetaData:
    """The one metadata: every table of the platform (:mod:`asobiba.tables`)."""
    from ..tables import Base

    return Base.metadata


def _stamp_head(conn: Connection) -> None:
    """Create Alembic's own bookkeeping table, as Alembic creates it, holding :data:`HEAD`.

    (Its signature names no SQLAlchemy ``Table``: that class's own type carries ``Any``.)"""
    version = Table("alembic_version", MetaData(),
                    Column("version_num", String(32), nullable=False),
                    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
    version.create(conn)
    conn.execute(version.insert().values(version_num=HEAD))


def config() -> object:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return cfg


def current(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> None:
    """The database at ``engine`` at :data:`HEAD` (once per URL per process)."""
    key = str(engine.url)
    if key in _done:
        return
    if current(engine) != HEAD:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK})
            if not inspect(conn).get_table_names():  # empty: the schema at HEAD, stamped
                metadata().create_all(conn)
                _stamp_head(conn)
            else:
                from alembic import command

                cfg = config()
                cfg.attributes["connection"] = conn  # type: ignore[attr-defined]
                command.upgrade(cfg, "head")  # type: ignore[arg-type]
    _done.add(key)
