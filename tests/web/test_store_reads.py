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


def test_writers_take_turns_and_every_ending_gives_the_turn_back(tmp_path: Path) -> None:
    """On SQLite the process's writers queue on a Python lock (db._sqlite_begin) rather than
    in SQLite's busy handler, which sleeps in steps of up to 100 ms: the turn is held from
    BEGIN to the transaction's end — commit, rollback, an error, a connection closed half-way —
    and a second write transaction in the thread that holds it still fails as it did (the
    busy timeout), never waiting for itself for ever."""
    from asobiba.server import db

    store = _store(tmp_path)
    try:
        with store.engine.connect() as probe:
            turn = db._turn(probe)
        with store.engine.begin() as conn:
            _add(conn)
            assert turn.locked()
        assert not turn.locked()  # committed
        with pytest.raises(RuntimeError), store.engine.begin() as conn:
            _add(conn)
            raise RuntimeError("half-way")
        assert not turn.locked()  # rolled back
        conn2 = store.engine.connect()
        conn2.execute(TOURNAMENTS.update().values(name="v"))
        assert turn.locked()
        conn2.close()  # closed half-way: rolled back
        assert not turn.locked()
        # many writers at once: every write stored, the turn free after
        errors: list[BaseException] = []

        def write(i: int) -> None:
            try:
                for _ in range(20):
                    with store.engine.begin() as c:
                        c.execute(TOURNAMENTS.update().values(rounds=TOURNAMENTS.c.rounds + 1))
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert errors == [] and not turn.locked()
        with store.reader.connect() as conn:
            assert conn.execute(select(TOURNAMENTS.c.rounds)).scalars().all() == [1 + 8 * 20]
        # a second write transaction in the thread holding the turn: SQLite's busy timeout
        monkey = pytest.MonkeyPatch()
        monkey.setattr(db, "TURN_WAIT", 0.2)
        try:
            with store.engine.begin() as outer:
                outer.execute(TOURNAMENTS.update().values(name="w"))
                other = store.engine.connect()
                raw = other.connection.driver_connection  # no BEGIN: the driver's own
                assert raw is not None
                raw.execute("PRAGMA busy_timeout=200")
                with pytest.raises(OperationalError, match="locked"):
                    other.execute(TOURNAMENTS.update().values(name="x"))
                other.close()
            assert not turn.locked()
        finally:
            monkey.undo()
    finally:
        store.close()
