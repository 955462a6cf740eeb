"""The store's reader (``db.reader``, docs/web.md): on SQLite every write transaction takes
the database's one write lock when it begins, and reads took it too; a reader's transaction
is a snapshot that neither waits for a writer nor holds one up, and refuses to write."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from asobiba.server.db import Store
from asobiba.tables import TOURNAMENTS


def _store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'a.db'}")


def _add(conn: Connection) -> None:
    conn.execute(insert(TOURNAMENTS).values(
        name="t", kind="swiss", game="reversi", options="{}", clock=None, casual=True,
        rounds=1, minutes=0, starts="2026-01-01T00:00:00+00:00", ends=None, status="open",
        creator_id=None, created="2026-01-01T00:00:00+00:00"))


def test_a_read_neither_waits_for_nor_holds_up_the_write_lock(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        with store.engine.begin() as writer:  # the write lock, held by this thread
            _add(writer)
            # a read meanwhile (through store.engine it waited the 30 s busy timeout and
            # failed "database is locked"): it sees the last commit, not this writer's
            with store.reader.connect() as conn:
                assert conn.execute(select(TOURNAMENTS.c.id)).all() == []
            assert store.active_room_ids() == []
        # a read's snapshot is open while another thread writes and commits
        with store.reader.connect() as conn:
            assert conn.execute(select(TOURNAMENTS.c.name)).scalars().all() == ["t"]
            done = threading.Event()

            def write() -> None:
                with store.engine.begin() as c:
                    c.execute(TOURNAMENTS.update().values(name="u"))
                done.set()

            t = threading.Thread(target=write)
            t.start()
            t.join(60)
            assert done.is_set(), "a writer waited for a reader"
            # the reader's snapshot is its own: it still sees what it began with
            assert conn.execute(select(TOURNAMENTS.c.name)).scalars().all() == ["t"]
        with store.reader.connect() as conn:
            assert conn.execute(select(TOURNAMENTS.c.name)).scalars().all() == ["u"]
    finally:
        store.close()


def test_a_write_through_the_reader_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path)
    try:
        with pytest.raises(OperationalError, match="readonly"), store.reader.begin() as conn:
            conn.execute(TOURNAMENTS.update().values(name="x"))
        # and the connection it used writes again when it is a writer's
        with store.engine.begin() as conn:
            _add(conn)
        with store.reader.connect() as conn:
            assert conn.execute(select(TOURNAMENTS.c.name)).scalars().all() == ["t"]
    finally:
        store.close()
