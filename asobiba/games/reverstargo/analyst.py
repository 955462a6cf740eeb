"""ReverStarGo's analysis-board engine: its alpha-beta with our evaluation
(``search.AlphaBeta``'s engine; ko respected at the root, both colours of a CP cell where they
differ) behind the search library's multi-PV. Endings are exact: once the search reaches the
end of the game (few empty cells), a value is the final margin."""

from __future__ import annotations

from ...core import AnalysisLine, SetupError, State
from ...core.jsontypes import JSONMapping
from ...search.multipv import OutOfTime, line_texts, multipv
from .board import STONE_CELLS
from .game import ReverStarGoState
from .search import WIN, AlphaBeta, Child, our_evaluation


def _state(state: State) -> ReverStarGoState:
    if not isinstance(state, ReverStarGoState):
        raise TypeError("the ReverStarGo analyst reads ReverStarGo states only")
    return state


def _text(state: ReverStarGoState, move: Child) -> str:
    return state.move_text(move[0])


def _play(state: ReverStarGoState, text: str) -> ReverStarGoState:
    return _state(state.play(text))


class ReverStarGoAnalyst:
    def __init__(self) -> None:
        self.search = AlphaBeta(our_evaluation)

    def max_depth(self, state: State) -> int:
        st = _state(state)
        return (STONE_CELLS & ~(st.black | st.white)).bit_count() + 4

    def setup(self, board: object, turn: int, options: JSONMapping) -> ReverStarGoState:
        """The 37-character board text of the views (``B``, ``W``, ``.``; the CP cell
        empty); no captures, history or ko."""
        from .board import LABELS, N_CELLS
        from .game import position

        if not isinstance(board, str) or len(board) != N_CELLS:
            raise SetupError("shape")
        if set(board) - set("BW."):
            raise SetupError("cell")
        if turn not in (0, 1):
            raise SetupError("turn")
        try:
            return position([LABELS[i] for i, c in enumerate(board) if c == "B"],
                            [LABELS[i] for i, c in enumerate(board) if c == "W"], turn)
        except ValueError:
            raise SetupError("cell") from None

    def lines(self, state: State, depth: int, count: int, deadline: float
              ) -> list[AnalysisLine] | None:
        from .bots import root_children

        st = _state(state)
        children = root_children(st, auto_only=False)
        if not children:
            return []
        cb, cw = st.captured
        root = (st.black, st.white, cb, cw, st.turn)
        try:
            found = multipv(self.search.engine, root, children, depth, count, deadline)
        except OutOfTime:
            return None
        out = []
        for line in found:
            verdict, margin = None, None
            if abs(line.value) > WIN / 2:  # only finished games score beyond: proven
                verdict = "win" if line.value > 0 else "loss"
                if line.complete:  # the margin is exact once the whole tree was finished
                    # (stones + captures) × 4 + captures: the stones and captures ahead
                    margin = int((abs(line.value) - WIN) // 4)
            elif line.complete and line.value == 0:
                verdict = "draw"
            out.append(AnalysisLine(_text(st, line.move), line.value,
                                    line_texts(st, line.pv, _text, _play), verdict, margin))
        return out


def analyst() -> ReverStarGoAnalyst:
    return ReverStarGoAnalyst()
