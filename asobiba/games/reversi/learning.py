"""What ``asobiba train reversi`` learns from (``asobiba.learn.spec.LearningSpec``): bitboard
pairs seen by the side to move, the pattern set :data:`REVERSI_SHAPES`,
and the final disc difference as the value (empty squares are not given to the winner: the
game's own scoring)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...learn.ntuple import Layout, Shape
from ...learn.spec import Pos
from . import bitboard as bb
from .game import GAME, parse_square


def _squares(names: str) -> tuple[int, ...]:
    return tuple(parse_square(n) for n in names.split())


REVERSI_SHAPES: tuple[Shape, ...] = (
    # the edge with both X-squares (Edax's "edge + 2X")
    ("edge2x", _squares("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2")),
    # a corner's 2×5 block
    ("corner2x5", _squares("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2")),
    # a corner's 3×3 block
    ("corner3x3", _squares("a1 b1 c1 a2 b2 c2 a3 b3 c3")),
    ("row2", _squares("a2 b2 c2 d2 e2 f2 g2 h2")),
    ("row3", _squares("a3 b3 c3 d3 e3 f3 g3 h3")),
    ("row4", _squares("a4 b4 c4 d4 e4 f4 g4 h4")),
    ("diag8", _squares("a1 b2 c3 d4 e5 f6 g7 h8")),
    ("diag7", _squares("a2 b3 c4 d5 e6 f7 g8")),
    ("diag6", _squares("a3 b4 c5 d6 e7 f8")),
    ("diag5", _squares("a4 b5 c6 d7 e8")),
    ("diag4", _squares("a5 b6 c7 d8")),
)
"""Reversi's patterns: Edax's and Logistello's classic set (edges, corners, lines and
diagonals), every one shared over the board's eight symmetries."""




def cells(positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
    """(n, 64) cells: 1 the mover's disc, 2 the opponent's, 0 empty (a1 first)."""
    raw = np.array([v for pos in positions for v in pos], dtype=np.uint64)
    bits = np.unpackbits(raw.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
    both = bits.reshape(len(positions), 2, 64).astype(np.int64)
    out: npt.NDArray[np.int64] = both[:, 0] + 2 * both[:, 1]
    return out


def cell_vector(p: int, o: int) -> npt.NDArray[np.int64]:
    """One position's cells (as :func:`cells`), for the search's leaves."""
    raw = np.frombuffer(p.to_bytes(8, "little") + o.to_bytes(8, "little"), dtype=np.uint8)
    bits = np.unpackbits(raw, bitorder="little").astype(np.int64)
    out: npt.NDArray[np.int64] = bits[:64] + 2 * bits[64:]
    return out


class ReversiLearning:
    game_id = GAME.id
    rules_version = GAME.rules_version

    def layout(self, phases: int) -> Layout:
        return Layout(REVERSI_SHAPES, 8, phases, 64)

    def start(self) -> Pos:
        return bb.BLACK_START, bb.WHITE_START

    def children(self, pos: Pos) -> list[Pos]:
        p, o = pos
        mask = bb.legal_mask(p, o)
        if not mask:
            return [(o, p)] if bb.legal_mask(o, p) else []
        out = []
        for sq in bb.squares(mask):
            f = bb.flips(p, o, sq)
            out.append((o ^ f, p | f | (1 << sq)))
        return out

    def finished(self, pos: Pos) -> bool:
        p, o = pos
        return not bb.legal_mask(p, o) and not bb.legal_mask(o, p)

    def result(self, pos: Pos) -> float:
        return float(pos[0].bit_count() - pos[1].bit_count())

    def cells(self, positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
        return cells(positions)

    def known(self, positions: Sequence[Pos]) -> npt.NDArray[np.float64]:
        return np.zeros(len(positions))  # the discs on the board are the whole score


SPEC = ReversiLearning()
