"""The progression tables (all prefixed ``prog_``). They are defined with every other table
of the platform on the one metadata of :mod:`asobiba.tables` (and re-exported here);
:func:`create_all` creates only these, for a database used by progression alone (the CLI)."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from ..tables import (  # noqa: F401 - re-exported: the progression tables and the one clock
    Base,
    DailyRow,
    GameRow,
    GameSeatRow,
    LadderRow,
    PlayerRow,
    RatingRow,
    SecretRow,
    SessionRow,
    TrophyRow,
    utcnow,
)

TABLES = [t for name, t in Base.metadata.tables.items() if name.startswith("prog_")]
"""The progression tables (a database used by progression alone holds only these)."""


def create_all(engine: Engine) -> None:
    """Create the ``prog_`` tables (idempotent)."""
    Base.metadata.create_all(engine, tables=TABLES)
