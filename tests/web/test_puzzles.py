"""The puzzle trainer (issue 29 item 2) and its fair-play rules (docs/fair-play.md, "Puzzles"):
answers are checked on the server and the solution never leaves it before the attempt ends;
only a player's first attempt at a puzzle is rated; a move is taken once, also when the same
answer arrives many times at once (SQLite and PostgreSQL); abandoning a rated puzzle is a
loss; another player's attempt is not yours to play."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from asobiba.progression import Progression
from asobiba.progression import puzzle_trainer as trainer
from asobiba.progression.models import RatingRow
from asobiba.puzzles import load_set
from asobiba.server import create_app
from asobiba.server.db import make_engine
from asobiba.tables import PUZZLE_ATTEMPTS

DAY = date(2026, 12, 1)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0, today=lambda: DAY)) as c:
        yield c


def register(c: TestClient, name: str = "solver") -> int:
    res = c.post("/api/account/register", json={"name": name, "password": "a long password 9"})
    assert res.status_code == 201, res.text
    return int(res.json()["player"]["id"])


def line_of(set_name: str, puzzle_id: str) -> tuple[str, ...]:
    return {p.id: p for p in load_set(set_name)}[puzzle_id].line


def solve(c: TestClient, started: dict[str, Any]) -> dict[str, Any]:
    line = line_of(started["set"], started["puzzle"]["id"])
    out: dict[str, Any] = {}
    for mv in line[::2]:
        res = c.post(f"/api/puzzles/attempts/{started['attempt']}/move", json={"move": mv})
        assert res.status_code == 200, res.text
        out = res.json()
        assert out["correct"]
        if out["done"]:
            break
    return out


def wrong_move(started: dict[str, Any]) -> str:
    line = line_of(started["set"], started["puzzle"]["id"])
    return next(m for m in started["puzzle"]["view"]["legal_moves"] if m != line[0])


def test_a_solved_puzzle_rates_both_sides(client: TestClient) -> None:
    register(client)
    started = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"}).json()
    assert started["rated"] and started["rating"] == 1500.0
    done = solve(client, started)
    assert done["done"] and done["solved"] and done["rated"]
    r = done["rating"]
    assert r["after"] > r["before"] and r["puzzle_after"] < r["puzzle_before"]
    assert done["line"] == list(line_of("flipflop", started["puzzle"]["id"]))
    me = client.get("/api/puzzles").json()["me"]
    flip = next(x for x in me["ratings"] if x["set"] == "flipflop")
    assert flip["rating"] == pytest.approx(r["after"])


def test_rule_the_solution_is_never_sent_before_the_attempt_ends(client: TestClient) -> None:
    register(client)
    res = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"})
    started = res.json()
    text = res.text
    for key in ('"line"', '"themes"', '"solution"', '"rating":{'):
        assert key not in text
    assert "line" not in started["puzzle"]
    res = client.post(f"/api/puzzles/attempts/{started['attempt']}/move",
                      json={"move": wrong_move(started)})
    out = res.json()
    assert not out["correct"] and out["done"] and not out["solved"]
    assert out["line"] == list(line_of("flipflop", started["puzzle"]["id"]))  # now, not before
    assert out["rating"]["after"] < out["rating"]["before"]


def test_rule_one_rated_attempt_per_puzzle(client: TestClient) -> None:
    register(client)
    first = client.post("/api/puzzles/start", json={"mode": "daily"}).json()
    assert first["rated"]
    client.post(f"/api/puzzles/attempts/{first['attempt']}/move",
                json={"move": wrong_move(first)})
    again = client.post("/api/puzzles/start", json={"mode": "daily"}).json()
    assert again["puzzle"]["id"] == first["puzzle"]["id"] and not again["rated"]
    done = solve(client, again)
    assert done["solved"] and not done["rated"] and "rating" not in done


def test_rule_abandoning_a_rated_puzzle_is_a_loss(client: TestClient) -> None:
    register(client)
    first = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"}).json()
    second = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"}).json()
    closed = second["closed"]
    assert [c["attempt"] for c in closed] == [first["attempt"]] and not closed[0]["solved"]
    assert closed[0]["rating"]["after"] < closed[0]["rating"]["before"]
    res = client.post(f"/api/puzzles/attempts/{first['attempt']}/move",
                      json={"move": line_of("flipflop", first["puzzle"]["id"])[0]})
    assert res.status_code == 409 and res.json()["error"]["code"] == "attempt_over"


def test_bad_input_gets_a_code_and_changes_nothing(client: TestClient, tmp_path: Any) -> None:
    assert client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"}
                       ).json()["error"]["code"] == "not_signed_in"
    register(client)
    assert client.post("/api/puzzles/start", json={"set": "chess", "mode": "rated"}
                       ).json()["error"] == {"code": "unknown_set", "args": {"set": "chess"},
                                             "message": "no puzzle set 'chess'"}
    started = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "rated"}).json()
    res = client.post(f"/api/puzzles/attempts/{started['attempt']}/move", json={"move": "z9-z8"})
    assert res.status_code == 400 and res.json()["error"]["code"] == "illegal_move"
    assert res.json()["error"]["args"] == {"move": "z9-z8"}
    # the attempt is still open at its first step: the right move still solves it
    assert solve(client, started)["solved"]
    # another player's attempt is not there for them
    client.post("/api/account/logout")
    register(client, "other")
    res = client.post(f"/api/puzzles/attempts/{started['attempt']}/move",
                      json={"move": line_of("flipflop", started["puzzle"]["id"])[0]})
    assert res.status_code == 404 and res.json()["error"]["code"] == "no_attempt"


def test_streak_counts_solves_until_the_first_miss(client: TestClient) -> None:
    register(client)
    s1 = client.post("/api/puzzles/start", json={"set": "flipflop", "mode": "streak"}).json()
    assert not s1["rated"] and s1["run"] == s1["attempt"]
    assert solve(client, s1)["streak"] == {"run": s1["run"], "solved": 1, "over": False,
                                           "best": 1}
    s2 = client.post("/api/puzzles/start",
                     json={"set": "flipflop", "mode": "streak", "run": s1["run"]}).json()
    assert s2["streak"] == 1
    solve(client, s2)
    s3 = client.post("/api/puzzles/start",
                     json={"set": "flipflop", "mode": "streak", "run": s1["run"]}).json()
    out = client.post(f"/api/puzzles/attempts/{s3['attempt']}/move",
                      json={"move": wrong_move(s3)}).json()
    assert out["streak"] == {"run": s1["run"], "solved": 2, "over": True, "best": 2}
    res = client.post("/api/puzzles/start",
                      json={"set": "flipflop", "mode": "streak", "run": s1["run"]})
    assert res.json()["error"]["code"] == "streak_over"


def test_tsume_algo_is_served_by_the_same_trainer(client: TestClient) -> None:
    register(client)
    sets = client.get("/api/puzzles").json()["sets"]
    assert any(s["set"] == "algo-tsume" for s in sets)
    started = client.post("/api/puzzles/start", json={"set": "algo-tsume", "mode": "rated"}
                          ).json()
    assert started["rated"] and "answers" not in json.dumps(started)
    n = len(started["puzzle"]["tsume"]["questions"])
    out = client.post(f"/api/puzzles/attempts/{started['attempt']}/answer",
                      json={"answers": ["?"] * n}).json()
    assert not out["solved"] and len(out["answers"]) == n
    assert out["rating"]["pool"] == "algo:puzzle"


def test_rule_a_move_sent_many_times_at_once_is_rated_once(db_url: str) -> None:
    engine = make_engine(db_url)
    Progression(engine)
    from argon2 import PasswordHasher

    prog = Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    me, _ = prog.register("racer", "a long password 9")
    pid = int(me["id"])
    with Session(engine) as s, s.begin():
        PUZZLE_ATTEMPTS.metadata.create_all(s.connection(), tables=[PUZZLE_ATTEMPTS])
    from asobiba.tables import PUZZLE_SEEN

    PUZZLE_SEEN.metadata.create_all(engine, tables=[PUZZLE_SEEN])
    # a one-move puzzle: its first right move ends and rates it
    with Session(engine) as s, s.begin():
        started = trainer.start(s, pid, "flipflop", "rated", DAY)
    pz = {p.id: p for p in load_set("flipflop")}[started["puzzle"]["id"]]
    # the line's last move: play the earlier ones first
    with Session(engine) as s, s.begin():
        for mv in pz.line[:-1:2]:
            trainer.move(s, pid, started["attempt"], mv)
    results: list[str] = []
    barrier = threading.Barrier(8)

    def go() -> None:
        barrier.wait()
        try:
            with Session(engine) as s, s.begin():
                out = trainer.move(s, pid, started["attempt"], pz.line[-1])
            results.append("rated" if "rating" in out else "done")
        except trainer.PuzzleError as exc:
            results.append(exc.refusal)
        except Exception as exc:  # noqa: BLE001 - a lost race is a refusal, never a second rating
            results.append(type(exc).__name__)

    threads = [threading.Thread(target=go) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("rated") == 1, results
    with Session(engine) as s:
        row = s.get(RatingRow, (pid, "flipflop:puzzle"))
        assert row is not None and row.games == 1
        n = s.scalar(select(func.count()).select_from(PUZZLE_ATTEMPTS).where(
            PUZZLE_ATTEMPTS.c.status == "solved"))
        assert n == 1
    engine.dispose()
