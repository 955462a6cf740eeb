"""The database schema, versioned with Alembic (docs/web.md, "Schema migrations").

Every table of the platform — rooms (``server.db``), accounts, ratings, ladders, dailies
(``progression.models``) and the web's own tables (``server.progression_routes``) — is
described by SQLAlchemy metadata; :func:`metadata` gathers them into the one target the
migrations are checked against. :func:`upgrade` brings any database to the newest revision:
an empty one is created, one made before migrations existed (the tables, no
``alembic_version``) is taken as the baseline and upgraded in place, keeping every row. It runs
in one transaction under a lock (PostgreSQL: an advisory lock; SQLite: ``BEGIN IMMEDIATE``),
so web processes and workers starting together migrate once.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Engine

HEAD = "0001"
"""The newest revision (checked against the migration scripts by a test)."""
LOCK = 0x61736F  # the advisory lock's key ("aso")
_done: set[str] = set()


def metadata() -> list[MetaData]:
    from ..progression.models import Base as ProgressionBase
    from .db import Base
    from .progression_routes import META

    return [Base.metadata, ProgressionBase.metadata, META]


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
        from alembic import command

        cfg = config()
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK})
            cfg.attributes["connection"] = conn  # type: ignore[attr-defined]
            command.upgrade(cfg, "head")  # type: ignore[arg-type]
    _done.add(key)
