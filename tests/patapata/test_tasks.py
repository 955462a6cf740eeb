"""The task sheet and courses (3-2, Q1, 7-1 ②) and the occurrence tables."""

from __future__ import annotations

from asobiba.core import Rng
from asobiba.games.patapata.geometry import visible_mask, visible_window
from asobiba.games.patapata.tasks import (
    COURSE_LENGTH,
    CROSS,
    TASK_SHEET,
    course_rows,
    course_tasks,
    dice_course,
    is_tetromino_not_straight,
    occurrences,
    pattern,
)


def difficulty(text: str) -> int:
    """Documented measure: touching pairs with different marks + (kinds of marks - 1)."""
    cells = {(r, c): m for r, c, m in pattern(text).cells}
    mixed = sum(1 for (r, c), m in cells.items()
                for q in ((r + 1, c), (r, c + 1)) if q in cells and cells[q] != m)
    return mixed + len(set(cells.values())) - 1


def test_rule_sheet_has_three_rows_of_twelve_tetromino_tasks_never_the_straight_bar() -> None:
    assert len(TASK_SHEET) == 3 and all(len(row) == COURSE_LENGTH for row in TASK_SHEET)
    for row in TASK_SHEET:
        for text in row:
            assert is_tetromino_not_straight(pattern(text)), text
    assert not is_tetromino_not_straight(pattern("OXOB"))
    assert not is_tetromino_not_straight(pattern("O/X/O/B"))
    assert not is_tetromino_not_straight(pattern("O..X/.OB."))


def test_rule_odd_numbered_tasks_hold_two_crosses_even_ones_at_most_one() -> None:
    for row in TASK_SHEET:
        for i, text in enumerate(row):
            crosses = pattern(text).count(CROSS)
            if (i + 1) % 2 == 1:
                assert crosses == 2, (i + 1, text)
            else:
                assert crosses <= 1, (i + 1, text)


def test_difficulty_rises_through_each_row_in_thirds() -> None:
    for row in TASK_SHEET:
        thirds = [sum(difficulty(t) for t in row[k:k + 4]) for k in (0, 4, 8)]
        assert thirds[0] < thirds[1] < thirds[2], (row, thirds)


def test_rule_fixed_course_is_one_row_dice_course_rolls_per_position() -> None:
    assert course_tasks(course_rows("2", 99)) == TASK_SHEET[1]
    rows = dice_course(7)
    assert rows == dice_course(7) and len(rows) == COURSE_LENGTH
    rng = Rng(7, "patapata", "course")
    assert rows == tuple(rng.below(6) // 2 for _ in range(COURSE_LENGTH))
    seen = {r for seed in range(30) for r in dice_course(seed)}
    assert seen == {0, 1, 2}
    for i, text in enumerate(course_tasks(rows)):
        assert text == TASK_SHEET[rows[i]][i]


def _slow_occurrences(text: str) -> set[tuple[int, int, int]]:
    """Reference: slide every rotation of the seen window over the pattern."""
    pat = pattern(text)
    out = set()
    for k in range(4):
        for s in range(256):
            w = visible_window(k, s)
            for oy in range(5 - pat.height):
                for ox in range(5 - pat.width):
                    req = [0, 0, 0]
                    for dy, dx, m in pat.cells:
                        req[m] |= 1 << w[oy + dy][ox + dx]
                    out.add((req[0], req[1], req[2]))
    return out


def test_occurrence_table_matches_the_window_and_needs_only_its_switches() -> None:
    for text in ("XX/OB", "X../OBX", "OB./.BO"):
        table = occurrences(text)
        assert {o.req for o in table} == _slow_occurrences(text)
        for occ in table:
            # the stated switch settings show all four cells at once
            assert visible_mask(occ.switch_bits) & occ.cells == occ.cells
            # and in the first stated rotation they read as the pattern, upright
            w = visible_window(occ.rotation, occ.switch_bits)
            oy, ox = occ.offset
            for dy, dx, m in pattern(text).cells:
                assert occ.req[m] >> w[oy + dy][ox + dx] & 1
