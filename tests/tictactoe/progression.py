"""What the test game brings to progression: a perfect evaluator, a tutorial file and a
helper for its checks. Every hook is optional; these prove the optional ones plug in."""

from __future__ import annotations

from asobiba.core import GameProgression, State, Thresholds
from asobiba.core.jsontypes import JSONMapping

from .game import TicTacToeState, move_values


class PerfectEvaluator:
    def move_values(self, state: State) -> dict[str, float]:
        if not isinstance(state, TicTacToeState):
            raise TypeError("tic-tac-toe states only")
        return move_values(state)


def _mark(view: JSONMapping, square: str) -> str:
    return str(view["board"][3 - int(square[1])]["abc".index(square[0])])


PROGRESSION = GameProgression(
    evaluator=lambda options: PerfectEvaluator(),
    thresholds=lambda options: Thresholds(scale=0.5, win_value=1.0),
    tutorial="tutorial.json",
    tutorial_functions={"mark": _mark},
    opening_plies=(0, 1),
)
