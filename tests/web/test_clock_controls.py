"""Issue 27 item 7: custom Fischer and byo-yomi time controls — the clock arithmetic on a
controllable clock (no sleeping, no wall-clock asserts), the server refusing bad controls with
a code and its arguments, enforcing byo-yomi move by move, and keeping the control across a
restart and in the record."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from asobiba.server import clock
from asobiba.server.db import MoveData
from asobiba.server.room import clock as room_clock
from asobiba.server.room import moves as room_moves
from asobiba.server.room import persistence, state
from asobiba.tables import stamp

from .helpers import create_room, is_update, make_client, my_view, read_until, send_json

HUMAN = {"kind": "human"}
T0 = 1_800_000_000.0


def at(seconds: float) -> str:
    return stamp(datetime.fromtimestamp(T0 + seconds, UTC))


def moves(*times: tuple[int, float]) -> list[MoveData]:
    return [MoveData(i, seat, "m", at(t)) for i, (seat, t) in enumerate(times)]


BYO = {"initial": 60, "periods": 3, "byoyomi": 30}


def test_byoyomi_main_time_then_periods_kept_lost_and_the_flag() -> None:
    started = at(0)
    # 50 s into seat 0's first turn: main time only
    v = clock.view(BYO, 2, started, [], 0, T0 + 50)
    assert v["main"] == [10, 60] and v["periods_left"] == [3, 3] and v["remaining"][0] == 100
    # 80 s: main gone, 20 s into the first period: none lost yet
    v = clock.view(BYO, 2, started, [], 0, T0 + 80)
    assert v["main"][0] == 0 and v["periods_left"][0] == 3 and v["remaining"][0] == 70
    # a move at 85 s (25 s into the period): the period is kept and starts afresh
    mv = moves((0, 85))
    v = clock.view(BYO, 2, started, mv, 1, T0 + 85)
    assert v["periods_left"] == [3, 3] and v["remaining"][0] == 90 and v["running"] == 1
    # seat 1 replies at 95; seat 0 then takes 45 s: the first period is used up and lost
    mv = moves((0, 85), (1, 95))
    v = clock.view(BYO, 2, started, mv, 0, T0 + 140)
    assert v["periods_left"][0] == 2 and v["remaining"][0] == 45  # 2 × 30 - 15
    mv = moves((0, 85), (1, 95), (0, 141))
    v = clock.view(BYO, 2, started, mv, 1, T0 + 141)
    assert v["periods_left"][0] == 2 and v["remaining"][0] == 60, "a move keeps the period"
    # the next turn: both periods left (60 s) are used up at 60 s: the flag falls
    mv = moves((0, 85), (1, 95), (0, 141), (1, 150))
    assert clock.remaining(BYO, 2, started, mv, 0, T0 + 150 + 59.5)[0] == pytest.approx(0.5)
    assert clock.remaining(BYO, 2, started, mv, 0, T0 + 150 + 60)[0] <= 0
    v = clock.view(BYO, 2, started, mv, 0, T0 + 150 + 61)
    assert v["periods_left"][0] == 0 and v["remaining"][0] == 0


def test_byoyomi_with_no_main_time_is_so_many_seconds_per_move() -> None:
    c = {"initial": 0, "periods": 1, "byoyomi": 30}
    started = at(0)
    assert clock.remaining(c, 2, started, moves((0, 29)), 1, T0 + 29) == [30, 30]
    assert clock.remaining(c, 2, started, moves((0, 29), (1, 58)), 0, T0 + 87) == [1, 30]


def test_fischer_adds_the_increment_after_each_move() -> None:
    c = {"initial": 300, "increment": 5}
    started = at(0)
    left = clock.remaining(c, 2, started, moves((0, 10), (1, 40)), 0, T0 + 50)
    assert left == [300 - 10 + 5 - 10, 300 - 30 + 5]


@pytest.mark.parametrize(("raw", "field", "lo", "hi"), [
    ({"initial": 5, "increment": 0}, "initial", "10", "10800"),
    ({"initial": 60, "increment": 121}, "increment", "0", "120"),
    ({"initial": 60, "periods": 0, "byoyomi": 30}, "periods", "1", "10"),
    ({"initial": 60, "periods": 11, "byoyomi": 30}, "periods", "1", "10"),
    ({"initial": 60, "periods": 3, "byoyomi": 4}, "byoyomi", "5", "300"),
    ({"initial": 60, "periods": 3}, "byoyomi", "5", "300"),
    ({"initial": -1, "periods": 3, "byoyomi": 30}, "initial", "0", "10800"),
    # not whole numbers: refused by the request's model already (the code, no range)
    ({"initial": 60, "periods": 3, "byoyomi": 30.5}, None, "", ""),
    ({"initial": 60, "periods": True, "byoyomi": 30}, None, "", ""),
])
def test_bad_time_controls_are_refused_with_the_field_and_its_range(
        tmp_path: Any, raw: dict[str, Any], field: str | None, lo: str, hi: str) -> None:
    with make_client(tmp_path) as client:
        res = client.post("/api/rooms", json={"game": "reversi", "seats": [HUMAN, HUMAN],
                                              "clock": raw})
        assert res.status_code == 400, res.text
        err = res.json()["error"]
        assert err["code"] == "bad_clock" and err["message"]
        if field:
            assert err["args"] == {"field": field, "min": lo, "max": hi}


def test_mixed_controls_are_refused(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        res = client.post("/api/rooms", json={"game": "reversi", "seats": [HUMAN, HUMAN],
                                              "clock": {"initial": 60, "increment": 2,
                                                        "periods": 3, "byoyomi": 30}})
        assert res.status_code == 400
        err = res.json()["error"]
        assert err["code"] == "bad_clock" and err["args"]["field"] == "increment"


class FakeTime:
    """The rooms' clock, moved on by the test: stored move times follow it too."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = datetime.now(UTC).timestamp()
        monkeypatch.setattr(room_clock, "clock_now", lambda: self.now)
        for module in (room_moves, persistence, state):  # the move, the room's start, the record
            monkeypatch.setattr(module, "utcnow",
                                lambda: stamp(datetime.fromtimestamp(self.now, UTC)))


