"""Retention (issue 13 item 5): an unfinished room with no move and no connection for the
configured time is closed by the written rule (docs/web.md, "Abandoned rooms"), through the
fair-play adjudication every other path uses; a room someone is connected to is not."""

from __future__ import annotations

import time
from typing import Any

from asobiba.server.db import Store
from asobiba.server.retention import sweep

from .helpers import create_room, make_client, read_until

HUMAN = {"kind": "human"}


def play(ws: Any, seat: int, move: str, ref: int) -> None:
    ws.send_json({"type": "move", "seat": seat, "move": move, "id": ref})
    read_until(ws, lambda m: m.get("id") == ref)


def run_sweep(client: Any, abandon_after: float) -> int:
    hub = client.app.state.holder["hub"]

    async def go() -> int:
        return await sweep(hub, abandon_after)

    return int(client.portal.call(go))


def test_rule_abandoned_rooms_are_closed_by_the_fair_play_rule(
        tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        never = create_room(client, "reversi", [HUMAN, HUMAN])      # seat 1 never moved
        left = create_room(client, "reversi", [HUMAN, HUMAN])       # both moved, then left
        watched = create_room(client, "reversi", [HUMAN, HUMAN])    # someone still there
        with client.websocket_connect(f"/ws/{never['room']}") as ws:
            read_until(ws, lambda m: m.get("type") == "update")
            ws.send_json({"type": "hello", "seats": never["keys"], "id": "h"})
            read_until(ws, lambda m: m.get("id") == "h")
            play(ws, 0, "d3", 1)
        with client.websocket_connect(f"/ws/{left['room']}") as ws:
            ws.send_json({"type": "hello", "seats": left["keys"], "id": "h"})
            read_until(ws, lambda m: m.get("id") == "h")
            play(ws, 0, "d3", 1)
            play(ws, 1, "c3", 2)
        time.sleep(1.2)
        with client.websocket_connect(f"/ws/{watched['room']}") as ws:
            ws.send_json({"type": "hello", "seats": watched["keys"][:1], "id": "h"})
            read_until(ws, lambda m: m.get("id") == "h")
            # not yet abandoned with a long limit: nothing is closed
            assert run_sweep(client, 3600) == 0
            assert run_sweep(client, 1.0) == 2, "the two rooms nobody is in are closed"
        rooms = {r: client.get(f"/api/rooms/{r}").json()
                 for r in (never["room"], left["room"], watched["room"])}
    never_r, left_r, watched_r = (rooms[never["room"]], rooms[left["room"]],
                                  rooms[watched["room"]])
    assert never_r["status"] == "finished" and never_r["result"]["aborted"], \
        "waiting on a seat that never moved: aborted, unrated"
    assert left_r["status"] == "finished" and left_r["result"]["abandoned"] == 0, \
        "waiting on seat 0, which had moved: seat 0 loses"
    assert watched_r["status"] == "active", "a room with a connection is not abandoned"
    stored = Store(db_url).load_room(left["room"])
    assert stored is not None and stored.status == "finished" and len(stored.moves) == 2


def test_rule_a_sweep_at_two_processes_closes_a_room_once(tmp_path: Any, db_url: str) -> None:
    """Two servers on one database both find the same room abandoned: it ends once — the
    second server's attempt is refused by the store (the room is no longer active), and that
    server takes the stored ending instead of writing its own."""
    from asobiba.server.retention import close_if_abandoned

    with make_client(tmp_path, db_url=db_url) as one, \
            make_client(tmp_path, db_url=db_url) as two:
        room = create_room(one, "reversi", [HUMAN, HUMAN])
        with one.websocket_connect(f"/ws/{room['room']}") as ws:
            ws.send_json({"type": "hello", "seats": room["keys"], "id": "h"})
            read_until(ws, lambda m: m.get("id") == "h")
            play(ws, 0, "d3", 1)
            play(ws, 1, "c3", 2)
        time.sleep(1.2)
        assert run_sweep(two, 1.0) == 1
        store = Store(db_url)
        record = store.record(room["room"])
        held = one.app.state.holder["hub"].rooms[room["room"]]  # one's copy, still active
        assert held.status == "active"

        async def again() -> None:
            await close_if_abandoned(one.app.state.holder["hub"], held, time.time() - 60, 1.0)

        one.portal.call(again)
        assert held.status == "finished" and held.result["abandoned"] == 0
        assert store.record(room["room"]) == record, "the ending was written once"
