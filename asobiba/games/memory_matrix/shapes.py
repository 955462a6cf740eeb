"""Board shapes: named masks and custom text masks, turned into bitboard geometry.

The seed does not limit the board to a square (「ゲーム盤の形状を正方形に限定しない」), so
every rule works on a mask. Cells sit on a grid ``width + 1`` bits wide: the extra guard
column keeps east/west shifts from wrapping round a row, and holes are simply never
occupied, so a line of pieces stops at a hole exactly as it stops at the edge.
"""

from __future__ import annotations

import math
from functools import lru_cache

from ...core.errors import OptionError, option_why

CELL_CHARS = "#o"
HOLE_CHARS = ".-"
MAX_SIDE = 26


def _square(n: int) -> str:
    return "/".join(["#" * n] * n)


def _cut_corners(n: int, cut: int, triangle: bool) -> str:
    """An n×n square without its corners: square corners (a cross) or triangles (an octagon)."""
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            dr = min(r, n - 1 - r)
            dc = min(c, n - 1 - c)
            hole = (dr + dc < cut) if triangle else (dr < cut and dc < cut)
            row.append("." if hole else "#")
        rows.append("".join(row))
    return "/".join(rows)


def _diamond(n: int) -> str:
    half = (n - 1) / 2
    return "/".join(
        "".join("#" if abs(r - half) + abs(c - half) <= half + 0.5 else "." for c in range(n))
        for r in range(n)
    )


#: Named shapes (masks). ``cross`` keeps 64 cells, like the 8×8 board.
SHAPES: dict[str, str] = {
    "8x8": _square(8),
    "6x6": _square(6),
    "10x10": _square(10),
    "cross": _cut_corners(10, 3, triangle=False),
    "diamond": _diamond(10),
    "octagon": _cut_corners(10, 3, triangle=True),
}

# The eight directions as (row step, column step).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1),
)


def parse_mask(text: str) -> tuple[tuple[bool, ...], ...]:
    """Rows separated by ``/``; ``#`` or ``o`` is a cell, ``.`` or ``-`` a hole."""
    rows = [row.strip() for row in text.strip().split("/")]
    if not text.strip() or any(not row for row in rows):
        raise OptionError("option 'mask': give rows of '#' (cell) and '.' (hole) separated "
                          "by '/', e.g. '.##./####/####/.##.'", option="mask",
                          why=option_why("option.mask", option="mask"))
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        raise OptionError("option 'mask': every row must have the same length", option="mask",
                          why=option_why("option.mask", option="mask"))
    if not (3 <= width <= MAX_SIDE and 3 <= len(rows) <= MAX_SIDE):
        raise OptionError(f"option 'mask': the board must be 3..{MAX_SIDE} cells wide and "
                          "high", option="mask",
                          why=option_why("option.mask_size", option="mask", min=3, max=MAX_SIDE))
    out = []
    for row in rows:
        bad = [ch for ch in row if ch not in CELL_CHARS + HOLE_CHARS]
        if bad:
            raise OptionError(f"option 'mask': {bad[0]!r} is neither a cell ('#', 'o') nor a "
                              "hole ('.', '-')", option="mask",
                              why=option_why("option.mask", option="mask", char=bad[0]))
        out.append(tuple(ch in CELL_CHARS for ch in row))
    return tuple(out)


class Geometry:
    """Cells, names, rays and shift masks of one board mask (shared, never mutated)."""

    __slots__ = ("mask_text", "height", "width", "stride", "valid", "cells", "names",
                 "index_of", "rays", "shifts", "left_shifts", "right_shifts", "centre_order",
                 "count", "unflippable", "nbytes", "_move_tables")

    def __init__(self, rows: tuple[tuple[bool, ...], ...]) -> None:
        self.height = len(rows)
        self.width = len(rows[0])
        self.stride = self.width + 1
        self.mask_text = "/".join("".join("#" if v else "." for v in row) for row in rows)
        cells = [r * self.stride + c for r in range(self.height) for c in range(self.width)
                 if rows[r][c]]
        self.cells: tuple[int, ...] = tuple(cells)
        self.count = len(cells)
        self.valid = sum(1 << i for i in cells)
        self.names = {i: f"{chr(97 + i % self.stride)}{i // self.stride + 1}" for i in cells}
        self.index_of = {name: i for i, name in self.names.items()}
        # rays[i] = per direction, the bits of the cells met walking away from i
        rays = {}
        unflippable = 0
        for i in cells:
            r, c = divmod(i, self.stride)
            per_dir = []
            for dr, dc in DIRECTIONS:
                ray = []
                rr, cc = r + dr, c + dc
                while 0 <= rr < self.height and 0 <= cc < self.width and rows[rr][cc]:
                    ray.append(1 << (rr * self.stride + cc))
                    rr, cc = rr + dr, cc + dc
                per_dir.append(tuple(ray))
            # a piece can flip only along an axis with cells on both sides of it
            if not any(per_dir[k] and per_dir[k + 4] for k in range(4)):
                unflippable |= 1 << i
            rays[i] = tuple(ray for ray in per_dir if ray)
        self.unflippable = unflippable
        self.rays: dict[int, tuple[tuple[int, ...], ...]] = rays
        # signed shift per direction (positive = left shift), for set-wise move generation
        self.shifts = tuple(dr * self.stride + dc for dr, dc in DIRECTIONS)
        # the same, split by sign as plain amounts (the legal-move scan's inner loops)
        self.left_shifts = tuple(s for s in self.shifts if s > 0)
        self.right_shifts = tuple(-s for s in self.shifts if s < 0)
        self.centre_order = self._centre_order()
        self.nbytes = (self.height * self.stride + 7) // 8
        self._move_tables: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] | None = None

    def move_tables(self) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
        """Per side (0 colour up, 1 white up), per byte of a bitboard, per value of that
        byte: the move ints of its set bits, ascending. Turning a set of cells into moves a
        byte at a time (``int.to_bytes``) costs a third of a bit-by-bit loop; built on first
        use."""
        if self._move_tables is None:
            self._move_tables = tuple(
                tuple(tuple(tuple((8 * i + j) << 1 | side for j in range(8) if b >> j & 1)
                            for b in range(256))
                      for i in range(self.nbytes))
                for side in (0, 1))
        return self._move_tables

    def _centre_order(self) -> tuple[int, ...]:
        """Cells from the centre outwards; each ring clockwise from the top-left."""
        cr, cc = (self.height - 1) / 2, (self.width - 1) / 2

        def key(i: int) -> tuple[float, float, int]:
            r, c = divmod(i, self.stride)
            dist = round((r - cr) ** 2 + (c - cc) ** 2, 6)
            angle = round((math.degrees(math.atan2(c - cc, cr - r)) + 45 + 720) % 360, 6)
            return (dist, angle, i)

        return tuple(sorted(self.cells, key=key))

    def name(self, i: int) -> str:
        return self.names[i]


@lru_cache(maxsize=64)
def geometry_for(mask_text: str) -> Geometry:
    return Geometry(parse_mask(mask_text))


def mask_for(shape: str, mask: str) -> str:
    """The mask text of a named shape, or of the custom mask."""
    if shape == "custom":
        if not mask:
            raise OptionError("option 'mask' is needed when shape=custom", option="mask",
                              why=option_why("option.needs", option="mask", other="shape",
                                             value="custom"))
        return mask
    if mask:
        raise OptionError("option 'mask' is only used with shape=custom", option="mask",
                          why=option_why("option.unused", option="mask", other="shape",
                                         value="custom"))
    return SHAPES[shape]