def join(ws: Any, keys: list[dict[str, Any]]) -> dict[str, Any]:
    send_json(ws, {"type": "hello", "seats": keys, "id": "hello"})
    seen: list[dict[str, Any]] = []
    read_until(ws, lambda m: m.get("id") == "hello", seen=seen)
    return [m for m in seen if is_update(m)][-1]


def play(ws: Any, msg: dict[str, Any], seat: int) -> dict[str, Any]:
    ply = msg["room"]["ply"]
    view = next(v["view"] for v in msg["views"] if v["seat"] == seat)
    send_json(ws, {"type": "move", "seat": seat, "move": view["legal_moves"][0], "ply": ply,
                   "id": ply})
    got = read_until(ws, lambda m: (is_update(m) and m["room"]["ply"] == ply + 1)
                     or m.get("type") == "error")
    assert got["type"] != "error", got
    return got


def test_the_server_enforces_byoyomi_move_by_move_and_keeps_it_across_a_restart(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeTime(monkeypatch)
    control = {"initial": 10, "periods": 2, "byoyomi": 30}
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN], clock=control)
        rid = room["room"]
        with client.websocket_connect(f"/ws/{rid}") as ws:
            msg = join(ws, room["keys"])
            fake.now += 25  # main time gone, 15 s into the first period
            msg = play(ws, msg, 0)
            c = msg["room"]["clock"]
            assert c["periods_left"] == [2, 2] and c["main"][0] == 0 and c["running"] == 1
            assert (c["periods"], c["byoyomi"], c["initial"]) == (2, 30, 10)
            fake.now += 1
            msg = play(ws, msg, 1)
            fake.now += 40  # the first period used up (lost), 10 s into the last
            msg = play(ws, msg, 0)
            assert msg["room"]["clock"]["periods_left"][0] == 1
            assert msg["room"]["clock"]["remaining"][0] == 30
            fake.now += 1
            msg = play(ws, msg, 1)
            fake.now += 20  # still inside the last period (a real timer would wait 10 s)
            info = client.get(f"/api/rooms/{rid}").json()
            assert info["clock"]["running"] == 0
            assert info["clock"]["remaining"][0] == pytest.approx(10, abs=0.01)
    # restarted: the control and every clock are what they were
    with make_client(tmp_path) as client:
        info = client.get(f"/api/rooms/{rid}").json()
        assert info["clock"]["periods_left"] == [1, 2]
        assert info["clock"]["remaining"][0] == pytest.approx(10, abs=0.01)
        with client.websocket_connect(f"/ws/{rid}") as ws:
            msg = join(ws, room["keys"])
            fake.now += 10.5  # the last period is gone: the next move is too late
            view = my_view(msg)
            send_json(ws, {"type": "move", "seat": 0, "move": view["legal_moves"][0],
                           "ply": 4, "id": 9})
            err = read_until(ws, lambda m: m.get("type") == "error")
            assert err["code"] == "time_out"
        info = client.get(f"/api/rooms/{rid}").json()
        assert info["status"] == "finished" and info["result"]["timeout"] == 0
        record = client.get(f"/api/rooms/{rid}/record").json()
        assert record["extra"]["clock"] == control
