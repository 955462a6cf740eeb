"""The store on both databases the server supports: SQLite (the default) and PostgreSQL
("a PostgreSQL URL by configuration with the same code"). The room-level tests in
test_server.py (commit before acknowledgement, resume after a restart, records, undo,
rematch, clocks) also run on both through the ``db_url`` fixture; these check the store's
own promises directly, where the two databases differ most (constraints, lengths, types)."""

from __future__ import annotations

import threading
from collections.abc import Callable
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


def _batched(store: Store, writes: list[tuple[Callable[..., object], tuple[Any, ...]]],
             one_batch: bool = True) -> list[object]:
    """Queue ``writes`` on the store's writer while its thread is held, so they are taken
    and committed as one batch (one group commit); each write's outcome in order (its value,
    or the exception it raised). ``one_batch``: check that they were one commit (a batch
    that meets another writer's rows may instead be retried write by write)."""
    gate, holding = threading.Event(), threading.Event()

    def hold_in(_s: Any) -> None:
        holding.set()
        gate.wait(60)

    first = store.writer.submit(hold_in)
    assert holding.wait(60), "the writer thread took the holding write"
    before = store.writer.batches
    futures = [store.writer.submit(write, *args) for write, args in writes]
    gate.set()
    first.result(60)
    outcomes: list[object] = []
    for fut in futures:
        try:
            outcomes.append(fut.result(60))
        except Exception as exc:  # noqa: BLE001 - the outcome under test
            outcomes.append(exc)
    if one_batch:
        assert store.writer.batches - before == 2, "the holding write, then all at once"
    return outcomes


def test_rule_moves_of_one_group_commit_are_checked_and_written_each_as_alone(
        db_url: str) -> None:
    """Issue 13 item 3 (group commit, fewer round trips per move): the moves committed
    together are written by four statements for the whole batch, with every per-move check
    kept — each move is stored, or refused with Conflict and nothing of it written."""
    store = Store(db_url)
    for room_id in ("b1", "b2", "b3", "b4", "b5"):
        store.create_room(a_room(room_id))
    store.add_move("b2", MoveData(0, 0, "d3", utcnow()), None, None)
    store.finish("b4", {"resigned": 0}, '{"r": 4}')
    result = {"scores": [1.0, 0.0], "ranks": [1, 2]}
    outcomes = _batched(store, [
        (store.add_move_in, ("b1", MoveData(0, 0, "d3", utcnow()), None, None)),
        (store.add_move_in, ("b2", MoveData(0, 1, "c5", utcnow()), None, None)),  # ply 0 is taken
        (store.add_move_in, ("b3", MoveData(0, 0, "f5", utcnow()), result, '{"record": 3}')),
        (store.add_move_in, ("b4", MoveData(0, 0, "d3", utcnow()), None, None)),  # finished room
        (store.add_move_in, ("ghost", MoveData(0, 0, "d3", utcnow()), None, None)),  # no such room
        (store.create_room_in, (a_room("b6"),)),  # another kind of write between two runs of moves
        (store.add_move_in, ("b6", MoveData(0, 0, "e6", utcnow()), None, None)),
        (store.add_move_in, ("b5", MoveData(0, 0, "c4", utcnow()), None, None)),
    ])
    assert outcomes[0] is None and outcomes[2] is None and outcomes[5] is None
    assert outcomes[6] is None and outcomes[7] is None
    assert isinstance(outcomes[1], Conflict) and "has 1 moves, not 0" in str(outcomes[1])
    assert isinstance(outcomes[3], Conflict) and "is finished" in str(outcomes[3])
    assert isinstance(outcomes[4], Conflict) and "does not exist" in str(outcomes[4])
    texts = {rid: [m.text for m in store.load_room(rid).moves]  # type: ignore[union-attr]
             for rid in ("b1", "b2", "b3", "b4", "b5", "b6")}
    assert texts == {"b1": ["d3"], "b2": ["d3"], "b3": ["f5"], "b4": [], "b5": ["c4"],
                     "b6": ["e6"]}, "each refused move wrote nothing; the others were stored"
    b3 = store.load_room("b3")
    assert b3 is not None and b3.status == "finished" and b3.result == result
    assert store.record("b3") == '{"record": 3}'
    assert sorted(store.active_room_ids()) == ["b1", "b2", "b5", "b6"]


def test_rule_two_writers_batching_the_same_rooms_each_ply_is_won_once(db_url: str) -> None:
    """Two processes' writers committing batches over the same rooms at the same time (in
    opposite orders, so row locks taken in batch order could deadlock): for every room
    exactly one of the two moves for ply 0 is stored and the other is refused."""
    rooms = [f"c{i}" for i in range(12)]
    a, b = Store(db_url), Store(db_url)
    for room_id in rooms:
        a.create_room(a_room(room_id))
    results: dict[str, list[object]] = {}

    def run(name: str, store: Store, order: list[str], text: str) -> None:
        results[name] = _batched(store, [(store.add_move_in,
                                          (r, MoveData(0, 0, text, utcnow()), None, None))
                                         for r in order],
                                 one_batch=False)

    threads = [threading.Thread(target=run, args=("a", a, rooms, "d3")),
               threading.Thread(target=run, args=("b", b, rooms[::-1], "c4"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert set(results) == {"a", "b"}
    won_a = {r for r, o in zip(rooms, results["a"]) if o is None}
    won_b = {r for r, o in zip(rooms[::-1], results["b"]) if o is None}
    assert won_a | won_b == set(rooms) and not won_a & won_b, (won_a, won_b)
    for r in rooms:
        moves = a.load_room(r).moves  # type: ignore[union-attr]
        assert [m.text for m in moves] == ["d3" if r in won_a else "c4"]
    a.close()
    b.close()
