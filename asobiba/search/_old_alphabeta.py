"""Iterative-deepening negamax alpha-beta with a transposition table.

Works on any :class:`~asobiba.search.adapter.Adapter` for two-player perfect-information
games. Values are from the point of view of the player to move; when the same player moves
twice in a row (a game whose passes are not moves) the sign is kept instead of negated.
Move ordering: the transposition-table move first, then the adapter's ``order`` if it has
one. A time limit is checked every 256 nodes; the last fully searched depth is returned.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = 1 << 30
"""Depth stored for an entry whose subtree reached only terminals: valid at any depth."""


class _Timeout(Exception):
    pass


@dataclass
class SearchResult:
    move: Any
    value: float
    depth: int
    nodes: int
    pv: list[Any] = field(default_factory=list)
    seconds: float = 0.0
    complete: bool = False
    """True when the search reached every terminal (the value is exact)."""


class AlphaBeta:
    """One searcher; keeps its transposition table between calls (clear with ``reset``)."""

    def __init__(self, adapter: Any, tt_size: int = 1_000_000, rng: Any = None) -> None:
        self.a = adapter
        self.rng = rng
        """With an ``Rng``, root moves are shuffled before ordering, so equal-valued moves
        are chosen at random (variety for low levels) while the value stays exact."""
        self._root_key: Any = None
        self.tt: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.tt_size = tt_size
        self.nodes = 0
        self.deadline = INF
        self._order = getattr(adapter, "order", None)
        self._hit_horizon = False

    def reset(self) -> None:
        self.tt.clear()

    def _negamax(self, pos: Any, depth: int, alpha: float, beta: float) -> float:
        a = self.a
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        if a.is_terminal(pos):
            return float(a.terminal_value(pos))
        if depth <= 0:
            self._hit_horizon = True
            return float(a.evaluate(pos))
        key = a.key(pos)
        entry = self.tt.get(key)
        best_move = None
        if entry is not None:
            e_depth, e_value, e_flag, best_move = entry
            if e_depth >= depth and (
                e_flag == EXACT
                or (e_flag == LOWER and e_value >= beta)
                or (e_flag == UPPER and e_value <= alpha)
            ):
                if e_depth != SOLVED:
                    self._hit_horizon = True
                return e_value
        outer_horizon = self._hit_horizon
        self._hit_horizon = False
        moves = list(a.moves(pos))
        if self.rng is not None and key == self._root_key:
            self.rng.shuffle(moves)
        if self._order is not None:
            moves = self._order(pos, moves)
        if best_move is not None and best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        me = a.player(pos)
        alpha0 = alpha
        best = -INF
        for move in moves:
            child = a.play(pos, move)
            if a.player(child) == me and not a.is_terminal(child):
                value = self._negamax(child, depth - 1, alpha, beta)
            else:
                value = -self._negamax(child, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if len(self.tt) >= self.tt_size:
            self.tt.clear()
        self.tt[key] = (depth if self._hit_horizon else SOLVED, best, flag, best_move)
        self._hit_horizon = outer_horizon or self._hit_horizon
        return best

    def _pv(self, pos: Any, limit: int) -> list[Any]:
        line: list[Any] = []
        seen = set()
        while len(line) < limit and not self.a.is_terminal(pos):
            key = self.a.key(pos)
            entry = self.tt.get(key)
            if entry is None or entry[3] is None or key in seen:
                break
            seen.add(key)
            line.append(entry[3])
            pos = self.a.play(pos, entry[3])
        return line

    def search(self, pos: Any, max_depth: int, time_limit: float | None = None) -> SearchResult:
        start = time.perf_counter()
        self.deadline = start + time_limit if time_limit else INF
        self.nodes = 0
        result = SearchResult(None, 0.0, 0, 0)
        moves = list(self.a.moves(pos))
        if not moves:
            raise ValueError("search called on a position with no legal move")
        result.move = moves[0]
        self._root_key = self.a.key(pos)
        for depth in range(1, max_depth + 1):
            self._hit_horizon = False
            try:
                value = self._root(pos, depth)
            except _Timeout:
                break
            result.value = value
            result.depth = depth
            result.move = self.tt[self.a.key(pos)][3]
            result.pv = self._pv(pos, depth)
            if not self._hit_horizon:
                result.complete = True
                break
        result.nodes = self.nodes
        result.seconds = time.perf_counter() - start
        return result

    def _root(self, pos: Any, depth: int) -> float:
        return self._negamax(pos, depth, -INF, INF)


def search(adapter: Any, pos: Any, max_depth: int, time_limit: float | None = None) -> SearchResult:
    """One-shot search (a fresh transposition table)."""
    return AlphaBeta(adapter).search(pos, max_depth, time_limit)
