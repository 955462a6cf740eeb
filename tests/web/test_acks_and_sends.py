"""A move's acknowledgement in its update (``hello``'s ``ack_in_update``), and a broadcast's
sends made in the caller's turn of the event loop (asobiba.server.eager).

docs/web.md, "Information flow": a move is acknowledged only once committed. A connection
that says ``"ack_in_update": true`` in its hello gets that acknowledgement inside the update
showing its move (``"ack": id``) instead of a separate ``ack`` after it — what the browser
asks for. A refused move is never acknowledged. docs/benchmarks.md, "Sends without a loop
turn": a broadcast sends to every connection at once, and a stuck connection holds up nobody.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from asobiba.games import get
from asobiba.server import eager
from asobiba.server.bots import BotPool
from asobiba.server.db import Store
from asobiba.server.rooms import Conn, Hub

from .helpers import create_room, is_update, make_client, read_until, send_json

HUMAN = {"kind": "human"}


# ---- over a real WebSocket ----------------------------------------------------------------
def test_rule_a_stored_move_is_acknowledged_in_the_update_that_shows_it(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            send_json(ws, {"type": "hello", "seats": room["keys"], "ack_in_update": True,
                           "id": "hi"})
            read_until(ws, lambda m: m.get("id") == "hi")  # hello's own ack, as before
            send_json(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 0, "id": 7})
            seen: list[dict[str, Any]] = []
            update = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 1, seen=seen)
            assert update["ack"] == 7, "the update showing the move carries its ack"
            assert update["room"]["moves"][-1] == [0, "d3"]
            # and no separate ack follows: the next message is the answer to a ping
            send_json(ws, {"type": "ping", "id": "p"})
            after = read_until(ws, lambda m: m.get("type") in ("pong", "ack"), seen=seen)
            assert after["type"] == "pong"
            pong_ack = read_until(ws, lambda m: m.get("id") is not None, seen=seen)
            assert pong_ack == {"type": "ack", "id": "p"}, \
                "a message with no update of its own is still acknowledged alone"
            assert not [m for m in seen if m.get("type") == "ack" and m.get("id") == 7]


def test_rule_a_refused_move_carries_no_ack_in_any_update(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            send_json(ws, {"type": "hello", "seats": room["keys"], "ack_in_update": True})
            read_until(ws, is_update)
            seen: list[dict[str, Any]] = []
            send_json(ws, {"type": "move", "seat": 0, "move": "a1", "ply": 0, "id": "bad"})
            error = read_until(ws, lambda m: m.get("id") == "bad", seen=seen)
            assert error["type"] == "error" and error["code"] == "illegal"
            send_json(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 5, "id": "old"})
            stale = read_until(ws, lambda m: m.get("id") == "old", seen=seen)
            assert stale["type"] == "error" and stale["code"] == "stale"
            assert not [m for m in seen if "ack" in m], "nothing refused is acknowledged"
            assert client.get(f"/api/rooms/{room['room']}").json()["ply"] == 0


def test_a_bad_ack_in_update_flag_is_refused_and_takes_no_seat(tmp_path: Any) -> None:
    """Bad input gets a clear error and changes nothing: the hello is refused whole."""
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            read_until(ws, is_update)
            send_json(ws, {"type": "hello", "seats": room["keys"], "ack_in_update": "yes",
                           "id": "h"})
            error = read_until(ws, lambda m: m.get("id") == "h")
            assert error["type"] == "error" and error["code"] == "bad_message"
            assert "ack_in_update" in error["message"]
            send_json(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 0, "id": "m"})
            refused = read_until(ws, lambda m: m.get("id") == "m")
            assert refused["code"] == "not_your_seat", "the refused hello took no seat"


# ---- the hub's broadcast, with scripted connections ------------------------------------------
def _hub(tmp_path: Any) -> tuple[Hub, Store, BotPool]:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=60.0)
    return Hub(store, pool, get), store, pool


def test_a_broadcast_sends_to_every_connection_before_the_loop_turns(tmp_path: Any) -> None:
    """Each connection's update is written in the broadcast's own turn of the event loop:
    a callback queued before the broadcast has not run yet when the last one is sent.
    (With a task per send, the other connections' sends waited for that turn.)"""
    hub, store, pool = _hub(tmp_path)
    turned: list[str] = []
    saw: list[list[str]] = []

    def conn(seat: int | None, key: str | None) -> Conn:
        async def send_text(text: str) -> None:
            saw.append(list(turned))

        async def send(message: Any) -> None:
            saw.append(list(turned))

        return Conn(send, keys={} if seat is None else {seat: str(key)}, send_text=send_text)

    async def scenario() -> None:
        room, keys = await hub.create(get("reversi"), {}, [HUMAN, HUMAN])
        room.conns.update((conn(0, keys[0]), conn(1, keys[1]), conn(None, None)))
        asyncio.get_running_loop().call_soon(turned.append, "turn")
        await hub.broadcast(room)

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()
        store.close()
    assert saw == [[], [], []], "every send happened before the queued callback ran"


def test_a_stuck_connection_holds_up_neither_the_ack_nor_the_others(tmp_path: Any) -> None:
    """A connection whose send cannot finish (its buffer is full) waits alone: the mover has
    its ack and the spectator its update meanwhile; the move's call ends once it is sent."""
    hub, store, pool = _hub(tmp_path)
    got: dict[str, list[dict[str, Any]]] = {"mover": [], "stuck": [], "watcher": []}
    release = asyncio.Event()
    outcome: dict[str, Any] = {}

    def conn(name: str, keys: dict[int, str], stuck: bool = False) -> Conn:
        async def send_text(text: str) -> None:
            if stuck:
                await release.wait()
            got[name].append(json.loads(text))

        async def send(message: Any) -> None:
            got[name].append(json.loads(json.dumps(message)))

        c = Conn(send, keys=keys, send_text=send_text)
        c.ack_in_update = name == "mover"
        return c

    async def scenario() -> None:
        room, keys = await hub.create(get("reversi"), {}, [HUMAN, HUMAN])
        mover = conn("mover", {0: keys[0]})
        room.conns.update((conn("stuck", {1: keys[1]}, stuck=True), mover,
                           conn("watcher", {})))
        play = asyncio.create_task(hub.play(room, 0, "d3", 0, ack=(mover, "m1")))
        for _ in range(1000):  # the commit is on the writer thread: wait for its update
            if got["watcher"] and got["mover"]:
                break
            await asyncio.sleep(0.01)
        outcome["before_release"] = (play.done(), len(got["stuck"]))
        release.set()
        outcome["acked"] = await play

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()
        store.close()
    assert got["mover"][0]["ack"] == "m1" and got["mover"][0]["room"]["ply"] == 1
    assert got["watcher"][0]["room"]["ply"] == 1 and "ack" not in got["watcher"][0]
    assert outcome["before_release"] == (False, 0), \
        "the stuck send was still waiting, and the move's call with it"
    assert got["stuck"][0]["room"]["ply"] == 1 and "ack" not in got["stuck"][0]
    assert outcome["acked"] is True


# ---- eager.start --------------------------------------------------------------------------
def test_eager_start_runs_a_coroutine_that_does_not_wait_to_its_end_at_once() -> None:
    async def scenario() -> None:
        done: list[int] = []

        async def quick() -> None:
            done.append(1)

        assert eager.start(quick()) is None and done == [1]

        async def fails() -> None:
            raise ValueError("inline")

        with pytest.raises(ValueError, match="inline"):
            eager.start(fails())

    asyncio.run(scenario())


def test_eager_start_carries_a_waiting_coroutine_on_in_a_task() -> None:
    async def scenario() -> None:
        steps: list[str] = []
        fut: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def waits() -> None:
            steps.append("before")
            await asyncio.sleep(0)  # a bare loop turn
            steps.append(await fut)
            raise KeyError("after")

        task = eager.start(waits())
        assert task is not None and steps == ["before"]
        await asyncio.sleep(0.01)
        assert steps == ["before"] and not task.done()
        fut.set_result("resumed")
        with pytest.raises(KeyError, match="after"):
            await task
        assert steps == ["before", "resumed"]

        failing: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def sees_failure() -> str:
            try:
                return await failing
            except OSError as exc:
                steps.append(f"saw {exc}")
                return "handled"

        t2 = eager.start(sees_failure())  # type: ignore[arg-type]
        assert t2 is not None
        failing.set_exception(OSError("gone"))
        await t2
        assert steps[-1] == "saw gone"

    asyncio.run(scenario())


def test_eager_start_a_cancelled_carry_on_cancels_the_wait_and_runs_finally() -> None:
    async def scenario() -> None:
        cleaned: list[str] = []
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def waits() -> None:
            try:
                await fut
            finally:
                cleaned.append("finally")

        task = eager.start(waits())
        assert task is not None
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert cleaned == ["finally"] and fut.cancelled()

    asyncio.run(scenario())
