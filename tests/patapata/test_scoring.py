"""Scoring (6-1 .. 6-4) on hand-made sheets, and the fast scorer against a slow one."""

from __future__ import annotations

from collections import deque

from asobiba.core import Rng
from asobiba.games.patapata.game import rows_marks
from asobiba.games.patapata.geometry import visible_window
from asobiba.games.patapata.scoring import (
    STANDARD,
    STEEP,
    largest_visible_group,
    most_visible_blanks,
    score,
)


def slow_group(mask: int) -> int:
    """Reference: every switch setting, flood fill on the seen window."""
    best = 0
    for s in range(256):
        w = visible_window(0, s)
        cells = {(r, c) for r in range(4) for c in range(4) if mask >> w[r][c] & 1}
        while cells:
            todo, size = deque([cells.pop()]), 0
            while todo:
                r, c = todo.popleft()
                size += 1
                for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if q in cells:
                        cells.remove(q)
                        todo.append(q)
            best = max(best, size)
    return best


def slow_blanks(occupied: int) -> int:
    return max(sum(1 for row in visible_window(0, s) for p in row if not occupied >> p & 1)
               for s in range(256))


def test_rule_seed_numbers_are_in_the_default_tables() -> None:
    """6-1: 6 → 8, 3 → 1, 2 → 0; 6-2: 4 → 3, 8 or more → 10; 6-3: 0 → 5, 1 → 2, 2+ → 0."""
    t = STANDARD
    assert (t.group_points(6), t.group_points(3), t.group_points(2)) == (8, 1, 0)
    assert t.blank_points(4) == 3 and all(t.blank_points(n) == 10 for n in range(8, 17))
    assert (t.pass_points(0), t.pass_points(1), t.pass_points(2), t.pass_points(5)) == (5, 2, 0, 0)
    assert [t.rating(s)[1] for s in (40, 35, 30, 25)] == ["神", "マスター", "上級者", "中級者"]
    for other in (STEEP,):
        assert (other.group_points(6), other.group_points(3), other.group_points(2)) == (8, 1, 0)
    assert all(a <= b for a, b in zip(t.group, t.group[1:], strict=False))


def test_rule_group_uses_switches_so_marks_in_different_folds_connect() -> None:
    # a1 b1 show at window (0,0) (0,1); d2 shows at (1,1) when 2L is on side b: adjacent
    sheet = rows_marks(["OO......", "...O....", "........", "........"])
    assert largest_visible_group(sheet[0]) == 3
    # but c2 sits at window (1,0): touches a1 under (0,0), not b1
    sheet = rows_marks([".O......", "..O.....", "........", "........"])
    assert largest_visible_group(sheet[0]) == 1


def test_rule_each_mark_may_use_its_own_switch_setting() -> None:
    # O wants switch 1L on side a (a1 b1); X wants it on side b (c1 d1)
    sheet = rows_marks(["OOXX....", "OOXX....", "........", "........"])
    b = score(sheet, 0)
    assert b.groups == (4, 4, 0)
    assert b.group_points == (3, 3, 0)


def test_rule_diagonal_never_connects() -> None:
    sheet = rows_marks(["B.......", ".B......", "..B.....", "...B...."])
    assert largest_visible_group(sheet[2]) == 1


def test_rule_blanks_count_the_most_visible_at_once_connected_or_not() -> None:
    full = rows_marks(["OOOOXXXX"] * 4)
    assert most_visible_blanks(full[0] | full[1]) == 0
    # one blank pair per row on the left: the switch shows it -> 2 per row -> 8
    sheet = rows_marks(["OO..XXXX", "..OOXXXX", "OO..XXXX", "..OOXXXX"])
    occ = sheet[0] | sheet[1] | sheet[2]
    assert most_visible_blanks(occ) == 8
    assert score(sheet, 0).blank_points == 10
    # blanks on both sides of one switch do not add up
    sheet = rows_marks([".O.OXXXX", "OOOOXXXX", "OOOOXXXX", "OOOOXXXX"])
    assert most_visible_blanks(sheet[0] | sheet[1]) == 1
    assert most_visible_blanks(0) == 16


def test_rule_score_is_the_sum_of_groups_blanks_and_pass_bonus() -> None:
    sheet = rows_marks(["OOXX....", "OOXX....", "BB..B...", "........"])
    b = score(sheet, 1)
    assert b.groups == (4, 4, 3)
    assert b.blanks == 2 + 2 + 4 + 4
    assert b.total == 3 + 3 + 1 + 10 + 2
    assert score(sheet, 2).total == b.total - 2


def test_fast_scorer_matches_slow_reference_on_random_sheets() -> None:
    rng = Rng(5, "scoring-test")
    for _ in range(40):
        marks = [0, 0, 0]
        for p in range(32):
            v = rng.below(5)
            if v < 3:
                marks[v] |= 1 << p
        for m in marks:
            assert largest_visible_group(m) == slow_group(m)
        occ = marks[0] | marks[1] | marks[2]
        assert most_visible_blanks(occ) == slow_blanks(occ)
