"""Reversi for the learning environments (asobiba.envs): 65 actions, 129 observation values.

Action ``8 * rank + file`` places a disc on that square (a1 = 0, h8 = 63); action 64 is the
forced pass. The observation is seat-relative, so one policy plays both colours. Planes: 3×8×8 (mine,
theirs, my_turn as a constant plane), row 0 = rank 1.

``observe_state``/``mask_state`` read the two bitboards and the cached legal moves — all of
it public, as the view shows it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, bit_values
from .game import PASS, ReversiState
from .views import reversi_view

PASS_ACTION = 64
_FILES = "abcdefgh"


class Codec(_Base[int]):
    max_game_length = 130  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        self.num_actions = 65
        self.fields = (
            Field("mine", 64, "1 where the viewing seat has a disc; index 8*rank+file (a1=0)",
                  planes=1),
            Field("theirs", 64, "1 where the opponent has a disc; same indexing", planes=1),
            Field("my_turn", 1, "1 when the viewing seat is to move"),
        )
        self.board_shape = (8, 8)

    def observe_state(self, state: State[int], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, ReversiState):
            return super().observe_state(state, seat)
        mine, theirs = (state.black, state.white) if seat == 0 else (state.white, state.black)
        out = np.empty(129, np.float32)
        out[:128] = bit_values(mine | theirs << 64, 128)
        out[128] = state.to_move == seat
        return out

    def mask_state(self, state: State[int], seat: int) -> NDArray[np.int8]:
        if not isinstance(state, ReversiState):
            return super().mask_state(state, seat)
        out = np.zeros(65, np.int8)
        moves = state._legal_tuple()
        if moves and state.turn == seat:
            if moves[0] == PASS:
                out[PASS_ACTION] = 1
            else:
                out[list(moves)] = 1
        return out

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        view = reversi_view(view)
        grid = np.array([list(r) for r in reversed(view["board"])])  # row 0 = rank 1
        me = "B" if view["seat"] == 0 else "W"
        them = "W" if me == "B" else "B"
        return {"mine": grid == me, "theirs": grid == them,
                "my_turn": [view["to_move"] == view["seat"]]}

    def action(self, text: str, view: JSONMapping) -> int | None:
        if text == "pass":
            return PASS_ACTION
        return 8 * (int(text[1]) - 1) + _FILES.index(text[0])

    def legal_actions(self, state: State[int], seat: int) -> dict[int, int]:
        return {PASS_ACTION if m == PASS else m: m for m in self.moves(state, seat)}

    def move_of(self, state: State[int], seat: int, action: int) -> int | None:
        move = PASS if action == PASS_ACTION else action
        return move if 0 <= action <= PASS_ACTION and move in self.moves(state, seat) else None

    # the lean path of OpenSpiel's playouts: the engine's own cached move tuple, already in
    # square order (the forced pass is the one move then)
    def listed_actions(self, state: State[int]) -> list[int] | None:
        if not isinstance(state, ReversiState):
            return None
        moves = state._moves
        if moves is None:
            moves = state._legal_tuple()
        return [PASS_ACTION] if moves == (PASS,) else list(moves)

    def listed_move(self, state: State[int], action: int) -> int | None:
        assert isinstance(state, ReversiState)
        moves = state._moves
        if moves is None:
            moves = state._legal_tuple()
        if action == PASS_ACTION:
            return PASS if moves == (PASS,) else None
        return action if 0 <= action < PASS_ACTION and action in moves else None
