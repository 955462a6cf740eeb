"""Tournaments with several web processes (issue 28 items 1 and 5; docs/tournaments.md,
"Several web processes"): two real ``asobiba serve --redis`` processes on one throwaway
PostgreSQL and one Redis share a tournament. Both run the pairing driver; the players are
spread over both (their pages, their games' sockets). Checked: one pairing decision per
round or wave, no player paired twice in a round, never in two running games at once, every
paired room made exactly once — for Swiss and for Arena."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import create_engine, select

from asobiba.server.services import RedisServer
from asobiba.tables import TOURNAMENT_GAMES, TOURNAMENT_ROUNDS, TOURNAMENTS, now, stamp

from .scale_helpers import WAIT, Client, Web, eventually, web_pair

PASSWORD = "correct horse battery 9"


@pytest.fixture
def pair(pg_url: str, redis_server: RedisServer, tmp_path: Path
         ) -> Iterator[tuple[Web, Web]]:
    with web_pair(pg_url, redis_server.url, tmp_path, {"ASOBIBA_LIMIT_SCALE": "100"}) as pair:
        yield pair


class Player:
    """A registered player with his cookie, whose page is open at one of the processes."""

    def __init__(self, web: Web, name: str) -> None:
        self.web, self.name = web, name
        self.http = httpx2.Client(base_url=web.http, timeout=WAIT)
        res = self.http.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert res.status_code == 201, res.text

    def snap(self, tid: int) -> dict[str, Any]:
        res = self.http.get(f"/api/tournaments/{tid}")
        assert res.status_code == 200, res.text
        return dict(res.json())


def start_now(pg_url: str, tid: int) -> None:
    engine = create_engine(pg_url)
    try:
        with engine.begin() as conn:
            conn.execute(TOURNAMENTS.update().where(TOURNAMENTS.c.id == tid)
                         .values(starts=stamp(now())))
    finally:
        engine.dispose()


def stored(pg_url: str, tid: int) -> tuple[list[int], list[dict[str, Any]], set[str]]:
    """(rounds decided, games, rooms that exist with their seat rows) as in the database."""
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            rounds = list(conn.execute(select(TOURNAMENT_ROUNDS.c.round).where(
                TOURNAMENT_ROUNDS.c.tournament_id == tid)).scalars())
            games = [dict(g) for g in conn.execute(select(TOURNAMENT_GAMES).where(
                TOURNAMENT_GAMES.c.tournament_id == tid)).mappings()]
            rooms = set(conn.exec_driver_sql("SELECT id FROM rooms").scalars())
    finally:
        engine.dispose()
    for g in games:
        g["players"] = json.loads(g["players"])
    return rounds, games, rooms


def check_rounds(pg_url: str, tid: int) -> list[dict[str, Any]]:
    """The invariants of every decision so far; the stored games."""
    rounds, games, _rooms = stored(pg_url, tid)
    assert sorted(rounds) == list(range(1, len(rounds) + 1)), "one decision per round"
    for r in rounds:
        in_round = [p for g in games if g["round"] == r for p in g["players"]]
        assert len(in_round) == len(set(in_round)), f"a player paired twice in round {r}"
    assert len({g["room_id"] for g in games if g["room_id"]}) == \
        len([g for g in games if g["room_id"]]), "a room id used twice"
    return games


def finish_game(players: list[Player], tid: int, who: Player) -> str | None:
    """``who`` resigns his current game (through his own process) if he has one; its room.
    (His page may show a game he has just resigned until the driver has stored its result:
    the same room again.)"""
    game = who.snap(tid)["you"]["game"]
    if not game:
        return None
    eventually(lambda: who.http.get(f"/api/rooms/{game['room']}").status_code == 200,
               "the paired room is made")
    c = Client(who.web, game["room"], [{"seat": game["seat"], "key": game["key"]}])
    try:
        reply = c.request({"type": "resign", "seat": game["seat"]})
        assert reply["type"] == "ack" or reply.get("code") == "game_over", reply
        c.wait_status("finished")
    finally:
        c.close()
    return str(game["room"])


def test_swiss_on_two_processes_one_decision_per_round(pg_url: str,
                                                       pair: tuple[Web, Web]) -> None:
    a, b = pair
    players = [Player(a if i % 2 else b, f"sw{i}") for i in range(7)]
    made = players[0].http.post("/api/tournaments", json={
        "game": "reversi", "kind": "swiss", "rounds": 3, "starts_in": 60})
    assert made.status_code == 201, made.text
    tid = int(made.json()["tournament"]["id"])
    for p in players:
        assert p.http.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    start_now(pg_url, tid)
    for rnd in (1, 2, 3):
        eventually(lambda rnd=rnd: len(players[0].snap(tid)["rounds"]) >= rnd,
                   f"round {rnd} paired")
        time.sleep(2.5)  # both drivers look again meanwhile (each every second)
        games = check_rounds(pg_url, tid)
        mine = [g for g in games if g["round"] == rnd]
        assert len([g for g in mine if g["room_id"]]) == 3 and \
            len([g for g in mine if not g["room_id"]]) == 1, mine
        # both processes show the same pairing
        assert players[0].snap(tid)["rounds"] == players[1].snap(tid)["rounds"]
        # every player's page (A or B) is told his game; white resigns through his process
        done = set()
        for p in players:
            game = p.snap(tid)["you"]["game"]
            if game and game["seat"] == 0:
                done.add(finish_game(players, tid, p))
        assert len(done) == 3 and None not in done
    final = eventually(lambda: (lambda s: s if s["tournament"]["status"] == "finished"
                                else None)(players[1].snap(tid)), "the end")
    games = check_rounds(pg_url, tid)
    rounds, _games, rooms = stored(pg_url, tid)
    assert sorted(rounds) == [1, 2, 3]
    assert all(g["room_id"] in rooms for g in games if g["room_id"]), "every room made"
    pairs = [frozenset(g["players"]) for g in games if g["room_id"]]
    assert len(pairs) == 9 and len(set(pairs)) == 9, "no repeat pairing"
    assert sum(s["points"] for s in final["standings"]) == 9 + 3  # 9 games, 3 byes


def test_arena_on_two_processes_no_double_pairing(pg_url: str, pair: tuple[Web, Web]) -> None:
    a, b = pair
    players = [Player(a if i % 2 else b, f"ar{i}") for i in range(5)]
    made = players[0].http.post("/api/tournaments", json={
        "game": "reversi", "kind": "arena", "minutes": 5, "starts_in": 60})
    assert made.status_code == 201, made.text
    tid = int(made.json()["tournament"]["id"])
    for p in players:
        assert p.http.post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    start_now(pg_url, tid)
    eventually(lambda: players[0].snap(tid)["rounds"], "the first wave")
    finished: set[str] = set()  # distinct games: a resigned game shows until it is stored
    deadline = time.monotonic() + 6 * WAIT
    while len(finished) < 8 and time.monotonic() < deadline:
        games = check_rounds(pg_url, tid)
        running = [p for g in games if g["room_id"] and g["points"] is None
                   for p in g["players"]]
        assert len(running) == len(set(running)), "a player in two running games at once"
        for p in players:  # whoever has a game finishes it (through his own process)
            game = p.snap(tid)["you"]["game"]
            if game and game["seat"] == 0 and (room := finish_game(players, tid, p)):
                finished.add(room)
        time.sleep(0.5)
    assert len(finished) >= 8, "the drivers kept pairing players as they came free"
    games = check_rounds(pg_url, tid)
    rounds, _games, _rooms = stored(pg_url, tid)
    assert len(rounds) >= 4, "several waves"
    # a pairing is committed first and its room made a moment later (make_rooms), and the
    # arena goes on pairing the players just freed: every room paired by now must come
    paired = {g["room_id"] for g in games if g["room_id"]}
    eventually(lambda: paired <= stored(pg_url, tid)[2], "every paired room made")
    # no immediate rematch, whichever process paired the next wave
    last: dict[int, int] = {}
    for g in sorted(games, key=lambda g: (g["round"], g["id"])):
        x, y = g["players"]
        assert last.get(x) != y and last.get(y) != x, "an immediate rematch"
        last[x], last[y] = y, x
