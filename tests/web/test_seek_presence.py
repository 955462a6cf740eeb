"""Issue 26 item 3: an open game (seek) lives as long as its opener's lobby. It is withdrawn
once the opener's last lobby page has been gone for the grace (10 s), and a seek taken while
the opener was away keeps their seat's key for their return. Driven by an injected clock
(never a 10 s sleep): ``Lobby.sweep`` is what the lobby's watch loop runs every second.
On the old main, a seek outlived its opener forever and its key went to nobody."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from asobiba.server.lobby import SEEK_GRACE, Lobby, Seek

from .helpers import make_client, read_until


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def setup(client: TestClient) -> tuple[Lobby, Clock]:
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    clock = Clock()
    lobby.clock = clock
    assert lobby.grace == SEEK_GRACE == 10.0
    return lobby, clock


def sweep(client: TestClient, lobby: Lobby) -> list[Seek]:
    return client.portal.call(lobby.sweep)  # type: ignore[union-attr,no-any-return]


def listed(client: TestClient) -> list[str]:
    return [s["id"] for s in client.get("/api/seeks").json()["seeks"]]


def until_closed(lobby: Lobby) -> None:
    """The server's side of a closed test socket runs on its own loop: wait for it."""
    deadline = time.monotonic() + 30
    while lobby.sockets and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not lobby.sockets


def hello(ws: Any, token: str) -> None:
    read_until(ws, lambda m: m.get("type") == "lobby")
    ws.send_json({"type": "hello", "tokens": [token]})


def test_a_seek_is_withdrawn_once_its_openers_last_lobby_page_is_gone_for_the_grace(
        tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        lobby, clock = setup(client)
        made = client.post("/api/seeks", json={"game": "reversi"}).json()
        seek, token = made["seek"]["id"], made["token"]
        with client.websocket_connect("/ws/lobby") as a, \
                client.websocket_connect("/ws/lobby") as a2:  # two tabs of the opener
            hello(a, token)
            hello(a2, token)
            deadline = time.monotonic() + 30
            while len([h for h in lobby.sockets.values() if h]) < 2 \
                    and time.monotonic() < deadline:
                time.sleep(0.01)
            clock.now += 60  # held all along: kept however long
            assert sweep(client, lobby) == [] and listed(client) == [seek]
            a.close()
            clock.now += 60  # one tab is left: still held
            assert sweep(client, lobby) == [] and listed(client) == [seek]
        until_closed(lobby)  # the last tab went at clock.now
        clock.now += SEEK_GRACE - 1
        assert sweep(client, lobby) == [] and listed(client) == [seek], "within the grace"
        clock.now += 2
        assert [s.id for s in sweep(client, lobby)] == [seek]
        assert listed(client) == []
        res = client.post(f"/api/seeks/{seek}/accept", json={})
        assert res.status_code == 400 and res.json()["error"]["code"] == "no_seek"


def test_a_seek_opened_without_a_lobby_page_counts_from_its_opening(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        lobby, clock = setup(client)
        seek = client.post("/api/seeks", json={"game": "reversi"}).json()["seek"]["id"]
        clock.now += SEEK_GRACE - 1
        assert sweep(client, lobby) == []
        clock.now += 2
        assert [s.id for s in sweep(client, lobby)] == [seek] and listed(client) == []


def test_a_seek_taken_while_its_opener_was_away_gives_them_their_key_on_return(
        tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        lobby, clock = setup(client)
        made = client.post("/api/seeks", json={"game": "flipflop"}).json()
        seek, token = made["seek"]["id"], made["token"]
        with client.websocket_connect("/ws/lobby") as a:
            hello(a, token)
        until_closed(lobby)
        clock.now += SEEK_GRACE / 2  # away, but within the grace: still listed and taken
        taken = client.post(f"/api/seeks/{seek}/accept", json={})
        assert taken.status_code == 201, taken.text
        room, taker = taken.json()["room"], taken.json()["keys"][0]
        with client.websocket_connect("/ws/lobby") as other:  # someone else's page: nothing
            hello(other, "not-the-token")
            other.send_json({"type": "ping"})  # answered with an error, after any kept key
            assert read_until(other, lambda m: m.get("type") in ("seek_taken", "error")
                              )["type"] == "error"
        with client.websocket_connect("/ws/lobby") as back:
            hello(back, token)
            msg = read_until(back, lambda m: m.get("type") == "seek_taken")
        assert msg["late"] is True and msg["room"] == room and msg["seek"] == seek
        (mine,) = msg["keys"]
        assert mine["seat"] == 1 - taker["seat"] and mine["key"] != taker["key"]
        # the key is the seat's: it plays there
        with client.websocket_connect(f"/ws/{room}") as ws:
            ws.send_json({"type": "hello", "seats": [mine]})
            update = read_until(ws, lambda m: m.get("type") == "update" and m["you"])
            assert mine["seat"] in update["you"]
        with client.websocket_connect("/ws/lobby") as again:  # given once
            hello(again, token)
            again.send_json({"type": "ping"})  # answered with an error: nothing kept came
            assert read_until(again, lambda m: m.get("type") in ("seek_taken", "error")
                              )["type"] == "error"


def test_the_scaled_board_shares_the_openers_presence_and_their_kept_key(
        redis_server: Any) -> None:
    """Two processes' boards on one Redis: a page held at A keeps the seek listed for B's
    sweep; once A's note is older than the grace, B withdraws it (once); a kept key is given
    once, whichever process the opener comes back to."""
    import asyncio

    from asobiba.server.lobby import RedisSeekBoard, _hash

    async def scenario() -> None:
        a, b = RedisSeekBoard(redis_server.url, "A"), RedisSeekBoard(redis_server.url, "B")
        try:
            now = time.time()
            await a.add(Seek("s1", "reversi", {}, True, None, "", 1500.0, _hash("t1"), now))
            await a.mark_seen({_hash("t1")}, now + 30)  # A's lobby page holds it
            assert await b.withdraw_stale(SEEK_GRACE, now + 35) == []
            assert [s.id for s in await b.withdraw_stale(SEEK_GRACE, now + 41)] == ["s1"]
            assert await a.withdraw_stale(SEEK_GRACE, now + 41) == [], "withdrawn once"
            assert await a.all() == []
            message = {"type": "seek_taken", "seek": "s2", "room": "r", "late": True}
            await a.keep_taken(_hash("t2"), message, now)
            assert await b.collect_taken({_hash("t2")}, now + 5) == [message]
            assert await a.collect_taken({_hash("t2")}, now + 6) == [], "given once"
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
