"""Issue 29 item 4: the opening explorer — the index of played moves per canonical position
(symmetry folding, exact counts and results for the side to move, ratings, what is left
out), the same on SQLite and PostgreSQL (and two games finishing at once), the rebuild from
stored games, the bundled book, and the API's coded errors and rate limit."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select
from starlette.testclient import TestClient

from asobiba.core import Outcome, Record
from asobiba.core.record import MoveEntry
from asobiba.explorer import book as bk
from asobiba.explorer.index import MAX_PLIES, moves_at, rebuild
from asobiba.explorer.positions import canonical, explorers, walk
from asobiba.progression import Progression, ratings
from asobiba.server import create_app
from asobiba.server.db import make_engine
from asobiba.server.limits import RULES, Limits, Rule
from asobiba.server.schema import upgrade
from asobiba.tables import EXPLORER_MOVES


def _prog(url: str) -> Progression:
    engine = make_engine(url)
    upgrade(engine)
    # cheap argon2id parameters: the tests check the explorer, not password hardness
    return Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))


def _store(prog: Progression, players: Sequence[int], game: str, line: Sequence[str],
           scores: tuple[int, int], *, rated: bool = False, context: str = "casual",
           options: dict[str, Any] | None = None) -> None:
    rec = Record(game=game, options=options or {}, seed=0,
                 moves=tuple(MoveEntry(i % 2, m) for i, m in enumerate(line)))
    with prog.session() as s:
        ratings.record_result(s, game, list(players), Outcome.from_scores(scores),
                              record=rec.to_json(), rated=rated, context=context,
                              options=options)


def _table(prog: Progression, line: Sequence[str], name: str = "reversi") -> dict[str, Any]:
    ex = explorers()[name]
    with prog.session() as s:
        return {r["move"]: r for r in moves_at(s, ex, walk(ex, line))}


def _hand_made(prog: Progression) -> tuple[int, int, int]:
    a = prog.register("aoi", "a long password")[0]["id"]
    b = prog.register("ben", "a long password")[0]["id"]
    c = prog.register("chie", "a long password")[0]["id"]
    # A and B are the same game seen in two orientations (f5 d6 / d3 c5); C differs
    _store(prog, [a, b], "reversi", ["f5", "d6", "c3"], (40, 24), rated=True)  # Black wins
    _store(prog, [b, c], "reversi", ["d3", "c5", "f6"], (20, 44))  # Black loses
    _store(prog, [c, a], "reversi", ["f5", "f6"], (32, 32))  # a draw
    return a, b, c


def _check_hand_made(prog: Progression) -> None:
    start = _table(prog, [])
    # the four first moves are one move up to symmetry: one row, every game
    assert list(start) == ["c4"]
    assert {k: start["c4"][k] for k in ("games", "wins", "draws", "losses")} == {
        "games": 3, "wins": 1, "draws": 1, "losses": 1}
    after_f5 = _table(prog, ["f5"])
    # d6 (after f5) and c5 (after d3) fold; shown in this board's orientation
    assert set(after_f5) == {"d6", "f6"}
    d6 = after_f5["d6"]
    assert (d6["games"], d6["wins"], d6["draws"], d6["losses"]) == (2, 1, 0, 1)  # for White
    assert d6["rating"] == 1500 and d6["last_played"]  # only the rated game has a rating
    assert after_f5["f6"]["games"] == 1 and after_f5["f6"]["draws"] == 1
    assert after_f5["f6"]["rating"] is None
    after_d3 = _table(prog, ["d3"])
    assert set(after_d3) == {"c5", "c3"}  # the same rows, in the d3 orientation
    assert after_d3["c5"]["games"] == 2
    state = walk(explorers()["reversi"], ["d3"])
    assert set(after_d3) <= set(state.legal_moves().texts())


def test_issue29_explorer_index_counts_hand_made_games_with_symmetry(tmp_path: Path) -> None:
    prog = _prog(f"sqlite:///{tmp_path / 'a.db'}")
    _hand_made(prog)
    _check_hand_made(prog)


def test_issue29_explorer_leaves_out_hot_seat_daily_and_hidden_information_games(
        tmp_path: Path) -> None:
    prog = _prog(f"sqlite:///{tmp_path / 'a.db'}")
    a = prog.register("aoi", "a long password")[0]["id"]
    b = prog.register("ben", "a long password")[0]["id"]
    _store(prog, [a, a], "reversi", ["f5"], (40, 24))  # hot seat: one player, both seats
    _store(prog, [a, b], "reversi", ["f5"], (40, 24), context="daily")
    with prog.session() as s:
        assert s.execute(select(EXPLORER_MOVES)).all() == []
    _store(prog, [a, b], "reversi", ["f5"], (40, 24))
    assert _table(prog, [])["c4"]["games"] == 1


def test_issue29_explorer_flipflop_folds_the_mirror_and_keeps_boards_apart(
        tmp_path: Path) -> None:
    prog = _prog(f"sqlite:///{tmp_path / 'a.db'}")
    a = prog.register("aoi", "a long password")[0]["id"]
    b = prog.register("ben", "a long password")[0]["id"]
    _store(prog, [a, b], "flipflop", ["Ra1-a2"], (1, 0), options={"board": "3x3"})
    _store(prog, [a, b], "flipflop", ["Rc1-c2"], (0, 1), options={"board": "3x3"})
    _store(prog, [a, b], "flipflop", ["Ra1-a2"], (1, 0), options={"board": "5x5"})
    three = _table(prog, [], "flipflop-3x3")
    assert list(three) == ["Ra1-a2"] and three["Ra1-a2"]["games"] == 2
    assert (three["Ra1-a2"]["wins"], three["Ra1-a2"]["losses"]) == (1, 1)
    # after the mirrored move, the same position: shown as c2's reply frame
    ex = explorers()["flipflop-3x3"]
    assert canonical(ex, walk(ex, ["Ra1-a2"])).key == canonical(ex, walk(ex, ["Rc1-c2"])).key
    assert _table(prog, [], "flipflop-5x5")["Ra1-a2"]["games"] == 1


def test_issue29_explorer_reverstargo_folds_the_star_symmetries() -> None:
    ex = explorers()["reverstargo"]
    start = ex.new_state()
    pos = canonical(ex, start)
    assert len(pos.perms) == 6  # the start keeps 3 rotations and 3 reflections
    classes = {pos.store_move(ex, m) for m in start.legal_moves().texts()}
    assert 1 < len(classes) < len(start.legal_moves())
    for m in start.legal_moves().texts():  # every shown move is legal where it is shown
        assert pos.show_move(ex, pos.store_move(ex, m)) in start.legal_moves().texts()


def test_issue29_explorer_rebuild_equals_the_incremental_index_and_caps_plies(
        tmp_path: Path) -> None:
    prog = _prog(f"sqlite:///{tmp_path / 'a.db'}")
    a, b, _ = _hand_made(prog)
    long_line = walk_line(40)
    _store(prog, [a, b], "reversi", long_line, (40, 24))
    with prog.session() as s:
        before = sorted(tuple(r) for r in s.execute(select(EXPLORER_MOVES)).all())
    with prog.session() as s:
        out = rebuild(s)
    assert out["games"] == 4 and out["skipped"] == 0
    with prog.session() as s:
        after = sorted(tuple(r) for r in s.execute(select(EXPLORER_MOVES)).all())
    assert after == before
    ex = explorers()["reversi"]
    with prog.session() as s:
        assert moves_at(s, ex, walk(ex, long_line[:MAX_PLIES - 1]))
        assert moves_at(s, ex, walk(ex, long_line[:MAX_PLIES])) == []


def walk_line(n: int) -> list[str]:
    ex = explorers()["reversi"]
    state = ex.new_state()
    line = []
    for _ in range(n):
        move = state.legal_moves().texts()[-1]
        line.append(move)
        state = state.play(move)
    return line


def test_issue29_explorer_index_on_both_databases_and_concurrent_finishes(db_url: str) -> None:
    prog = _prog(db_url)
    _hand_made(prog)
    _check_hand_made(prog)
    # eight games finishing at once through the same new positions: each counted once, none
    # refused (a plain INSERT of a new row raced into a duplicate key on PostgreSQL)
    ids = [prog.register(f"pl{i}", "a long password")[0]["id"] for i in range(16)]
    errors: list[BaseException] = []
    gate = threading.Barrier(8)

    def finish(i: int) -> None:
        try:
            gate.wait()
            _store(prog, [ids[2 * i], ids[2 * i + 1]], "reversi", ["e6", "f4", "c3", "c4"],
                   (40, 24))
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)
    threads = [threading.Thread(target=finish, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _table(prog, [])["c4"]["games"] == 11
    after = _table(prog, ["e6", "f4", "c3"])
    assert after["c4"]["games"] == 8


def test_issue29_explorer_book_scores_every_move_class_and_is_shipped() -> None:
    ex = explorers()["flipflop-3x3"]
    book = bk.build(ex, 2, 3)
    start = ex.new_state()
    pos = canonical(ex, start)
    entries = book["positions"][pos.key]  # type: ignore[index]
    assert set(entries) == {pos.store_move(ex, m) for m in start.legal_moves().texts()}
    for e in entries.values():
        assert set(e) in ({"eval"}, {"result"})
    for name in explorers():  # each explorer ships a small book holding its start
        shipped = bk.load(name)
        assert shipped is not None, name
        assert (bk.BOOKS / f"{name}.json").stat().st_size < 400_000
        assert bk.book_moves(explorers()[name], explorers()[name].new_state())


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def test_issue29_explorer_api_answers_and_refuses_with_codes(client: TestClient,
                                                             tmp_path: Path) -> None:
    prog = _prog(f"sqlite:///{tmp_path / 'asobiba.db'}")
    _hand_made(prog)
    res = client.get("/api/explorer/reversi", params={"moves": "f5"})
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["moves"] == ["f5"] and body["to_move"] == 1
    played = {r["move"]: r for r in body["played"]}
    assert played["d6"]["games"] == 2 and played["d6"]["book"] is not None
    assert body["total"]["games"] == 3
    # book-only moves are listed too (no games)
    assert any(r["games"] == 0 and r["book"] for r in body["played"])

    def error(path: str, **params: str) -> tuple[int, dict[str, Any]]:
        r = client.get(path, params=params)
        return r.status_code, r.json()["error"] if "error" in r.json() else r.json()
    status, err = error("/api/explorer/chess")
    assert status == 404 and err["code"] == "no_explorer"
    assert "reversi" in err["args"]["allowed"]
    status, err = error("/api/explorer/algo")
    assert status == 400 and err["code"] == "hidden_information"
    status, err = error("/api/explorer/reversi", moves="f5,f5")
    assert status == 400 and err["code"] == "illegal_line"
    assert err["args"] == {"ply": "2", "move": "f5"}
    status, err = error("/api/explorer/reversi", moves=",".join(["f5"] * 121))
    assert status == 400 and err["code"] == "bad_line"
    assert client.get("/explorer/reversi").status_code == 200


def test_issue29_explorer_api_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(str(tmp_path), bot_processes=0,
                     limits=Limits(rules={**RULES, "explorer": Rule(2, 60.0)}))
    with TestClient(app) as c:
        codes = [c.get("/api/explorer/reversi").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
