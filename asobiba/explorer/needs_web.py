"""The database session of the CLI's ``index`` command (the ``web`` extra's SQLAlchemy)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session


def session_for(data_dir: str, db: str | None) -> Session:
    from ..server.db import make_engine
    from ..server.schema import upgrade

    if db is None:
        path = Path(data_dir) / "asobiba.db"
        if not path.exists():
            raise SystemExit(f"no database at {path} (give --data-dir or --db)")
        db = f"sqlite:///{path}"
    engine = make_engine(db)
    upgrade(engine)
    return Session(engine)
