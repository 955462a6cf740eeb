"""The room as flows (issue 26 item 3): what the table is told comes as codes with
arguments (server.room.notes), a declined offer is told to the offerer, a claim is only
against a seat that joined and left — after a countdown the table shows — and an abort is
an abort. Real app, real SQLite, real WebSockets. Each test fails on the room before the
split (English notes, no decline note for draws or rematches, a claim against a friend who
never came)."""

from __future__ import annotations

import time
from typing import Any

from asobiba.server import fairplay
from asobiba.server.room import notes
from asobiba.server.room.presence import claims, joined

from .helpers import create_room, is_update, make_client, read_until, send_json
from .test_server import HUMAN, expect_error, join


def last_update(ws: Any, pred: Any) -> dict[str, Any]:
    return read_until(ws, lambda m: is_update(m) and pred(m["room"]))


def test_rule_a_declined_undo_and_draw_are_told_to_the_offerer_as_codes(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        rid = room["room"]
        with client.websocket_connect(f"/ws/{rid}") as a, \
                client.websocket_connect(f"/ws/{rid}") as b:
            join(a, [k0])
            join(b, [k1])
            send_json(a, {"type": "draw", "seat": 0})
            last_update(b, lambda r: r["table"]["draw_offers"] == [0])
            send_json(b, {"type": "draw", "seat": 1, "accept": False})
            got = last_update(a, lambda r: r["notes"])
            assert got["room"]["notes"][-1] == {"code": "draw_declined", "args": {"seat": 1}}
            assert got["room"]["table"]["draw_offers"] == []
            # nothing to decline now: refused, and no second note
            send_json(b, {"type": "draw", "seat": 1, "accept": False, "id": "again"})
            err = read_until(b, lambda m: m.get("type") == "error")
            assert err["code"] == "no_offer"
            # undo: seat 0 moves, asks for it back, seat 1 declines
            send_json(a, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            last_update(a, lambda r: r["ply"] == 1)
            send_json(a, {"type": "undo", "seat": 0})
            last_update(b, lambda r: r["undo"] is not None)
            send_json(b, {"type": "undo_reply", "seat": 1, "accept": False})
            got = last_update(a, lambda r: r["undo"] is None and len(r["notes"]) == 2)
            assert got["room"]["notes"][-1] == {"code": "undo_declined", "args": {"seat": 1}}
            assert got["room"]["ply"] == 1, "declined: nothing was taken back"


def test_rule_a_declined_rematch_withdraws_the_offer_and_says_who(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        rid = room["room"]
        with client.websocket_connect(f"/ws/{rid}") as a, \
                client.websocket_connect(f"/ws/{rid}") as b:
            join(a, [k0])
            join(b, [k1])
            expect_error(b, {"type": "rematch", "accept": False, "id": "early"}, "not_over")
            send_json(a, {"type": "resign", "seat": 0})
            last_update(b, lambda r: r["status"] == "finished")
            send_json(a, {"type": "rematch"})
            last_update(b, lambda r: r["rematch"]["offers"] == [0])
            # the offerer has nothing to decline
            expect_error(a, {"type": "rematch", "accept": False, "id": "own"}, "no_offer")
            send_json(b, {"type": "rematch", "accept": False})
            got = last_update(a, lambda r: r["notes"])
            assert got["room"]["notes"][-1] == {"code": "rematch_declined", "args": {"seat": 1}}
            assert got["room"]["rematch"] == {"offers": [], "room": None}


def test_rule_an_abort_is_a_note_and_an_aborted_result(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, _ = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a:
            join(a, [k0])
            send_json(a, {"type": "abort", "seat": 0})
            got = last_update(a, lambda r: r["status"] == "finished")
        assert got["room"]["result"]["aborted"] is True
        assert got["room"]["notes"] == [{"code": "aborted", "args": {"seat": 0}}]


def test_rule_no_claim_against_a_friend_who_never_joined(tmp_path: Any) -> None:
    """The friend has not opened the invitation: the table shows no claim, and a claim is
    refused however long the wait (the game can be aborted instead)."""
    with make_client(tmp_path, claim_after=0.2) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, _ = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a:
            msg = join(a, [k0])
            assert msg["room"]["claims"] == []
            time.sleep(0.4)
            send_json(a, {"type": "claim", "id": "c"})
            err = read_until(a, lambda m: m.get("type") == "error")
            assert err["code"] == "cannot_claim"
            send_json(a, {"type": "sync"})
            assert read_until(a, is_update)["room"]["status"] == "active"


def test_rule_a_claim_counts_down_after_the_friend_joined_and_left(tmp_path: Any) -> None:
    with make_client(tmp_path, claim_after=1.0) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        rid = room["room"]
        with client.websocket_connect(f"/ws/{rid}") as a:
            join(a, [k0])
            send_json(a, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            last_update(a, lambda r: r["ply"] == 1)
            with client.websocket_connect(f"/ws/{rid}") as b:
                join(b, [k1])
                last_update(a, lambda r: r["seats"][1]["online"])
            got = last_update(a, lambda r: not r["seats"][1]["online"])
            (entry,) = got["room"]["claims"]
            assert entry["seat"] == 1 and 0 < entry["in"] <= 1.0, entry
            send_json(a, {"type": "claim", "id": "soon"})
            assert read_until(a, lambda m: m.get("type") == "error")["code"] == "cannot_claim"
            time.sleep(1.2)
            send_json(a, {"type": "claim"})
            done = last_update(a, lambda r: r["status"] == "finished")
        # seat 1 never moved: the claim aborts the game (nobody rated), and the note says so
        assert done["room"]["result"]["aborted"] is True
        assert done["room"]["notes"][-1] == {
            "code": "claimed", "args": {"seat": 0, "against": 1, "kind": "abort"}}


def test_rule_a_resign_sent_as_the_socket_closes_is_carried_out_whole(tmp_path: Any) -> None:
    """A message taken in is carried out whole even when its connection's task is cancelled
    (the socket closed, the server stopping): before, a resign sent just before closing left
    the room finished in the database and active in memory, and the record answered 409
    until a restart (29 of 30 tries here)."""
    with make_client(tmp_path) as client:
        for _ in range(5):
            room = create_room(client, "reversi", [HUMAN, HUMAN])
            k0, _ = room["keys"]
            rid = room["room"]
            with client.websocket_connect(f"/ws/{rid}") as a:
                join(a, [k0])
                send_json(a, {"type": "resign", "seat": 0})
            deadline = time.monotonic() + 30
            while client.get(f"/api/rooms/{rid}").json()["status"] != "finished":
                assert time.monotonic() < deadline, "the resign was never carried out"
                time.sleep(0.05)
            got = client.get(f"/api/rooms/{rid}/record")
            assert got.status_code == 200, got.text


def test_unit_presence_joined_counts_a_seat_that_moved_before_a_restart() -> None:
    class M:
        def __init__(self, seat: int) -> None:
            self.seat = seat

    class S:
        acting_seats = (1,)

    class R:
        state = S()
        status = "active"
        joined: set[int] = set()
        moves = [M(1)]
        away_since = {0: 100.0, 1: 100.0}
        claim_after = 60.0

    room: Any = R()
    assert not joined(room, 0) and joined(room, 1)
    assert claims(room, now=130.0) == [{"seat": 1, "in": 30.0}]
    assert notes.declined("draw", 1) == {"code": "draw_declined", "args": {"seat": 1}}
    assert fairplay.CLAIM_AFTER == 60.0
