"""FlipFlop for the learning environments (asobiba.envs).

Action ``from * n² + to`` (squares numbered ``n * rank + file``, a1 = 0) moves the piece on
``from`` to ``to``; a capture is the same action (the target square says it). 81 actions on
3×3, 625 on 5×5. The observation is seat-relative. Planes: 8×n×n (the six board fields, then
repetitions and my_turn as constant planes), row 0 = rank 1.

``observe_state`` reads the bitboards, the goals and the position history (all public).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, bit_values
from .game import FlipFlopState
from .notation import FFMove, parse_move
from .views import flipflop_view


class Codec(_Base[FFMove]):
    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        self.n = int(str(self.options["board"])[0])
        cells = self.n * self.n
        self.num_actions = cells * cells
        self.fields = (
            Field("my_rooks", cells, "own pieces on their rook side, index n*rank+file (a1=0)",
                  planes=1),
            Field("my_bishops", cells, "own pieces on their bishop side", planes=1),
            Field("their_rooks", cells, "opponent pieces on their rook side", planes=1),
            Field("their_bishops", cells, "opponent pieces on their bishop side", planes=1),
            Field("my_goal", cells, "1 on the square the viewing seat must reach", planes=1),
            Field("their_goal", cells, "1 on the opponent's goal square", planes=1),
            Field("repetitions", 1, "times the current position has occurred, divided by 3",
                  high=1.0),
            Field("my_turn", 1, "1 when the viewing seat is to move"),
        )
        self.board_shape = (self.n, self.n)

    def observe_state(self, state: State[FFMove], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, FlipFlopState):
            return super().observe_state(state, seat)
        state._settle()
        cells = self.n * self.n
        mine, other = (state.white, state.black) if seat == 0 else (state.black, state.white)
        bishops = state.bishops
        geo = state.geometry
        boards = (mine & ~bishops | (mine & bishops) << cells | (other & ~bishops) << 2 * cells
                  | (other & bishops) << 3 * cells | 1 << (4 * cells + geo.goal_of(seat))
                  | 1 << (5 * cells + geo.goal_of(1 - seat)))
        out = np.empty(6 * cells + 2, np.float32)
        out[:6 * cells] = bit_values(boards, 6 * cells)
        out[6 * cells] = min(state.repetitions(), 3) / 3
        out[6 * cells + 1] = state.to_move == seat
        return out

    def mask_state(self, state: State[FFMove], seat: int) -> NDArray[np.int8]:
        out = np.zeros(self.num_actions, np.int8)
        if seat in state.acting_seats:
            cells = self.n * self.n
            out[[m.frm * cells + m.to for m in self.moves(state, seat)]] = 1
        return out

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        view = flipflop_view(view)
        grid = np.array([list(r) for r in reversed(view["board"])])  # row 0 = rank 1
        white = view["seat"] == 0
        mine = ("R", "B") if white else ("r", "b")
        other = ("r", "b") if white else ("R", "B")
        n = self.n
        goals = view["goals"]

        def square(name: str) -> NDArray[np.float32]:
            out = np.zeros(n * n, np.float32)
            out[n * (int(name[1:]) - 1) + "abcde".index(name[0])] = 1
            return out

        return {
            "my_rooks": grid == mine[0], "my_bishops": grid == mine[1],
            "their_rooks": grid == other[0], "their_bishops": grid == other[1],
            "my_goal": square(goals["white" if white else "black"]),
            "their_goal": square(goals["black" if white else "white"]),
            "repetitions": [min(view["repetitions"], 3) / 3],
            "my_turn": [view["to_move"] == view["seat"]],
        }

    def action(self, text: str, view: JSONMapping) -> int | None:
        move = parse_move(self.n, text)
        return move.frm * self.n * self.n + move.to

    def legal_actions(self, state: State[FFMove], seat: int) -> dict[int, FFMove]:
        cells = self.n * self.n
        return {m.frm * cells + m.to: m for m in self.moves(state, seat)}
