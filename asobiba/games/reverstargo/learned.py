"""ReverStarGo's learned level: FINAL's search (iterative deepening, transposition table, both
CP calls below the root, exact endgame, the same 2-second clock) with the n-tuple evaluation
learned by self-play (``asobiba train reverstargo``; docs/learning.md) at the horizon in
place of FINAL's hand-written one. Needs NumPy (the ``learned`` extra): this module is
imported only when the level is asked for, and says which extra is missing."""

from __future__ import annotations

import functools
from pathlib import Path

from ...core.extras import require

require("learned", "ReverStarGo's learned level (a learned evaluation)")

from ...learn.ntuple import NTuple  # noqa: E402
from .bots import FINAL_LIMIT, MAX_DEPTH, SearchBot  # noqa: E402
from .rules import BLACK  # noqa: E402
from .search import AlphaBeta, Node  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent / "weights" / "ntuple-v1.npz"
"""The shipped tables (their metadata inside: the command and seed that made them)."""


@functools.cache
def shipped() -> NTuple:
    """The shipped tables, read once per process."""
    return NTuple.load(WEIGHTS)


def learned_evaluation(model: NTuple, node: Node) -> float:
    """The expected final score difference for the side to move: the stones it has captured
    minus the opponent's (certain) plus the tables' estimate of the rest from the board."""
    black, white, cb, cw, turn = node
    if turn == BLACK:
        return model.value_bitboards(black, white) + (cb - cw)
    return model.value_bitboards(white, black) + (cw - cb)


class LearnedBot(SearchBot):
    """FINAL's search and clock (1.5 s of iterative deepening, MAX's 7 plies completed past
    it within the 2-second limit of a move, exact at ≤ 14 empty cells) with the learned
    evaluation."""

    def __init__(self, seed: int = 0, model: NTuple | None = None,
                 time_limit: float | None = 1.5, move_limit: float | None = FINAL_LIMIT,
                 min_depth: int = MAX_DEPTH, depth: int = 30) -> None:
        super().__init__("learned", seed, depth=depth, time_limit=time_limit,
                         endgame_empties=14, min_depth=min_depth, move_limit=move_limit)
        tables = model if model is not None else shipped()
        self.model = tables
        self.engine = AlphaBeta(lambda n: learned_evaluation(tables, n), endgame_empties=14)
