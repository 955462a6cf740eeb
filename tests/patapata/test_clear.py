"""Clear checking (5. ゲームの進行, Q2, Q3): the pattern must appear in the visible window
in its own orientation or a turn of it, never mirrored; only marks the occurrence uses may be
written; a mark is written once, forever."""

from __future__ import annotations

import pytest

from asobiba.core import IllegalMoveError, MalformedMoveError
from asobiba.games.patapata.game import GAME, PatapataState, Sheet, marks_rows, rows_marks
from asobiba.games.patapata.geometry import parse_cell
from asobiba.games.patapata.sheet import clears

L_TASK = "X../OBX"  # task 11 of row ⚀⚁: an L with two × apart; its mirror is "..X/XBO"


def state_with(marks_rows_: list[str], round_: int = 10, course: str = "1") -> PatapataState:
    """A solo state on the fixed course at task ``round_`` with a hand-made sheet."""
    start = GAME.new_game({"course": course}, 0)
    assert isinstance(start, PatapataState)
    marks = rows_marks(marks_rows_)
    return PatapataState(start.options, start.rows, round_, (Sheet(marks, marks),))


EMPTY = ["........"] * 4


def test_rule_pattern_written_upright_clears_without_writing() -> None:
    s = state_with(["X.......", "OB..X...", "........", "........"])
    assert s.task == L_TASK
    assert "clear" in s.legal_moves(0)
    after = s.play("clear", 0)
    assert after.round == 11 and after.sheets[0].marks == s.sheets[0].marks


def test_rule_pattern_turned_a_quarter_still_counts() -> None:
    # "X../OBX" turned: on the sheet turned 90° clockwise it reads upright
    s = state_with([".X......", ".B......", "XO......", "........"])
    assert "clear" in s.legal_moves(0)


def test_rule_mirror_image_never_counts() -> None:
    s = state_with(["....X...", "XB..O...", "........", "........"])
    assert "clear" not in s.legal_moves(0)
    with pytest.raises(IllegalMoveError, match="cannot be shown without writing"):
        s.play("clear", 0)
    # ...but all the turns of the mirror image do not count either
    for rows in (["XO......", ".B......", ".X......", "........"],
                 ["OB..X...", "X.......", "........", "........"]):
        assert "clear" not in state_with(rows).legal_moves(0)


def test_rule_pattern_spread_over_switches_counts_when_one_setting_shows_it() -> None:
    # X on c1 (1L side b), O/B on c2 d2 (2L side b), X on g2 (2R side b): visible together
    s = state_with(["..X.....", "..OB..X.", "........", "........"])
    assert "clear" in s.legal_moves(0)
    # O on a2 and B on d2 need both sides of switch 2L at once: never
    t = state_with(["X.......", "O..BX...", "........", "........"])
    assert "clear" not in t.legal_moves(0)


def test_rule_no_useless_writes_a_clear_writes_exactly_the_blank_cells_of_one_occurrence() -> None:
    s = state_with(["X.......", "OB......", "........", "........"])
    assert "clear e2X" in s.legal_moves(0)
    with pytest.raises(IllegalMoveError, match="Q2"):
        s.play("clear e2X h4O", 0)  # h4 is not part of the occurrence
    with pytest.raises(IllegalMoveError, match="Q2"):
        s.play("clear c2X", 0)  # c2 never shows beside a2 b2
    with pytest.raises(IllegalMoveError, match="already holds"):
        s.play("clear a1X e2X", 0)  # a mark is written once, forever
    assert marks_rows(s.sheets[0].marks)[:2] == ["X.......", "OB......"]  # nothing changed


def test_rule_existing_pattern_may_still_be_cleared_by_writing_another_one() -> None:
    """Q2: 既にお題と同じ並びがある状態で、敢えてマークを書いてクリアする事は可能です。"""
    s = state_with(["X.......", "OB..X...", "........", "........"])
    assert "clear" in s.legal_moves(0)
    assert "clear a3X a4O b4B e4X" in s.legal_moves(0)


def test_every_listed_clear_writes_only_blank_cells_and_completes_an_occurrence() -> None:
    s = state_with(["X..O....", "OBX..B..", "...X....", "........"])
    for way in clears(L_TASK, s.sheets[0].marks):
        added = way.writes[0] | way.writes[1] | way.writes[2]
        assert added & s.sheets[0].occupied == 0
        assert added & ~way.occurrence.cells == 0


def test_rule_step_by_step_write_switch_and_automatic_clear() -> None:
    s = state_with(EMPTY)
    with pytest.raises(IllegalMoveError, match="folded away"):
        s.play("write c1X", 0)  # c1 is hidden while switch 1L shows a1 b1
    s = s.play("write a1X", 0)
    with pytest.raises(IllegalMoveError, match="Q2"):
        s.play("pass", 0)  # a written mark must be part of the clearing occurrence
    with pytest.raises(IllegalMoveError, match="Q2"):
        s.play("write f4B", 0)  # cannot belong to any occurrence with a1
    s = s.play("write a2O", 0).play("write b2B", 0)
    assert s.round == 10 and s.sheets[0].pending
    s = s.play("switch 2R", 0)  # shows g2 h2 next to b2
    assert s.round == 10
    s = s.play("switch 2R", 0).play("write e2X", 0)
    assert s.round == 11  # the pattern appeared: cleared automatically
    assert s.sheets[0].history[-1] == "clear a1X a2O b2B e2X"


def test_rule_pass_counts_and_moves_on() -> None:
    s = state_with(EMPTY).play("pass", 0)
    assert s.round == 11 and s.sheets[0].passes == 1


def test_garbage_is_malformed() -> None:
    s = state_with(EMPTY)
    for bad in ("clear z9X", "write a1", "write a1Q", "rotate 45", "switch 9L", "fold",
                "clear a1X a1O"):
        with pytest.raises(MalformedMoveError):
            s.play(bad, 0)
    assert parse_cell("h4") == 31
