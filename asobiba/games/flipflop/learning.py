"""What ``asobiba train flipflop`` learns from (``asobiba.learn.spec.LearningSpec``): the
**5×5 board only** (the manifest's ``learning`` field is per game; the 3×3 board is solved,
its level 5 plays perfectly and has nothing to learn).

A position is two integers seen by the side to move, **turned so that the mover's first row
is at the bottom** (rank 1: it defends c1 = square 2 and attacks c5 = square 22), as the
endgame tables see it (``tables.py``): the rules are unchanged by turning the board and
swapping the colours, so White to move and Black to move share what is learned. Each
integer holds its side's pieces (bits 0–24, square = rank·5 + file) and, above them, which of
them show the × (bishop) face (bits 25–49); the mover's integer also counts the plies played
(bits 50+), for the cap below.

A cell has **five** values for the tables: 0 empty, 1 the mover's + (rook), 2 the mover's ×
(bishop), 3 the opponent's +, 4 the opponent's × (``Layout.values = 5``).

**The end and the result** (chosen here; docs/learning.md § FlipFlop 5×5), for the mover:
the rules' own ends first — it holds the goal it attacks (the opponent did not retake): +1;
it has no legal move: −1 — then the **endgame tables**: a position with at most 5 pieces
(each side ≥ 1) is over for learning, worth its exact value (win +1, loss −1, draw 0), since
the level plays perfectly there and never asks the tables about such a position; then the
**draw**: the rules' third repetition needs the game's history, which a position of two
integers does not carry, so a self-play game still going after :data:`MAX_PLIES` plies is
a draw, 0 (every repetition draw of self-play ends there; a real game of level 5 against
level 4 lasts about 25 plies).

The patterns (:data:`FF_SHAPES`) are shared over the board's one symmetry besides the
identity, the left↔right mirror (the goals are on the centre file), with tied entries
(``Layout.tie``), so a position and its mirror image have exactly the same value. Turning the
board upside down is not a symmetry of a position seen by its mover (one side attacks up).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...learn.ntuple import Layout, Shape
from ...learn.spec import Pos
from . import board as bd
from . import tables as tb
from .game import GAME

N = 5
SQUARES = N * N
MASK = (1 << SQUARES) - 1
FACE_SHIFT = 25
PLY_SHIFT = 50
MAX_PLIES = 100
"""A self-play game not over after this many plies is a draw (standing for the repetition
rule, which needs the history)."""
ATTACK = 22   # c5, relative to the side to move
HOME = 2      # c1
TABLE_PIECES = 5
"""Positions with at most this many pieces are over for learning: the shipped endgame
tables know them (``tables.SHIPPED``). Not the built 6-piece layer, even where it is on
disk: a training command must give the same tables on every machine."""
GEO = bd.GEOMETRY[N]
WIN, DRAW, LOSS = 1.0, 0.0, -1.0


def _sq(name: str) -> int:
    return (int(name[1]) - 1) * N + bd.FILES.index(name[0])


def _cells(names: str) -> tuple[int, ...]:
    return tuple(_sq(n) for n in names.split())


MIRROR = tuple(s // N * N + N - 1 - s % N for s in range(SQUARES))
SYMMETRIES = (tuple(range(SQUARES)), MIRROR)
"""The identity and the left↔right mirror, each as square → image square."""

FF_SHAPES: tuple[Shape, ...] = (
    # the two goal zones: the square attacked (c5) or defended (c1), its neighbours on the
    # last/first two ranks and the centre square: who can reach, take, retake the goal
    ("attack", _cells("c5 b5 d5 c4 b4 d4 c3")),
    ("defence", _cells("c1 b1 d1 c2 b2 d2 c3")),
    # every rank and file (a rook's lines; a file and its mirror share one table)
    *((f"rank{r + 1}", tuple(r * N + f for f in range(N))) for r in range(N)),
    *((f"file{bd.FILES[f]}", tuple(r * N + f for r in range(N))) for f in range(3)),
    # the long diagonals and those of four squares (a bishop's lines)
    ("diag5", _cells("a1 b2 c3 d4 e5")),
    ("diag4a", _cells("a2 b3 c4 d5")),
    ("diag4b", _cells("b1 c2 d3 e4")),
    # 2×3 and 3×2 blocks everywhere (mirror images share a table): pieces next to each other
    *((f"wide{r + 1}{bd.FILES[f]}", tuple((r + dr) * N + f + df for dr in range(2)
                                          for df in range(3)))
      for r in range(N - 1) for f in range(2)),
    *((f"tall{r + 1}{bd.FILES[f]}", tuple((r + dr) * N + f + df for dr in range(3)
                                          for df in range(2)))
      for r in range(N - 2) for f in range(2)),
)
"""FlipFlop 5×5's patterns, each shared with its mirror image."""


