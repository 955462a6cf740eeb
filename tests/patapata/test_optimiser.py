"""The optimiser's lines are legal games that score what it claims, and never beat the bound."""

from __future__ import annotations

from asobiba.games.patapata.game import GAME
from asobiba.games.patapata.notation import move_text
from asobiba.games.patapata.optimiser import beam_search, optimise, upper_bound
from asobiba.games.patapata.tasks import TASK_SHEET, course_tasks, dice_course
from asobiba.play.runner import play_game


def test_plan_replays_through_the_rules_engine_to_its_claimed_score() -> None:
    for course in ("1", "3"):
        tasks = TASK_SHEET[int(course) - 1]
        plan = optimise(tasks, width=4)
        state = GAME.new_game({"course": course}, 0)
        for move in plan.moves:
            state = state.play(move_text(move), 0)
        assert state.is_over and state.outcome is not None
        assert state.outcome.scores[0] == plan.total
        assert plan.total <= upper_bound(tasks)


def test_upper_bound_is_never_beaten_by_bots_or_search() -> None:
    for seed in range(3):
        tasks = course_tasks(dice_course(seed))
        bound = upper_bound(tasks)
        assert beam_search(tasks, width=8).total <= bound
        for level in ("random", "greedy"):
            result = play_game(GAME, [GAME.make_bot(level, seed)], {}, seed)
            assert result.states[-1].outcome.scores[0] <= bound


def test_upper_bound_counts_marks_the_course_can_still_add() -> None:
    # with nothing written and no task left, nothing can grow: only blanks and the bonus
    assert upper_bound(()) == 10 + 5
    # one task of two × and two 〇 can give groups of at most 2: no group points
    assert upper_bound(("XX/OO",)) == 10 + 5
