"""The folding sheet: 4×8 printed cells, 8 switches, a 4×4 visible window, 4 rotations.

Printed cell ``p = 8*row + col`` (row 0..3 top to bottom, col 0..7 left to right), named
like a spreadsheet: column letter ``a``..``h`` then row number ``1``..``4`` (``c2`` = row 1,
col 2). Each printed row is folded into two pleats, ``0 [1 2] 3 | 4 [5 6] 7``; cutting the
pleats between rows makes 8 switches, one per (row, block) with block 0 = left (printed
cols 0–3, named ``L``) and block 1 = right (cols 4–7, ``R``). A switch in setting 0 shows
printed cols ``4b, 4b+1`` of its row, in setting 1 ``4b+2, 4b+3`` (always in printed order).
All switch settings together are an 8-bit int, bit ``2*row + block``.

Rotation ``k`` is the number of clockwise quarter turns of the sheet; the player sees the
unrotated window turned by ``k`` quarter turns.
"""

from __future__ import annotations

from functools import cache

from ...core import MalformedMoveError

ROWS, COLS, SIZE = 4, 8, 4
CELLS = ROWS * COLS
FILES = "abcdefgh"
SIDES = "LR"
ALL_SWITCHES = 256


def cell_name(p: int) -> str:
    return FILES[p % COLS] + str(p // COLS + 1)


def parse_cell(text: str) -> int:
    """``"c2"`` → 10; anything else raises MalformedMoveError."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "1234":
        raise MalformedMoveError(
            f"{text!r} is not a printed cell: write a column a–h and a row 1–4, e.g. c2",
            move=text)
    return (int(t[1]) - 1) * COLS + FILES.index(t[0])


def switch_name(row: int, block: int) -> str:
    return f"{row + 1}{SIDES[block]}"


def parse_switch(text: str) -> int:
    """``"2R"`` → switch index ``2*1 + 1``."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in "1234" or t[1] not in SIDES:
        raise MalformedMoveError(
            f"{text!r} is not a switch: write a row 1–4 and a side L or R, e.g. 2R", move=text)
    return 2 * (int(t[0]) - 1) + SIDES.index(t[1])


def switch_of(p: int) -> tuple[int, int]:
    """The switch (index, setting) under which printed cell ``p`` is visible."""
    row, col = divmod(p, COLS)
    return 2 * row + col // 4, (col % 4) // 2


def unrotated_window(switches: int) -> tuple[tuple[int, ...], ...]:
    """The visible 4×4 window (printed cell per position) before any rotation."""
    out = []
    for row in range(ROWS):
        cells = []
        for j in range(SIZE):
            block = j // 2
            setting = switches >> (2 * row + block) & 1
            cells.append(row * COLS + 4 * block + 2 * setting + j % 2)
        out.append(tuple(cells))
    return tuple(out)


def rotate_grid(grid: tuple[tuple[int, ...], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """``grid`` as seen after turning the sheet ``k`` quarter turns clockwise."""
    for _ in range(k % 4):
        n = len(grid)
        grid = tuple(tuple(grid[n - 1 - j][i] for j in range(n)) for i in range(n))
    return grid


@cache
def visible_window(rotation: int, switches: int) -> tuple[tuple[int, ...], ...]:
    """What the player sees: printed cell at each seen (row, col) of the 4×4 window."""
    return rotate_grid(unrotated_window(switches), rotation)


def visible_mask(switches: int) -> int:
    """Printed cells visible under ``switches`` as a 32-bit mask."""
    mask = 0
    for row in visible_window(0, switches):
        for p in row:
            mask |= 1 << p
    return mask


# Row visibility tables for the fast scorer: for row choice c (bit 0 = left switch setting,
# bit 1 = right), the 8 printed bits of a row map to the 4 visible bits.
def _row_visible(choice: int, rowbits: int) -> int:
    left, right = choice & 1, choice >> 1
    cols = (2 * left, 2 * left + 1, 4 + 2 * right, 5 + 2 * right)
    return sum(1 << j for j, c in enumerate(cols) if rowbits >> c & 1)


ROW_VISIBLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_row_visible(c, bits) for bits in range(256)) for c in range(4))
