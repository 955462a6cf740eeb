"""Connect Four for the learning environments (PettingZoo, Gymnasium, OpenSpiel): action =
the column 0–6; the observation, seat-relative, is the grid's cells (bottom row first) of
the viewing seat and of the opponent."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asobiba.core import Game, State
from asobiba.core.jsontypes import JSONMapping
from asobiba.envs.codec import Codec as _Base
from asobiba.envs.codec import Field

from .game import COLS, DISCS, FILES, ROWS


class Codec(_Base[int]):
    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        self.num_actions = COLS
        self.fields = (Field("mine", ROWS * COLS, "1 where the viewing seat has a disc"),
                       Field("theirs", ROWS * COLS, "1 where the opponent has a disc"))

    def _cells(self, view: JSONMapping) -> NDArray[np.str_]:
        return np.array(list("".join(reversed(view["board"]))))  # bottom row first

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        cells = self._cells(view)
        seat = view.get("seat")
        me = DISCS[seat if isinstance(seat, int) else 0]
        return {"mine": cells == me, "theirs": (cells != me) & (cells != ".")}

    def action(self, text: str, view: JSONMapping) -> int | None:
        return FILES.index(text) if len(text) == 1 and text in FILES else None

    def legal_actions(self, state: State[int], seat: int) -> dict[int, int]:
        return {int(m): m for m in self.moves(state, seat)}
