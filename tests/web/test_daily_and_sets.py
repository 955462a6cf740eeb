"""Rooms from a fixed seed and opening moves, over HTTP and WebSocket: the daily challenge
played against the CPU in a room (its result goes to the day's calendar, unrated), and
reverse-match ladder sets of games with chance (each game dealt afresh)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from asobiba.games import get as get_game
from asobiba.progression import Progression
from asobiba.progression import daily as dailies
from asobiba.server import create_app
from tests.web.browser import Server, launch, open_context
from tests.web.helpers import is_update, my_view, read_until, send_json
from tests.web.test_progression_api import (
    climb_to,
    finish_by_resigning,
    register,
    wait_recorded,
)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def today() -> Any:
    return datetime.now(UTC).date()


def server_daily(tmp_path: Any, game: str) -> Any:
    """Today's challenge as the server on ``tmp_path`` deals it (under its daily secret, kept
    in its database: docs/fair-play.md)."""
    engine = create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}")
    return Progression(engine).daily_full(game, today())


def stored_record(client: TestClient, room_id: str) -> Any:
    """A finished room's record from the server's store (a daily room's record is not given
    out over HTTP until its day is over: it holds the day's seed)."""
    return json.loads(client.app.state.store.record(room_id))  # type: ignore[attr-defined]


def hello(ws: Any, room: dict[str, Any]) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seats": room["keys"]})
    return read_until(ws, lambda m: is_update(m) and bool(m["you"]))


def play_out(ws: Any, first: dict[str, Any], choose: Callable[[dict[str, Any]], str]
             ) -> dict[str, Any]:
    """Play ``choose(view)`` whenever it is this seat's turn, until the game ends."""
    msg = first

    def ready(m: dict[str, Any]) -> bool:
        return is_update(m) and (my_view(m)["over"] or bool(my_view(m)["legal_moves"]))

    if not ready(msg):
        msg = read_until(ws, ready)
    for ply in range(300):
        view = my_view(msg)
        if view["over"]:
            return msg
        send_json(ws, {"type": "move", "move": choose(view), "ply": msg["room"]["ply"],
                       "id": ply})
        seen: list[dict[str, Any]] = []

        def answered(m: dict[str, Any], p: int = ply) -> bool:
            return m.get("id") == p and m["type"] == "ack" or m["type"] == "error"
        read_until(ws, answered, seen=seen)
        assert not [m for m in seen if m["type"] == "error"], seen
        later = [m for m in seen if ready(m) and (
            my_view(m)["over"] or m["room"]["ply"] > msg["room"]["ply"] + 1)]
        msg = later[-1] if later else read_until(ws, ready)
    raise AssertionError("the game did not end")


def test_daily_play_room_starts_after_the_opening_and_resumes_identically_after_a_restart(
        tmp_path: Any) -> None:
    """A room made from a seed and opening moves (today's Reversi challenge) starts after
    the opening, in the challenge's start view for the player's seat; after a server
    restart the same moves and view come back, and the finished record holds the seed."""
    ch = server_daily(tmp_path, "reversi")
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        assert c.post("/api/daily/reversi/play").status_code == 401
        register(c, "ichiro")
        public = c.get("/api/daily/reversi").json()["challenge"]
        room = c.post("/api/daily/reversi/play").json()
        assert [k["seat"] for k in room["keys"]] == [ch.player_seat]
        info = c.get(f"/api/rooms/{room['room']}").json()
        assert info["ply"] == len(ch.opening)
        assert info["moves"] == [[s, m] for s, m in ch.opening]
        with c.websocket_connect(f"/ws/{room['room']}") as ws:
            first = my_view(hello(ws, room))
        assert first == public["view"]
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        again = c.get(f"/api/rooms/{room['room']}").json()
        assert again["moves"] == info["moves"] and again["status"] == "active"
        with c.websocket_connect(f"/ws/{room['room']}") as ws:
            assert my_view(hello(ws, room)) == first
        finish_by_resigning(c, room, ch.player_seat)
        record = stored_record(c, room["room"])
        assert record["seed"] == ch.seed
        assert [[m["seat"], m["move"]] for m in record["moves"]] == info["moves"]


def test_a_bad_opening_is_refused_and_creates_nothing(client: TestClient, tmp_path: Any,
                                                       monkeypatch: Any) -> None:
    """An opening that cannot be played is refused with its reason; no room is made."""
    ch = server_daily(tmp_path, "reversi")
    bad = dailies.DailyChallenge("reversi", ch.day, "opponent", {}, 7, ((0, "a1"),), 1,
                                 "random")
    monkeypatch.setattr(dailies, "challenge", lambda game, day, secret=b"": bad)
    register(client, "jiro2")
    res = client.post("/api/daily/reversi/play")
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_opening"
    assert "a1" in res.json()["error"]["message"]
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        for table in ("rooms", "moves", "web_room_context", "web_daily_rooms"):
            assert conn.execute(text(f"select count(*) from {table}")).scalar() == 0, table


def test_rule_daily_opponent_room_is_unrated_and_a_win_clears_the_day(
        client: TestClient, monkeypatch: Any) -> None:
    """「勝てばその日はクリア」: a daily room finished with a win marks today in the calendar;
    the game is kept but not rated. (A fixed challenge against the random CPU level, so a
    scripted player wins the same game every day.)"""
    # a fixed challenge (not the day's) so the scripted game is the same every day
    ch = dailies.DailyChallenge("reversi", today(), "opponent", {}, 11, ((0, "f5"),), 1,
                                "random")
    monkeypatch.setattr(dailies, "challenge", lambda game, day, secret=b"": ch)
    register(client, "saburo2")
    room = client.post("/api/daily/reversi/play").json()
    game = get_game("reversi")
    strong = game.make_bot("4", 1)  # depth-limited: the same moves every run

    def choose(view: dict[str, Any]) -> str:
        strong.observe(view)
        return strong.choose(view)
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        end = play_out(ws, hello(ws, room), choose)
    assert end["room"]["status"] == "finished"
    result = wait_recorded(client, room["room"])
    ranks = end["room"]["result"]["ranks"]
    won = ranks[ch.player_seat] == 1 and list(ranks).count(1) == 1
    assert won, f"the scripted player did not beat the random CPU: {end['room']['result']}"
    assert result["rated"] is False
    assert result["daily"] == [{"type": "cleared", "day": today().isoformat()}]
    progress = client.get(f"/api/rooms/{room['room']}/progress").json()
    assert progress["context"]["kind"] == "daily"
    cal = client.get("/api/daily/reversi").json()["calendar"]
    assert today().day in cal["cleared"]


def test_rule_daily_loss_does_not_clear_and_hidden_games_get_the_days_deal(
        client: TestClient, tmp_path: Any) -> None:
    """Memory Matrix (chance, hidden information): the room is dealt from the day's seed, so
    the player's first view is the challenge's start view; a resignation is a loss and does
    not clear the day. The seed is never sent during play."""
    ch = server_daily(tmp_path, "memory_matrix")
    register(client, "shiro")
    public = client.get("/api/daily/memory_matrix").json()["challenge"]
    assert "seed" not in public
    room = client.post("/api/daily/memory_matrix/play").json()
    assert [k["seat"] for k in room["keys"]] == [ch.player_seat]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        msg = hello(ws, room)
        if msg["room"]["ply"] == 0:
            assert my_view(msg) == public["view"]
        assert str(ch.seed) not in json.dumps(msg)
    finish_by_resigning(client, room, ch.player_seat)
    result = wait_recorded(client, room["room"])
    assert result["rated"] is False and result["daily"] == []
    record = stored_record(client, room["room"])
    assert record["seed"] == ch.seed and record["options"] == dict(ch.options)
    assert today().day not in client.get("/api/daily/memory_matrix").json()["calendar"][
        "cleared"]


def test_daily_play_refuses_challenges_that_are_not_games(client: TestClient) -> None:
    register(client, "goro2")
    res = client.post("/api/daily/algo/play")
    assert res.status_code == 400 and res.json()["error"]["code"] == "not_playable"


@pytest.mark.parametrize("game", ["memory_matrix", "algo"])
def test_rule_reverse_match_sets_of_chance_games_deal_each_game_afresh(
        client: TestClient, tmp_path: Any, game: str) -> None:
    """Seed §8 reverse matches in games with hidden information or chance: the seats swap,
    but the second game is dealt afresh — the same deal would hand the player the CPU's
    cards (they held them in game 1) and the first game's record, public once it ends,
    holds its seed."""
    me = register(client, f"rokuro-{game}").json()["player"]
    prog = Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}"))
    climb_to(prog, me["id"], game, "topaz")
    lv5 = [u for u in client.get(f"/api/ladder/{game}").json()["unlocked"]
           if u["tier"] == "lv5"]
    assert lv5 and lv5[0]["reverse"] is True
    first = client.post(f"/api/ladder/{game}/play", json={"tier": "lv5"}).json()
    seat = first["keys"][0]["seat"]
    finish_by_resigning(client, first, seat)
    assert wait_recorded(client, first["room"])["ladder"][0]["type"] == "set_continues"
    second = client.post(f"/api/ladder/{game}/next", json={
        "room": first["room"], "seat": seat, "key": first["keys"][0]["key"]}).json()
    assert [k["seat"] for k in second["keys"]] == [1 - seat]
    finish_by_resigning(client, second, 1 - seat)
    wait_recorded(client, second["room"])
    records = [json.loads(client.get(f"/api/rooms/{r['room']}/record").text)
               for r in (first, second)]
    assert records[0]["seed"] != records[1]["seed"]
    assert records[0]["seats"] != records[1]["seats"]  # the seats swapped


