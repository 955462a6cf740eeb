"""What a player can observe is the same through every web process (issue 13 item 1): two
real ``asobiba serve --redis`` processes on a throwaway PostgreSQL and Redis. An open game
posted through A is listed and taken through B (its opener, on A, gets the key); a draw
offered through A is seen and accepted through B; presence dots, hint markers and the
per-address cap on open WebSockets count both processes; the live-games list joins them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

from asobiba.server.services import RedisServer

from .scale_helpers import WAIT, Client, Web, create_room, eventually, keys_for, shows, web_pair

HUMANS = [{"kind": "human"}, {"kind": "human"}]
CAP = 3  # open WebSockets per address in these processes (ASOBIBA_WS_PER_ADDRESS)


@pytest.fixture
def pair(pg_url: str, redis_server: RedisServer, tmp_path: Path
         ) -> Iterator[tuple[Web, Web]]:
    env = {"ASOBIBA_WS_PER_ADDRESS": str(CAP), "ASOBIBA_LIMIT_SCALE": "100"}
    with web_pair(pg_url, redis_server.url, tmp_path, env) as pair:
        yield pair


def test_rule_a_seek_opened_through_a_is_listed_and_taken_through_b(
        pair: tuple[Web, Web]) -> None:
    a, b = pair
    lobby = connect(f"{a.ws}/ws/lobby", open_timeout=WAIT, legacy=True)  # the opener's lobby page, on A
    try:
        json.loads(lobby.recv(timeout=WAIT))  # the first snapshot
        made = httpx2.post(f"{a.http}/api/seeks", json={"game": "reversi"}, timeout=WAIT)
        assert made.status_code == 201, made.text
        seek, token = made.json()["seek"], made.json()["token"]
        lobby.send(json.dumps({"type": "hello", "tokens": [token]}))
        listed = httpx2.get(f"{b.http}/api/seeks", timeout=WAIT).json()["seeks"]
        assert [s["id"] for s in listed] == [seek["id"]], "B lists the seek opened at A"
        taken = httpx2.post(f"{b.http}/api/seeks/{seek['id']}/accept", json={}, timeout=WAIT)
        assert taken.status_code == 201, taken.text
        room = taken.json()["room"]
        # the opener, connected to A, hears it was taken through B, with the other key
        while True:
            msg = json.loads(lobby.recv(timeout=WAIT))
            if msg.get("type") == "seek_taken":
                break
        assert msg["room"] == room and msg["seek"] == seek["id"]
        opener_seat = msg["keys"][0]["seat"]
        assert {opener_seat, taken.json()["keys"][0]["seat"]} == {0, 1}
        again = httpx2.post(f"{a.http}/api/seeks/{seek['id']}/accept", json={}, timeout=WAIT)
        assert again.status_code == 400 and again.json()["error"]["code"] == "no_seek", \
            "a seek is taken once, whichever process is asked"
        assert httpx2.get(f"{a.http}/api/seeks", timeout=WAIT).json()["seeks"] == []
        # both keys work: the opener's at A, the taker's at B
        ca = Client(a, room, msg["keys"])
        cb = Client(b, room, taken.json()["keys"])
        ca.wait_ply(0)
        # the live-games list of either process shows the game held at both
        eventually(lambda: any(g["room"] == room for g in httpx2.get(
            f"{b.http}/api/seeks", timeout=WAIT).json()["live"]), "the live game at B")
        ca.close()
        cb.close()
    finally:
        lobby.close()


def test_rule_a_draw_offered_through_a_is_accepted_through_b(pair: tuple[Web, Web]) -> None:
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})
    rid = room["room"]
    p0 = Client(a, rid, keys_for(room, 0))
    # offered before B has even loaded the room: B asks A what its table holds
    assert p0.request({"type": "draw", "seat": 0})["type"] == "ack"
    p1 = Client(b, rid, keys_for(room, 1))
    shows(p1, lambda m: m["room"]["table"]["draw_offers"] == [0])
    assert p1.last is not None and p1.last["room"]["status"] == "active"
    assert p1.request({"type": "draw", "seat": 1, "accept": True})["type"] == "ack"
    done = [c.wait_status("finished") for c in (p0, p1)]
    assert all(d["room"]["result"].get("agreed_draw") for d in done)
    info = httpx2.get(f"{a.http}/api/rooms/{rid}", timeout=WAIT).json()
    assert info["status"] == "finished" and info["result"]["agreed_draw"]
    p0.close()
    p1.close()


def test_rule_a_declined_draw_is_withdrawn_at_every_process(pair: tuple[Web, Web]) -> None:
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})
    rid = room["room"]
    p0 = Client(a, rid, keys_for(room, 0))
    p1 = Client(b, rid, keys_for(room, 1))
    p0.request({"type": "draw", "seat": 0})
    shows(p1, lambda m: m["room"]["table"]["draw_offers"] == [0])
    p1.request({"type": "draw", "seat": 1, "accept": False})
    shows(p0, lambda m: m["room"]["table"]["draw_offers"] == [])
    assert p0.last is not None and p0.last["room"]["status"] == "active"
    p0.close()
    p1.close()


def test_rule_presence_and_hints_are_the_same_at_every_process(pair: tuple[Web, Web]) -> None:
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})
    rid = room["room"]
    p0 = Client(a, rid, keys_for(room, 0))

    def online(m: dict[str, Any]) -> list[bool]:
        return [s["online"] for s in m["room"]["seats"]]

    shows(p0, lambda m: online(m) == [True, False])
    p1 = Client(b, rid, keys_for(room, 1))
    # seat 1 connected through B: A shows both dots, and so does B
    shows(p0, lambda m: online(m) == [True, True])
    shows(p1, lambda m: online(m) == [True, True])
    assert p1.request({"type": "hint", "seat": 1})["type"] == "ack"
    shows(p0, lambda m: m["room"]["table"]["hints"] == {"1": 1})
    p1.close()  # seat 1 leaves B: A's dot goes out
    shows(p0, lambda m: online(m) == [True, False])
    p0.close()


def test_rule_the_open_websocket_cap_per_address_counts_both_processes(
        pair: tuple[Web, Web]) -> None:
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})["room"]
    held = [Client(a, room), Client(a, room), Client(b, room)]
    for c in held:
        c.recv()  # connected and answered: counted
    # the fourth from this address is refused at B (before the handshake completes: the
    # server closes it, which the client sees as HTTP 403), though B holds only one
    assert _opens(b, room) is None
    assert _opens(a, room) is None
    held.pop(0).close()  # one closes at A: B takes a new one
    again = eventually(lambda: _opens(b, room), "a free place after a close at A")
    again.close()
    for c in held:
        c.close()


def _opens(web: Web, room: str) -> Any:
    """A connection to ``room`` at ``web`` that got its first message, or None if the server
    refused it."""
    from websockets.exceptions import InvalidStatus

    try:
        ws = connect(f"{web.ws}/ws/{room}", open_timeout=WAIT, legacy=True)
    except InvalidStatus as exc:
        assert exc.response.status_code == 403, exc
        return None
    json.loads(ws.recv(timeout=WAIT))
    return ws
