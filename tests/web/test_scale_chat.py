"""Chat across web processes (issue 28 items 4 and 5): two real ``asobiba serve --redis``
processes on a throwaway PostgreSQL and Redis. A line written through one process reaches
the readers connected to the other by the same rules (server.chat relays it on the room
bus), and in a hidden-information game a spectator's line written at B never reaches a
player connected at A while the game runs — the rule of docs/fair-play.md "Chat" holds
across processes, not only inside one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from asobiba.server.progress import COOKIE
from asobiba.server.services import RedisServer

from .scale_helpers import WAIT, Client, Web, create_room, keys_for, web_pair


@pytest.fixture
def pair(pg_url: str, redis_server: RedisServer, tmp_path: Path
         ) -> Iterator[tuple[Web, Web]]:
    with web_pair(pg_url, redis_server.url, tmp_path, {"ASOBIBA_LIMIT_SCALE": "100"}) as pair:
        yield pair


def guest(web: Web) -> str:
    """A guest account's session cookie header (guests may chat)."""
    res = httpx2.post(f"{web.http}/api/account/guest", timeout=WAIT)
    assert res.status_code == 201, res.text
    return f"{COOKIE}={res.cookies[COOKIE]}"


def join_chat(c: Client) -> dict[str, Any]:
    c.ws.send('{"type": "chat_join"}')
    return c.until(lambda m: m.get("type") == "chat_lines")


def lines(c: Client) -> list[str]:
    return [m["line"]["text"] for m in c.seen if m.get("type") == "chat"]


def settle(c: Client) -> None:
    """Everything the processes meant to send this client has arrived: a ping answered
    after a round trip through the other process's relay (its own pong comes last)."""
    assert c.request({"type": "ping"})["type"] in ("ack", "pong")


def test_chat_lines_cross_processes_and_spectators_stay_off_players_in_hidden_games(
        pair: tuple[Web, Web]) -> None:
    a, b = pair
    # a casual Reversi: the player at A and the spectator at B read each other
    room = create_room(a, {"game": "reversi", "casual": True,
                           "seats": [{"kind": "human"}, {"kind": "human"}]})
    ann = Client(a, room["room"], keys_for(room, 0), cookie=guest(a))
    cat = Client(b, room["room"], cookie=guest(b))
    join_chat(ann)
    join_chat(cat)
    assert ann.request({"type": "chat", "channel": "players", "text": "hello from A"}
                       )["type"] == "ack"
    cat.until(lambda m: m.get("type") == "chat" and m["line"]["text"] == "hello from A")
    assert cat.request({"type": "chat", "channel": "spectators", "text": "hi from B"}
                       )["type"] == "ack"
    ann.until(lambda m: m.get("type") == "chat" and m["line"]["text"] == "hi from B")
    ann.close()
    cat.close()

    # Algo (hidden information): the spectator's line at B reaches the other spectator at
    # A, never the player at A while the game runs
    room = create_room(a, {"game": "algo", "casual": True,
                           "seats": [{"kind": "human"}, {"kind": "human"}]})
    player = Client(a, room["room"], keys_for(room, 0), cookie=guest(a))
    watcher_a = Client(a, room["room"], cookie=guest(a))
    watcher_b = Client(b, room["room"], cookie=guest(b))
    for c in (player, watcher_a, watcher_b):
        join_chat(c)
    assert watcher_b.request({"type": "chat", "channel": "spectators",
                              "text": "she holds the 7"})["type"] == "ack"
    watcher_a.until(lambda m: m.get("type") == "chat"
                    and m["line"]["text"] == "she holds the 7")
    # the player's own line goes round through B and back: after it, nothing is in flight
    assert player.request({"type": "chat", "channel": "players", "text": "my turn"}
                          )["type"] == "ack"
    watcher_b.until(lambda m: m.get("type") == "chat" and m["line"]["text"] == "my turn")
    settle(player)
    assert "she holds the 7" not in lines(player), lines(player)
    assert all("she holds the 7" not in str(m) for m in player.seen)
    for c in (player, watcher_a, watcher_b):
        c.close()
