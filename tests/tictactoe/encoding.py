"""Tic-tac-toe for the learning environments: the one file a game adds to get PettingZoo,
Gymnasium and OpenSpiel environments (tests/envs/test_plugin.py proves it). Action = the
cell index of the move (``game.py``'s numbering); the observation is seat-relative."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from asobiba.core import Game, State
from asobiba.envs.codec import Codec as _Base
from asobiba.envs.codec import Field

from .game import MARKS, square_name

_CELL = {square_name(i): i for i in range(9)}


class Codec(_Base):
    def __init__(self, game: Game, options: Mapping[str, Any]) -> None:
        super().__init__(game, options)
        self.num_actions = 9
        self.fields = (Field("mine", 9, "1 where the viewing seat has a mark"),
                       Field("theirs", 9, "1 where the opponent has a mark"))

    def _cells(self, view: Mapping[str, Any]) -> np.ndarray:
        # the view lists rows from the top (row 3) down; cell i is 3 * row + column
        return np.array(list("".join(reversed(view["board"]))))

    def encode(self, view: Mapping[str, Any]) -> dict[str, Any]:
        cells = self._cells(view)
        me = MARKS[view["seat"]]
        return {"mine": cells == me, "theirs": (cells != me) & (cells != ".")}

    def action(self, text: str, view: Mapping[str, Any]) -> int | None:
        return _CELL.get(text)

    def legal_actions(self, state: State, seat: int) -> dict[int, Any]:
        return {int(m): m for m in self.moves(state, seat)}
