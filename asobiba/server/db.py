"""Persistence: rooms, seats, moves and records in SQLAlchemy (SQLite by default, any URL
SQLAlchemy knows — e.g. PostgreSQL — by configuration, with the same code).

Only plain column types are used (JSON is stored as text) so the schema is portable. Every
write is its own transaction and returns only after the commit, which is what lets the server
acknowledge a move only once it is durable.

Many server processes may share one database (PostgreSQL): every write that changes a room's
game takes the room's row lock first (``SELECT … FOR UPDATE``; SQLite's single writer does
the same job) and checks the ply / status it expects, so two processes racing for one room
serialise here: one write is stored, the other raises :class:`Conflict` and changes nothing.

The server writes through :class:`Writer`: one thread that commits every write waiting at
that moment in one transaction (group commit; a refused write changes nothing and does not
spoil the others).
"""

from __future__ import annotations

import contextlib
import enum
import json
import queue
import re
import secrets
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar, Union, cast

from sqlalchemy import (
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from ..core.jsontypes import JSONObject
from ..core.text import TextError

# the tables live with every other table of the platform (one metadata; docs/web.md)
from ..tables import (  # noqa: F401 - re-exported: the store's tables and its clock
    Base,
    MatchSetRow,
    MoveRow,
    RecordRow,
    RoomRow,
    SeatRow,
    SecretRow,
    SetRoomRow,
    stamp,
    utcnow,
)

if TYPE_CHECKING:
    import asyncio

    from sqlalchemy.engine.interfaces import DBAPIConnection


@dataclass
class SeatData:
    seat: int
    kind: str
    level: str | None
    name: str
    key_hash: str | None


@dataclass
class MoveData:
    ply: int
    seat: int
    text: str
    at: str


@dataclass
class SetData:
    """A set as stored: its standing (``state``) and its rooms in order. One object is
    shared by every loaded room of the set, so each sees the current standing."""

    id: str
    state: JSONObject
    rooms: list[str]


@dataclass
class RoomData:
    """A room as stored: everything needed to rebuild it after a restart."""

    id: str
    game: str
    rules_version: int
    options: JSONObject
    seed: int
    casual: bool
    hotseat: bool
    clock: JSONObject | None
    status: str
    result: JSONObject | None
    rematch_of: str | None
    rematch_id: str | None
    created: str
    seats: list[SeatData]
    moves: list[MoveData]
    match_set: SetData | None = None
    set_index: int = 0


def _sqlite_pragmas(dbapi_connection: DBAPIConnection, _record: object) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL + NORMAL: a commit is durable against a crash of the process (kill -9) — the WAL is
    # written before the commit returns — and only an OS crash or power loss can lose the
    # last commits; FULL adds an fsync per commit, which capped a server at ~40 moves/s
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


#: The execution option that marks a read-only engine (:func:`reader`).
READ_ONLY = "asobiba_read_only"


def _sqlite_begin(conn: Connection) -> None:
    if conn.get_execution_options().get(READ_ONLY):
        # a reader (see reader()): a deferred BEGIN reads a WAL snapshot without the write
        # lock, so it neither waits for the writers nor holds them up; query_only makes a
        # write through it fail at once instead of racing for the lock half-way
        _query_only(conn, True)
        conn.exec_driver_sql("BEGIN")
        return
    # IMMEDIATE: a transaction takes the write lock when it starts (waiting its turn under
    # the busy timeout), so a read-then-write transaction can never fail half-way because
    # another connection wrote in between. The writers of this process first wait for
    # their turn on a Python lock: a thread that finds SQLite's lock taken sleeps in
    # SQLite's busy handler in growing steps (up to 100 ms) however soon the lock is free,
    # and with several writers (the rooms' commits, results being recorded, a tournament
    # round) a move's acknowledgement waited hundreds of ms that way; a Python lock wakes
    # the next writer at once. Released when the transaction ends (_sqlite_end).
    turn = _turn(conn)
    held = conn.info.get(_TURN) is turn or turn.acquire(timeout=TURN_WAIT)
    try:
        _query_only(conn, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    except BaseException:
        if held and conn.info.get(_TURN) is not turn:
            turn.release()
        raise
    if held:
        conn.info[_TURN] = turn


def _query_only(conn: Connection, on: bool) -> None:
    """Set SQLite's ``query_only`` on ``conn``'s connection, if it is not set so already
    (kept in the pooled connection's info: one statement fewer per transaction)."""
    if conn.info.get(_QUERY_ONLY) is not on:
        conn.exec_driver_sql(f"PRAGMA query_only={int(on)}")
        conn.info[_QUERY_ONLY] = on


_QUERY_ONLY = "asobiba_query_only"
#: Seconds a writer waits for its turn before trying SQLite's own lock anyway (its busy
#: timeout): a second write transaction opened by a thread that holds one fails as before
#: instead of waiting for itself for ever.
TURN_WAIT = 30.0
_TURN = "asobiba_write_turn"
_turns: weakref.WeakKeyDictionary[object, threading.Lock] = weakref.WeakKeyDictionary()
_turns_lock = threading.Lock()


def _turn(conn: Connection) -> threading.Lock:
    """The write turn of ``conn``'s database in this process (one per connection pool)."""
    pool = conn.engine.pool
    got = _turns.get(pool)
    if got is None:
        with _turns_lock:
            got = _turns.setdefault(pool, threading.Lock())
    return got


def _sqlite_end(conn: Connection) -> None:
    """A transaction ends (commit or rollback): the next writer's turn."""
    turn = conn.info.pop(_TURN, None)
    if turn is not None:
        turn.release()


def _sqlite_checkin(_dbapi_connection: DBAPIConnection, record: object) -> None:
    """A connection back in the pool still holding the turn (a transaction never ended,
    e.g. the connection was invalidated): the turn is given back."""
    info = getattr(record, "info", None)
    turn = info.pop(_TURN, None) if info is not None else None
    if turn is not None:
        turn.release()


def reader(engine: Engine) -> Engine:
    """``engine`` for reads only (same pool). On SQLite every other transaction takes the
    database's one write lock when it begins (``BEGIN IMMEDIATE``), reads included: a page
    that loaded a 200-player tournament held up every room's commit meanwhile
    (docs/benchmarks.md, "Tournament load"). A reader's transaction is a snapshot that takes
    no lock; a write through it fails (``attempt to write a readonly database``). On
    PostgreSQL, whose readers never block writers, it is the same engine."""
    got = _readers.get(engine)
    if got is None:
        got = _readers[engine] = engine.execution_options(**{READ_ONLY: True})
    return got


_readers: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
"""What PostgreSQL cannot store in text (NUL; an unpaired surrogate is not UTF-8)."""


def _refuse_unstorable(conn: Connection, cursor: object, statement: str, parameters: object,
                       context: object, executemany: bool) -> None:
    """The store's own guard, on both databases alike: a NUL or an unpaired surrogate in any
    parameter is refused (400 ``bad_text``) before the database sees it — PostgreSQL failed
    with a DataError (a 500) and SQLite stored it. The web's Guard refuses such requests
    first; this is the line nothing passes (docs/fair-play.md)."""
    rows = parameters if executemany and isinstance(parameters, (list, tuple)) else [parameters]
    for row in rows:
        if isinstance(row, dict):
            values: Sequence[object] = list(row.values())
        elif isinstance(row, (list, tuple)):
            values = row
        else:
            continue
        for value in values:
            if isinstance(value, str):
                found = _UNSTORABLE.search(value)
                if found:
                    raise TextError("stored text", found.group())


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        # the driver's own transaction handling cannot nest (SAVEPOINT) and runs a
        # transaction's reads outside it; SQLAlchemy's documented recipe: turn it off and
        # let SQLAlchemy emit BEGIN itself
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30,
                                                  "isolation_level": None})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        event.listen(engine, "commit", _sqlite_end)
        event.listen(engine, "rollback", _sqlite_end)
        event.listen(engine.pool, "checkin", _sqlite_checkin)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    event.listen(engine, "before_cursor_execute", _refuse_unstorable)
    return engine


