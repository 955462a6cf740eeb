"""Loading a room from the store on first use (issue 13 item 5, rooms load lazily), in a
process of the scaled mode where other processes change the room meanwhile. Real SQLite
store, real thread-slot bot pool; the other process is played by writing to the store and
handing the hub the event that process would publish."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from asobiba.games import get
from asobiba.server.bots import BotPool
from asobiba.server.db import MoveData, Store, utcnow
from asobiba.server.rooms import Hub

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _hub(tmp_path: Path) -> tuple[Store, BotPool, Hub, Hub]:
    """A store, and two hubs on it: ``maker`` creates the rooms (another process), ``here``
    loads them on first use."""
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=60.0)
    return store, pool, Hub(store, pool, get), Hub(store, pool, get)


def test_rule_a_move_committed_while_the_room_loads_is_not_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The load reads the store, then (before it finishes) another process commits a move
    and publishes it; the event finds the room not yet held. The room must still end up
    with the move — before, it stayed one move behind for good and its clients waited for
    a turn that never came."""
    store, pool, maker, here = _hub(tmp_path)
    read, go_on = threading.Event(), threading.Event()
    real = store.load_room
    slow = {"on": False}

    def load_room(room_id: str) -> Any:
        data = real(room_id)
        if slow["on"]:
            read.set()
            go_on.wait(60)  # the store was read before the move below was committed
        return data

    monkeypatch.setattr(store, "load_room", load_room)

    async def scenario() -> int:
        room, _keys = await maker.create(get("reversi"), {}, HUMANS)
        slow["on"] = True
        loading = asyncio.create_task(here.get(room.id))
        await asyncio.to_thread(read.wait, 60)
        seat = room.state.acting_seats[0]
        text = room.state.move_text(room.state.legal_moves(seat)[0], seat)
        await asyncio.to_thread(store.add_move, room.id, MoveData(0, seat, text, utcnow()),
                                None, None)
        await here.on_event({"kind": "move", "room": room.id, "ply": 0, "seat": seat,
                             "text": text, "at": utcnow(), "finished": False, "notes": []})
        slow["on"] = False
        go_on.set()
        loaded = await loading
        assert loaded is not None
        return len(loaded.moves)

    try:
        assert asyncio.run(scenario()) == 1
    finally:
        pool.shutdown()
        store.close()


def test_rule_rooms_load_side_by_side_and_each_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A room whose load is slow does not hold up another room's load, and a room asked for
    twice at once is loaded once (both get the same room)."""
    store, pool, maker, here = _hub(tmp_path)
    release = threading.Event()
    real = store.load_room
    calls: list[str] = []
    slow: set[str] = set()

    def load_room(room_id: str) -> Any:
        calls.append(room_id)
        if room_id in slow:
            release.wait(60)
        return real(room_id)

    monkeypatch.setattr(store, "load_room", load_room)

    async def scenario() -> None:
        a, _ = await maker.create(get("reversi"), {}, HUMANS)
        b, _ = await maker.create(get("reversi"), {}, HUMANS)
        slow.add(a.id)
        first = asyncio.create_task(here.get(a.id))
        second = asyncio.create_task(here.get(a.id))
        other = await asyncio.wait_for(here.get(b.id), 30)  # while a's load waits
        assert other is not None and other.id == b.id
        assert not first.done()
        release.set()
        ra, rb = await first, await second
        assert ra is rb is not None
        assert calls.count(a.id) == 1, calls

    try:
        asyncio.run(scenario())
    finally:
        release.set()
        pool.shutdown()
        store.close()
