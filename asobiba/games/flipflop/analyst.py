"""FlipFlop's analysis-board engine. 3×3: exact everywhere from the solved table (every move
won, drawn or lost, with its distance; the repetition rule followed as the bots follow it).
5×5: the bots' alpha-beta (``search.Searcher``: forced retakes, repetitions, mate distance)
behind the search library's multi-PV; a forced win or loss it finds is a verdict."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from ...core import AnalysisLine, OptionError, SetupError, State
from ...core.jsontypes import JSONMapping
from ...search.multipv import OutOfTime, line_texts, multipv
from . import solver3
from .game import FlipFlopState
from .search import MATE_BOUND, WIN, Searcher

PV_LIMIT = 40
"""Plies of a 3×3 line shown (a won line is at most a few dozen plies)."""


def _state(state: State) -> FlipFlopState:
    if not isinstance(state, FlipFlopState):
        raise TypeError("the FlipFlop analyst reads FlipFlop states only")
    return state


def _play(state: FlipFlopState, text: str) -> FlipFlopState:
    return _state(state.play(text))


def _text(state: FlipFlopState, move: int) -> str:
    for mv in state.legal_moves():
        if mv.frm == move >> 5 and mv.to == move & 31:
            return state.move_text(mv)
    raise ValueError(f"no legal move {move}")


def _rank(value: int, dist: int) -> tuple[int, int]:
    if value == solver3.WIN:
        return (0, dist)
    if value == solver3.DRAW:
        return (1, 0)
    return (2, -dist)


def _fen_row(row: str) -> str:
    out, empty = "", 0
    for ch in row:
        if ch == ".":
            empty += 1
            continue
        if empty:
            out, empty = out + str(empty), 0
        out += ch
    return out + (str(empty) if empty else "")


class FlipFlopAnalyst:
    def __init__(self) -> None:
        self.searcher: Searcher | None = None

    def max_depth(self, state: State) -> int:
        return 1 if _state(state).n == 3 else 64

    def setup(self, board: object, turn: int, options: JSONMapping) -> FlipFlopState:
        """``n`` rows of ``R``/``B`` (white, plus or cross face), ``r``/``b`` (black) and
        ``.``, top row first; at most the pieces a side starts with (``n``)."""
        from .game import GAME

        n = 5 if str(options.get("board", "3x3")).startswith("5") else 3
        if not isinstance(board, list) or len(board) != n or not all(
                isinstance(r, str) and len(r) == n for r in board):
            raise SetupError("shape")
        if any(set(r) - set("RBrb.") for r in board):
            raise SetupError("cell")
        if turn not in (0, 1):
            raise SetupError("turn")
        text = "".join(board)
        whites = sum(text.count(c) for c in "RB")
        blacks = sum(text.count(c) for c in "rb")
        if whites > n or blacks > n:
            raise SetupError("too_many_pieces")
        if not whites or not blacks:
            raise SetupError("no_pieces")
        fen = "/".join(_fen_row(r) for r in board) + (" w" if turn == 0 else " b")
        try:
            return GAME.from_position(fen)
        except (ValueError, OptionError):
            raise SetupError("cell") from None

    def lines(self, state: State, depth: int, count: int, deadline: float
              ) -> list[AnalysisLine] | None:
        st = _state(state)
        if st.n == 3:
            return self._exact(st, count)
        return self._search(st, depth, count, deadline)

    # ---- 3×3: the solved table ---------------------------------------------------------------
    def _exact(self, state: FlipFlopState, count: int) -> list[AnalysisLine]:
        from .bots import move_scores

        scored = sorted(move_scores(state), key=lambda s: _rank(s[1], s[2]))
        out = []
        for mv, value, dist in scored[:count]:
            verdict = {solver3.WIN: "win", solver3.LOSS: "loss"}.get(value, "draw")
            points = 0.0 if verdict == "draw" else 1000.0 - dist
            line = [state.move_text(mv)]
            pos = state.child(mv)
            while not pos.is_over and len(line) < PV_LIMIT:
                best = min(move_scores(pos), key=lambda s: _rank(s[1], s[2]))
                line.append(pos.move_text(best[0]))
                pos = pos.child(best[0])
            out.append(AnalysisLine(line[0], -points if verdict == "loss" else points,
                                    tuple(line), verdict,
                                    None if verdict == "draw" else dist))
        return out

    # ---- 5×5: alpha-beta ---------------------------------------------------------------------
    def _search(self, state: FlipFlopState, depth: int, count: int, deadline: float
                ) -> list[AnalysisLine] | None:
        if self.searcher is None:
            self.searcher = Searcher(state.n)
        a = self.searcher.adapter
        pos = state.tuple4()
        # the rules' legal moves (the search below prunes to forced retakes itself)
        moves = [mv.frm << 5 | mv.to for mv in state.legal_moves()]
        counts: Counter[int] = Counter(state.history)
        counts[state.key] += 1
        a.hist = [0] * 1024
        history: dict[Hashable, int] = dict(counts.items())
        try:
            found = multipv(self.searcher.engine, pos, moves, depth, count, deadline,
                            history=history)
        except OutOfTime:
            return None
        out = []
        for line in found:
            verdict, margin = None, None
            if abs(line.value) > MATE_BOUND:
                verdict = "win" if line.value > 0 else "loss"
                margin = int(WIN - abs(line.value))
            elif line.complete and line.value == 0:
                verdict = "draw"
            out.append(AnalysisLine(_text(state, line.move), line.value,
                                    line_texts(state, line.pv, _text, _play), verdict, margin))
        return out


def analyst() -> FlipFlopAnalyst:
    return FlipFlopAnalyst()

