"""Challenges to a named player, follows and blocks (asobiba.server.social, issue 28 item 3),
tried as players and as attackers would, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from asobiba.server import create_app
from asobiba.server.rooms import ClientError
from asobiba.server.social import MAX_PENDING, People
from asobiba.tables import CHALLENGES, SEAT_PLAYERS

from .test_fairplay_rating import CLOCK, account, as_, guest, play, wait_recorded


@pytest.fixture
def client(tmp_path: Any, db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0,
                               claim_after=0.5)) as c:
        yield c


def people(client: TestClient) -> People:
    got = client.app.state.people  # type: ignore[attr-defined]
    assert isinstance(got, People)
    return got


def challenge(client: TestClient, token: str, to: str, **body: Any) -> Any:
    return as_(client, token).post("/api/challenges", json={"to": to, "game": "reversi",
                                                            **body})


def test_a_challenge_accepted_makes_one_room_with_both_accounts_seated(client: TestClient
                                                                       ) -> None:
    ann, ben = account(client, "ann"), account(client, "ben")
    made = challenge(client, ann, "ben", colour="second", casual=False, clock=CLOCK)
    assert made.status_code == 201, made.text
    ch = made.json()["challenge"]
    assert ch["seat"] == 1 and ch["status"] == "created" and ch["to"] == "ben"
    ann_key = made.json()["keys"][0]
    assert ann_key["seat"] == 1
    # ben sees it waiting, with his colour; ann sees it as hers
    incoming = as_(client, ben).get("/api/challenges").json()["incoming"]
    assert [(c["id"], c["from"], c["seat"]) for c in incoming] == [(ch["id"], "ann", 0)]
    assert "room" not in incoming[0]  # the room is ann's to know until it exists
    assert as_(client, ann).get("/api/challenges").json()["outgoing"][0]["id"] == ch["id"]
    res = as_(client, ben).post(f"/api/challenges/{ch['id']}/accept")
    assert res.status_code == 201, res.text
    room = res.json()
    assert room["keys"][0]["seat"] == 0
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        held = dict(conn.execute(select(SEAT_PLAYERS.c.seat, SEAT_PLAYERS.c.player_id)
                                 .where(SEAT_PLAYERS.c.room_id == room["room"])).all())
    ids = {as_(client, t).get("/api/players/me").json()["player"]["name"]:
           as_(client, t).get("/api/players/me").json()["player"]["id"] for t in (ann, ben)}
    assert held == {0: ids["ben"], 1: ids["ann"]}
    info = client.get(f"/api/rooms/{room['room']}").json()
    assert [s["name"] for s in info["seats"]] == ["ben", "ann"]
    # ann's page learns the room; the keys each holds are the room's
    out = as_(client, ann).get("/api/challenges").json()["outgoing"][0]
    assert out["status"] == "accepted" and out["url"] == f"/r/{room['room']}"
    # the rated game is recorded as rated without any claim: both seats were bound
    play(client, {"room": room["room"], "keys": [room["keys"][0], ann_key]}, 3, loser=1)
    result = wait_recorded(client, room["room"])
    assert result["rated"] is True, result
    assert {c["seat"]: c["player_id"] for c in result["changes"]} == {0: ids["ben"],
                                                                       1: ids["ann"]}


def test_a_decline_is_told_with_its_reason_and_settles_once(client: TestClient) -> None:
    ann, ben = account(client, "ann2"), account(client, "ben2")
    cid = challenge(client, ann, "ben2").json()["challenge"]["id"]
    res = as_(client, ben).post(f"/api/challenges/{cid}/decline", json={"reason": "too_fast"})
    assert res.json() == {"status": "declined", "reason": "too_fast"}
    out = as_(client, ann).get("/api/challenges").json()["outgoing"][0]
    assert (out["status"], out["reason"]) == ("declined", "too_fast")
    again = as_(client, ben).post(f"/api/challenges/{cid}/accept")
    assert again.status_code == 409 and again.json()["error"]["code"] == "challenge_settled"
    # a reason that is not one of the list is a code, and changes nothing
    cid2 = challenge(client, ann, "ben2").json()["challenge"]["id"]
    bad = as_(client, ben).post(f"/api/challenges/{cid2}/decline", json={"reason": "<b>x"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_reason"
    assert as_(client, ben).get("/api/challenges").json()["incoming"][0]["status"] == "created"


def test_attack_only_the_challenged_answers_and_only_the_challenger_cancels(
        client: TestClient) -> None:
    ann, ben, eve = account(client, "ann3"), account(client, "ben3"), account(client, "eve3")
    cid = challenge(client, ann, "ben3").json()["challenge"]["id"]
    for who, what in ((eve, "accept"), (ann, "accept"), (eve, "decline"), (ben, "cancel"),
                      (eve, "cancel")):
        res = as_(client, who).post(f"/api/challenges/{cid}/{what}", json={})
        assert res.status_code == 404 and res.json()["error"]["code"] == "no_challenge", what
    assert as_(client, eve).get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    assert as_(client, ann).post(f"/api/challenges/{cid}/cancel").json()["status"] == \
        "cancelled"
    assert as_(client, ben).get("/api/challenges").json()["incoming"] == []


def test_attack_two_accepts_at_once_give_one_room(client: TestClient) -> None:
    """The compare-and-set on the status: eight answers at once, one wins (two processes
    would race the same row the same way)."""
    ann, _ben = account(client, "ann4"), account(client, "ben4")
    cid = challenge(client, ann, "ben4").json()["challenge"]["id"]
    me_id = int(as_(client, _ben).get("/api/players/me").json()["player"]["id"])
    social = people(client)
    won: list[str] = []
    lost: list[str] = []
    start = threading.Barrier(8)

    def answer() -> None:
        start.wait()
        try:
            social._settle(cid, me_id, "to_id", "accepting", None)
            won.append("ok")
        except ClientError as exc:
            lost.append(exc.code)
    threads = [threading.Thread(target=answer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and lost == ["challenge_settled"] * 7


def test_refusals_are_codes_and_make_nothing(client: TestClient) -> None:
    ann, _ben, g = account(client, "ann5"), account(client, "ben5"), guest(client)
    cases = [
        ({"to": "nobody_here"}, 404, "no_player"),
        ({"to": "ann5"}, 400, "challenge_self"),
        ({"to": "ben5", "casual": False}, 400, "rated_needs_clock"),
        ({"to": "ben5", "colour": "purple"}, 400, "bad_colour"),
        ({"to": "ben5", "game": "no_such"}, 400, "unknown_game"),
        ({"to": "ben5", "options": {"size": 3}}, 400, "bad_options"),
        ({"to": "ben5", "game": "algo", "options": {"players": 4}}, 400, "bad_challenge"),
        ({"to": "ben5", "clock": {"initial": -1, "increment": 0}}, 400, "bad_clock"),
        ({"to": "x" * 41}, 400, "no_player"),
    ]
    for body, status, code in cases:
        res = as_(client, ann).post("/api/challenges", json={"game": "reversi", **body})
        assert (res.status_code, res.json()["error"]["code"]) == (status, code), (body, res.text)
    gname = as_(client, g).get("/api/players/me").json()["player"]["name"]
    res = challenge(client, ann, gname, casual=False, clock=CLOCK)
    assert (res.status_code, res.json()["error"]["code"]) == (403, "guest_casual")
    client.cookies.clear()
    res = client.post("/api/challenges", json={"to": "ben5", "game": "reversi"})
    assert (res.status_code, res.json()["error"]["code"]) == (401, "not_signed_in")
    assert as_(client, ann).get("/api/challenges").json()["outgoing"] == []


def test_rule_a_player_has_at_most_so_many_challenges_waiting(client: TestClient) -> None:
    ann = account(client, "ann6")
    targets = [as_(client, guest(client)).get("/api/players/me").json()["player"]["name"]
               for _ in range(MAX_PENDING + 1)]  # guests: casual challenges are open to them
    for name in targets[:-1]:
        assert challenge(client, ann, name).status_code == 201
    res = challenge(client, ann, targets[-1])
    assert (res.status_code, res.json()["error"]["code"]) == (429, "too_many_challenges")
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert len(conn.execute(select(CHALLENGES.c.id)).all()) == MAX_PENDING


def test_rule_a_block_stops_challenges_follows_and_pairing_both_ways(client: TestClient
                                                                     ) -> None:
    ann, ben = account(client, "ann7"), account(client, "ben7")
    assert as_(client, ann).post("/api/people/ben7/follow").status_code == 200
    waiting = challenge(client, ann, "ben7").json()["challenge"]["id"]
    assert as_(client, ben).post("/api/people/ann7/block").json() == {"player": "ann7",
                                                                      "done": "block"}
    # the waiting challenge is gone, the follow is gone, and neither can start anew
    assert as_(client, ben).get("/api/challenges").json()["incoming"] == []
    assert as_(client, ben).post(f"/api/challenges/{waiting}/accept").status_code == 409
    assert as_(client, ann).get("/api/people").json()["following"] == []
    for a, b in ((ann, "ben7"), (ben, "ann7")):
        res = challenge(client, a, b)
        assert (res.status_code, res.json()["error"]["code"]) == (403, "cannot_challenge")
    res = as_(client, ann).post("/api/people/ben7/follow")
    assert (res.status_code, res.json()["error"]["code"]) == (403, "cannot_follow")
    assert as_(client, ben).get("/api/people").json()["blocked"] == ["ann7"]
    # an open game of one is not taken by the other; quick pairing does not pair them
    seek = as_(client, ann).post("/api/seeks", json={"game": "reversi"}).json()
    res = as_(client, ben).post(f"/api/seeks/{seek['seek']['id']}/accept", json={})
    assert (res.status_code, res.json()["error"]["code"]) == (403, "cannot_pair")
    assert [s["id"] for s in client.get("/api/seeks").json()["seeks"]] == [seek["seek"]["id"]]
    quick = as_(client, ben).post("/api/seeks/quick", json={"game": "reversi"}).json()
    assert quick["paired"] is False
    # unblocking lets them play again
    assert as_(client, ben).post("/api/people/ann7/unblock").status_code == 200
    assert challenge(client, ann, "ben7").status_code == 201


def test_following_shows_online_and_live_games(client: TestClient) -> None:
    ann, ben = account(client, "ann8"), account(client, "ben8")
    assert as_(client, ann).post("/api/people/ben8/follow").status_code == 200
    assert as_(client, ann).post("/api/people/ben8/follow").status_code == 200  # idempotent
    res = as_(client, ann).post("/api/people/ann8/follow")
    assert res.json()["error"]["code"] == "not_yourself"
    as_(client, ben).get("/api/challenges")  # ben's page asks for its notices: seen now
    following = as_(client, ann).get("/api/people").json()["following"]
    assert [(f["name"], f["online"], f["live"]) for f in following] == [("ben8", True, [])]
    # ben plays someone: the game is listed while a page is connected to it
    cid = challenge(client, ben, "ann8").json()["challenge"]["id"]
    room = as_(client, ann).post(f"/api/challenges/{cid}/accept").json()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        ws.send_json({"type": "hello", "seats": room["keys"]})
        ws.receive_json()
        live = as_(client, ann).get("/api/people").json()["following"][0]["live"]
        assert live == [{"room": room["room"], "game": "reversi"}]
    assert as_(client, ann).post("/api/people/ben8/unfollow").status_code == 200
    assert as_(client, ann).get("/api/people").json()["following"] == []


# ---- correspondence: days per move, "your turn" everywhere, the deadline (issue 28 item 2) ----

DAY = 86400


def test_correspondence_your_turn_list_and_a_passed_deadline_loses_on_time(
        tmp_path: Any, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rated correspondence game (1 day per move): the player to move sees it in their
    "your turn" list with the time left; nobody opens it for two days, the server restarts,
    and one retention sweep ends it — the seat that did not move loses on time, rated."""
    from asobiba.server import retention

    from .test_clock_controls import FakeTime, join
    from .test_clock_controls import play as play_one

    fake = FakeTime(monkeypatch)
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0)) as client:
        ann, ben = account(client, "corrann"), account(client, "corrben")
        made = challenge(client, ann, "corrben", colour="first", casual=False,
                         clock={"per_move": DAY}).json()
        room = as_(client, ben).post(f"/api/challenges/{made['challenge']['id']}/accept"
                                     ).json()
        rid = room["room"]
        keys = [made["keys"][0], room["keys"][0]]
        turns = as_(client, ann).get("/api/turns").json()["turns"]
        assert [(t["room"], t["seat"], t["correspondence"]) for t in turns] == [(rid, 0, True)]
        assert turns[0]["remaining"] == pytest.approx(DAY, abs=1)
        assert turns[0]["opponents"] == ["corrben"]
        assert as_(client, ben).get("/api/turns").json()["turns"] == []
        with client.websocket_connect(f"/ws/{rid}") as ws:
            msg = join(ws, keys)
            fake.now += 3600
            msg = play_one(ws, msg, 0)
            fake.now += 7200
            play_one(ws, msg, 1)
        fake.now += 5 * 3600
        turns = as_(client, ann).get("/api/turns").json()["turns"]
        assert turns[0]["remaining"] == pytest.approx(DAY - 5 * 3600, abs=1)
    fake.now += 2 * DAY  # nobody looks; then a restart, and the sweep
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0)) as client:
        hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
        assert rid not in hub.rooms
        client.portal.call(retention.sweep, hub, retention.ABANDON_AFTER)
        info = {}
        for _ in range(200):
            info = client.get(f"/api/rooms/{rid}").json()
            if info["status"] == "finished":
                break
            time.sleep(0.05)
        assert info["status"] == "finished", info
        assert info["result"]["timeout"] == 0 and info["result"]["winners"] == [1], info
        result = wait_recorded(client, rid)
        assert result["rated"] is True
        after = {c["seat"]: c["after"] - c["before"] for c in result["changes"]}
        assert after[0] < 0 < after[1], after  # ann, to move, lost on time


def test_retention_leaves_a_correspondence_game_to_its_clock(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A week away is abandonment for an untimed game, not for a 14-day move: the old sweep
    ended such a game as abandoned a week before its deadline."""
    from asobiba.server import retention

    from .helpers import create_room, make_client
    from .test_clock_controls import FakeTime

    fake = FakeTime(monkeypatch)
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [{"kind": "human"}, {"kind": "human"}],
                           clock={"per_move": 14 * DAY})
        hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
        loaded = client.portal.call(hub.get, room["room"])
        seen = fake.now
        fake.now += 8 * DAY
        closed = client.portal.call(retention.close_if_abandoned, hub, loaded, seen,
                                    retention.ABANDON_AFTER, fake.now)
        assert closed is False and loaded.status == "active"
        untimed = create_room(client, "reversi", [{"kind": "human"}, {"kind": "human"}])
        other = client.portal.call(hub.get, untimed["room"])
        assert client.portal.call(retention.close_if_abandoned, hub, other, seen,
                                  retention.ABANDON_AFTER, fake.now) is True
