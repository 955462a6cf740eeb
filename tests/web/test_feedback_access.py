"""Who may ask for move feedback (POST /api/rooms/{room}/feedback): while a game runs only
the seat that made the move, proved by its seat key, and the answer is judged from that
seat's views; after the end anyone may ask. Refusals are clear and change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.web.helpers import create_room, is_update, make_client, read_until, send_json

JSON = {"content-type": "application/json"}


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with make_client(str(tmp_path)) as c:
        yield c


def _play(client: TestClient, room: dict[str, Any], plies: int) -> dict[str, Any]:
    """Both human seats play their first legal move ``plies`` times; the last update."""
    rid = room["room"]
    with client.websocket_connect(f"/ws/{rid}") as ws:
        send_json(ws, {"type": "hello", "seats": room["keys"]})
        msg = read_until(ws, lambda m: is_update(m) and bool(m["you"]))
        for _ in range(plies):
            acting = [v for v in msg["views"] if v["view"]["legal_moves"]]
            seat, view = acting[0]["seat"], acting[0]["view"]
            ply = msg["room"]["ply"]
            send_json(ws, {"type": "move", "seat": seat, "move": view["legal_moves"][0]})
            msg = read_until(ws, lambda m, p=ply: is_update(m) and bool(m["you"])
                             and m["room"]["ply"] > p)
        return msg


def _humans(n: int) -> list[dict[str, str]]:
    return [{"kind": "human"} for _ in range(n)]


def test_live_hidden_information_feedback_needs_the_movers_key(client: TestClient) -> None:
    room = create_room(client, "algo", _humans(2))
    msg = _play(client, room, 1)
    assert msg["room"]["status"] == "active"
    assert msg["room"]["moves"][0] == [0, None]  # the move itself is not public
    keys = {k["seat"]: k["key"] for k in room["keys"]}
    url = f"/api/rooms/{room['room']}/feedback"

    res = client.post(url, json={"ply": 0})
    assert res.status_code == 403 and res.json()["error"]["code"] == "need_key", res.text
    res = client.post(url, json={"ply": 0, "seat": 1, "key": keys[1]})
    assert res.status_code == 403 and res.json()["error"]["code"] == "not_your_move", res.text
    assert "seat 0" in res.json()["error"]["message"]
    res = client.post(url, json={"ply": 0, "seat": 0, "key": keys[1]})
    assert res.status_code == 403 and res.json()["error"]["code"] == "bad_key", res.text
    res = client.post(url, json={"ply": 0, "seat": 0, "key": "forged"})
    assert res.status_code == 403 and res.json()["error"]["code"] == "bad_key"
    res = client.post(url, json={"ply": 5, "seat": 0, "key": keys[0]})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_field"

    res = client.post(url, json={"ply": 0, "seat": 0, "key": keys[0]})
    assert res.status_code == 200, res.text
    fb = res.json()["feedback"]
    assert fb["seat"] == 0 and fb["ply"] == 1 and fb["quality"] in (
        "best", "good", "inaccuracy", "mistake", "blunder")
    # nothing changed: the room is where it was
    assert client.get(f"/api/rooms/{room['room']}").json()["ply"] == msg["room"]["ply"]


def test_feedback_in_a_rated_game_is_refused(client: TestClient) -> None:
    room = create_room(client, "memory_matrix", _humans(2), {"players": 2}, casual=False,
                       clock={"per_move": 86400})  # rated between people: a clock
    _play(client, room, 1)
    keys = {k["seat"]: k["key"] for k in room["keys"]}
    res = client.post(f"/api/rooms/{room['room']}/feedback",
                      json={"ply": 0, "seat": 0, "key": keys[0]})
    assert res.status_code == 409 and res.json()["error"]["code"] == "no_feedback"


def test_after_the_end_anyone_may_ask(client: TestClient) -> None:
    room = create_room(client, "memory_matrix", _humans(2), {"players": 2, "shape": "6x6"})
    rid = room["room"]
    msg = _play(client, room, 3)
    res = client.post(f"/api/rooms/{rid}/feedback", json={"ply": 1})
    assert res.status_code == 403  # still running
    with client.websocket_connect(f"/ws/{rid}") as ws:
        send_json(ws, {"type": "hello", "seats": room["keys"]})
        read_until(ws, lambda m: is_update(m) and bool(m["you"]))
        send_json(ws, {"type": "resign", "seat": 0})
        read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
    for ply in (0, 1, 2):
        res = client.post(f"/api/rooms/{rid}/feedback", json={"ply": ply})
        assert res.status_code == 200, res.text
        assert res.json()["feedback"]["seat"] == ply % 2
    assert msg["room"]["ply"] == 3


def test_review_of_a_hidden_information_record(client: TestClient) -> None:
    room = create_room(client, "algo", _humans(2))
    rid = room["room"]
    _play(client, room, 2)
    with client.websocket_connect(f"/ws/{rid}") as ws:
        send_json(ws, {"type": "hello", "seats": room["keys"]})
        read_until(ws, lambda m: is_update(m) and bool(m["you"]))
        send_json(ws, {"type": "resign", "seat": 1})
        read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
    record = client.get(f"/api/rooms/{rid}/record")
    assert record.status_code == 200, record.text
    res = client.post("/api/review", content=record.content, headers=JSON)
    assert res.status_code == 200, res.text
    review = res.json()["review"]
    assert review["game"] == "algo" and len(review["moves"]) == 2


@pytest.mark.browser
def test_browser_shows_feedback_on_own_moves_in_algo(browser: Any, server: Any) -> None:
    """A real browser: a casual Algo game against a bot; after the player's move the page
    asks with its seat key and shows the quality badge."""
    from tests.web.browser import click_listed, open_context, wait_turn

    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/?game=algo")
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#seat-1")
        page.select_option("#seat-0", "you")
        page.select_option("#seat-1", "bot:3")
        page.set_checked("#casual", True)
        page.click("#create-btn")
        page.wait_for_url("**/r/*")
        page.wait_for_selector("body[data-connected=true][data-progress=ready]")
        assert wait_turn(page) == "turn"
        click_listed(page)
        page.wait_for_selector("#feedback [data-quality]")
        quality = page.get_attribute("#feedback [data-quality]", "data-quality")
        assert quality in {"best", "good", "inaccuracy", "mistake", "blunder"}
        # the move is named in words (issue 15: raw codes like "attack B4=8" were shown)
        text = page.inner_text("#feedback")
        assert "Guess" in text and "attack" not in text
    finally:
        context.close()
    assert not errors, errors
