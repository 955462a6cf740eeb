"""The rules as small pure functions over bitboards (seed §4, §5; REFERENCE § ReverStarGo).

A position is ``(black, white)``: two 37-bit integers, the CP bit always clear between
moves. Functions take the mover's stones ``me`` and the opponent's ``op``; ``cp_mine`` says
whether the colour called for the CP is the mover's own.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import (
    ALL,
    CP,
    CP_BIT,
    INTERIOR,
    N_CELLS,
    NEIGHBOUR_MASK,
    RAYS,
    STONE_CELLS,
)

BLACK, WHITE = 0, 1
COLOUR_LETTER = ("B", "W")

# Per cell: rays that miss the CP (their flips never depend on the call) and the one ray
# that crosses it, if any (at most one: a cell lies on at most one axis through the CP).
_PLAIN_RAYS: list[tuple[tuple[int, ...], ...]] = []
_CP_RAY: list[tuple[int, ...]] = []
for _i in range(N_CELLS):
    _plain = tuple(tuple(1 << j for j in r) for r in RAYS[_i] if CP not in r)
    _cross = [tuple(1 << j for j in r) for r in RAYS[_i] if CP in r]
    _PLAIN_RAYS.append(_plain)
    _CP_RAY.append(_cross[0] if _cross else ())
PLAIN_RAYS = tuple(_PLAIN_RAYS)
CP_RAY = tuple(_CP_RAY)


def _run(me: int, op: int, ray: tuple[int, ...]) -> int:
    """The opponent run this ray flanks (0 if none): an empty cell or the edge ends it."""
    run = 0
    for b in ray:
        if op & b:
            run |= b
        elif me & b:
            return run
        else:
            return 0
    return 0


def plain_flips(me: int, op: int, cell: int) -> int:
    """Flips along the rays that miss the CP: the same whatever colour is called."""
    flips = 0
    for ray in PLAIN_RAYS[cell]:
        run = 0
        for b in ray:
            if op & b:
                run |= b
            elif me & b:
                flips |= run
                break
            else:
                break
    return flips


def cp_ray_flips(me: int, op: int, cell: int, cp_mine: bool) -> int:
    """Flips along the ray through the CP, the CP read as the called colour (seed §5②):
    read as the opponent's it is part of the run (and flips, CP bit set in the result);
    read as one's own it closes the run."""
    ray = CP_RAY[cell]
    if not ray:
        return 0
    if cp_mine:
        return _run(me | CP_BIT, op, ray)
    return _run(me, op | CP_BIT, ray)


def enclosed_groups(me: int, op: int, changed: int) -> int:
    """Opponent groups this move captures (seed §4③④), as a mask (the CP bit included when
    the CP holds the opponent's colour and is taken).

    A group is taken when it has no empty neighbour and no neighbour off the board (so it
    lies within the 13 interior cells: the edge never encloses), and at least one bordering
    cell other than the CP changed during this move (an old enclosure stays protected)."""
    touched = 0
    c = changed & ~CP_BIT
    while c:
        low = c & -c
        touched |= NEIGHBOUR_MASK[low.bit_length() - 1]
        c ^= low
    # only a group next to a changed cell can be newly enclosed
    candidates = op & INTERIOR & touched
    taken = 0
    filled = me | op
    while candidates:
        group = frontier = candidates & -candidates
        border = 0
        while frontier:
            nb = 0
            f = frontier
            while f:
                low = f & -f
                nb |= NEIGHBOUR_MASK[low.bit_length() - 1]
                f ^= low
            border |= nb
            frontier = nb & op & ~group
            group |= frontier
        candidates &= ~group
        border &= ~group
        if group & ~INTERIOR:
            continue  # touches a cell with an off-board neighbour: the wall does not enclose
        if border & ~filled:
            continue  # a liberty
        if not border & changed & ~CP_BIT:
            continue  # already surrounded before this move: protected
        taken |= group
    return taken


class Result(NamedTuple):
    """One move's effect for the mover: new boards (CP empty), flips (CP counted) and the
    stones captured (the CP counted 1)."""

    me: int
    op: int
    flips: int
    captured: int


