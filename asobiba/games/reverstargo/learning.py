"""What ``asobiba train reverstargo`` learns from (``asobiba.learn.spec.LearningSpec``).

A position is two integers seen by the side to move: the low 37 bits are the mover's and the
opponent's stones (bit i = cell i of ``board.CELLS``; the CP, bit 0, is always empty between
moves), and above them each keeps its stones captured (bits 40–47) and the mover's integer
the record entries played so far (bits 48+), because the score counts captured stones and the
game ends after 81 entries. Self-play follows the rules as the search sees them below its
root (``search.py``): both CP calls where they leave different positions, passes as moves,
the end when neither side can place or after 81 entries; **ko is not applied** (as in the
search's tree; the 81-entry cap ends any cycle).

The value is the final score difference for the mover (stones on the board + stones
captured, each side), with ½ to the side with more captures when the totals are equal (the
rules' tie-break). The stones already captured are part of it for certain
(:meth:`ReverStarGoLearning.known`); the tables learn the rest from the board.

The patterns (:data:`RSG_SHAPES`) follow the star's geometry, and every one is shared over
the hexagon's twelve symmetries (:data:`SYMMETRIES`: six rotations, each with and without a
reflection), under which the rules are unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...learn.ntuple import Layout, Shape
from ...learn.spec import Pos
from .board import CUBES, INDEX, N_CELLS, Cube
from .game import GAME, START_BLACK, START_WHITE
from .rules import BLACK, cell_options, has_playable

STONES = (1 << N_CELLS) - 1
CAPT_SHIFT = 40
ENTRY_SHIFT = 48
MAX_ENTRIES = 81  # the app's safety cap (docs/rules/reverstargo.md § 6)


def _rotate(c: Cube) -> Cube:
    """60° about the CP."""
    return (-c[1], -c[2], -c[0])


def _reflect(c: Cube) -> Cube:
    """The mirror through the axis of A1/A7 (r and s swapped)."""
    return (c[0], c[2], c[1])


def _symmetries() -> tuple[tuple[int, ...], ...]:
    at = {c: i for i, c in enumerate(CUBES)}
    out = []
    for mirror in (False, True):
        for turns in range(6):
            perm = []
            for c in CUBES:
                if mirror:
                    c = _reflect(c)
                for _ in range(turns):
                    c = _rotate(c)
                perm.append(at[c])
            out.append(tuple(perm))
    return tuple(out)


SYMMETRIES = _symmetries()
"""The star's twelve symmetries, each as cell → image cell (the identity first)."""


def _cells(names: str) -> tuple[int, ...]:
    return tuple(INDEX[n] for n in names.split())


RSG_SHAPES: tuple[Shape, ...] = (
    # a star point with the B cells it protects and the A cells behind them: the tip, both
    # C cells, the interior B cell they make capturable, the two edge B corners and the
    # nearest C cell of each neighbouring point (whose lines cross the corners)
    ("arm", _cells("DQ CQ C1 BQ B1 BJ A1 AJ C2 CJ")),
    # the capture zone: the A ring around the CP and every other interior B cell (the two
    # images cover all twelve interior stone cells); the go part of the rules lives here
    ("core", _cells("A1 A3 A5 A7 A9 AJ BQ B4 B8")),
    # a hexagon corner with its neighbours: where the edge, two arms and the interior meet
    ("corner", _cells("B1 C1 C2 BQ B2 A1 AJ A3")),
    # the three kinds of line along the board's axes (flips run along them)
    ("line7", _cells("DQ C1 B1 B2 B3 C4 D4")),  # tip to tip along the hexagon's edge
    ("line6", _cells("CQ BQ A1 A3 B4 C5")),  # star point to star point past the ring
    ("axis", _cells("BJ AJ A5 B5")),  # corner to corner through the CP (the CP left out)
)
"""ReverStarGo's patterns, each shared over the star's twelve symmetries."""


def pack(me: int, op: int, cap_me: int, cap_op: int, entries: int) -> Pos:
    """A learning position from the mover's and the opponent's stones and captures."""
    return (me | cap_me << CAPT_SHIFT | entries << ENTRY_SHIFT, op | cap_op << CAPT_SHIFT)


def unpack(pos: Pos) -> tuple[int, int, int, int, int]:
    """``(me, op, captured by me, captured by op, entries)``."""
    p, o = pos
    return (p & STONES, o & STONES, (p >> CAPT_SHIFT) & 0xFF, (o >> CAPT_SHIFT) & 0xFF,
            p >> ENTRY_SHIFT)


def cells(positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
    """(n, 37) cells: 1 the mover's stone, 2 the opponent's, 0 empty (the CP first)."""
    raw = np.array([v & STONES for pos in positions for v in pos], dtype=np.uint64)
    bits = np.unpackbits(raw.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    both = bits[:, :N_CELLS].reshape(len(positions), 2, N_CELLS).astype(np.int64)
    out: npt.NDArray[np.int64] = both[:, 0] + 2 * both[:, 1]
    return out


def score_value(me: int, op: int, cap_me: int, cap_op: int) -> float:
    """A finished position's value for its mover: the score difference, ½ towards the side
    with more captures when the totals are equal."""
    diff = me.bit_count() + cap_me - op.bit_count() - cap_op
    if diff == 0 and cap_me != cap_op:
        return 0.5 if cap_me > cap_op else -0.5
    return float(diff)


class ReverStarGoLearning:
    game_id = GAME.id
    rules_version = GAME.rules_version

    def layout(self, phases: int) -> Layout:
        return Layout(RSG_SHAPES, 0, phases, N_CELLS, SYMMETRIES, tie=True)

    def start(self) -> Pos:
        return pack(START_BLACK, START_WHITE, 0, 0, 0)

    def children(self, pos: Pos) -> list[Pos]:
        me, op, cm, co, n = unpack(pos)
        if n >= MAX_ENTRIES:
            return []
        out = []
        for opt in cell_options(me, op, BLACK):  # the mover as Black: res.me is the mover
            colours = opt.valid if opt.call_matters else (opt.auto,)
            for c in colours:
                res = opt.by_colour[c]
                assert res is not None
                out.append(pack(res.op, res.me, co, cm + res.captured, n + 1))
        if out:
            return out
        if has_playable(op, me, BLACK):
            return [pack(op, me, co, cm, n + 1)]  # a pass is an entry
        return []

    def finished(self, pos: Pos) -> bool:
        me, op, _, _, n = unpack(pos)
        return n >= MAX_ENTRIES or not (has_playable(me, op, BLACK)
                                        or has_playable(op, me, BLACK))

    def result(self, pos: Pos) -> float:
        me, op, cm, co, _ = unpack(pos)
        return score_value(me, op, cm, co)

    def cells(self, positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
        return cells(positions)

    def known(self, positions: Sequence[Pos]) -> npt.NDArray[np.float64]:
        return np.array([float(((p >> CAPT_SHIFT) & 0xFF) - ((o >> CAPT_SHIFT) & 0xFF))
                         for p, o in positions])


SPEC = ReverStarGoLearning()
