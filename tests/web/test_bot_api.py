"""The Bot API's rules, each attacked (docs/bot-api.md; docs/fair-play.md "Abuse limits"):
tokens are stored hashed, scoped, revocable and rate-limited; only a BOT account's token may
play, and only the seat its account holds; a refused move changes nothing; the upgrade is
refused after rated games; a declined challenge makes no room; a BOT account is never rated
(so never on a leaderboard)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import insert, select
from starlette.testclient import TestClient

from asobiba.server import create_app
from asobiba.server.limits import RULES, Limits, Rule
from asobiba.tables import API_TOKENS, GameRow, GameSeatRow

PASSWORD = "correct horse battery 9"


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    limits = Limits(rules={**RULES, "bot_api": Rule(40, 60.0)})
    with TestClient(create_app(str(tmp_path), bot_processes=0, limits=limits)) as c:
        yield c


def register(c: TestClient, name: str) -> int:
    c.cookies.clear()
    res = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert res.status_code == 201, res.text
    return int(res.json()["player"]["id"])


def login(c: TestClient, name: str) -> None:
    c.cookies.clear()
    assert c.post("/api/account/login", json={"name": name, "password": PASSWORD}
                  ).status_code == 200


def bot(c: TestClient, name: str) -> dict[str, str]:
    register(c, name)
    assert c.post("/api/bot/account/upgrade").status_code == 200
    res = c.post("/api/account/tokens", json={"label": name})
    assert res.status_code == 201
    return {"authorization": f"Bearer {res.json()['token']}"}


def ply(c: TestClient, room: str) -> int:
    return int(c.get(f"/api/rooms/{room}").json()["ply"])


def test_tokens_are_stored_hashed_and_a_revoked_token_opens_nothing(client: TestClient
                                                                   ) -> None:
    auth = bot(client, "hashbot")
    token = auth["authorization"].split()[1]
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        stored = [tuple(r) for r in conn.execute(select(API_TOKENS)).all()]
    assert stored and not any(token in str(v) for row in stored for v in row)
    made = client.post("/api/bot/challenge/ai", json={"game": "reversi", "level": "1"},
                       headers=auth)
    assert made.status_code == 201, made.text
    tid = client.get("/api/account/tokens").json()["tokens"][0]["id"]
    assert client.delete(f"/api/account/tokens/{tid}").status_code == 200
    res = client.post(f"/api/bot/game/{made.json()['room']}/move/d3", headers=auth)
    assert res.status_code == 401 and res.json()["error"]["code"] == "bad_token"
    assert ply(client, made.json()["room"]) == 0
    assert client.delete(f"/api/account/tokens/{tid}").status_code == 404


def test_only_a_bot_accounts_token_and_only_for_its_own_seat(client: TestClient) -> None:
    auth = bot(client, "seatbot")
    room = client.post("/api/bot/challenge/ai", json={"game": "reversi", "level": "1"},
                       headers=auth).json()["room"]
    # no token, a made-up token
    res = client.post(f"/api/bot/game/{room}/move/d3")
    assert res.status_code == 401 and res.json()["error"]["code"] == "no_token"
    res = client.post(f"/api/bot/game/{room}/move/d3",
                      headers={"authorization": "Bearer asb_made_up"})
    assert res.status_code == 401 and res.json()["error"]["code"] == "bad_token"
    # a registered account's token that is not a BOT account's
    register(client, "plainperson")
    plain = {"authorization": "Bearer " + client.post("/api/account/tokens", json={}
                                                      ).json()["token"]}
    res = client.post(f"/api/bot/game/{room}/move/d3", headers=plain)
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_bot"
    # another BOT account: its token holds no seat of this room
    other = bot(client, "otherbot")
    res = client.post(f"/api/bot/game/{room}/move/d3", headers=other)
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_your_seat"
    assert ply(client, room) == 0
    # an illegal move: its code, nothing played; then the legal one is
    res = client.post(f"/api/bot/game/{room}/move/a1", headers=auth)
    assert res.status_code == 400 and res.json()["error"]["code"] == "illegal"
    # a code with its arguments: the move, and the rule it breaks as a code with its own
    assert res.json()["error"]["args"] == {"move": "a1", "why": "reversi.no_bracket",
                                           "sq": "a1", "colour": "white"}
    assert ply(client, room) == 0
    res = client.post(f"/api/bot/game/{room}/move/d3?ply=5", headers=auth)
    assert res.json()["error"]["code"] == "stale" and ply(client, room) == 0
    res = client.post(f"/api/bot/game/{room}/move/d3?ply=0", headers=auth)
    assert res.status_code == 200 and res.json()["ply"] >= 1


def test_bot_api_requests_are_rate_limited_per_token(client: TestClient) -> None:
    auth = bot(client, "fastbot")
    room = client.post("/api/bot/challenge/ai", json={"game": "reversi", "level": "1"},
                       headers=auth).json()["room"]
    codes = [client.post(f"/api/bot/game/{room}/move/a1", headers=auth).status_code
             for _ in range(45)]
    assert codes.count(429) >= 5 and set(codes) == {400, 429}


def test_upgrade_is_refused_after_rated_games_and_for_guests(client: TestClient) -> None:
    pid = register(client, "veteran")
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        gid = conn.execute(insert(GameRow).values(
            game="reversi", pool="reversi", rated=True, context="rated", options="{}",
            seed="1", record=None,
            result='{"scores": [1.0, 0.0], "ranks": [1, 2], "reason": ""}', finished="2026-12-01T00:00:00.000+00:00")
        ).inserted_primary_key[0]
        conn.execute(insert(GameSeatRow).values(game_id=gid, seat=0, player_id=pid, team=0,
                                                rank=1, score=1.0, points=1.0))
    res = client.post("/api/bot/account/upgrade")
    assert res.status_code == 409 and res.json()["error"]["code"] == "has_rated_games"
    assert client.get(f"/api/players/{pid}").json()["title"] is None
    client.cookies.clear()
    assert client.post("/api/account/guest").status_code == 201
    res = client.post("/api/bot/account/upgrade")
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_registered"
    # a fresh account: upgraded once, for good
    register(client, "freshbot")
    assert client.post("/api/bot/account/upgrade").status_code == 200
    res = client.post("/api/bot/account/upgrade")
    assert res.status_code == 409 and res.json()["error"]["code"] == "already_bot"


def test_a_declined_challenge_makes_no_room_and_is_settled_once(client: TestClient) -> None:
    auth = bot(client, "pickybot")
    client.cookies.clear()
    res = client.post("/api/challenge/nosuchbot", json={"game": "reversi"})
    assert res.status_code == 404 and res.json()["error"]["code"] == "no_bot"
    assert res.json()["error"]["args"] == {"name": "nosuchbot"}
    res = client.post("/api/challenge/pickybot", json={"game": "algo",
                                                       "options": {"players": 3}})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_seats"
    assert res.json()["error"]["args"] == {"game": "algo", "seats": "3"}
    ch = client.post("/api/challenge/pickybot", json={"game": "reversi", "seat": 1}).json()
    assert ch["status"] == "created" and ch["key"]
    other = bot(client, "thiefbot")  # not the challenged bot: cannot answer it
    res = client.post(f"/api/bot/challenge/{ch['challenge']}/accept", headers=other)
    assert res.status_code == 404
    res = client.post(f"/api/bot/challenge/{ch['challenge']}/decline",
                      json={"reason": "later"}, headers=auth)
    assert res.status_code == 200
    status = client.get(f"/api/challenge/{ch['challenge']}/status").json()
    assert status["status"] == "declined" and status["reason"] == "later"
    res = client.post(f"/api/bot/challenge/{ch['challenge']}/accept", headers=auth)
    assert res.status_code == 409 and res.json()["error"]["code"] == "challenge_settled"
    assert res.json()["error"]["args"] == {"status": "declined"}
    assert client.get(f"/api/rooms/{ch['room']}").status_code == 404


def test_a_bot_account_is_never_rated_even_in_a_rated_room(client: TestClient) -> None:
    """Its session can still take a seat of a rated room on the site: the finished game is
    recorded unrated, so it never gets a rating (nor a leaderboard place)."""
    bot(client, "sneakybot")
    room = client.post("/api/rooms", json={
        "game": "reversi", "options": {}, "casual": False,
        "clock": {"initial": 300, "increment": 5},
        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert room.status_code == 201, room.text
    data = room.json()
    assert client.post(f"/api/rooms/{data['room']}/claim",
                       json={"seats": data["keys"][:1]}).json()["seats"] == [0]
    person = register(client, "honestperson")
    assert client.post(f"/api/rooms/{data['room']}/claim",
                       json={"seats": data["keys"][1:]}).json()["seats"] == [1]
    with client.websocket_connect(f"/ws/{data['room']}") as ws:
        ws.send_json({"type": "hello", "seats": data["keys"]})
        # both sides move (a game ended before that is aborted, unrated for everyone)
        ws.send_json({"type": "move", "seat": 0, "move": "d3", "ply": 0})
        ws.send_json({"type": "move", "seat": 1, "move": "c5", "ply": 1})
        ws.send_json({"type": "resign", "seat": 1})
        for _ in range(50):
            msg = ws.receive_json()
            assert msg.get("type") != "error", msg
            if msg.get("type") == "update" and msg["room"]["status"] == "finished":
                break
        assert msg["room"]["ply"] == 2
    for _ in range(200):
        progress = client.get(f"/api/rooms/{data['room']}/progress").json()
        if progress["recorded"]:
            break
        time.sleep(0.05)
    assert progress["recorded"], progress
    assert not any(c.get("rated") for c in progress["result"].get("ratings", [])), progress
    login(client, "sneakybot")
    page = client.get("/api/players/me").json()
    assert page["title"] == "BOT"
    assert not page.get("ratings"), page.get("ratings")
    board = client.get("/api/leaderboards/reversi").json()
    assert "sneakybot" not in str(board)
    assert person
