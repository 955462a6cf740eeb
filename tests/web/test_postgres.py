"""The store on both databases the server supports: SQLite (the default) and PostgreSQL
("a PostgreSQL URL by configuration with the same code"). The room-level tests in
test_server.py (commit before acknowledgement, resume after a restart, records, undo,
rematch, clocks) also run on both through the ``db_url`` fixture; these check the store's
own promises directly, where the two databases differ most (constraints, lengths, types)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from asobiba.server.db import Conflict, MoveData, RoomData, SeatData, Store, utcnow

# a refused write: the room lock's check (Conflict) or the database's own constraint
REFUSED = (IntegrityError, Conflict)


def a_room(room_id: str, **kw: Any) -> RoomData:
    fields: dict[str, Any] = dict(
        id=room_id, game="reversi", rules_version=1, options={"size": 8, "名前": "盤"},
        seed=2**48 - 1, casual=True, hotseat=False, clock={"initial": 60, "increment": 2},
        status="active", result=None, rematch_of=None, rematch_id=None, created=utcnow(),
        seats=[SeatData(0, "human", None, "あき", "k" * 64),
               SeatData(1, "bot", "5", "", None)],
        moves=[])
    fields.update(kw)
    return RoomData(**fields)


def test_rule_a_room_round_trips_exactly(db_url: str) -> None:
    store = Store(db_url)
    room = a_room("r1")
    store.create_room(room)
    loaded = store.load_room("r1")
    assert loaded == room, "options, the 48-bit seed, the clock and seats come back as stored"
    assert store.load_room("nope") is None
    assert list(store.active_room_ids()) == ["r1"]


def test_rule_a_duplicate_ply_is_refused_so_racing_writers_cannot_both_win(
        db_url: str) -> None:
    store = Store(db_url)
    store.create_room(a_room("r2"))
    store.add_move("r2", MoveData(0, 0, "d3", utcnow()), None, None)
    with pytest.raises(REFUSED):
        store.add_move("r2", MoveData(0, 1, "c5", utcnow()), None, None)
    # two writers (two threads, two connections) racing for the same ply: exactly one wins
    other = Store(db_url)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def write(s: Store, text: str) -> None:
        barrier.wait()
        try:
            s.add_move("r2", MoveData(1, 1, text, utcnow()), None, None)
            outcomes.append("stored")
        except REFUSED:
            outcomes.append("refused")

    threads = [threading.Thread(target=write, args=(s, t))
               for s, t in ((store, "c5"), (other, "e3"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["refused", "stored"]
    loaded = store.load_room("r2")
    assert loaded is not None and [m.ply for m in loaded.moves] == [0, 1]
    assert loaded.moves[0].text == "d3", "the refused write changed nothing"
    other.close()


def test_rule_a_long_move_text_is_stored_whole(db_url: str) -> None:
    store = Store(db_url)
    store.create_room(a_room("r3"))
    text = " ".join(f"{c}{r}O" for c in "abcdefgh" for r in range(1, 9))  # 263 characters
    store.add_move("r3", MoveData(0, 0, text, utcnow()), None, None)
    loaded = store.load_room("r3")
    assert loaded is not None and loaded.moves[0].text == text


def test_rule_a_finishing_move_stores_result_and_record_in_one_transaction(
        db_url: str) -> None:
    store = Store(db_url)
    store.create_room(a_room("r4"))
    result = {"scores": [1.0, 0.0], "ranks": [1, 2]}
    store.add_move("r4", MoveData(0, 0, "d3", utcnow()), result, '{"record": 1}')
    loaded = store.load_room("r4")
    assert loaded is not None and loaded.status == "finished" and loaded.result == result
    assert store.record("r4") == '{"record": 1}'
    assert list(store.active_room_ids()) == []
    assert [r["id"] for r in store.recent_finished()] == ["r4"]


def test_rule_undo_truncates_and_resign_finishes_and_rematch_links(db_url: str) -> None:
    store = Store(db_url)
    store.create_room(a_room("r5"))
    for ply, text in enumerate(["d3", "c5", "f6"]):
        store.add_move("r5", MoveData(ply, ply % 2, text, utcnow()), None, None)
    store.truncate_moves("r5", 1)
    loaded = store.load_room("r5")
    assert loaded is not None and [m.text for m in loaded.moves] == ["d3"]
    store.add_move("r5", MoveData(1, 1, "e3", utcnow()), None, None)  # the ply is free again
    store.finish("r5", {"resigned": 0}, '{"r": 5}')
    store.finish("r5", {"resigned": 0}, '{"r": 6}')  # the record is replaced, not doubled
    assert store.record("r5") == '{"r": 6}'
    store.create_room(a_room("r6", rematch_of="r5"))
    store.set_rematch("r5", "r6")
    loaded = store.load_room("r5")
    assert loaded is not None and loaded.rematch_id == "r6" and loaded.status == "finished"
    assert store.load_room("r6").rematch_of == "r5"  # type: ignore[union-attr]


def test_rule_a_move_for_an_unknown_room_is_refused(db_url: str) -> None:
    store = Store(db_url)
    with pytest.raises(REFUSED):
        store.add_move("ghost", MoveData(0, 0, "d3", utcnow()), None, None)
