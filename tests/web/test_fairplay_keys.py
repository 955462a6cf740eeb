"""Issue 14 item 7: seat-key hand-overs must not depend on a connection staying up.

The attack: A offers a rematch and disconnects before B accepts. Before the fix A's new
seat got a fresh key nobody held, and the rematch stalled on A's turn for ever."""

from __future__ import annotations

import time
from typing import Any

from .helpers import RECEIVE_TIMEOUT, create_room, is_update, make_client, read_until, send_json
from .test_server import HUMAN, join


def wait_offline(client: Any, room_id: str, seat: int) -> None:
    """Until the server has noticed that ``seat``'s connection closed (bounded)."""
    deadline = time.monotonic() + RECEIVE_TIMEOUT
    while client.get(f"/api/rooms/{room_id}").json()["seats"][seat]["online"]:
        assert time.monotonic() < deadline, f"seat {seat} never went offline"
        time.sleep(0.05)


def test_attack_rematch_offerer_who_left_still_gets_their_new_seat(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as b:
            join(b, [k1])
            with client.websocket_connect(f"/ws/{room['room']}") as a:
                join(a, [k0])
                send_json(a, {"type": "resign", "id": 1})
                read_until(b, lambda m: is_update(m) and m["room"]["status"] == "finished")
                send_json(a, {"type": "rematch", "id": 2})
                read_until(b, lambda m: is_update(m) and m["room"]["rematch"]["offers"] == [0])
            # A has left; B accepts
            wait_offline(client, room["room"], 0)
            send_json(b, {"type": "rematch", "id": 3})
            rb = read_until(b, lambda m: m.get("type") == "rematch")
        # A comes back to the old room with the old key and is handed the new seat's key
        with client.websocket_connect(f"/ws/{room['room']}") as a2:
            send_json(a2, {"type": "hello", "seats": [k0], "id": "h"})
            ra = read_until(a2, lambda m: m.get("type") == "rematch")
        assert ra["room"] == rb["room"]
        assert [k["seat"] for k in ra["keys"]] == [1]
        assert ra["keys"][0]["key"] != k0["key"], "a new key, not the old one"
        # ... and that key really holds the new seat: both can play the rematch
        with client.websocket_connect(f"/ws/{ra['room']}") as na, \
                client.websocket_connect(f"/ws/{ra['room']}") as nb:
            ma = join(na, ra["keys"])
            mb = join(nb, rb["keys"])
            assert ma["you"] == [1] and mb["you"] == [0]
            move = mb["views"][0]["view"]["legal_moves"][0]
            send_json(nb, {"type": "move", "move": move, "id": "m1"})
            msg = read_until(na, lambda m: is_update(m) and m["room"]["ply"] == 1)
            assert msg["views"][0]["view"]["legal_moves"], "A can answer in the rematch"


def test_rematch_key_cannot_be_fetched_without_the_old_key(tmp_path: Any) -> None:
    """The hand-over on reconnect is only for the old key's holder: a spectator of the old
    room gets no rematch keys."""
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a, \
                client.websocket_connect(f"/ws/{room['room']}") as b:
            join(a, [k0])
            join(b, [k1])
            send_json(a, {"type": "resign", "id": 1})
            read_until(b, lambda m: is_update(m) and m["room"]["status"] == "finished")
            send_json(a, {"type": "rematch", "id": 2})
            send_json(b, {"type": "rematch", "id": 3})
            read_until(b, lambda m: m.get("type") == "rematch")
        with client.websocket_connect(f"/ws/{room['room']}") as spy:
            send_json(spy, {"type": "hello", "seats": [], "id": "h"})
            seen: list[dict[str, Any]] = []
            read_until(spy, lambda m: m.get("id") == "h", seen=seen)
            assert not [m for m in seen if m.get("type") == "rematch"]
            send_json(spy, {"type": "hello", "seats": [{"seat": 0, "key": "forged"}],
                            "id": "h2"})
            read_until(spy, lambda m: m.get("type") == "error", seen=seen)
            assert not [m for m in seen if m.get("type") == "rematch"]