@pytest.mark.browser
def test_daily_page_button_plays_todays_challenge_in_a_room(tmp_path: Any) -> None:
    """In Chromium: the daily page's *Play today's challenge* opens a room in the
    challenge's seat after its opening; a resignation shows the day as not cleared, with a
    link back to the daily page."""
    from playwright import sync_api
    ch = server_daily(tmp_path, "reversi")
    srv = Server(tmp_path).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = launch(p)
            context = open_context(browser, locale="en-US")
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("dialog", lambda d: d.accept())
            page.goto(f"{srv.url}/daily/reversi")
            page.wait_for_selector("body[data-ready=true]")
            assert page.locator("#play-daily").count() == 0  # signed out: a sign-in link
            page.evaluate("fetch('/api/account/guest', {method: 'POST'})")
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
            assert page.inner_text("#play-daily") == "Play today's challenge"
            page.click("#play-daily")
            page.wait_for_url("**/r/*")
            page.wait_for_selector("body[data-connected=true][data-progress=ready]")
            assert page.evaluate("document.body.dataset.seat") == str(ch.player_seat)
            room = page.url.rsplit("/", 1)[-1]
            info = page.evaluate(f"fetch('/api/rooms/{room}').then(r => r.json())")
            assert info["ply"] == len(ch.opening)
            page.click("#resign")
            page.wait_for_selector("#progress-panel [data-event=not_cleared]")
            page.click("#progress-panel a[href='/daily/reversi']")
            page.wait_for_selector("body[data-ready=true]")
            assert page.locator("#calendar [data-cleared=true]").count() == 0
            context.close()
            browser.close()
            assert not errors, errors
    finally:
        srv.stop()


