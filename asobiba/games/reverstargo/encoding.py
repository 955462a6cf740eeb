"""ReverStarGo for the learning environments (asobiba.envs): 75 actions.

Action ``2 * cell + call`` places a stone on ``cell`` (0..36 in the app's label order,
``board.LABELS``: CP, A1 … DX) with the Core Point call ``call`` (0 = Black, 1 = White);
where the call does not matter the game's automatic call is the one legal action. Action 74
is the pass (``--``). The observation is seat-relative.

``observe_state`` reads the stone bitboards (bit ``i`` = cell ``i`` in label order), the
previous position's key and the captures: all of it shown by the view.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...core.views import own_seat
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, bit_values
from .board import INDEX, N_CELLS, STONE_CELLS
from .game import EXCEPTION, PASS_CELL, Move, ReverStarGoState
from .views import reverstargo_view

PASS_ACTION = 2 * N_CELLS


class Codec(_Base[Move]):
    max_game_length = 200  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        self.num_actions = PASS_ACTION + 1
        self.fields = (
            Field("mine", N_CELLS, "1 where the viewing seat has a stone (board.LABELS order)"),
            Field("theirs", N_CELLS, "1 where the opponent has a stone"),
            Field("previous_mine", N_CELLS, "the viewing seat's stones before the last move"),
            Field("previous_theirs", N_CELLS, "the opponent's stones before the last move"),
            Field("captured", 2, "stones captured by the viewing seat and the opponent, / 36"),
            Field("exception", 1, "1 in the exception mode (every cell ko-blocked)"),
            Field("my_turn", 1, "1 when the viewing seat is to move"),
        )

    def observe_state(self, state: State[Move], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, ReverStarGoState):
            return super().observe_state(state, seat)
        n = N_CELLS
        black, white = state.black, state.white
        prev = state.previous
        pb, pw = (0, 0) if prev is None else (prev & STONE_CELLS, prev >> n)
        # as the view's board text: a cell reads B if black, else W if white
        mine, theirs = (black, white & ~black) if seat == 0 else (white & ~black, black)
        pmine, ptheirs = (pb, pw & ~pb) if seat == 0 else (pw & ~pb, pb)
        out = np.empty(4 * n + 4, np.float32)
        out[:4 * n] = bit_values(mine | theirs << n | pmine << 2 * n | ptheirs << 3 * n, 4 * n)
        captured = state.captured
        out[4 * n] = captured[seat] / 36
        out[4 * n + 1] = captured[1 - seat] / 36
        out[4 * n + 2] = state.mode == EXCEPTION
        out[4 * n + 3] = state.to_move == seat
        return out

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        view = reverstargo_view(view)
        me = "B" if view["seat"] == 0 else "W"
        them = "W" if me == "B" else "B"
        board = np.array(list(view["board"]))
        prev = np.array(list(view["previous"] or "." * N_CELLS))
        captured = view["captured"]
        seat = own_seat(view)
        return {
            "mine": board == me, "theirs": board == them,
            "previous_mine": prev == me, "previous_theirs": prev == them,
            "captured": [captured[seat] / 36, captured[1 - seat] / 36],
            "exception": [view["mode"] == "exception"],
            "my_turn": [view["to_move"] == seat],
        }

    def action(self, text: str, view: JSONMapping) -> int | None:
        view = reverstargo_view(view)
        if text == "--":
            return PASS_ACTION
        label, _, call = text.partition("[")
        if call:
            colour = "BW".index(call[0])
        else:
            colour = "BW".index(view["indicators"][label]["auto"])
        return 2 * INDEX[label] + colour

    def legal_actions(self, state: State[Move], seat: int) -> dict[int, Move]:
        return {PASS_ACTION if m[0] == PASS_CELL else 2 * m[0] + m[1]: m
                for m in self.moves(state, seat)}