def flip(bits: int) -> int:
    """A 25-square bitboard turned upside down (rank 1 ↔ rank 5)."""
    return ((bits & 0x1F) << 20 | (bits >> 5 & 0x1F) << 15 | (bits >> 10 & 0x1F) << 10
            | (bits >> 15 & 0x1F) << 5 | bits >> 20 & 0x1F)


def pack(mine: int, theirs: int, bishops: int, plies: int = 0) -> Pos:
    """A learning position from the mover's and the opponent's pieces (the mover's first
    row at the bottom) and the × faces."""
    return (mine | (mine & bishops) << FACE_SHIFT | plies << PLY_SHIFT,
            theirs | (theirs & bishops) << FACE_SHIFT)


def unpack(pos: Pos) -> tuple[int, int, int, int]:
    """``(mine, theirs, bishops, plies)``."""
    p, o = pos
    return (p & MASK, o & MASK, (p >> FACE_SHIFT | o >> FACE_SHIFT) & MASK, p >> PLY_SHIFT)


def from_state(white: int, black: int, bishops: int, turn: int, plies: int = 0) -> Pos:
    """The learning position of an engine position (White's or Black's turn)."""
    if turn == bd.WHITE:
        return pack(white, black, bishops, plies)
    return pack(flip(black), flip(white), flip(bishops), plies)


def planes(white: int, black: int, bishops: int, turn: int) -> tuple[int, int, int, int]:
    """The four bit planes the tables read (``NTuple.value_planes``), seen by the mover:
    its + pieces, its × pieces, the opponent's +, the opponent's ×."""
    if turn == bd.WHITE:
        mine, theirs, x = white, black, bishops
    else:
        mine, theirs, x = flip(black), flip(white), flip(bishops)
    return (mine & ~x, mine & x, theirs & ~x, theirs & x)


def cells(positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
    """(n, 25) cells: 0 empty, 1/2 the mover's +/×, 3/4 the opponent's +/×."""
    raw = np.array([v & ((1 << PLY_SHIFT) - 1) for pos in positions for v in pos],
                   dtype=np.uint64)
    bits = np.unpackbits(raw.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    both = bits[:, :2 * SQUARES].reshape(len(positions), 2, 2, SQUARES).astype(np.int64)
    # both[:, side, 0] = a piece, both[:, side, 1] = its × face
    out: npt.NDArray[np.int64] = (both[:, 0, 0] * (1 + both[:, 0, 1])
                                  + both[:, 1, 0] * (3 + both[:, 1, 1]))
    return out


def _table_value(mine: int, theirs: int, x: int) -> float | None:
    """The endgame tables' value for the mover of a position with ≤ 5 pieces (None above,
    or when the tables are not on disk)."""
    if not (mine and theirs) or (mine | theirs).bit_count() > TABLE_PIECES:
        return None
    tab = tb.load()
    if tab is None or not tab.covers(mine, theirs):
        return None
    value, _ = tab.lookup(mine, theirs, x, bd.WHITE)
    return WIN if value == tb.WIN else LOSS if value == tb.LOSS else DRAW


def _end(pos: Pos) -> float | None:
    """The value of a position that is over for learning, for its mover; None if not."""
    mine, theirs, x, plies = unpack(pos)
    if mine >> ATTACK & 1:
        return WIN  # it holds the goal it attacks: the opponent did not retake
    if not bd.mobility(GEO, mine, theirs, x):
        return LOSS  # no legal move
    table = _table_value(mine, theirs, x)
    if table is not None:
        return table
    if plies >= MAX_PLIES:
        return DRAW
    return None


class FlipFlopLearning:
    game_id = GAME.id
    rules_version = GAME.rules_version

    def layout(self, phases: int) -> Layout:
        return Layout(FF_SHAPES, 0, phases, SQUARES, SYMMETRIES, tie=True, values=5)

    def start(self) -> Pos:
        white, black, bishops, _ = bd.start_position(N)
        return pack(white, black, bishops)

    def children(self, pos: Pos) -> list[Pos]:
        if _end(pos) is not None:
            return []
        mine, theirs, x, plies = unpack(pos)
        out = []
        for move in bd.move_ints(GEO, mine, theirs, x):
            w, b, x2, _ = bd.play_int((mine, theirs, x, bd.WHITE), move)
            # the opponent moves next: turn the board so its first row is at the bottom
            out.append(pack(flip(b), flip(w), flip(x2), plies + 1))
        return out

    def finished(self, pos: Pos) -> bool:
        return _end(pos) is not None

    def result(self, pos: Pos) -> float:
        value = _end(pos)
        if value is None:
            raise ValueError("result asked of a position that is not over")
        return value

    def cells(self, positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
        return cells(positions)

    def known(self, positions: Sequence[Pos]) -> npt.NDArray[np.float64]:
        return np.zeros(len(positions))


SPEC = FlipFlopLearning()