def resolve(me: int, op: int, cell: int, cp_mine: bool, plain: int | None = None) -> Result:
    """Play ``cell`` with the CP called as the mover's colour (``cp_mine``) or the
    opponent's, in the app's order: place, colour the CP, flip, capture, empty the CP."""
    place = 1 << cell
    if plain is None:
        plain = plain_flips(me, op, cell)
    flips = plain | cp_ray_flips(me, op, cell, cp_mine)
    changed = place | (flips & ~CP_BIT)
    cp_is_mine = cp_mine or bool(flips & CP_BIT)
    me1 = me | changed
    op1 = op & ~flips
    if cp_is_mine:
        me1 |= CP_BIT
    else:
        op1 |= CP_BIT
    taken = enclosed_groups(me1, op1, changed) if op1 & INTERIOR else 0
    op1 &= ~taken
    return Result(me1 & STONE_CELLS, op1 & STONE_CELLS, flips.bit_count(), taken.bit_count())


def key(black: int, white: int) -> int:
    """A position's identity for ko: the 37 cells only (side to move and captures ignored)."""
    return black | (white << N_CELLS)


def empty_cells(black: int, white: int) -> int:
    return STONE_CELLS & ~(black | white)


class CellOption(NamedTuple):
    """What one empty cell offers the mover: per called colour (index BLACK/WHITE) the
    result, or ``None`` where that call flips nothing."""

    cell: int
    by_colour: tuple[Result | None, Result | None]

    @property
    def valid(self) -> tuple[int, ...]:
        return tuple(c for c in (BLACK, WHITE) if self.by_colour[c] is not None)

    @property
    def call_matters(self) -> bool:
        """The player is asked to call only when both colours flip something and leave
        different positions after the move."""
        b, w = self.by_colour
        return b is not None and w is not None and (b.me, b.op) != (w.me, w.op)

    @property
    def auto(self) -> int:
        """The automatic colour: larger flips + captures, ties to Black."""
        b, w = self.by_colour
        if b is None:
            return WHITE
        if w is None:
            return BLACK
        return WHITE if w.flips + w.captured > b.flips + b.captured else BLACK


def cell_option(me: int, op: int, mover: int, cell: int) -> CellOption | None:
    """The options at ``cell`` for ``mover``, or ``None`` if no call makes it flip."""
    plain = plain_flips(me, op, cell)
    results: list[Result | None] = [None, None]
    for colour in (BLACK, WHITE):
        cp_mine = colour == mover
        if plain or cp_ray_flips(me, op, cell, cp_mine):
            results[colour] = resolve(me, op, cell, cp_mine, plain)
    if results[0] is None and results[1] is None:
        return None
    return CellOption(cell, (results[0], results[1]))


def near(op: int) -> int:
    """Cells next to an opponent stone or to the CP: the only cells that can flank (the CP
    may be read as the opponent's colour)."""
    mask = NEIGHBOUR_MASK[CP]
    while op:
        low = op & -op
        mask |= NEIGHBOUR_MASK[low.bit_length() - 1]
        op ^= low
    return mask


def cell_options(black: int, white: int, mover: int) -> list[CellOption]:
    """Every playable cell for ``mover`` (seed §4①: a stone must flank something), in
    cell order."""
    me, op = (black, white) if mover == BLACK else (white, black)
    out = []
    empty = empty_cells(black, white) & near(op)
    while empty:
        low = empty & -empty
        empty ^= low
        opt = cell_option(me, op, mover, low.bit_length() - 1)
        if opt is not None:
            out.append(opt)
    return out


def has_playable(black: int, white: int, mover: int) -> bool:
    """Whether ``mover`` can place anywhere (cheaper than :func:`cell_options`)."""
    me, op = (black, white) if mover == BLACK else (white, black)
    empty = empty_cells(black, white) & near(op)
    while empty:
        low = empty & -empty
        empty ^= low
        cell = low.bit_length() - 1
        if (plain_flips(me, op, cell) or cp_ray_flips(me, op, cell, True)
                or cp_ray_flips(me, op, cell, False)):
            return True
    return False


def boards_after(black: int, white: int, mover: int, res: Result) -> tuple[int, int]:
    """``(black, white)`` after a resolved move."""
    return (res.me, res.op) if mover == BLACK else (res.op, res.me)


__all__ = [
    "ALL", "BLACK", "WHITE", "COLOUR_LETTER", "CellOption", "Result", "boards_after",
    "cell_option", "cell_options", "cp_ray_flips", "empty_cells", "enclosed_groups",
    "has_playable", "key", "near", "plain_flips", "resolve",
]
