"""The progression layer over HTTP (no browser): session cookies, the login rate limit,
guests, seat claims, finished rooms recorded and rated, player pages, leaderboards, the
ladder's exam leave, the daily challenge, tutorials' bad input."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from asobiba.core import Outcome
from asobiba.progression import Progression
from asobiba.server import create_app
from asobiba.server.limits import Limits, Rule
from asobiba.server.progression_routes import COOKIE

JSON = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def register(client: TestClient, name: str, password: str = "a long password") -> Any:
    res = client.post("/api/account/register", json={"name": name, "password": password})
    assert res.status_code == 201, res.text
    return res


def wait_recorded(client: TestClient, room: str) -> dict[str, Any]:
    for _ in range(200):
        body = client.get(f"/api/rooms/{room}/progress").json()
        if body["recorded"]:
            return body["result"]  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the finished room was never recorded")


def test_session_cookie_is_httponly_and_samesite_lax(client: TestClient) -> None:
    res = register(client, "hanako")
    cookie = res.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert client.get("/api/account").json()["player"]["name"] == "hanako"
    client.post("/api/account/logout")
    assert client.get("/api/account").json()["player"] is None
    # and back in with the password
    res = client.post("/api/account/login", json={"name": "hanako", "password": "a long password"})
    assert res.status_code == 200
    assert client.get("/api/account").json()["player"]["name"] == "hanako"


def test_wrong_password_and_bad_input_are_refused(client: TestClient) -> None:
    register(client, "taro")
    client.post("/api/account/logout")
    res = client.post("/api/account/login", json={"name": "taro", "password": "wrong password"})
    assert res.status_code == 401 and res.json()["error"]["message"] == "wrong name or password"
    assert client.get("/api/account").json()["player"] is None
    assert client.post("/api/account/register", json={"name": "taro", "password": "x"}
                       ).status_code == 400
    assert client.post("/api/account/login", content=b"{nope", headers=JSON).status_code == 400
    assert client.post("/api/account/login", json={"name": 3}).status_code == 400


def test_login_attempts_are_rate_limited(client: TestClient) -> None:
    codes = [client.post("/api/account/login", json={"name": "nobody", "password": "whatever1"}
                         ).status_code for _ in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]


def test_rate_limiter_forgets_after_the_window() -> None:
    limits = Limits(rules={"x": Rule(2, 0.05)})
    assert limits.hit("x", "a") and limits.hit("x", "a") and not limits.hit("x", "a")
    assert limits.hit("x", "b"), "each key counts apart"
    time.sleep(0.06)
    assert limits.hit("x", "a")


def test_a_guest_who_registers_keeps_their_history(client: TestClient) -> None:
    guest = client.post("/api/account/guest").json()["player"]
    assert guest["kind"] == "guest"
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    rated = client.post("/api/rooms", json={"game": "reversi", "options": {}, "casual": False,
                                            "seats": seats}).json()
    # fair play: guests play casual games only (docs/fair-play.md)
    assert client.post(f"/api/rooms/{rated['room']}/claim", json={"seats": rated["keys"]}
                       ).status_code == 403
    room = client.post("/api/rooms", json={"game": "reversi", "options": {}, "casual": True,
                                           "seats": seats}).json()
    claimed = client.post(f"/api/rooms/{room['room']}/claim", json={"seats": room["keys"]})
    assert claimed.json()["seats"] == [0]
    assert client.get(f"/api/rooms/{room['room']}/progress").json()["expected"] is True
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_json({"type": "hello", "seats": room["keys"]})
        ws.send_json({"type": "resign", "seat": 0})
        for _ in range(50):
            msg = ws.receive_json()
            if msg.get("type") == "update" and msg["room"]["status"] == "finished":
                break
    result = wait_recorded(client, room["room"])
    assert not result["rated"] and result["pool"] == "reversi"
    me = register(client, "jiro").json()["player"]
    assert me["id"] == guest["id"]
    page = client.get("/api/players/me").json()
    assert page["player"]["name"] == "jiro"
    assert page["stats"]["reversi"]["loss"] == 1


def test_seat_claims_need_the_key_and_a_finished_room_without_accounts_is_not_rated(
        client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "reversi", "options": {},
                                           "seats": [{"kind": "human"}, {"kind": "human"}]}
                       ).json()
    assert client.post(f"/api/rooms/{room['room']}/claim",
                       json={"seats": room["keys"]}).status_code == 401
    register(client, "saburo")
    forged = [{"seat": 1, "key": "not-the-key"}]
    assert client.post(f"/api/rooms/{room['room']}/claim", json={"seats": forged}
                       ).json()["seats"] == []
    assert client.post(f"/api/rooms/{room['room']}/claim", json={"seats": room["keys"][:1]}
                       ).json()["seats"] == [0]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_json({"type": "hello", "seats": room["keys"]})
        ws.send_json({"type": "resign", "seat": 1})
        for _ in range(50):
            msg = ws.receive_json()
            if msg.get("type") == "update" and msg["room"]["status"] == "finished":
                break
    time.sleep(0.3)
    progress = client.get(f"/api/rooms/{room['room']}/progress").json()
    assert progress["recorded"] is False and progress["expected"] is False


def test_ladder_exam_leave_and_daily_over_http(client: TestClient) -> None:
    assert client.get("/api/ladder/reversi").status_code == 401
    register(client, "shiro")
    status = client.get("/api/ladder/reversi").json()
    assert status["rank"]["en"] == "Paper" and status["unlocked"][0]["level"] == "random"
    # leaving when no exam runs is refused (nothing to fail)
    res = client.post("/api/ladder/reversi/leave")
    assert res.status_code == 400 and "no exam" in res.json()["error"]["message"]
    # no exam is due at Paper: a typed refusal, nothing changed
    res = client.post("/api/ladder/reversi/exam")
    assert res.status_code == 400 and res.json()["error"]["code"] == "ladder_refused"
    day = client.get("/api/daily/reversi?date=2026-11-02").json()
    again = client.get("/api/daily/reversi?date=2026-11-02").json()
    assert day == again and day["calendar"]["cleared"] == []
    assert client.get("/api/daily/reversi?date=yesterday").status_code == 400
    assert date.fromisoformat(client.get("/api/daily/reversi").json()["date"])


def test_tutorial_api_refuses_bad_input(client: TestClient) -> None:
    assert client.get("/api/tutorials/chess").status_code == 404
    assert client.post("/api/tutorials/reversi/nope", json={"move": "c5"}).status_code == 404
    assert client.post("/api/tutorials/reversi/lines", json={"move": "x" * 100}
                       ).status_code == 400
    ok = client.post("/api/tutorials/reversi/lines", json={"move": "c5"}).json()
    assert ok["done"] is True and ok["view"]["counts"]["white"] == 0


def finish_by_resigning(client: TestClient, room: dict[str, Any], seat: int) -> None:
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_json({"type": "hello", "seats": room["keys"]})
        ws.send_json({"type": "resign", "seat": seat})
        for _ in range(50):
            msg = ws.receive_json()
            if msg.get("type") == "update" and msg["room"]["status"] == "finished":
                return
    raise AssertionError("the room did not finish")


def test_rule_ladder_games_from_the_web_count_and_leaving_an_exam_fails_it(
        client: TestClient, tmp_path: Any) -> None:
    """A ladder game played in a room is reported to the ladder (a resignation is a loss);
    with three Lv.1 wins the Stone exam opens; its game is played in a room with the exam's
    seat; leaving the exam fails it (seed §9: 「途中で他の画面に移動すると不合格になります」)."""
    me = register(client, "goro").json()["player"]
    res = client.post("/api/ladder/reversi/play", json={"tier": "lv3"})
    assert res.status_code == 400 and "lv1" in res.json()["error"]["message"]
    room = client.post("/api/ladder/reversi/play", json={"tier": "lv1"}).json()
    assert [k["seat"] for k in room["keys"]] == [0]
    finish_by_resigning(client, room, 0)
    result = wait_recorded(client, room["room"])
    # resigned before moving: aborted, so unrated (docs/fair-play.md); the ladder counts it
    assert not result["rated"] and result["unrated"]["code"] == "aborted"
    assert result["ladder"] == []
    progress = client.get(f"/api/rooms/{room['room']}/progress").json()
    assert progress["context"] == {"kind": "ladder", "game": "reversi", "level": "random",
                                   "tier": "lv1"}
    assert client.get("/api/ladder/reversi").json()["wins"] == {}
    # three wins at Lv.1, reported straight to the same database (as finished rooms would)
    prog = Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}"))
    for _ in range(3):
        prog.ladder_result(me["id"], "reversi", "random", True, "lv1")
    status = client.get("/api/ladder/reversi").json()
    assert status["rank"]["key"] == "wood" and status["exam_due"]
    assert client.post("/api/ladder/reversi/exam").status_code == 200
    exam_room = client.post("/api/ladder/reversi/play", json={}).json()
    exam = client.get("/api/ladder/reversi").json()["exam"]
    assert [k["seat"] for k in exam_room["keys"]] == [exam["player_seat"]]
    left = client.post("/api/ladder/reversi/leave").json()["events"]
    assert left[0]["type"] == "exam_failed" and left[0]["reason"] == "left"
    assert client.get("/api/ladder/reversi").json()["exam"] is None
    # the abandoned exam game, ended later, no longer counts for anything
    finish_by_resigning(client, exam_room, exam["player_seat"])
    late = wait_recorded(client, exam_room["room"])
    assert late["ladder"][0]["type"] == "not_counted"


def climb_to(prog: Progression, pid: int, game: str, key: str) -> None:
    """Promote a player by reporting wins and exam wins straight to the ladder."""
    for _ in range(300):
        st = prog.ladder(pid, game)
        if st["rank"]["key"] == key:
            return
        if st["exam_due"]:
            prog.start_exam(pid, game)
            while (exam := prog.ladder(pid, game)["exam"]) is not None:
                seat = exam["player_seat"]
                scores = (1.0, 0.0) if seat == 0 else (0.0, 1.0)
                prog.exam_game(pid, game, Outcome(scores, (1, 2) if seat == 0 else (2, 1)))
        else:
            top = st["unlocked"][-1]
            prog.ladder_result(pid, game, top["level"], True, top["tier"])
    raise AssertionError(f"never reached {key}")


def test_rule_reverse_match_sets_from_lv5_are_two_rooms_with_colours_swapped(
        client: TestClient, tmp_path: Any) -> None:
    """Seed §8: from Lv.5 a ladder game is a reverse-match set — two games with colours
    swapped; the set (not each game) counts once it is decided."""
    me = register(client, "rokuro").json()["player"]
    prog = Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}"))
    climb_to(prog, me["id"], "reversi", "topaz")
    lv5 = [u for u in client.get("/api/ladder/reversi").json()["unlocked"] if u["tier"] == "lv5"]
    assert lv5 and lv5[0]["reverse"] is True
    first = client.post("/api/ladder/reversi/play", json={"tier": "lv5"}).json()
    assert [k["seat"] for k in first["keys"]] == [0]
    finish_by_resigning(client, first, 0)
    assert wait_recorded(client, first["room"])["ladder"] == [
        {"type": "set_continues", "wins": [0, 0]}]  # sets won: none decided yet
    # the next game of the set needs this room's key, and swaps the colours
    bad = client.post("/api/ladder/reversi/next",
                      json={"room": first["room"], "seat": 0, "key": "forged"})
    assert bad.status_code == 403
    key = first["keys"][0]
    second = client.post("/api/ladder/reversi/next",
                         json={"room": first["room"], "seat": 0, "key": key["key"]}).json()
    assert [k["seat"] for k in second["keys"]] == [1]
    again = client.post("/api/ladder/reversi/next",
                        json={"room": first["room"], "seat": 0, "key": key["key"]})
    assert again.status_code == 409
    finish_by_resigning(client, second, 1)
    assert wait_recorded(client, second["room"])["ladder"] == []  # a lost set: no promotion
    assert client.post("/api/ladder/reversi/next", json={
        "room": second["room"], "seat": 1, "key": second["keys"][0]["key"]}).status_code == 409
    assert client.get("/api/ladder/reversi").json()["wins"].get("lv5", 0) == 0
