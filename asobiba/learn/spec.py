"""What learning needs from a game: positions as pairs of integers seen from the side to move,
the positions one move later (a pass is a move), the result of a finished position, the cells
the patterns read, and the patterns themselves.

A game offers it as its manifest's ``learning`` reference (Reversi:
``asobiba/games/reversi/learning.py``); ``asobiba train`` finds it through the registry and
hands it to :func:`asobiba.learn.selfplay.train`, so this layer imports no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .ntuple import Layout

Pos = tuple[int, int]
"""(the mover's discs, the opponent's discs) as bitboards."""


class LearningSpec(Protocol):
    game_id: str
    rules_version: int

    def layout(self, phases: int) -> Layout:
        """The patterns and board of the game's n-tuple tables."""
        ...

    def start(self) -> Pos: ...

    def children(self, pos: Pos) -> Sequence[Pos]:
        """Every position one move later, seen by the next mover (a pass: the same discs
        swapped); empty when the game is over."""
        ...

    def finished(self, pos: Pos) -> bool:
        """Whether the game is over (cheaper than asking for the children)."""
        ...

    def result(self, pos: Pos) -> float:
        """A finished position's value for its mover (Reversi: the disc difference)."""
        ...

    def cells(self, positions: Sequence[Pos]) -> npt.NDArray[np.int64]:
        """One row of 0 (empty) / 1 (mover) / 2 (opponent) per position."""
        ...

    def known(self, positions: Sequence[Pos]) -> npt.NDArray[np.float64]:
        """The part of each position's value already certain, added to the tables' estimate
        (ReverStarGo: the difference of stones captured, which the board no longer shows;
        Reversi: 0). The tables learn the rest."""
        ...
