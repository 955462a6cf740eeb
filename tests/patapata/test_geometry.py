"""The folding sheet: switches, the visible window, rotations (docs/rules/patapata.md §1)."""

from __future__ import annotations

import pytest

from asobiba.core import MalformedMoveError
from asobiba.games.patapata.geometry import (
    cell_name,
    parse_cell,
    parse_switch,
    switch_of,
    visible_mask,
    visible_window,
)


def _expected_unrotated(switches: int) -> dict[tuple[int, int], int]:
    """Independent reading of the issue: row r, block b laid to setting s shows printed
    columns (4b + 2s, 4b + 2s + 1) of row r, in printed order, at window columns 2b, 2b+1."""
    seen = {}
    for r in range(4):
        for b in range(2):
            s = switches >> (2 * r + b) & 1
            seen[(r, 2 * b)] = 8 * r + 4 * b + 2 * s
            seen[(r, 2 * b + 1)] = 8 * r + 4 * b + 2 * s + 1
    return seen


def _turn_clockwise(pos: tuple[int, int], k: int) -> tuple[int, int]:
    """Where an unrotated window position is seen after k clockwise quarter turns."""
    y, x = pos
    for _ in range(k):
        y, x = x, 3 - y
    return y, x


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_rule_every_switch_setting_shows_the_right_printed_cells(rotation: int) -> None:
    for switches in range(256):
        window = visible_window(rotation, switches)
        for pos, p in _expected_unrotated(switches).items():
            y, x = _turn_clockwise(pos, rotation)
            assert window[y][x] == p, (rotation, switches, pos)


def test_rule_window_is_4x4_and_each_row_shows_four_cells_of_its_printed_row() -> None:
    for switches in range(256):
        rows = visible_window(0, switches)
        assert len(rows) == 4 and all(len(r) == 4 for r in rows)
        for r, row in enumerate(rows):
            assert all(p // 8 == r for p in row)
        assert visible_mask(switches).bit_count() == 16


def test_rule_rotation_90_turns_clockwise() -> None:
    # the top-left cell goes to the top-right corner after one clockwise quarter turn
    assert visible_window(1, 0)[0][3] == parse_cell("a1")
    assert visible_window(1, 0)[0][0] == parse_cell("a4")
    assert visible_window(2, 0)[3][3] == parse_cell("a1")


def test_rule_every_cell_is_shown_by_exactly_one_side_of_its_switch() -> None:
    for p in range(32):
        idx, setting = switch_of(p)
        for switches in range(256):
            shown = bool(visible_mask(switches) >> p & 1)
            assert shown == ((switches >> idx & 1) == setting)


def test_notation_of_cells_and_switches_round_trips_and_refuses_garbage() -> None:
    assert [parse_cell(cell_name(p)) for p in range(32)] == list(range(32))
    assert parse_switch("2R") == 3 and parse_switch("1l") == 0
    for bad in ("i1", "a5", "a", "a10", ""):
        with pytest.raises(MalformedMoveError):
            parse_cell(bad)
    for bad in ("5L", "2X", "R2", "22"):
        with pytest.raises(MalformedMoveError):
            parse_switch(bad)
