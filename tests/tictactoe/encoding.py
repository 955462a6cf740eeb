"""Tic-tac-toe for the learning environments: the one file a game adds to get PettingZoo,
Gymnasium and OpenSpiel environments (tests/envs/test_plugin.py proves it). Action = the
cell index of the move (``game.py``'s numbering); the observation is seat-relative."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asobiba.core import Game, State
from asobiba.core.jsontypes import JSONMapping
from asobiba.envs.codec import Codec as _Base
from asobiba.envs.codec import Field

from .game import MARKS, square_name

_CELL = {square_name(i): i for i in range(9)}


class Codec(_Base[int]):
    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        self.num_actions = 9
        self.fields = (Field("mine", 9, "1 where the viewing seat has a mark"),
                       Field("theirs", 9, "1 where the opponent has a mark"))

    def _cells(self, view: JSONMapping) -> NDArray[np.str_]:
        # the view lists rows from the top (row 3) down; cell i is 3 * row + column
        return np.array(list("".join(reversed(view["board"]))))

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        cells = self._cells(view)
        me = MARKS[view["seat"]]
        return {"mine": cells == me, "theirs": (cells != me) & (cells != ".")}

    def action(self, text: str, view: JSONMapping) -> int | None:
        return _CELL.get(text)

    def legal_actions(self, state: State[int], seat: int) -> dict[int, int]:
        return {int(m): m for m in self.moves(state, seat)}
