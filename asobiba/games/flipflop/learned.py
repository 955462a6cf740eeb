"""FlipFlop 5×5's level 6: level 5's search and clock (iterative deepening alpha-beta with a
transposition table, 1.8 s a move, perfect play inside the ≤ 5-piece endgame tables and their
exact values at every node) with the n-tuple evaluation learned by self-play (``asobiba train
flipflop``; docs/learning.md § FlipFlop 5×5) at the horizon in place of the hand-written one.
Needs NumPy (the ``learned`` extra): this module is imported only when the level is asked for,
and says which extra is missing."""

from __future__ import annotations

import functools
from pathlib import Path

from ...core.extras import require

require("learned", "FlipFlop 5×5's level 6 (a learned evaluation)")

from ...learn.ntuple import NTuple  # noqa: E402
from .learning import planes  # noqa: E402
from .search import FlipFlopAdapter, Weights  # noqa: E402
from .tables import EndgameTables  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent / "weights" / "ntuple-v3.npz"
"""The shipped tables (their metadata inside: the command and seed that made them)."""

SCALE = 1000.0
"""Search units per unit of the tables' value (the expected result for the mover, −1 … +1):
far inside the search's win scores (±100 000 less the distance)."""


@functools.cache
def shipped() -> NTuple:
    """The shipped tables, read once per process."""
    return NTuple.load(WEIGHTS)


class LearnedAdapter(FlipFlopAdapter):
    """Level 5's adapter — moves, forced retakes, ordering, the goal held and the endgame
    tables decided exactly, a side with no move lost, positions with the goal to retake never
    cut off — with the learned value where the hand-written score was."""

    def __init__(self, model: NTuple, salt: int = 0,
                 tables: EndgameTables | None = None) -> None:
        super().__init__(5, Weights(), salt, tables)
        self.model = model

    def _score(self, w: int, b: int, x: int, t: int, my_mobility: int) -> int:
        return round(SCALE * self.model.value_planes(planes(w, b, x, t)))
