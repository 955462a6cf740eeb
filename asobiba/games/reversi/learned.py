"""Reversi level 7: the same alpha-beta as levels 1–6, with the n-tuple evaluation learned by
self-play (``asobiba train reversi``; docs/learning.md) at the horizon instead of the
hand-written square weights and mobility. Needs NumPy (the ``learned`` extra): this module is
imported only when level 7 is asked for, and says which extra is missing."""

from __future__ import annotations

import functools
import time
from pathlib import Path

from ...core.extras import require

require("learned", "Reversi level 7 (a learned evaluation)")

from ...core.jsontypes import JSONMapping  # noqa: E402
from ...learn.ntuple import NTuple  # noqa: E402
from ...search.alphabeta import AlphaBeta, SearchResult  # noqa: E402
from .bots import AlphaBetaBot, Pos, ReversiAdapter  # noqa: E402
from .endgame import OutOfTime, Solver  # noqa: E402
from .views import reversi_view  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent / "weights" / "ntuple-v2.npz"
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
    endgame at ``exact`` empties, within ``time_limit`` seconds a move.

    From ``outcome`` empties the move first asks the dedicated endgame solver
    (:meth:`Solver.outcome`, win/loss/draw) for at most ``outcome_share`` of the move's
    budget: a proven win or draw is played at once; a proven loss, or a solve cut by its
    deadline, leaves the rest of the budget to the search (which plays the loss as the
    tables see best). Level 6 has no such step: it solves with the general alpha-beta from
    12 empties."""

    def __init__(self, seed: int = 0, time_limit: float | None = 1.0, depth: int = 8,
                 exact: int = 12, model: NTuple | None = None, outcome: int = 18,
                 outcome_share: float = 0.5) -> None:
        super().__init__(depth, seed, time_limit)
        self.level = "7"
        self.name = "reversi-learned"
        self.exact = exact
        self.outcome = outcome
        self.outcome_share = outcome_share
        self.searcher = AlphaBeta(LearnedAdapter(model if model is not None else shipped()))
        self.solved: tuple[int, int] | None = None
        """The last move's solver answer: (outcome, square), or None if it did not solve."""

    def endgame_from(self) -> int:
        return self.exact

    def choose(self, view: JSONMapping) -> str:
        view = reversi_view(view)
        started = time.perf_counter()
        legal = view["legal_moves"]
        self.solved = None
        if len(legal) == 1:
            return str(legal[0])
        state = self.game.state_from_view(view)
        mine, theirs = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        empties = 64 - (mine | theirs).bit_count()
        limit = self.clock.budget() if self.clock is not None else None
        # (without a time limit the solver waits for the exact endgame: unbounded otherwise)
        if empties <= (self.outcome if limit is not None else self.exact):
            deadline = started + self.outcome_share * limit if limit is not None else None
            try:
                sign, square = Solver(deadline).outcome(mine, theirs)
            except OutOfTime:
                sign, square = -1, -1
            else:
                self.solved = (sign, square)
            if sign >= 0:
                self.last_result = SearchResult(square, float(sign), empties, 0,
                                                complete=True, stopped="solved")
                if self.clock is not None:
                    self.clock.done(started)
                return state.move_text(square)
        return self.search_move(state, mine, theirs, limit, started)
