"""Presence renewals between web processes (issue 13 item 1, and item 3's 1,000 rooms at
human pace): each process re-announces the seats connected to it in all its rooms in one
``presence`` event per 500 rooms — not one event per room — and a renewal that changes
nothing sends nothing to anybody's page, while what it renews still counts: a seat
connected through B stays online at A long after the ``STALE`` time its first
announcement would have expired in. Two real ``asobiba serve --redis`` processes on a
throwaway PostgreSQL and Redis, with ``ASOBIBA_PRESENCE_REFRESH=1`` (``STALE`` is then 3 s)
so that the test sees several renewals. The live-games list goes the same way: a process
writes its own even with no lobby page open there, and an entry follows its room."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis

from asobiba.server.services import RedisServer

from .scale_helpers import WAIT, Client, Web, create_room, eventually, keys_for, shows, web_pair

HUMANS = [{"kind": "human"}, {"kind": "human"}]
REFRESH = 1.0
STALE = 3 * REFRESH
ROOMS = 12


@pytest.fixture
def pair(pg_url: str, redis_server: RedisServer, tmp_path: Path
         ) -> Iterator[tuple[Web, Web]]:
    env = {"ASOBIBA_PRESENCE_REFRESH": str(REFRESH), "ASOBIBA_LIMIT_SCALE": "100"}
    with web_pair(pg_url, redis_server.url, tmp_path, env) as pair:
        yield pair


def online(m: dict[str, Any]) -> list[bool]:
    return [s["online"] for s in m["room"]["seats"]]


def publishes(url: str) -> int:
    """PUBLISH commands Redis has run (its own count: INFO commandstats)."""
    stats = redis.Redis.from_url(url).info("commandstats")
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


def test_rule_a_seat_renewed_at_another_process_stays_online_and_the_renewals_send_nothing(
        pair: tuple[Web, Web]) -> None:
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})
    rid = room["room"]
    p0 = Client(a, rid, keys_for(room, 0))
    p1 = Client(b, rid, keys_for(room, 1))
    shows(p0, lambda m: online(m) == [True, True])  # seat 1 is connected through B
    seen = len(p0.seen)
    # several renewal periods, and twice the time B's first announcement counts for
    time.sleep(2 * STALE + 2 * REFRESH)
    for _ in range(50):  # drain whatever came meanwhile (nothing should have)
        try:
            p0.recv(timeout=0.1)
        except TimeoutError:
            break
    quiet = [m for m in p0.seen[seen:] if m.get("type") == "update"]
    assert quiet == [], f"renewals that change nothing sent {len(quiet)} update(s) to A's page"
    # anything that makes A send the table now shows seat 1 still online: B's renewals
    # were taken in (without them its seats at B were forgotten STALE seconds ago)
    assert p0.request({"type": "hint", "seat": 0})["type"] == "ack"
    shows(p0, lambda m: m["room"]["table"]["hints"] == {"0": 1})
    assert p0.last is not None and online(p0.last) == [True, True]
    # and a change still reaches the other process at once
    p1.close()
    shows(p0, lambda m: online(m) == [True, False])
    p0.close()


def test_rule_presence_is_renewed_in_one_event_per_process_not_one_per_room(
        pair: tuple[Web, Web], redis_server: RedisServer) -> None:
    a, b = pair
    clients = []
    for _ in range(ROOMS):
        room = create_room(a, {"game": "reversi", "seats": HUMANS})
        clients.append(Client(a, room["room"], keys_for(room, 0)))
        clients.append(Client(b, room["room"], keys_for(room, 1)))
    for c in clients:
        shows(c, lambda m: online(m) == [True, True])
    before = publishes(redis_server.url)
    started = time.monotonic()
    time.sleep(4 * REFRESH)
    periods = (time.monotonic() - started) / REFRESH
    sent = publishes(redis_server.url) - before
    # one presence event per process per period (plus a margin for a period's edge); one
    # event per room would be 2 * ROOMS per period
    assert sent <= 2 * (periods + 2), (
        f"{sent} events published in {periods:.1f} renewal periods by 2 processes holding "
        f"{ROOMS} rooms each")
    assert sent >= 2, "no renewal was published at all"
    for c in clients:
        c.close()



def live_at(web: Web, room: str) -> dict[str, Any] | None:
    """``room``'s entry in the live-games list that ``web`` answers (None: not listed)."""
    games = httpx2.get(f"{web.http}/api/seeks", timeout=WAIT).json()["live"]
    return next((g for g in games if g["room"] == room), None)


def test_rule_a_game_held_only_at_a_is_live_at_b_with_its_current_ply(
        pair: tuple[Web, Web]) -> None:
    """A writes its live games although no lobby page is open there, and a room's entry
    follows its moves (A builds an entry anew only when the ply or the watchers change)."""
    a, b = pair
    room = create_room(a, {"game": "reversi", "seats": HUMANS})
    rid = room["room"]
    p0 = Client(a, rid, keys_for(room, 0))
    p1 = Client(a, rid, keys_for(room, 1))
    p0.wait_ply(0)
    got = eventually(lambda: live_at(b, rid), "the game held at A listed at B")
    assert got["ply"] == 0 and got["spectators"] == 0
    assert p0.request({"type": "move", "seat": 0, "move": p0.legal(0)[0], "ply": 0}
                      )["type"] == "ack"
    eventually(lambda: (live_at(b, rid) or {}).get("ply") == 1, "the new ply at B")
    watcher = Client(a, rid)  # a spectator at A
    watcher.recv()
    eventually(lambda: (live_at(b, rid) or {}).get("spectators") == 1, "the watcher at B")
    for c in (p0, p1, watcher):
        c.close()
    eventually(lambda: live_at(b, rid) is None, "nobody at the table: not live")
