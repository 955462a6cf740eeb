"""Patapata's puzzles (issue 29 item 2: "Patapata tasks join the same trainer"): the judge's
values are the exact expected final scores (checked against the game's own moves and
scoring), a wrong answer is refused by the verifier, the shipped set is verified, and the
trainer rates a Patapata attempt played step by step like any other puzzle."""

from __future__ import annotations

import dataclasses
import random
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from asobiba.core import State
from asobiba.games.patapata.game import PatapataState
from asobiba.games.patapata.puzzles import TASKS_LEFT, PatapataJudge, steps_to
from asobiba.games.patapata.tasks import COURSE_LENGTH, TASK_SHEET
from asobiba.progression import puzzle_trainer as trainer
from asobiba.progression.models import RatingRow, create_all
from asobiba.puzzles import load_set, unique_best, verify
from asobiba.puzzles.mine import KINDS
from asobiba.tables import PUZZLE_ATTEMPTS, PUZZLE_SEEN, PlayerRow, utcnow

DAY = date(2026, 12, 2)


def shipped() -> list:  # type: ignore[type-arg]
    puzzles = load_set("patapata")
    assert len(puzzles) >= 500, len(puzzles)
    return puzzles


def _ways(state: State) -> list[str]:
    return [m for m in state.view(0)["legal_moves"] if m == "pass" or m.startswith("clear")]


def brute(state: State) -> dict[str, float]:
    """Independent of the judge: every way played through the game's own rules; later tasks
    tried for each row a die can pick (by re-dealing the course), the final score read from
    the game's own breakdown."""
    assert isinstance(state, PatapataState)

    def best(s: PatapataState) -> float:
        if s.is_over:
            return float(s.breakdown(0).total)
        return max(value(s, w) for w in _ways(s))

    def value(s: PatapataState, way: str) -> float:
        after = s.play(way)
        assert isinstance(after, PatapataState)
        if after.is_over:
            return float(after.breakdown(0).total)
        rows = []
        for r in range(3):  # the next task as each row of the sheet
            dealt = after.rows[:after.round] + (r,) * (COURSE_LENGTH - after.round)
            rows.append(best(PatapataState(after.options, dealt, after.round, after.sheets)))
        return sum(rows) / 3

    return {w: value(state, w) for w in _ways(state)}


def test_the_set_is_the_solo_daily_course() -> None:
    assert KINDS["patapata"] == ("patapata", {"players": 1, "course": "dice"})


def test_values_are_the_exact_expected_final_scores() -> None:
    judge = PatapataJudge()
    sample = random.Random().sample(shipped(), 3)
    for pz in sample:
        state = pz.position()
        verdict = judge.judge(state)
        assert verdict is not None and verdict.exact
        assert dict(verdict.values) == pytest.approx(brute(state)), pz.id
        assert unique_best(verdict) == pz.line[0]


def test_a_wrong_answer_is_refused_by_the_verifier() -> None:
    pz = shipped()[0]
    state = pz.position()
    other = next(w for w in _ways(state) if w != pz.line[0])
    assert verify(dataclasses.replace(pz, line=(other,) + pz.line[1:])) != []
    assert verify(dataclasses.replace(pz, line=("rotate 90",) + pz.line[1:])) != []
    assert verify(pz) == []


def test_positions_are_late_in_the_course_with_nothing_written() -> None:
    for pz in shipped()[:40]:
        state = pz.position()
        assert isinstance(state, PatapataState)
        assert state.round >= COURSE_LENGTH - TASKS_LEFT and not state.sheets[0].pending
        assert "exact" in pz.themes and pz.exact


def test_a_random_sample_of_the_shipped_set_re_verifies() -> None:
    puzzles = shipped()
    assert len({p.id for p in puzzles}) == len(puzzles)
    for pz in random.Random().sample(puzzles, 25):
        assert verify(pz) == [], pz


def test_the_public_view_hides_the_hint() -> None:
    pz = shipped()[0]
    state = pz.position()
    assert state.view(0)["sheets"][0]["plan"]  # the room's view carries the hint ...
    public = PatapataJudge().public_view(state, 0)
    assert "plan" not in public["sheets"][0]  # ... a puzzle's does not
    assert public["legal_moves"] == state.view(0)["legal_moves"]


def test_steps_judge_the_way_to_the_answer() -> None:
    judge = PatapataJudge()
    pz = next(p for p in shipped() if len(steps_to(p.position(), p.line[0])) >= 2)
    state = pz.position()
    steps = steps_to(state, pz.line[0])
    assert judge.step(state, steps, pz.line[0]) == "right"
    assert judge.step(state, steps[:1], pz.line[0]) == "more"
    # a write that is no part of the answer
    writes = [m for m in state.view(0)["legal_moves"] if m.startswith("write")]
    wrong = next(m for m in writes if m not in steps)
    assert judge.step(state, [wrong], pz.line[0]) == "wrong"


