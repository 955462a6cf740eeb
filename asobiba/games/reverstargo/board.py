"""The 37-cell star: cube coordinates, the app's labels, neighbours and rays.

Cells are numbered 0..36 and a position is two 37-bit integers (Black, White), so the hot
loop of a search is integer arithmetic. Bit 0 is the Core Point (CP), which never holds a
stone between moves.
"""

from __future__ import annotations

Cube = tuple[int, int, int]

#: The app's labels in index order, with their cube coordinates (REFERENCE § ReverStarGo).
#: Clock-face names: ``X`` = 10, ``J`` = 11, ``Q`` = 12.
CELLS: tuple[tuple[str, Cube], ...] = (
    ("CP", (0, 0, 0)),
    ("A1", (1, -1, 0)), ("A3", (1, 0, -1)), ("A5", (0, 1, -1)),
    ("A7", (-1, 1, 0)), ("A9", (-1, 0, 1)), ("AJ", (0, -1, 1)),
    ("BQ", (1, -2, 1)), ("B1", (2, -2, 0)), ("B2", (2, -1, -1)), ("B3", (2, 0, -2)),
    ("B4", (1, 1, -2)), ("B5", (0, 2, -2)), ("B6", (-1, 2, -1)), ("B7", (-2, 2, 0)),
    ("B8", (-2, 1, 1)), ("B9", (-2, 0, 2)), ("BX", (-1, -1, 2)), ("BJ", (0, -2, 2)),
    ("CQ", (1, -3, 2)), ("C1", (2, -3, 1)), ("C2", (3, -2, -1)), ("C3", (3, -1, -2)),
    ("C4", (2, 1, -3)), ("C5", (1, 2, -3)), ("C6", (-1, 3, -2)), ("C7", (-2, 3, -1)),
    ("C8", (-3, 2, 1)), ("C9", (-3, 1, 2)), ("CX", (-2, -1, 3)), ("CJ", (-1, -2, 3)),
    ("DQ", (2, -4, 2)), ("D2", (4, -2, -2)), ("D4", (2, 2, -4)),
    ("D6", (-2, 4, -2)), ("D8", (-4, 2, 2)), ("DX", (-2, -2, 4)),
)

N_CELLS = len(CELLS)
CP = 0
CP_BIT = 1
LABELS: tuple[str, ...] = tuple(label for label, _ in CELLS)
CUBES: tuple[Cube, ...] = tuple(cube for _, cube in CELLS)
INDEX: dict[str, int] = {label: i for i, label in enumerate(LABELS)}
_AT: dict[Cube, int] = {cube: i for i, cube in enumerate(CUBES)}

#: The six unit directions of the hex grid, clockwise from 1 o'clock.
DIRECTIONS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1),
                                (0, -1, 1))

ALL = (1 << N_CELLS) - 1
STONE_CELLS = ALL & ~CP_BIT  # the 36 cells a stone may stand on


def _step(cube: Cube, d: Cube) -> Cube:
    return (cube[0] + d[0], cube[1] + d[1], cube[2] + d[2])


def _ray(i: int, d: Cube) -> tuple[int, ...]:
    """Cells from ``i`` (exclusive) in direction ``d`` up to the edge: leaving the board ends
    a line, even where the star's points would let it re-enter further on."""
    out = []
    cube = _step(CUBES[i], d)
    while cube in _AT:
        out.append(_AT[cube])
        cube = _step(cube, d)
    return tuple(out)


#: RAYS[i] = the non-empty rays from cell i, each a tuple of cell indices.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(r for r in (_ray(i, d) for d in DIRECTIONS) if r) for i in range(N_CELLS)
)

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_AT[_step(CUBES[i], d)] for d in DIRECTIONS if _step(CUBES[i], d) in _AT)
    for i in range(N_CELLS)
)
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << j for j in nb) for nb in NEIGHBOURS)

#: Cells whose six neighbours are all on the board: only groups inside these can be
#: enclosed, because the edge never encloses (seed §4③).
INTERIOR_CELLS: tuple[int, ...] = tuple(i for i in range(N_CELLS) if len(NEIGHBOURS[i]) == 6)
INTERIOR = sum(1 << i for i in INTERIOR_CELLS)

A_RING = sum(1 << INDEX[f"A{c}"] for c in "13579J")

#: The app's cell values (its Formidable and FINAL evaluation): star tips 50, C 20, B 8, A 2.
APP_CELL_VALUE: tuple[int, ...] = tuple(
    0 if lab == "CP" else {"A": 2, "B": 8, "C": 20, "D": 50}[lab[0]] for lab in LABELS
)


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


assert len(CELLS) == 37 and len(set(CUBES)) == 37 and all(sum(c) == 0 for c in CUBES)
assert len(INTERIOR_CELLS) == 13, INTERIOR_CELLS
