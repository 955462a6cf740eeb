"""Tournaments on the server (docs/tournaments.md): creating, joining, the pairing driver,
results from ordinary rooms, withdrawing and late joining, and the fair-play rules.

Each test runs the real app (its driver looks every second) on SQLite; the players finish
their games by resigning over the room's WebSocket, as a person would."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba.server import create_app, tournament_routes
from asobiba.server.limits import RULES, Limits, Rule
from asobiba.server.progression_routes import COOKIE

PASSWORD = "correct horse battery 9"
WAIT = 60.0


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    limits = Limits(rules={**RULES, "register": Rule(100, 60.0)})
    with TestClient(create_app(str(tmp_path), bot_processes=0, limits=limits)) as c:
        yield c


def register(c: TestClient, name: str) -> str:
    c.cookies.clear()
    res = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert res.status_code == 201, res.text
    token = c.cookies.get(COOKIE)
    assert token
    return str(token)


def as_(c: TestClient, token: str | None) -> TestClient:
    c.cookies.clear()
    if token:
        c.cookies.set(COOKIE, token)
    return c


def until(what: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll ``what`` until it gives something true (bounded)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s")


def snap(c: TestClient, tid: int, token: str | None = None) -> dict[str, Any]:
    res = as_(c, token).get(f"/api/tournaments/{tid}")
    assert res.status_code == 200, res.text
    return dict(res.json())


def resign(c: TestClient, game: dict[str, Any]) -> None:
    until(lambda: c.get(f"/api/rooms/{game['room']}").status_code == 200)  # made just after
    with c.websocket_connect(f"/ws/{game['room']}") as ws:
        ws.send_json({"type": "hello", "seats": [{"seat": game["seat"], "key": game["key"]}]})
        ws.receive_json()
        ws.send_json({"type": "resign", "seat": game["seat"]})
        # wait for the end to be told (closing at once can cancel the handler between the
        # store's commit and the room's own update: the room then reads "active")
        for _ in range(20):
            if ws.receive_json().get("room", {}).get("status") == "finished":
                break


def create(c: TestClient, token: str, **body: Any) -> dict[str, Any]:
    res = as_(c, token).post("/api/tournaments", json={"game": "reversi", "starts_in": 60,
                                                        **body})
    assert res.status_code == 201, res.text
    return dict(res.json()["tournament"])


def start_now(c: TestClient, tid: int) -> None:
    """The start time brought forward to now (its players have joined)."""
    from asobiba.tables import TOURNAMENTS, now, stamp

    engine = c.app.state.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(TOURNAMENTS.update().where(TOURNAMENTS.c.id == tid)
                     .values(starts=stamp(now())))


def test_swiss_rounds_byes_results_and_standings(client: TestClient) -> None:
    tokens = {n: register(client, n) for n in ("ann", "bob", "cat")}
    t = create(client, tokens["ann"], kind="swiss", rounds=3, name="Friday Swiss")
    tid = t["id"]
    for tok in tokens.values():
        assert as_(client, tok).post(f"/api/tournaments/{tid}/join", json={}).json() == {
            "status": "active"}
    start_now(client, tid)
    byes: list[int] = []
    pairs: list[frozenset[int]] = []
    for rnd in (1, 2, 3):
        s = until(lambda rnd=rnd: (lambda got: got if len(got["rounds"]) >= rnd else None)(
            snap(client, tid)))
        assert s["tournament"]["status"] == "running"
        games = s["rounds"][rnd - 1]["games"]
        assert len(games) == 2, s  # one game, one bye (3 players)
        bye = [g for g in games if g["room"] is None]
        assert len(bye) == 1
        byes.append(bye[0]["players"][0]["id"])
        played = [g for g in games if g["room"]][0]
        pairs.append(frozenset(p["id"] for p in played["players"]))
        # the game is an ordinary room: watchable, its players told of it on their page
        until(lambda played=played: client.get(f"/api/rooms/{played['room']}"
                                               ).status_code == 200)
        white = played["players"][0]["name"]
        mine = until(lambda white=white: snap(client, tid, tokens[white])["you"]["game"])
        assert mine["room"] == played["room"] and mine["seat"] == 0
        resign(as_(client, None), mine)  # white resigns: black wins
    assert len(set(byes)) == 3, "each player had one bye"
    assert len(set(pairs)) == 3, "no repeat pairing"
    final = until(lambda: (lambda s: s if s["tournament"]["status"] == "finished" else None)(
        snap(client, tid)))
    table = final["standings"]
    assert sorted(s["points"] for s in table) == [1.0, 2.0, 3.0] or \
        sum(s["points"] for s in table) == 6.0  # 3 games + 3 byes
    assert all("buchholz" in s and "sonneborn_berger" in s for s in table)
    # every game stored and replayable
    for r in final["rounds"]:
        for g in r["games"]:
            if g["room"]:
                rec = client.get(f"/api/rooms/{g['room']}/record")
                assert rec.status_code == 200, rec.text


def test_arena_never_pairs_a_pair_straight_again(client: TestClient) -> None:
    """The farming attack: two accounts alone in an Arena finish a game at once and wait
    for the next — the driver never pairs them straight again (docs/fair-play.md)."""
    a, b = register(client, "farm1"), register(client, "farm2")
    tid = create(client, a, kind="arena", minutes=5)["id"]
    for tok in (a, b):
        as_(client, tok).post(f"/api/tournaments/{tid}/join", json={})
    start_now(client, tid)
    game = until(lambda: snap(client, tid, a)["you"]["game"])
    resign(as_(client, None), game)
    until(lambda: snap(client, tid)["standings"][0]["games"] == 1)
    time.sleep(3 * tournament_routes.TICK)
    s = snap(client, tid, b)
    assert sum(len(r["games"]) for r in s["rounds"]) == 1
    assert s["you"]["game"] is None
    # a third player comes: both may be paired again, one of them with the newcomer
    c = register(client, "fresh3")
    as_(client, c).post(f"/api/tournaments/{tid}/join", json={})
    got = until(lambda: snap(client, tid, c)["you"]["game"])
    assert got["opponents"][0] in ("farm1", "farm2")


def test_withdraw_and_late_join(client: TestClient) -> None:
    toks = [register(client, n) for n in ("pl1", "pl2", "pl3", "pl4")]
    tid = create(client, toks[0], kind="swiss", rounds=2)["id"]
    for tok in toks[:2]:
        as_(client, tok).post(f"/api/tournaments/{tid}/join", json={})
    start_now(client, tid)
    s = until(lambda: (lambda s: s if s["rounds"] else None)(snap(client, tid)))
    assert len(s["rounds"][0]["games"]) == 1
    # late: two more join after round 1 was paired, one withdraws and is not paired again
    for tok in toks[2:]:
        assert as_(client, tok).post(f"/api/tournaments/{tid}/join", json={}
                                     ).status_code == 200
    assert as_(client, toks[3]).post(f"/api/tournaments/{tid}/withdraw", json={}
                                     ).json() == {"status": "withdrawn"}
    game = snap(client, tid, toks[0])["you"]["game"]
    resign(as_(client, None), game)
    s = until(lambda: (lambda s: s if len(s["rounds"]) == 2 else None)(snap(client, tid)))
    round2 = {p["name"] for g in s["rounds"][1]["games"] for p in g["players"]}
    assert round2 == {"pl1", "pl2", "pl3"}  # pl4 withdrew; p3 joined late (one gets the bye)
    # the tournament takes no one once the last round is paired
    late = register(client, "toolate")
    res = as_(client, late).post(f"/api/tournaments/{tid}/join", json={})
    assert res.status_code == 409 and res.json()["error"]["code"] == "tournament_closed"


def test_creating_is_for_registered_players_with_a_daily_limit(client: TestClient) -> None:
    tok = register(client, "maker")
    assert as_(client, None).post("/api/tournaments", json={
        "game": "reversi", "kind": "swiss"}).status_code == 401
    bad = [({"game": "nope", "kind": "swiss"}, "unknown_game"),
           ({"game": "reversi", "kind": "tables"}, "tournament_kind"),
           ({"game": "reversi", "kind": "swiss", "casual": False}, "rated_needs_clock"),
           ({"game": "reversi", "kind": "knockout"}, "bad_field"),
           ({"game": "reversi", "kind": "swiss", "rounds": 0}, "bad_field")]
    for body, code in bad:
        res = as_(client, tok).post("/api/tournaments", json=body)
        assert res.status_code in (400, 404), res.text
        assert res.json()["error"]["code"] == code, (body, res.text)
    assert client.get("/api/tournaments").json()["tournaments"] == []  # nothing stored
    for _ in range(tournament_routes.CREATE_PER_DAY):
        create(client, tok, kind="swiss")
    res = as_(client, tok).post("/api/tournaments", json={"game": "reversi", "kind": "swiss"})
    assert res.status_code == 429
    assert res.json()["error"] == {"code": "tournament_limit", "message": res.json()["error"][
        "message"], "args": {"limit": str(tournament_routes.CREATE_PER_DAY)}}
    # rated with a clock is fine; a guest may not join a rated one
    other = register(client, "maker2")
    rated = create(client, other, kind="swiss", casual=False,
                   clock={"initial": 300, "increment": 3}, starts_in=60)
    assert rated["casual"] is False
    client.cookies.clear()
    assert client.post("/api/account/guest", json={}).status_code in (200, 201)
    res = client.post(f"/api/tournaments/{rated['id']}/join", json={})
    assert res.status_code == 403 and res.json()["error"]["code"] == "guest_casual"


def test_pages_are_served(client: TestClient) -> None:
    assert "tournaments" in client.get("/tournaments").text.lower()
    tok = register(client, "pager")
    tid = create(client, tok, kind="swiss")["id"]
    assert client.get(f"/t/{tid}").status_code == 200
    assert client.get("/t/abc").status_code == 404
    assert client.get("/api/tournaments/999").status_code == 404


def test_operator_commands_create_list_cancel(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from asobiba.cli.main import app

    db = f"sqlite:///{tmp_path / 'ops.db'}"
    run = CliRunner().invoke
    got = run(app, ["admin", "tournament", "create", "--game", "reversi", "--kind", "arena",
                    "--minutes", "60", "--rated", "--db", db])
    assert got.exit_code == 0, got.output
    assert "/t/1" in got.output
    bad = run(app, ["admin", "tournament", "create", "--game", "reversi", "--kind", "tables",
                    "--db", db])
    assert bad.exit_code == 2 and "tournament_kind" in bad.output
    listed = run(app, ["admin", "tournament", "list", "--json", "--db", db])
    rows = __import__("json").loads(listed.output)["tournaments"]
    assert [(r["kind"], r["casual"], r["creator_id"], r["status"]) for r in rows] == [
        ("arena", False, None, "open")]
    assert run(app, ["admin", "tournament", "cancel", "1", "--db", db]).exit_code == 0
    assert run(app, ["admin", "tournament", "cancel", "1", "--db", db]).exit_code == 2


def play_out(c: TestClient, games: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
    """Play one room to its end through its WebSocket: each seat (claimed with its own key,
    as its player's page would) plays a move chosen from *its own view's* legal moves."""
    room = games[0]["room"]
    until(lambda: c.get(f"/api/rooms/{room}").status_code == 200)
    claims = [{"seat": g["seat"], "key": g["key"]} for g in games]
    with c.websocket_connect(f"/ws/{room}") as ws:
        ws.send_json({"type": "hello", "seats": claims})
        last: dict[str, Any] | None = None
        for _ in range(3000):
            msg = ws.receive_json()
            if msg.get("type") == "error":  # asked to slow down: the same move again
                assert msg.get("code") in ("too_fast", "stale"), msg
                if msg["code"] == "stale" or last is None:
                    continue
                time.sleep(0.2)
            elif msg.get("type") == "update":
                last = msg
            else:
                continue
            assert last is not None
            if last["room"]["status"] != "active":
                return dict(last["room"])
            for v in last["views"]:
                legal = v["view"].get("legal_moves") or []
                if v["seat"] is not None and legal:
                    ws.send_json({"type": "move", "seat": v["seat"], "move": rng.choice(legal),
                                  "ply": last["room"]["ply"]})
                    break
    raise AssertionError("the game did not end")


def test_tables_tournament_end_to_end(client: TestClient) -> None:
    """Algo for three: 7 players, 2 rounds of two tables and a bye, seats rotated, every
    game played to its end through the rooms, points by placing, standings from them."""
    import random

    from asobiba.tournaments import seating

    rng = random.Random(5)
    names = [f"alg{i}" for i in range(7)]
    toks = {n: register(client, n) for n in names}
    t = create(client, toks[names[0]], kind="tables", game="algo", options={"players": 3},
               rounds=2)
    tid = t["id"]
    for tok in toks.values():
        assert as_(client, tok).post(f"/api/tournaments/{tid}/join", json={}
                                     ).status_code == 200
    start_now(client, tid)
    ids = {s["name"]: s["player"] for s in snap(client, tid)["standings"]}
    seat_of: dict[int, list[int]] = {ids[n]: [] for n in names}
    expected = {ids[n]: 0.0 for n in names}
    for rnd in (1, 2):
        s = until(lambda rnd=rnd: (lambda got: got if len(got["rounds"]) >= rnd else None)(
            snap(client, tid)))
        games = s["rounds"][rnd - 1]["games"]
        tables = [g for g in games if g["room"]]
        byes = [g for g in games if g["room"] is None]
        assert len(tables) == 2 and all(len(g["players"]) == 3 for g in tables), games
        assert len(byes) == 1 and byes[0]["points"] == [1.0]  # a middle place's points
        expected[byes[0]["players"][0]["id"]] += 1.0
        in_round = [p["id"] for g in games for p in g["players"]]
        assert sorted(in_round) == sorted(ids.values()), "everyone once a round"
        for g in tables:
            players = [p["id"] for p in g["players"]]
            for seat, pid in enumerate(players):
                seat_of[pid].append(seat)
            # each player's page is told its game, seat and key
            mine = [until(lambda n=n: snap(client, tid, toks[n])["you"]["game"])
                    for n in names if ids[n] in players]
            assert sorted(m["seat"] for m in mine) == [0, 1, 2]
            assert {m["room"] for m in mine} == {g["room"]}
            room = play_out(as_(client, None), mine, rng)
            assert room["status"] == "finished"
            ranks = room["result"]["ranks"]
            assert "resigned" not in room["result"], "played to the end"
            for pid, pts in zip(players, seating.placing_points([r - 1 for r in ranks]),
                                strict=True):
                expected[pid] += pts
        for n in names:  # the players' pages are open (present for the next pairing)
            snap(client, tid, toks[n])
    # seats rotated: nobody who played both rounds sat in the same seat twice
    assert all(len(set(seats)) == len(seats) for seats in seat_of.values()), seat_of
    byes_of = [pid for pid, seats in seat_of.items() if len(seats) < 2]
    assert len(byes_of) == 2, "the bye went to two different players"
    final = until(lambda: (lambda s: s if s["tournament"]["status"] == "finished" else None)(
        snap(client, tid)))
    table = final["standings"]
    assert {s["player"]: s["points"] for s in table} == expected
    pts = [s["points"] for s in table]
    assert pts == sorted(pts, reverse=True)
    assert sum(pts) == 4 * 3.0 + 2 * 1.0  # 4 tables of 2+1+0, two byes of 1
    for r in final["rounds"]:
        for g in r["games"]:
            if g["room"]:
                assert client.get(f"/api/rooms/{g['room']}/record").status_code == 200


def test_open_pages_share_one_snapshot_and_see_this_process_writes_at_once(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many pages polling one tournament load and rank it once per SNAPSHOT_TTL, not once
    each (bench/tournament_load.py: 200 open pages); a join or withdrawal through this
    process is in the very next read, cached or not."""
    from asobiba.server import tournament_routes

    toks = [register(client, n) for n in ("sh1", "sh2")]
    tid = create(client, toks[0], kind="swiss", rounds=2)["id"]
    loads: list[int] = []
    real = tournament_routes.public_part

    def counted(st: Any) -> Any:
        loads.append(int(st.row["id"]))
        return real(st)

    monkeypatch.setattr(tournament_routes, "public_part", counted)
    monkeypatch.setattr(tournament_routes, "SNAPSHOT_TTL", 3600.0)
    # the driver's look each second drops the cache too: kept out of this count
    monkeypatch.setattr(tournament_routes.TournamentWeb, "step", lambda self, t: None)
    for _ in range(10):
        snap(client, tid)
    assert len(loads) == 1, loads
    as_(client, toks[1]).post(f"/api/tournaments/{tid}/join", json={})
    s = snap(client, tid, toks[1])
    assert [e["name"] for e in s["standings"]] == ["sh2"] and s["you"]["status"] == "active"
    as_(client, toks[1]).post(f"/api/tournaments/{tid}/withdraw", json={})
    assert snap(client, tid, toks[1])["you"]["status"] == "withdrawn"
    assert len(loads) == 3, loads


def test_pages_asking_at_once_wait_for_one_load(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """When a round is paired, every player's page asks at once. Each used to load and
    serialise the whole tournament in a worker thread of its own, and 40 such threads
    starved the event loop of the GIL (py-spy of bench/tournament_load.py). Now one loads,
    the others wait for it and share its result; a write of this process made while a load
    is under way is not hidden by that load's older result."""
    import threading

    from asobiba.server import tournament_routes

    tw = _paused(client, monkeypatch)
    tid = create(client, register(client, "cold"), kind="swiss", rounds=2)["id"]
    monkeypatch.setattr(tournament_routes, "SNAPSHOT_TTL", 3600.0)
    real = tournament_routes.load
    loads: list[int] = []
    inside = threading.Event()
    go_on = threading.Event()

    def slow(conn: Any, t: int) -> Any:
        loads.append(t)
        inside.set()
        assert go_on.wait(30)
        return real(conn, t)

    monkeypatch.setattr(tournament_routes, "load", slow)
    tw.forget(tid)
    texts: list[str] = []
    readers = [threading.Thread(target=lambda: texts.append(tw.read(tid, None, False)))
               for _ in range(12)]
    for r in readers:
        r.start()
    assert inside.wait(30)
    go_on.set()
    for r in readers:
        r.join(30)
    assert len(texts) == 12 and len(set(texts)) == 1
    assert loads == [tid], loads  # twelve pages, one load
    tw.read(tid, None, False)
    assert loads == [tid]  # and it was kept

    # a write while a load is under way: that load's result is served but not kept
    tw.forget(tid)
    inside.clear()
    go_on.clear()
    first = threading.Thread(target=lambda: texts.append(tw.read(tid, None, False)))
    first.start()
    assert inside.wait(30)
    tw.forget(tid)  # this process wrote meanwhile
    go_on.set()
    first.join(30)
    assert loads == [tid, tid]
    tw.read(tid, None, False)
    assert loads == [tid, tid, tid]  # the next page loads afresh


def test_pages_read_in_a_few_threads_whatever_how_many_ask(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages' reads run in at most PAGE_THREADS threads, not in as many as ask (the
    default pool's 40 threads running Python at once kept the event loop, which acknowledges
    every room's moves, waiting for the interpreter); every page is still answered."""
    import threading

    from asobiba.server import tournament_routes

    tw = _paused(client, monkeypatch)
    tid = create(client, register(client, "lane"), kind="swiss", rounds=2)["id"]
    real = tw.read
    busy = [0, 0]  # now, most
    guard = threading.Lock()

    def slow(*args: Any) -> str:
        with guard:
            busy[0] += 1
            busy[1] = max(busy)
        try:
            threading.Event().wait(0.2)
            return real(*args)
        finally:
            with guard:
                busy[0] -= 1

    monkeypatch.setattr(tw, "read", slow)
    codes: list[int] = []
    pages = [threading.Thread(target=lambda: codes.append(
        client.get(f"/api/tournaments/{tid}").status_code)) for _ in range(8)]
    for t in pages:
        t.start()
    for t in pages:
        t.join(60)
    assert codes == [200] * 8
    assert 1 <= busy[1] <= tournament_routes.PAGE_THREADS < 8, busy


def test_a_paired_game_opened_before_its_room_is_made_is_made_then(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's rooms are made one at a time after the pairing is stored, so a player's page
    can show his game (and he open it) before the driver has made its room. Opening it then
    makes it: the page's room info and its WebSocket find the game. (The driver is kept from
    making rooms here, so every room in this test is made by the players' requests; before
    this, the page said "there is no such room" and its socket closed for good.)"""
    tw = client.app.state.tournaments  # type: ignore[attr-defined]

    async def not_now(tid: int) -> None:
        return None

    monkeypatch.setattr(tw, "make_rooms", not_now)
    tokens = {n: register(client, n) for n in ("dan", "eve")}
    tid = create(client, tokens["dan"], kind="swiss", rounds=1)["id"]
    for tok in tokens.values():
        assert as_(client, tok).post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    start_now(client, tid)
    mine = until(lambda: snap(client, tid, tokens["dan"])["you"]["game"])
    assert client.app.state.holder["hub"].rooms.get(mine["room"]) is None  # type: ignore[attr-defined]
    info = as_(client, None).get(f"/api/rooms/{mine['room']}")
    assert info.status_code == 200, info.text
    assert sorted(s["name"] for s in info.json()["seats"]) == ["dan", "eve"]
    theirs = snap(client, tid, tokens["eve"])["you"]["game"]
    assert theirs["room"] == mine["room"]
    # the other player's socket (a second request for the same room makes nothing new)
    white = mine if mine["seat"] == 0 else theirs
    resign(as_(client, None), white)
    final = until(lambda: (lambda s: s if s["tournament"]["status"] == "finished" else None)(
        snap(client, tid)))
    assert sorted(s["points"] for s in final["standings"]) == [0.0, 1.0]
    # an id that names no paired game is still no room
    assert client.get("/api/rooms/nosuchroom").status_code == 404


# ---- the driver's look takes no lock; its plan is written only if it still holds ----------
def _paused(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app's tournaments part with its driver's looks stopped (the test looks itself)."""
    tw = client.app.state.tournaments  # type: ignore[attr-defined]
    monkeypatch.setattr(tw, "step", lambda tid: None)
    return tw


def _swiss(client: TestClient, names: tuple[str, ...], rounds: int = 2) -> tuple[int, dict[str, str]]:
    tokens = {n: register(client, n) for n in names}
    tid = int(create(client, tokens[names[0]], kind="swiss", rounds=rounds)["id"])
    for tok in tokens.values():
        assert as_(client, tok).post(f"/api/tournaments/{tid}/join", json={}).status_code == 200
    start_now(client, tid)
    return tid, tokens


def _ids(client: TestClient, tid: int) -> dict[str, int]:
    return {e["name"]: int(e["player"]) for e in snap(client, tid)["standings"]}


def test_a_look_with_nothing_due_takes_no_write_lock(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tick looks at every running tournament; on SQLite a look inside a write
    transaction held the database's one write lock, and every room's commit waited behind
    it (docs/benchmarks.md, "Tournament load"). A look with nothing due now reads only."""
    import threading

    from sqlalchemy import event

    tw = _paused(client, monkeypatch)
    tid, _ = _swiss(client, ("fay", "gus"))
    tw.write(*tw.look(tid))  # round 1 paired
    assert snap(client, tid)["rounds"] and tw.look(tid) is None  # its game is being played
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    mine = threading.get_ident()
    said: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() == mine:
            said.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        tournament_routes.TournamentWeb.step(tw, tid)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert "BEGIN" in said, said  # it did look
    assert "BEGIN IMMEDIATE" not in said and not any(s.startswith("UPDATE") for s in said), said


def test_a_plan_is_not_written_over_a_leave_made_since(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairing is planned from an unlocked read and written under the lock: a player who
    withdraws in between is not paired (the plan is made again under the lock)."""
    tw = _paused(client, monkeypatch)
    tid, tokens = _swiss(client, ("hal", "ivy", "jon"))
    ids = _ids(client, tid)
    got = tw.look(tid)
    assert got is not None and got[1].pairing is not None
    planned = {p for table in got[1].pairing[1] for p in table} | set(got[1].pairing[2])
    assert ids["jon"] in planned
    assert as_(client, tokens["jon"]).post(f"/api/tournaments/{tid}/withdraw",
                                           json={}).status_code == 200
    tw.write(*got)
    games = snap(client, tid)["rounds"][0]["games"]
    seated = {p["id"] for g in games for p in g["players"]}
    assert seated == {ids["hal"], ids["ivy"]}, games
    assert len(games) == 1 and games[0]["room"] is not None  # hal against ivy, no bye


def test_a_plan_is_not_written_over_another_process_pairing(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes that planned the same round from their reads: the second finds it
    written and writes nothing (one pairing per round, nobody paired twice)."""
    tw = _paused(client, monkeypatch)
    tid, _ = _swiss(client, ("kim", "lea", "max", "ned"))
    first, second = tw.look(tid), tw.look(tid)
    assert first is not None and second is not None
    tw.write(*first)
    tw.write(*second)
    rounds = snap(client, tid)["rounds"]
    assert len(rounds) == 1 and len(rounds[0]["games"]) == 2, rounds
    seated = [p["id"] for g in rounds[0]["games"] for p in g["players"]]
    assert len(seated) == len(set(seated)) == 4


def test_an_away_player_back_before_the_write_is_not_withdrawn(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player planned as away (no page open for a minute) who opens his page before the
    plan is written is paired, not withdrawn."""
    from asobiba.tables import TOURNAMENT_ENTRIES, now, stamp

    tw = _paused(client, monkeypatch)
    tid, tokens = _swiss(client, ("oli", "pam", "quinn"))
    ids = _ids(client, tid)
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(TOURNAMENT_ENTRIES.update().where(
            TOURNAMENT_ENTRIES.c.player_id == ids["quinn"]).values(
            seen=stamp(now() - 2 * tournament_routes.AWAY_AFTER)))
    got = tw.look(tid)
    assert got is not None and got[1].withdraw == [ids["quinn"]]
    snap(client, tid, tokens["quinn"])  # his page opens...
    tw.store_seen()  # ...and the next tick stores it, before the plan is written
    tw.write(*got)
    s = snap(client, tid, tokens["quinn"])
    assert s["you"]["status"] == "active", s["you"]
    seated = {p["id"] for g in s["rounds"][0]["games"] for p in g["players"]}
    assert seated == set(ids.values())