def test_the_dice_rows_are_the_task_sheet_rows() -> None:
    assert len(TASK_SHEET) == 3 and all(len(r) == COURSE_LENGTH for r in TASK_SHEET)


# ---- the trainer --------------------------------------------------------------------------

@pytest.fixture
def session(tmp_path: Path):  # type: ignore[no-untyped-def]
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}")
    create_all(engine)
    PUZZLE_ATTEMPTS.metadata.create_all(engine, tables=[PUZZLE_ATTEMPTS, PUZZLE_SEEN])
    with Session(engine) as s, s.begin():
        yield s


def _player(s: Session, name: str) -> int:
    row = PlayerRow(name=name, kind="human", created=utcnow())
    s.add(row)
    s.flush()
    return int(row.id)


def test_a_patapata_attempt_solved_step_by_step_rates_both_sides(session: Session) -> None:
    me = _player(session, "folder")
    started = trainer.start(session, me, "patapata", "rated", DAY)
    assert started["rated"] and "plan" not in started["puzzle"]["view"]["sheets"][0]
    pz = {p.id: p for p in load_set("patapata")}[started["puzzle"]["id"]]
    state = pz.position()
    out: dict = {}  # type: ignore[type-arg]
    for i, way in enumerate(pz.line):
        steps = steps_to(state, way)
        for k, mv in enumerate(steps):
            out = trainer.move(session, me, int(started["attempt"]), mv)
            assert out["correct"], (mv, out)
            assert out["done"] == (k == len(steps) - 1 and i == len(pz.line) - 1)
            if out.get("more"):
                assert "line" not in out and "plan" not in out["view"]["sheets"][0]
        state = state.play(way)
    assert out["solved"] and out["rated"]
    r = out["rating"]
    assert r["pool"] == "patapata:puzzle"
    assert r["after"] > r["before"] and r["puzzle_after"] < r["puzzle_before"]
    assert session.get(RatingRow, (me, "patapata:puzzle")) is not None


def test_a_wrong_write_fails_the_attempt_and_lowers_the_rating(session: Session) -> None:
    me = _player(session, "misfolder")
    started = trainer.start(session, me, "patapata", "rated", DAY)
    pz = {p.id: p for p in load_set("patapata")}[started["puzzle"]["id"]]
    state = pz.position()
    right = set(steps_to(state, pz.line[0]))
    wrong = next(m for m in started["puzzle"]["view"]["legal_moves"]
                 if m.startswith(("write", "pass", "clear")) and m not in right
                 and m != pz.line[0])
    out = trainer.move(session, me, int(started["attempt"]), wrong)
    assert out["done"] and not out["solved"] and not out["correct"]
    assert out["line"] == list(pz.line)
    assert out["rating"]["after"] < out["rating"]["before"]


def test_flaps_and_turns_keep_the_attempt_open(session: Session) -> None:
    me = _player(session, "turner")
    started = trainer.start(session, me, "patapata", "streak", DAY)
    aid = int(started["attempt"])
    before = started["puzzle"]["view"]["sheets"][0]["rotation"]
    out = trainer.move(session, me, aid, "rotate 90")
    assert out["more"] and not out["done"]
    assert out["view"]["sheets"][0]["rotation"] == (before + 90) % 360
    out = trainer.move(session, me, aid, "switch 1L")
    assert out["more"]
    with pytest.raises(trainer.PuzzleError) as err:
        trainer.move(session, me, aid, "write z9O")  # not a move: refused, nothing changes
    assert err.value.refusal == "illegal_move"
    steps = [trainer.move(session, me, aid, "rotate 90") for _ in range(trainer.MAX_STEPS - 2)]
    assert all(s["more"] for s in steps)
    with pytest.raises(trainer.PuzzleError) as err:
        trainer.move(session, me, aid, "rotate 90")
    assert err.value.refusal == "too_many_steps"


def test_the_judge_reads_no_hidden_future() -> None:
    """Hidden information stays hidden: the course's tasks still to be rolled (from the
    game's seed) change nothing in the values — only the rule (each row a third) counts."""
    judge = PatapataJudge()
    pz = next(p for p in shipped() if "last_tasks" in p.themes)
    state = pz.position()
    assert isinstance(state, PatapataState)
    values = dict(judge.judge(state).values)  # type: ignore[union-attr]
    for r in range(3):
        rows = state.rows[:state.round + 1] + (r,) * (COURSE_LENGTH - state.round - 1)
        other = PatapataState(state.options, rows, state.round, state.sheets)
        assert dict(judge.judge(other).values) == values  # type: ignore[union-attr]
