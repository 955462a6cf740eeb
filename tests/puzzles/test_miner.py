"""Puzzles (issue 29 item 2): the miner's rules, the build, and the shipped sets re-verified
by the engines."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asobiba.cli.main import app
from asobiba.core import MoveEntry, Record
from asobiba.core.hooks import Verdict
from asobiba.games import get
from asobiba.puzzles import (
    KINDS,
    build,
    load_set,
    mine_record,
    mine_selfplay,
    puzzle_id,
    unique_best,
    verify,
)
from asobiba.puzzles.mine import Puzzle, judge_for

SETS = ("reversi", "flipflop", "flipflop5", "reverstargo", "patapata")


def test_every_game_with_puzzles_has_its_sets() -> None:
    assert {k: KINDS[k][0] for k in KINDS} == {
        "reversi": "reversi", "flipflop": "flipflop", "flipflop5": "flipflop",
        "reverstargo": "reverstargo", "patapata": "patapata"}


def test_unique_best_takes_the_only_winning_move_and_a_clear_margin() -> None:
    exact = dict(exact=True, win_value=1.0)
    assert unique_best(Verdict({"a": 1, "b": -1, "c": 0}, **exact)) == "a"  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 1, "b": 1, "c": 0}, **exact)) is None  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 0, "b": -1}, **exact)) is None  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 1}, **exact)) is None  # type: ignore[arg-type]  # no choice
    search = dict(exact=False, win_value=1000.0, margin=100.0, best_min=50.0)
    assert unique_best(Verdict({"a": 300, "b": 150}, **search)) == "a"  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 300, "b": 250}, **search)) is None  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 40, "b": -200}, **search)) is None  # type: ignore[arg-type]
    assert unique_best(Verdict({"a": 2000, "b": 1500}, **search)) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", SETS)
def test_selfplay_mining_is_reproducible_and_verified(kind: str) -> None:
    found = [p for seed in range(4) for p in mine_selfplay(kind, seed)]
    again = [p for seed in range(4) for p in mine_selfplay(kind, seed)]
    assert [p.to_json() for p in found] == [p.to_json() for p in again]
    for pz in found:
        assert verify(pz) == [], pz
        assert pz.id == puzzle_id(pz.game, pz.options, pz.seed, pz.moves)
        assert len(pz.line) % 2 == 1 and pz.themes


def _shipped(kind: str) -> list[Puzzle]:
    puzzles = load_set(kind)
    assert len(puzzles) >= 500, f"{kind}: {len(puzzles)} shipped"
    return puzzles


@pytest.mark.parametrize("kind", SETS)
def test_a_random_sample_of_the_shipped_set_re_verifies(kind: str) -> None:
    puzzles = _shipped(kind)
    assert len({p.id for p in puzzles}) == len(puzzles)
    sample = random.Random().sample(puzzles, 6)
    for pz in sample:
        assert verify(pz) == [], pz


def test_reversi_shipped_puzzles_against_the_full_window_solver() -> None:
    """An independent check of the exact claim: the endgame solver's exact score of every
    move (not the judge's null-window search)."""
    from asobiba.games.reversi.bitboard import legal_mask
    from asobiba.games.reversi.endgame import Solver, final_score, flips

    solver = Solver()
    for pz in random.Random().sample(_shipped("reversi"), 4):
        state = pz.position()
        p, o = (state.black, state.white) if state.turn == 0 else (state.white, state.black)  # type: ignore[attr-defined]
        wins = []
        for m in state.legal_moves():
            f = flips(p, o, m)
            p2, o2 = p | f | (1 << m), o & ~f
            if not legal_mask(o2, p2) and not legal_mask(p2, o2):
                score = final_score(p2, o2)
            else:
                score = -solver.solve(o2, p2).score
            if score > 0:
                wins.append(state.move_text(m))
        assert wins == [pz.line[0]], (pz.id, wins)


def test_verify_finds_a_tampered_puzzle() -> None:
    pz = _shipped("flipflop")[0]
    state = pz.position()
    other = next(state.move_text(m) for m in state.legal_moves()
                 if state.move_text(m) != pz.line[0])
    assert verify(dataclasses.replace(pz, line=(other,) + pz.line[1:])) != []
    assert verify(dataclasses.replace(pz, moves=pz.moves[:-1])) != []


def test_mining_a_stored_record() -> None:
    game = get("flipflop")
    found = [p for seed in range(6) for p in mine_selfplay("flipflop", seed)]
    assert found
    pz = found[0]
    states = game.replay(list(pz.moves) + list(pz.line), pz.options, pz.seed)
    rec = Record.from_states(states, [MoveEntry(s.to_move or 0, m) for s, m in
                                      zip(states, list(pz.moves) + list(pz.line))], pz.seed)
    mined = mine_record(rec, judge_for("flipflop", pz.options))
    assert mined and all(verify(p) == [] for p in mined)
    assert all(p.source == "record" for p in mined)


def test_build_command_is_the_same_with_one_or_two_processes(tmp_path: Path) -> None:
    r1 = CliRunner().invoke(app, ["puzzles", "build", "-g", "flipflop", "-n", "6", "-j", "1",
                                  "-o", str(tmp_path / "one")])
    assert r1.exit_code == 0, r1.output
    r2 = CliRunner().invoke(app, ["puzzles", "build", "-g", "flipflop", "-n", "6", "-j", "2",
                                  "-o", str(tmp_path / "two")])
    assert r2.exit_code == 0, r2.output
    one = (tmp_path / "one" / "flipflop.jsonl").read_text()
    assert one == (tmp_path / "two" / "flipflop.jsonl").read_text()
    assert len(one.splitlines()) == 6
    assert "CPU" in r1.output and "load" in r1.output


def test_build_refuses_an_unknown_set(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["puzzles", "build", "-g", "chess", "-o", str(tmp_path)])
    assert res.exit_code != 0 and "chess" in res.output
    assert not list(tmp_path.iterdir())


def test_tiny_build_of_every_set(tmp_path: Path) -> None:
    for kind in SETS:
        puzzles, rep = build(kind, 2, seed=7, jobs=1, chunk=2, out=tmp_path / f"{kind}.jsonl")
        assert rep.count == 2 and len(load_set(kind, tmp_path / f"{kind}.jsonl")) == 2
        assert all(verify(p) == [] for p in puzzles)


def test_build_mines_a_servers_stored_games_first(tmp_path: Path) -> None:
    from argon2 import PasswordHasher
    from sqlalchemy import create_engine

    from asobiba.progression import Progression

    found = [p for seed in range(6) for p in mine_selfplay("flipflop", seed)]
    pz = found[0]
    game = get("flipflop")
    moves = list(pz.moves) + list(pz.line)
    states = game.replay(moves, pz.options, pz.seed)
    while not states[-1].is_over:  # finish the game: the server stores finished games
        s = states[-1]
        moves.append(s.move_text(s.legal_moves()[0]))
        states.append(s.play(moves[-1]))
    rec = Record.from_states(states, [MoveEntry(s.to_move or 0, m)
                                      for s, m in zip(states, moves)], pz.seed)
    url = f"sqlite:///{tmp_path / 'server.db'}"
    prog = Progression(create_engine(url),
                       PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    a, _ = prog.register("first", "a long password 9")
    b, _ = prog.register("second", "a long password 9")
    prog.record_game([a["id"], b["id"]], rec)
    res = CliRunner().invoke(app, ["puzzles", "build", "-g", "flipflop", "-n", "1", "-j", "1",
                                   "--db", url, "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    shipped = load_set("flipflop", tmp_path / "out" / "flipflop.jsonl")
    assert shipped[0].source == "record" and verify(shipped[0]) == []


@pytest.mark.parametrize("kind", ["flipflop", "reversi", "reverstargo", "patapata"])
def test_the_shipped_set_is_what_the_command_builds(kind: str, tmp_path: Path) -> None:
    """The committed file starts with exactly what `asobiba puzzles build --seed 0` writes
    (a build writes puzzles in seed order, so a short build is the full one's prefix)."""
    puzzles, _ = build(kind, 3, seed=0, jobs=1, out=tmp_path / f"{kind}.jsonl")
    shipped = (Path(__file__).resolve().parents[2] / "asobiba" / "puzzles" / "sets"
               / f"{kind}.jsonl").read_text().splitlines()
    assert (tmp_path / f"{kind}.jsonl").read_text().splitlines() == shipped[:3]
