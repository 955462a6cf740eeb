"""Reversi's analysis-board engine: the bots' alpha-beta (``ReversiAdapter``) behind the
search library's multi-PV, exact once the search reaches the end of the game (the last
~12 empties within a second or two; the value is then the final disc difference)."""

from __future__ import annotations

from ...core import AnalysisLine, SetupError, State
from ...core.jsontypes import JSONMapping
from ...search.alphabeta import AlphaBeta
from ...search.multipv import OutOfTime, line_texts, multipv
from .bots import WIN, ReversiAdapter
from .game import PASS, ReversiState


def _text(state: ReversiState, move: int) -> str:
    return "pass" if move == PASS else state.move_text(move)


def _play(state: ReversiState, text: str) -> ReversiState:
    child = state.play(text)
    assert isinstance(child, ReversiState)
    return child


def _rows(board: object, n: int, symbols: str) -> list[str]:
    if not isinstance(board, list) or len(board) != n or not all(
            isinstance(r, str) and len(r) == n for r in board):
        raise SetupError("shape")
    if any(set(r) - set(symbols) for r in board):
        raise SetupError("cell")
    return list(board)


class ReversiAnalyst:
    def __init__(self) -> None:
        self.adapter = ReversiAdapter()
        self.engine: AlphaBeta[tuple[int, int, int], int] = AlphaBeta(self.adapter)

    def _pos(self, state: State) -> tuple[int, int, int]:
        if not isinstance(state, ReversiState):
            raise TypeError("the Reversi analyst reads Reversi states only")
        b, w, t = state.black, state.white, state.turn
        return (b, w, t) if t == 0 else (w, b, t)

    def max_depth(self, state: State) -> int:
        p, o, _ = self._pos(state)
        return 64 - (p | o).bit_count() + 2  # every empty square plus passes on the way

    def setup(self, board: object, turn: int, options: JSONMapping) -> ReversiState:
        """Eight rows of ``B``, ``W`` and ``.`` (a8 first, as in the views); the four centre
        squares are never empty in Reversi."""
        rows = _rows(board, 8, "BW.")
        if turn not in (0, 1):
            raise SetupError("turn")
        black = white = 0
        for i, row in enumerate(rows):
            for c, ch in enumerate(row):
                bit = 1 << (8 * (7 - i) + c)
                if ch == "B":
                    black |= bit
                elif ch == "W":
                    white |= bit
        centre = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36)
        if (black | white) & centre != centre:
            raise SetupError("centre_empty")
        return ReversiState(black, white, turn, {})

    def lines(self, state: State, depth: int, count: int, deadline: float
              ) -> list[AnalysisLine] | None:
        pos = self._pos(state)
        assert isinstance(state, ReversiState)
        try:
            found = multipv(self.engine, pos, self.adapter.moves(pos), depth, count, deadline)
        except OutOfTime:
            return None
        out = []
        for line in found:
            # beyond ±WIN only finished positions can score, so such a value is a proven
            # result; its disc difference is exact only when the whole tree was finished
            verdict, margin = None, None
            if abs(line.value) >= WIN:
                verdict = "win" if line.value > 0 else "loss"
            elif line.complete and line.value == 0:
                verdict = "draw"
            if line.complete:
                margin = int(line.value - WIN if line.value >= WIN
                             else line.value + WIN if line.value <= -WIN else 0)
            out.append(AnalysisLine(_text(state, line.move), line.value,
                                    line_texts(state, line.pv, _text, _play),
                                    verdict, margin))
        return out


def analyst() -> ReversiAnalyst:
    return ReversiAnalyst()