class Conflict(Exception):
    """A write refused because the room is not where the writer thought (another process or
    request moved, undid or ended it first): nothing was changed; reload and look again."""


class Store:
    """Synchronous storage API; the server calls it through its :class:`Writer` (writes) or
    a worker thread (reads)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        #: the same database for reads only: no write lock (see :func:`reader`)
        self.reader = reader(self.engine)
        self._sql_cache: dict[str, str] = {}
        from .schema import upgrade

        upgrade(self.engine)  # the schema at the newest migration (docs/web.md)
        self.writer = Writer(self)

    def close(self) -> None:
        self.writer.close()
        self.engine.dispose()

    # ---- the per-room guard every game-changing write goes through -------------------------
    @staticmethod
    def _lock_room(s: Session, room_id: str, expect_ply: int | None,
                   active: bool = True) -> None:
        """Take the room's row lock; :class:`Conflict` unless it is still active (when
        ``active``) with exactly ``expect_ply`` moves stored."""
        status = s.execute(select(RoomRow.status).where(RoomRow.id == room_id)
                           .with_for_update()).scalar_one_or_none()
        if status is None:
            raise Conflict(f"room {room_id} does not exist")
        if active and status != "active":
            raise Conflict(f"room {room_id} is {status}")
        if expect_ply is not None:
            stored = s.execute(select(func.count()).select_from(MoveRow)
                               .where(MoveRow.room_id == room_id)).scalar_one()
            if stored != expect_ply:
                raise Conflict(f"room {room_id} has {stored} moves, not {expect_ply}")

    # ---- writes (each one transaction, committed on return) --------------------------------
    def create_room(self, room: RoomData) -> None:
        with Session(self.engine) as s, s.begin():
            self.create_room_in(s, room)

    def create_room_in(self, s: Session, room: RoomData) -> None:
        now = utcnow()
        s.add(RoomRow(
            id=room.id, game=room.game, rules_version=room.rules_version,
            options=json.dumps(room.options), seed=room.seed, casual=room.casual,
            hotseat=room.hotseat, clock=json.dumps(room.clock) if room.clock else None,
            status=room.status, result=None, rematch_of=room.rematch_of,
            rematch_id=None, created=room.created or now, updated=now,
        ))
        s.flush()
        for seat in room.seats:
            s.add(SeatRow(room_id=room.id, seat=seat.seat, kind=seat.kind,
                          level=seat.level, name=seat.name, key_hash=seat.key_hash))
        # an opening (a daily challenge's seeded first moves) is stored with the room, in
        # the same transaction: a crash can never leave a room with half its opening
        for move in room.moves:
            s.add(MoveRow(room_id=room.id, ply=move.ply, seat=move.seat, text=move.text,
                          at=move.at))
        # a set's first room creates the set, later rooms join it (the unique game
        # number refuses a second room for the same game of a set)
        if room.match_set is not None:
            if room.set_index == 0:
                s.add(MatchSetRow(id=room.match_set.id,
                                  state=json.dumps(room.match_set.state), updated=now))
                s.flush()
            s.add(SetRoomRow(room_id=room.id, set_id=room.match_set.id,
                             game_index=room.set_index))
        s.flush()  # a refused row fails here, inside the caller's savepoint

    def add_move(self, room_id: str, move: MoveData, finished_result: JSONObject | None,
                 record: str | None, set_state: tuple[str, JSONObject] | None = None
                 ) -> None:
        """Store one move (and, if it ended the game, the result and record, and the
        standing of the room's set) atomically. A duplicate ply raises, so two racing
        writers can never both succeed: the loser gets :class:`Conflict` (or, writing
        without the room lock, the database's own duplicate-key error)."""
        with Session(self.engine) as s, s.begin():
            self.add_move_in(s, room_id, move, finished_result, record, set_state)

    def _sql(self, text: str) -> str:
        """``text`` (written with ``?`` placeholders) in the driver's parameter style."""
        sql = self._sql_cache.get(text)
        if sql is None:
            style = self.engine.dialect.paramstyle
            sql = text.replace("?", "%s") if style in ("format", "pyformat") else text
            if self.engine.dialect.name == "sqlite":  # one writer: no row lock to take
                sql = sql.replace(" FOR UPDATE", "")
            self._sql_cache[text] = sql
        return sql

    def add_move_in(self, s: Session, room_id: str, move: MoveData,
                    finished_result: JSONObject | None, record: str | None,
                    set_state: tuple[str, JSONObject] | None = None) -> None:
        # The hot path of the whole server (every move of every game): the same statements
        # as _lock_room and the ORM would issue, straight through the driver's cursor on the
        # session's connection (same transaction), because building, caching and compiling
        # the SQLAlchemy statements cost more CPU than the database's own work
        cur = s.connection().connection.cursor()
        try:
            cur.execute(self._sql("SELECT status FROM rooms WHERE id = ? FOR UPDATE"),
                        (room_id,))
            row = cur.fetchone()
            if row is None:
                raise Conflict(f"room {room_id} does not exist")
            if row[0] != "active":
                raise Conflict(f"room {room_id} is {row[0]}")
            status, result = ("finished", json.dumps(finished_result)) \
                if finished_result is not None else (None, None)
            if self.engine.dialect.name == "postgresql":
                # one round trip for the check, the move and the room (a fresh snapshot
                # after the row lock above, so a move committed meanwhile is counted)
                cur.execute(self._sql(
                    "WITH ins AS (INSERT INTO moves (room_id, ply, seat, text, at) "
                    "SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM moves "
                    "WHERE room_id = ?) = ? RETURNING 1) "
                    "UPDATE rooms SET updated = ?, status = COALESCE(?, status), "
                    "result = COALESCE(?, result) "
                    "WHERE id = ? AND EXISTS (SELECT 1 FROM ins)"),
                    (room_id, move.ply, move.seat, move.text, move.at, room_id, move.ply,
                     move.at, status, result, room_id))
                if cur.rowcount != 1:
                    cur.execute(self._sql("SELECT COUNT(*) FROM moves WHERE room_id = ?"),
                                (room_id,))
                    stored = int(cur.fetchone()[0])  # type: ignore[index]
                    raise Conflict(f"room {room_id} has {stored} moves, not {move.ply}")
            else:
                cur.execute(self._sql("SELECT COUNT(*) FROM moves WHERE room_id = ?"),
                            (room_id,))
                stored = int(cur.fetchone()[0])  # type: ignore[index]
                if stored != move.ply:
                    raise Conflict(f"room {room_id} has {stored} moves, not {move.ply}")
                cur.execute(self._sql("INSERT INTO moves (room_id, ply, seat, text, at) "
                                      "VALUES (?, ?, ?, ?, ?)"),
                            (room_id, move.ply, move.seat, move.text, move.at))
                cur.execute(self._sql("UPDATE rooms SET updated = ?, "
                                      "status = COALESCE(?, status), "
                                      "result = COALESCE(?, result) WHERE id = ?"),
                            (move.at, status, result, room_id))
        finally:
            cur.close()
        if record is not None:
            s.merge(RecordRow(room_id=room_id, record=record, saved=move.at))
            s.flush()
        self._set_state(s, set_state, move.at)

    def add_moves_in(self, s: Session, batch: Sequence[tuple[object, ...]]
                     ) -> list[Conflict | None]:
        """Many :meth:`add_move_in` at once — the moves of one group commit, each for a
        different room — with the same checks and the same rows, in three statements for the
        whole batch instead of two to four per move: the rooms' row locks (taken in id order,
        so two processes locking overlapping batches queue instead of deadlocking) with their
        stored move counts, every move, every room's ``updated``/result. A move whose room is
        missing, not active or has another move count gets its :class:`Conflict` (returned,
        in its place) and writes nothing; the others are written. On PostgreSQL the
        round trips per batch, not the database's work, were the writer's time (a batch of
        ten moves took ~15 ms, ~7 ms this way); on SQLite, the statements' Python overhead."""
        ids = [str(args[0]) for args in batch]
        if len(batch) == 1 or len(set(ids)) != len(ids):
            out: list[Conflict | None] = []
            for args in batch:  # a room twice in one batch: strictly one after the other
                try:
                    self.add_move_in(s, *args)  # type: ignore[arg-type]
                    out.append(None)
                except Conflict as exc:
                    out.append(exc)
            return out
        pg = self.engine.dialect.name == "postgresql"
        params: list[object]
        if pg:
            where, params = "= ANY(%s)", [ids]
        else:
            where, params = f"IN ({', '.join('?' * len(ids))})", list(ids)
        outcomes: list[Conflict | None] = []
        rows: list[tuple[object, ...]] = []
        updates: list[tuple[object, ...]] = []
        cur = s.connection().connection.cursor()
        try:
            # the row locks and the move counts in one statement. On PostgreSQL a count
            # taken while waiting for a lock (another process was writing that room) comes
            # from before that write: then the insert below hits the (room, ply) primary
            # key, the batch is rolled back and each write is tried again alone, where
            # add_move_in counts after the lock — a refusal, slowly, never a double move
            lock = " ORDER BY r.id FOR UPDATE OF r" if pg else ""  # SQLite: BEGIN IMMEDIATE
            cur.execute("SELECT r.id, r.status, (SELECT COUNT(*) FROM moves m "
                        f"WHERE m.room_id = r.id) FROM rooms r WHERE r.id {where}{lock}",
                        params)
            rows_found = cur.fetchall()
            status = {str(r[0]): str(r[1]) for r in rows_found}
            stored = {str(r[0]): int(r[2]) for r in rows_found}
            for room_id, args in zip(ids, batch):
                move = cast(MoveData, args[1])
                finished = cast("JSONObject | None", args[2])
                if room_id not in status:
                    outcomes.append(Conflict(f"room {room_id} does not exist"))
                elif status[room_id] != "active":
                    outcomes.append(Conflict(f"room {room_id} is {status[room_id]}"))
                elif stored.get(room_id, 0) != move.ply:
                    outcomes.append(Conflict(f"room {room_id} has {stored.get(room_id, 0)} "
                                             f"moves, not {move.ply}"))
                else:
                    outcomes.append(None)
                    rows.append((room_id, move.ply, move.seat, move.text, move.at))
                    updates.append((move.at, "finished" if finished is not None else None,
                                    json.dumps(finished) if finished is not None else None,
                                    room_id))
            if rows:
                cur.executemany(self._sql("INSERT INTO moves (room_id, ply, seat, text, at) "
                                          "VALUES (?, ?, ?, ?, ?)"), rows)
                cur.executemany(self._sql("UPDATE rooms SET updated = ?, "
                                          "status = COALESCE(?, status), "
                                          "result = COALESCE(?, result) WHERE id = ?"), updates)
        finally:
            cur.close()
        for args, outcome in zip(batch, outcomes):
            if outcome is None:
                move = cast(MoveData, args[1])
                record = cast("str | None", args[3])
                if record is not None:
                    s.merge(RecordRow(room_id=str(args[0]), record=record, saved=move.at))
                    s.flush()
                set_state = cast("tuple[str, JSONObject] | None",
                                 args[4] if len(args) > 4 else None)
                self._set_state(s, set_state, move.at)
        return outcomes

    @staticmethod
    def _set_state(s: Session, set_state: tuple[str, JSONObject] | None, now: str) -> None:
        if set_state is not None:
            set_id, state = set_state
            s.execute(update(MatchSetRow).where(MatchSetRow.id == set_id).values(
                state=json.dumps(state), updated=now))

    def truncate_moves(self, room_id: str, from_ply: int, expect_ply: int | None = None
                       ) -> None:
        """Undo: drop the moves from ``from_ply`` on (of a room that has ``expect_ply``)."""
        with Session(self.engine) as s, s.begin():
            self.truncate_moves_in(s, room_id, from_ply, expect_ply)

    def truncate_moves_in(self, s: Session, room_id: str, from_ply: int,
                          expect_ply: int | None = None) -> None:
        self._lock_room(s, room_id, expect_ply)
        s.execute(delete(MoveRow).where(MoveRow.room_id == room_id, MoveRow.ply >= from_ply))
        s.execute(update(RoomRow).where(RoomRow.id == room_id).values(updated=utcnow()))

    def finish(self, room_id: str, result: JSONObject, record: str,
               set_state: tuple[str, JSONObject] | None = None,
               expect_ply: int | None = None) -> None:
        """End a game without a move (resignation, time, adjudication), with its set's
        standing; :class:`Conflict` if it already ended (a flag falls once, whichever
        process sees it first) or a move arrived meanwhile."""
        with Session(self.engine) as s, s.begin():
            self.finish_in(s, room_id, result, record, set_state, expect_ply)

    def finish_in(self, s: Session, room_id: str, result: JSONObject, record: str,
                  set_state: tuple[str, JSONObject] | None = None,
                  expect_ply: int | None = None) -> None:
        self._lock_room(s, room_id, expect_ply, active=expect_ply is not None)
        now = utcnow()
        s.execute(update(RoomRow).where(RoomRow.id == room_id).values(
            status="finished", result=json.dumps(result), updated=now))
        s.merge(RecordRow(room_id=room_id, record=record, saved=now))
        s.flush()
        self._set_state(s, set_state, now)

    def set_rematch(self, room_id: str, rematch_id: str) -> None:
        """Name the room's rematch, once: a second, racing rematch gets :class:`Conflict`."""
        with Session(self.engine) as s, s.begin():
            self.set_rematch_in(s, room_id, rematch_id)

    def set_rematch_in(self, s: Session, room_id: str, rematch_id: str) -> None:
        done = s.execute(update(RoomRow).where(RoomRow.id == room_id,
                                               RoomRow.rematch_id.is_(None))
                         .values(rematch_id=rematch_id, updated=utcnow()))
        if not getattr(done, "rowcount", 1):
            raise Conflict(f"room {room_id} already has a rematch")

    def touch_rooms_in(self, s: Session, room_ids: Sequence[str]) -> None:
        """Mark unfinished rooms as seen now (someone is connected): retention's clock."""
        s.execute(update(RoomRow).where(RoomRow.id.in_(list(room_ids)),
                                        RoomRow.status == "active").values(updated=utcnow()))

    # ---- reads -------------------------------------------------------------------------
    def unseen_since(self, cutoff: float, limit: int = 50) -> list[tuple[str, str]]:
        """Unfinished rooms with no move and no connection since ``cutoff`` (a Unix time):
        (id, last seen), oldest first."""
        iso = stamp(datetime.fromtimestamp(cutoff, UTC))
        with Session(self.reader) as s:
            rows = s.execute(select(RoomRow.id, RoomRow.updated)
                             .where(RoomRow.status == "active", RoomRow.updated < iso)
                             .order_by(RoomRow.updated).limit(limit)).all()
            return [(r[0], r[1]) for r in rows]

    def correspondence_active(self, limit: int = 50) -> list[str]:
        """Unfinished rooms with a deadline per move (``{"per_move": s}``), oldest move first."""
        with Session(self.reader) as s:
            return list(s.scalars(select(RoomRow.id).where(
                RoomRow.status == "active", RoomRow.clock.like('%"per_move"%'))
                .order_by(RoomRow.updated).limit(limit)).all())

    def load_room(self, room_id: str) -> RoomData | None:
        with Session(self.reader) as s:
            row = s.get(RoomRow, room_id)
            if row is None:
                return None
            seats = s.scalars(select(SeatRow).where(SeatRow.room_id == room_id)
                              .order_by(SeatRow.seat)).all()
            moves = s.scalars(select(MoveRow).where(MoveRow.room_id == room_id)
                              .order_by(MoveRow.ply)).all()
            match_set, set_index = None, 0
            link = s.get(SetRoomRow, room_id)
            if link is not None:
                set_row = s.get(MatchSetRow, link.set_id)
                assert set_row is not None  # a foreign key
                rooms = s.scalars(select(SetRoomRow.room_id)
                                  .where(SetRoomRow.set_id == link.set_id)
                                  .order_by(SetRoomRow.game_index)).all()
                match_set = SetData(set_row.id, json.loads(set_row.state), list(rooms))
                set_index = link.game_index
            return RoomData(
                id=row.id, game=row.game, rules_version=row.rules_version,
                options=json.loads(row.options), seed=row.seed, casual=row.casual,
                hotseat=row.hotseat, clock=json.loads(row.clock) if row.clock else None,
                status=row.status, result=json.loads(row.result) if row.result else None,
                rematch_of=row.rematch_of, rematch_id=row.rematch_id, created=row.created,
                seats=[SeatData(x.seat, x.kind, x.level, x.name, x.key_hash) for x in seats],
                moves=[MoveData(m.ply, m.seat, m.text, m.at) for m in moves],
                match_set=match_set, set_index=set_index,
            )

    def room_heads(self, room_ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """(status, moves stored) of each room: how a web process that missed the bus's
        news (Redis away) sees cheaply which of its rooms changed elsewhere."""
        ids = list(room_ids)
        with Session(self.reader) as s:
            counts = {str(r[0]): int(r[1]) for r in s.execute(
                select(MoveRow.room_id, func.count()).where(MoveRow.room_id.in_(ids))
                .group_by(MoveRow.room_id)).all()}
            return {str(r[0]): (str(r[1]), counts.get(str(r[0]), 0)) for r in s.execute(
                select(RoomRow.id, RoomRow.status).where(RoomRow.id.in_(ids))).all()}

    def active_room_ids(self) -> Sequence[str]:
        with Session(self.reader) as s:
            return list(s.scalars(select(RoomRow.id).where(RoomRow.status == "active")))

    def record(self, room_id: str) -> str | None:
        with Session(self.reader) as s:
            row = s.get(RecordRow, room_id)
            return row.record if row else None

    def secret(self, name: str) -> bytes:
        """The server secret ``name`` (32 random bytes, hex in ``prog_secrets``), created on
        first use and the same for every process on this database (a process that loses
        the race to create it reads the winner's). Never sent to anyone."""
        from sqlalchemy.exc import IntegrityError

        for _ in range(3):
            with Session(self.engine) as s:
                row = s.get(SecretRow, name)
                if row is not None:
                    return bytes.fromhex(row.value)
            try:
                with Session(self.engine) as s, s.begin():
                    s.add(SecretRow(name=name, value=secrets.token_hex(32)))
            except IntegrityError:  # created by another process meanwhile: read it
                pass
        raise RuntimeError(f"the server secret {name!r} could not be created")

    def recent_finished(self, limit: int = 20) -> list[JSONObject]:
        with Session(self.reader) as s:
            rows = s.scalars(select(RoomRow).where(RoomRow.status == "finished")
                             .order_by(RoomRow.updated.desc()).limit(limit)).all()
            return [{"id": r.id, "game": r.game, "updated": r.updated} for r in rows]


class _Stop(enum.Enum):
    STOP = 0


_STOP = _Stop.STOP  # tells the writer thread to end


_P = ParamSpec("_P")
_R = TypeVar("_R")


class _Write(Protocol):
    """A ``Store.<name>_in`` method: one write, in the batch's session (its arguments were
    checked against its own signature where it was queued, by ``submit``'s and ``run``'s
    types; the queue only keeps them)."""

    def __call__(self, s: Session, /, *args: object, **kwargs: object) -> object: ...


_Waiter = Union[Future[object], "asyncio.Future[object]"]
"""Whoever waits for a write: a concurrent future (``submit``) or an asyncio one (``run``)."""
_Item = tuple[_Write, tuple[object, ...], dict[str, object], _Waiter]


class Writer:
    """One thread that does every write of a server process, in group commits.

    ``await writer.run(store.add_move_in, …)`` queues the write and resolves once its transaction
    has committed. The thread takes everything queued at that moment, runs the writes in one
    transaction and commits once: under load, fifty moves cost one commit instead of fifty
    (and on SQLite nobody waits on the file's write lock). A write refused by the room check
    (:class:`Conflict`) has written nothing, so the others go on; if a write fails in the
    database, the batch is rolled back and every write is tried again alone, so only the
    failing write's caller sees its error (a savepoint per write did the same at more CPU)."""

    MAX_BATCH = 200

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Item | _Stop] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._conn: Connection | None = None
        self.batches = 0
        self.writes = 0

    def submit(self, write: Callable[Concatenate[Session, _P], _R], *args: _P.args,
               **kwargs: _P.kwargs) -> Future[_R]:
        """Queue ``write(session, *args, **kwargs)`` (a ``Store.<name>_in`` method, e.g.
        ``store.add_move_in``); the future resolves after the commit."""
        fut: Future[object] = Future()
        self._put((cast(_Write, write), args, kwargs, fut))
        return cast("Future[_R]", fut)  # settled with write's own result

    async def run(self, write: Callable[Concatenate[Session, _P], _R], *args: _P.args,
                  **kwargs: _P.kwargs) -> _R:
        """``submit`` for a coroutine: the result (or the write's exception) once committed.
        An asyncio future settled from the thread directly — one wake-up of the event loop
        per batch, not a concurrent future and a chained callback per write."""
        import asyncio

        fut: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._put((cast(_Write, write), args, kwargs, fut))
        return cast(_R, await fut)  # write's own result

    def _put(self, item: _Item) -> None:
        self._queue.put(item)
        if self._thread is None:
            with self._lock:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name="asobiba-writer",
                                                    daemon=True)
                    self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(10)
            self._thread = None
        self._drop()

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            batch = [item]
            while len(batch) < self.MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is _STOP:
                    self._queue.put(_STOP)
                    break
                batch.append(more)
            self._commit(batch)

    @staticmethod
    def _live(fut: _Waiter) -> bool:
        """Still wanted: a concurrent future is marked running; an asyncio one (whose
        awaiting task may have been cancelled) must not be cancelled."""
        if isinstance(fut, Future):
            return fut.set_running_or_notify_cancel()
        return not fut.cancelled()

    @staticmethod
    def _settle(done: list[tuple[_Waiter, bool, object]]) -> None:
        """Hand each write's outcome to its caller (for asyncio futures: in their loop)."""
        by_loop: dict[asyncio.AbstractEventLoop,
                      list[tuple[asyncio.Future[object], bool, object]]] = {}
        for fut, ok, value in done:
            if isinstance(fut, Future):
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(cast(BaseException, value))  # ok is False
            else:
                by_loop.setdefault(fut.get_loop(), []).append((fut, ok, value))
        for loop, items in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle_in_loop, items)
            except RuntimeError:  # the loop has closed: nobody is waiting any more
                pass

    def _session(self) -> Session:
        """A session on the writer thread's own connection, kept from batch to batch: a
        pool checkout per batch cost a round trip (the pool's liveness ping) and its Python
        work each time. After a failed batch the connection is dropped and the next batch
        opens a new one (checked by that ping), so a restarted database is reconnected."""
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self.store.engine.connect()
        return Session(bind=conn)

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, batch: list[_Item]) -> None:
        live = [b for b in batch if self._live(b[3])]
        outcomes: list[tuple[bool, object]] = []
        try:
            add_move = self.store.add_move_in
            with self._session() as s, s.begin():
                i = 0
                while i < len(live):
                    fn, args, kwargs, _fut = live[i]
                    if fn == add_move and not kwargs:  # a run of moves: together, in order
                        j = i + 1
                        while j < len(live) and live[j][0] == add_move and not live[j][2]:
                            j += 1
                        for conflict in self.store.add_moves_in(
                                s, [item[1] for item in live[i:j]]):
                            outcomes.append((True, None) if conflict is None
                                            else (False, conflict))
                        i = j
                        continue
                    try:
                        outcomes.append((True, fn(s, *args, **kwargs)))
                    except Conflict as exc:  # raised before the write wrote anything
                        outcomes.append((False, exc))
                    i += 1
        except Exception:  # noqa: BLE001 - one write failed in the database: the batch is
            # rolled back; each write is tried again alone, so only its own caller sees it
            self._drop()
            if len(live) > 1:
                for item in live:
                    self._alone(item)
                return
            error = sys.exc_info()[1] or RuntimeError("commit failed")
            self._settle([(fut, False, error) for _fn, _args, _kwargs, fut in live])
            return
        self.batches += 1
        self.writes += len(live)
        self._settle([(fut, ok, value) for (ok, value), (_fn, _args, _kwargs, fut)
                      in zip(outcomes, live)])

    def _alone(self, item: _Item) -> None:
        fn, args, kwargs, fut = item
        try:
            with self._session() as s, s.begin():
                value = fn(s, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - handed to its own caller
            if not isinstance(exc, Conflict):  # a refusal leaves the connection sound
                self._drop()
            self._settle([(fut, False, exc)])
            return
        self.batches += 1
        self.writes += 1
        self._settle([(fut, True, value)])


def _settle_in_loop(items: list[tuple[asyncio.Future[object], bool, object]]) -> None:
    for fut, ok, value in items:
        if fut.done():  # its task was cancelled meanwhile
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(cast(BaseException, value))  # ok is False
