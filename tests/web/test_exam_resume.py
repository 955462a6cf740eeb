"""Issue 26 item 3: a rank-up exam survives a reload. Closing or reloading the exam game's
page no longer fails the exam at once: the running exam game is resumed (the ladder's Play
gives the same room back, never a second one), and only a page gone for EXAM_GRACE seconds
fails the exam — said as ``abandoned`` on the ladder status — and ends its game (the
player's seat resigns). Driven by the sweep with an explicit time, never a sleep of the
grace. On the old main the first page close failed the exam while the game played on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from asobiba.progression import Progression
from asobiba.server import create_app
from asobiba.server.progression_routes import EXAM_GRACE

from .helpers import read_until


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def exam_room(client: TestClient, tmp_path: Any) -> tuple[dict[str, Any], int]:
    """A registered player with the Stone exam started and its first game's room."""
    res = client.post("/api/account/register", json={"name": "hana",
                                                     "password": "a long password"})
    me = res.json()["player"]
    prog = Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}"))
    for _ in range(3):
        prog.ladder_result(me["id"], "reversi", "random", True, "lv1")
    assert client.post("/api/ladder/reversi/exam").status_code == 200
    room = client.post("/api/ladder/reversi/play", json={}).json()
    assert room["keys"], room
    return room, int(room["keys"][0]["seat"])


def sweep(client: TestClient, now: float) -> list[str]:
    progression = client.app.state.progression  # type: ignore[attr-defined]
    return client.portal.call(progression.sweep_exams, now)  # type: ignore[union-attr,no-any-return]


def visit(client: TestClient, room: dict[str, Any]) -> None:
    """The exam game's page: connects with its seat key, then goes (a reload's first half)."""
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_json({"type": "hello", "seats": room["keys"]})
        read_until(ws, lambda m: m.get("type") == "update" and m["you"])


def away_since(client: TestClient, room_id: str, seat: int) -> float:
    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the server's side of the closed socket runs apart
        since = hub.rooms[room_id].away_since.get(seat)
        if since is not None:
            return float(since)
        time.sleep(0.01)
    raise AssertionError("the seat was never noted as away")


def test_a_reloaded_exam_game_is_resumed_and_the_exam_still_runs(
        client: TestClient, tmp_path: Any) -> None:
    room, seat = exam_room(client, tmp_path)
    visit(client, room)  # the page is closed or reloaded...
    gone = away_since(client, room["room"], seat)
    assert sweep(client, gone + EXAM_GRACE - 1) == [], "within the grace nothing ends"
    status = client.get("/api/ladder/reversi").json()
    assert status["exam"] is not None and status["last_exam"] is None
    # ...and the ladder's Play gives the same running game back (no second exam room)
    again = client.post("/api/ladder/reversi/play", json={})
    assert again.status_code == 200, again.text
    assert again.json()["room"] == room["room"] and again.json()["resumed"] is True
    with client.websocket_connect(f"/ws/{room['room']}") as ws:  # the page is back
        ws.send_json({"type": "hello", "seats": room["keys"]})
        read_until(ws, lambda m: m.get("type") == "update" and m["you"])
        # while a page holds the seat, the exam game runs however long it takes
        assert sweep(client, time.time() + 100 * EXAM_GRACE) == []
    assert client.get(f"/api/rooms/{room['room']}").json()["status"] == "active"


def test_an_exam_game_left_past_the_grace_fails_the_exam_with_a_stated_reason(
        client: TestClient, tmp_path: Any) -> None:
    room, seat = exam_room(client, tmp_path)
    visit(client, room)
    gone = away_since(client, room["room"], seat)
    assert sweep(client, gone + EXAM_GRACE + 1) == [room["room"]]
    status = client.get("/api/ladder/reversi").json()
    assert status["exam"] is None and status["exam_due"], "failed: retry any time"
    last = status["last_exam"]
    assert last["passed"] is False and last["reason"] == "abandoned"
    assert last["rank"] == "stone" and last["en"] and last["ja"]
    # its game ended too: the player's seat resigned (the page no longer plays on)
    info = client.get(f"/api/rooms/{room['room']}").json()
    assert info["status"] == "finished"
    assert sweep(client, gone + 10 * EXAM_GRACE) == [], "ended once"


def test_an_exam_game_never_opened_counts_from_its_creation(
        client: TestClient, tmp_path: Any) -> None:
    room, seat = exam_room(client, tmp_path)
    since = away_since(client, room["room"], seat)
    assert sweep(client, since + EXAM_GRACE + 1) == [room["room"]]
    assert client.get("/api/ladder/reversi").json()["last_exam"]["reason"] == "abandoned"


def test_leaving_from_the_ladder_page_says_left(client: TestClient, tmp_path: Any) -> None:
    exam_room(client, tmp_path)
    left = client.post("/api/ladder/reversi/leave").json()["events"]
    assert left[0]["reason"] == "left"
    assert client.get("/api/ladder/reversi").json()["last_exam"]["reason"] == "left"