def test_rule_patapata_daily_course_is_played_alone_on_the_days_dice(client: TestClient,
                                                                    tmp_path: Any) -> None:
    """Patapata's daily challenge is a course to score at least the target on: the room has
    one seat (the player), is dealt from the day's seed, and a course passed task by task
    scores too little to clear the day."""
    ch = server_daily(tmp_path, "patapata")
    assert ch.kind == "puzzle" and ch.target is not None
    me = register(client, "nanako").json()["player"]
    room = client.post("/api/daily/patapata/play")
    assert room.status_code == 201, room.text
    room = room.json()
    assert [k["seat"] for k in room["keys"]] == [0]
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        first = hello(ws, room)
        assert len(first["room"]["seats"]) == 1
        final = first
        for ply in range(40):  # alone: every update after a move is this seat's turn again
            if my_view(final)["over"]:
                break
            send_json(ws, {"type": "move", "move": "pass", "ply": final["room"]["ply"],
                           "id": ply})
            seen: list[dict[str, Any]] = []
            read_until(ws, lambda m, p=ply: m.get("id") == p and m["type"] == "ack"
                       or m["type"] == "error", seen=seen)
            assert not [m for m in seen if m["type"] == "error"], seen
            updates = [m for m in seen if is_update(m) and m["room"]["ply"] == ply + 1]
            final = updates[-1] if updates else read_until(
                ws, lambda m, p=ply: is_update(m) and m["room"]["ply"] == p + 1)
    assert final["room"]["status"] == "finished"
    record = stored_record(client, room["room"])
    assert record["seed"] == ch.seed and record["options"] == dict(ch.options)
    assert record["result"]["scores"][0] < ch.target
    report = wait_recorded(client, room["room"])
    assert report["daily"], report
    events = report["daily"]
    assert not any(e.get("type") == "cleared" for e in events), events
    # a first attempt at a puzzle is rated as a game against the puzzle (as lichess does)
    assert any(e.get("type") == "rating" for e in events), events
    assert me["id"]
