"""Reversi level 7: the same alpha-beta as levels 1–6, with the n-tuple evaluation learned by
self-play (``asobiba train reversi``; docs/learning.md) at the horizon instead of the
hand-written square weights and mobility. Needs NumPy (the ``learned`` extra): this module is
imported only when level 7 is asked for, and says which extra is missing."""

from __future__ import annotations

import functools
from pathlib import Path

from ...core.extras import require

require("learned", "Reversi level 7 (a learned evaluation)")

from ...learn.ntuple import NTuple  # noqa: E402
from ...search.alphabeta import AlphaBeta  # noqa: E402
from .bots import AlphaBetaBot, Pos, ReversiAdapter  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent / "weights" / "ntuple-v1.npz"
"""The shipped tables (their metadata inside: the command and seed that made them)."""


@functools.cache
def shipped() -> NTuple:
    """The shipped tables, read once per process."""
    model = NTuple.load(WEIGHTS)
    return model


class LearnedAdapter(ReversiAdapter):
    """Reversi's search positions with the learned value (final disc difference expected for
    the side to move) at the horizon; finished positions keep their exact value."""

    def __init__(self, model: NTuple) -> None:
        self.model = model

    def evaluate(self, pos: Pos) -> float:
        return self.model.value_bitboards(pos[0], pos[1])


class LearnedBot(AlphaBetaBot):
    """Level 7: iterative deepening to ``depth`` plies with the learned evaluation, exact
    endgame at ``exact`` empties, within ``time_limit`` seconds a move."""

    def __init__(self, seed: int = 0, time_limit: float | None = 1.0, depth: int = 8,
                 exact: int = 12, model: NTuple | None = None) -> None:
        super().__init__(depth, seed, time_limit)
        self.level = "7"
        self.name = "reversi-learned"
        self.exact = exact
        self.searcher = AlphaBeta(LearnedAdapter(model if model is not None else shipped()))

    def endgame_from(self) -> int:
        return self.exact
