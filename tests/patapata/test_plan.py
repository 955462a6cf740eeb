"""Hints a person can follow (issue 27): the seat's view carries ``plan``, the steps — turn,
flaps, writes, as codes with arguments and moves — that clear the current task from where
the sheet stands. A hint that named printed cells outside the window ("d2, c2, d1") without
the flap that exposes them could not be followed."""

from __future__ import annotations

import pytest

from asobiba.core import Rng
from asobiba.games.patapata.game import GAME, PatapataState
from asobiba.games.patapata.plan import step_json


def _own(view: dict) -> dict:
    return next(s for s in view["sheets"] if "window" in s)


def _visible(sheet_view: dict) -> set[str]:
    return {cell for row in sheet_view["window"] for cell in row}


def _follow(state: PatapataState, seat: int = 0) -> tuple[PatapataState, int]:
    """Play the plan of ``seat``'s view step by step; every step must be legal and, for a
    write, on a cell the window shows at that moment. Returns the state and steps played."""
    steps = _own(state.view(seat))["plan"]
    assert steps, "a plan to follow"
    start_round = state.round
    played = 0
    for step in steps:
        if state.round != start_round or state.sheets[seat].finished:
            break  # cleared already (another occurrence completed first): fine
        own = _own(state.view(seat))
        if step["code"] == "write":
            assert step["args"]["cell"] in _visible(own), (step, own["window"])
        assert step["move"] in state.legal_moves(seat).texts(), step
        state = state.play(step["move"], seat)
        played += 1
    assert state.round != start_round or state.sheets[seat].finished
    return state, played


def _random_steps(state: PatapataState, rng: Rng, n: int) -> PatapataState:
    """A few random turns, flips and writes (not clears or passes) on the current task."""
    for _ in range(n):
        moves = [m for m in state.legal_moves(0).texts()
                 if not m.startswith(("clear", "pass"))]
        before = state.round
        state = state.play(moves[rng.below(len(moves))], 0)
        if state.round != before or state.is_over:
            break
    return state


@pytest.mark.parametrize("course", ["1", "2", "3", "dice"])
def test_following_the_plan_clears_every_task_of_a_course(course: str) -> None:
    for seed in range(3):
        state = GAME.new_game({"course": course}, seed)
        assert isinstance(state, PatapataState)
        rng = Rng(seed, "plan-test")
        while not state.is_over:
            state = _random_steps(state, rng, rng.below(4))
            if state.is_over:
                break
            steps = _own(state.view(0))["plan"]
            clear_moves = [m for m in state.legal_moves(0).texts() if m.startswith("clear")]
            if steps is None:
                # no way left: nothing to clear with (only when nothing was written)
                assert not state.sheets[0].pending and not clear_moves
                state = state.play("pass", 0)
                continue
            state, _ = _follow(state)


def test_a_plan_names_the_flaps_that_expose_cells_outside_the_window() -> None:
    """The issue's case: the cells to write are not all in the window (later in a course,
    when the visible cells are taken). The plan flips the flaps that show them before it
    writes there."""
    found = 0
    for course in ("1", "2", "3"):
        state = GAME.new_game({"course": course}, 0)
        assert isinstance(state, PatapataState)
        while not state.is_over:
            own = _own(state.view(0))
            if own["plan"] is None:
                state = state.play("pass", 0)
                continue
            writes = [s["args"]["cell"] for s in own["plan"] if s["code"] == "write"]
            if any(c not in _visible(own) for c in writes):
                found += 1
                codes = [s["code"] for s in own["plan"]]
                assert "switch" in codes
                assert codes.index("switch") < codes.index("write")
            state, _ = _follow(state)
    assert found >= 1


def test_a_plan_turns_the_sheet_so_the_task_reads_upright() -> None:
    """When the pattern can only be shown turned, the plan says so first, with the degrees,
    and the sheet stands at that turn when the task is cleared."""
    turned = 0
    for course in ("1", "2", "3"):
        state = GAME.new_game({"course": course}, 1)
        assert isinstance(state, PatapataState)
        while not state.is_over:
            steps = _own(state.view(0))["plan"]
            if steps is None:
                state = state.play("pass", 0)
                continue
            codes = [s["code"] for s in steps]
            if "rotate" in codes:
                turned += 1
                assert codes.index("rotate") == 0
                deg = steps[0]["args"]["deg"]
                assert deg in (90, 180, 270) and steps[0]["move"] == f"rotate {deg}"
                want = (state.sheets[0].rotation + deg // 90) % 4
                rnd = state.round
                state, played = _follow(state)
                if played == len(steps):
                    assert state.round > rnd or state.sheets[0].finished
                    # the history's last clear happened with the sheet at the plan's turn
                    assert want in _rotations_of_last_clear(state)
            else:
                state, _ = _follow(state)
    assert turned >= 1


def _rotations_of_last_clear(state: PatapataState) -> set[int]:
    """Rotations under which the task just cleared reads upright (via its occurrences)."""
    from asobiba.games.patapata.tasks import course_tasks, occurrences

    rnd = state.round - 1 if not state.sheets[0].finished else state.round
    task = course_tasks(state.rows)[rnd]
    sheet = state.sheets[0]
    marks = sheet.marks
    out = set()
    for occ in occurrences(task):
        if all(marks[m] & occ.req[m] == occ.req[m] for m in range(3)):
            out |= {r for r in range(4) if occ.rotations >> r & 1}
    return out


def test_the_plan_is_only_in_the_seats_own_view_and_gone_when_done() -> None:
    state = GAME.new_game({"players": 2, "course": "1"}, 0)
    assert isinstance(state, PatapataState)
    assert _own(state.view(0))["plan"]
    assert all("plan" not in s for s in state.view(None)["sheets"])
    assert all("plan" not in s for s in state.view(1)["sheets"] if s["seat"] == 0)
    state, _ = _follow(state, 0)
    assert _own(state.view(0))["plan"] is None  # cleared: waiting for the other sheet


def test_step_codes_carry_their_arguments() -> None:
    assert step_json(("switch", 3)) == {"code": "switch", "args": {"s": "2R"},
                                         "move": "switch 2R"}
    assert step_json(("rotate", 2)) == {"code": "rotate", "args": {"deg": 180},
                                         "move": "rotate 180"}
    assert step_json(("write", 9, 0)) == {"code": "write", "args": {"cell": "b2", "mark": "O"},
                                           "move": "write b2O"}
    assert step_json(("clear", (0, 0, 0))) == {"code": "clear", "args": {}, "move": "clear"}
