"""Iterative-deepening negamax alpha-beta with a transposition table: the one alpha-beta
every game's bots use (Reversi, FlipFlop, ReverStarGo, Memory Matrix).

A game brings an :class:`~asobiba.search.adapter.Adapter` (moves, transitions, key,
evaluation) and optional hooks (move ordering, passes, cut-off learning, finished
positions). The engine brings the rest, each switched on by the game that wants it:

* a transposition table keyed by ``adapter.key`` (best move first on the next visit);
* principal-variation search (null windows after the first move), ``pvs=True``;
* mate-distance scoring: values beyond ``win_bound`` are shortest-win/longest-loss
  adjusted by the ply, so a table entry is valid wherever it is reached;
* draws by repetition: a position already on the search path, or already seen
  ``draw_repeats`` times in the game (``search(history=...)``), scores ``0``;
* exact-solve detection: a subtree that reached only finished positions is stored as
  solved (valid at any depth) and a root search that never met the horizon is
  ``complete`` — its value is the game's exact value;
* budgets: a node budget (deterministic) and wall-clock limits checked every
  ``check_every`` nodes — a few hundred microseconds of work, so a move keeps its limit
  even when the process gets only a fraction of a core — and iterative deepening that
  does not start an iteration the last iteration's cost says cannot finish in time.

Values are from the point of view of the side to move; when a side moves twice in a row
(``player`` hook) the sign is kept instead of negated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from .adapter import (
    Adapter,
    Decides,
    Expands,
    HasPlayer,
    LearnsCutoffs,
    M,
    Orders,
    P,
    Passes,
    Terminates,
    check_adapter,
)
from .budget import checkpoint

INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
SOLVED = 1 << 30
"""Depth stored for an entry whose subtree reached only finished positions."""
CHECK_EVERY = 8
"""Nodes between two looks at the clock: 0.1–0.8 ms of work in this project's games."""
GROWTH_CAP = 8.0
"""Largest cost ratio between two iterations assumed when predicting the next one."""


class OutOfBudget(Exception):
    """Raised inside the search when a node or time budget is spent."""


_T = TypeVar("_T")


class Shuffles(Protocol):
    def shuffle(self, items: list[_T]) -> None: ...


@dataclass
class SearchResult(Generic[M]):
    move: M
    value: float
    depth: int
    nodes: int
    pv: list[M] = field(default_factory=list)
    seconds: float = 0.0
    complete: bool = False
    """True when the search reached only finished positions (the value is exact)."""
    stopped: str = ""
    """Why deepening stopped: ``depth`` (max depth done), ``complete``, ``decided`` (a won
    or lost value found), ``time``, ``nodes`` or ``predicted`` (the next iteration could
    not have finished in time)."""
    iterations: list[tuple[int, int, float]] = field(default_factory=list)
    """Per completed depth: (depth, nodes so far, seconds so far)."""


class AlphaBeta(Generic[P, M]):
    """One searcher; keeps its transposition table between calls (clear with ``reset``).

    ``rng``: root moves are shuffled before ordering, so equal-valued moves are chosen at
    random (variety for low levels) while the value stays exact. ``probe_at_horizon``:
    look the position up in the table before evaluating it at the horizon (worth it when
    the evaluation is dear). ``solved_entries``: store exact subtrees as valid at any
    depth. ``clock`` is injectable so tests can check that the deadline is consulted.
    """

    def __init__(self, adapter: Adapter[P, M], *, tt_size: int = 1_000_000,
                 rng: Shuffles | None = None, pvs: bool = False,
                 win_bound: float | None = None, mate_distance: bool = False,
                 draw_repeats: int | None = None, solved_entries: bool = True,
                 probe_at_horizon: bool = False, check_every: int = CHECK_EVERY,
                 clock: Callable[[], float] | None = None) -> None:
        self.a = adapter
        self.rng = rng
        self.tt: dict[Hashable, tuple[int, float, int, M | None]] = {}
        self.tt_size = tt_size
        self.pvs = pvs
        self.win_bound = win_bound
        """Values beyond ±win_bound are won/lost results, not heuristics."""
        self.mate_distance = mate_distance and win_bound is not None
        self._bound = win_bound if win_bound is not None else INF
        self.draw_repeats = draw_repeats
        self._repeats = draw_repeats or 0
        self.solved_entries = solved_entries
        self._keyed = bool(tt_size) or draw_repeats is not None or rng is not None
        """Whether nodes need their key (a table, repetitions or the root's shuffle)."""
        self.probe_at_horizon = probe_at_horizon
        self.check_every = max(1, check_every)
        self.clock = clock if clock is not None else time.perf_counter
        self.nodes = 0
        self.checks = 0
        """How many times the budget was consulted in the last search."""
        self._next_check = 0
        self._deadline = INF
        self._node_limit: float = INF
        self._root_key: Hashable = None
        self._hit_horizon = False
        self._path: set[Hashable] | None = None
        self._history: Mapping[Hashable, int] = {}
        # the optional hooks, each through its protocol (adapter.py: declared by the
        # adapter's bases and checked once per class, so a misspelt hook is an error)
        check_adapter(type(adapter))
        self._decided: Callable[[P], float | None] | None = (
            adapter.decided if isinstance(adapter, Decides) else None)
        if self._decided is None and isinstance(adapter, Terminates):  # the older shape
            is_terminal = adapter.is_terminal

            def decided(pos: P) -> float | None:
                return adapter.terminal_value(pos) if is_terminal(pos) else None
            self._decided = decided
        self._order: Callable[[P, Sequence[M], M | None, int], Sequence[M]] | None = (
            adapter.order if isinstance(adapter, Orders) else None)
        self._pass: Callable[[P], P | None] | None = (
            adapter.pass_move if isinstance(adapter, Passes) else None)
        self._expand: Callable[[P, M | None, int], Sequence[M]] | None = (
            adapter.expand if isinstance(adapter, Expands) else None)
        self._cutoff: Callable[[M, int], None] | None = (
            adapter.on_cutoff if isinstance(adapter, LearnsCutoffs) else None)
        self._player: Callable[[P], int] | None = (
            adapter.player if isinstance(adapter, HasPlayer) else None)

    def reset(self) -> None:
        self.tt.clear()

    # ---- budget ----------------------------------------------------------------------------
    def _check(self) -> None:
        self._next_check = self.nodes + self.check_every
        self.checks += 1
        if self.nodes > self._node_limit or self.clock() > self._deadline:
            raise OutOfBudget
        checkpoint()  # the work budget of a request running this search (a review), if any

    def _mate_in(self, value: float, ply: int) -> float:
        """A won/lost value found ``ply`` plies below the root: nearer wins score more."""
        bound = self.win_bound
        assert bound is not None
        if value > bound:
            return value - ply
        if value < -bound:
            return value + ply
        return value

    # ---- the tree --------------------------------------------------------------------------
    def _negamax(self, pos: P, depth: int, alpha: float, beta: float, ply: int) -> float:
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self._next_check:
            self._check()
        a = self.a
        mate = self.mate_distance
        decided = self._decided
        if decided is not None:
            done = decided(pos)
            if done is not None:
                if mate:
                    if done > self._bound:
                        return done - ply
                    if done < -self._bound:
                        return done + ply
                return done
        probe = self.probe_at_horizon
        if depth <= 0 and not probe:
            leaf = a.evaluate(pos)
            if leaf is not None:
                self._hit_horizon = True
                return self._mate_in(leaf, ply) if mate else leaf
        path = self._path
        keyed = self._keyed
        key = a.key(pos) if keyed else None
        if path is not None and (key in path or self._history.get(key, 0) >= self._repeats):
            return 0.0  # a repetition: a draw
        entry = self.tt.get(key) if keyed else None
        first: M | None = None
        if entry is not None:
            e_depth, e_value, e_flag, first = entry
            if e_depth >= depth:
                if mate:
                    if e_value > self._bound:
                        e_value -= ply
                    elif e_value < -self._bound:
                        e_value += ply
                if e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or (
                        e_flag == UPPER and e_value <= alpha):
                    if e_depth != SOLVED:
                        self._hit_horizon = True
                    return e_value
        if depth <= 0 and probe:  # the table had nothing: evaluate now
            leaf = a.evaluate(pos)
            if leaf is not None:
                self._hit_horizon = True
                if mate and not -self._bound <= leaf <= self._bound:
                    return self._mate_in(leaf, ply)
                return leaf
        expand = self._expand
        moves = expand(pos, first, depth) if expand is not None else a.moves(pos)
        if not moves:
            after = self._pass(pos) if self._pass is not None else None
            if after is None:
                value = a.terminal_value(pos)
                return self._mate_in(value, ply) if mate else value
            return -self._negamax(after, depth, -beta, -alpha, ply + 1)
        outer_horizon = self._hit_horizon
        self._hit_horizon = False
        if expand is not None:
            pass
        elif self._order is not None:
            if self.rng is not None and key == self._root_key:
                moves = list(moves)
                self.rng.shuffle(moves)
            moves = self._order(pos, moves, first, depth)
        elif first is not None and first in moves:
            moves = [first] + [m for m in moves if m != first]
        elif self.rng is not None and key == self._root_key:
            moves = list(moves)
            self.rng.shuffle(moves)
        player = self._player
        me = player(pos) if player is not None else -1
        alpha0 = alpha
        best = -INF
        best_move = moves[0]
        child_depth = depth - 1 if depth > 0 else 0
        pvs = self.pvs
        searched = 0
        play, negamax, below = a.play, self._negamax, ply + 1
        if path is not None:
            path.add(key)
        try:
            for move in moves:
                child = play(pos, move)
                if me >= 0 and player is not None and player(child) == me \
                        and self._decided_none(child):
                    value = negamax(child, child_depth, alpha, beta, below)
                elif pvs and searched:
                    value = -negamax(child, child_depth, -alpha - 1, -alpha, below)
                    if alpha < value < beta:
                        value = -negamax(child, child_depth, -beta, -value, below)
                else:
                    value = -negamax(child, child_depth, -beta, -alpha, below)
                searched += 1
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            if self._cutoff is not None:
                                self._cutoff(move, depth * depth)
                            break
        finally:
            if path is not None:
                path.discard(key)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if self.tt_size and keyed:
            if len(self.tt) >= self.tt_size:
                self.tt.clear()
            stored = best
            if mate:  # (self._mate_in(best, -ply), inline: once per inner node)
                if best > self._bound:
                    stored = best + ply
                elif best < -self._bound:
                    stored = best - ply
            solved = self.solved_entries and not self._hit_horizon and path is None
            self.tt[key] = (SOLVED if solved else depth, stored, flag, best_move)
        self._hit_horizon = outer_horizon or self._hit_horizon
        return best

    def _decided_none(self, pos: P) -> bool:
        return self._decided is None or self._decided(pos) is None

    def _child_value(self, pos: P, me: int, child: P, depth: int, alpha: float, beta: float
                     ) -> float:
        if me >= 0 and self._player is not None and self._player(child) == me \
                and self._decided_none(child):
            return self._negamax(child, depth, alpha, beta, 1)
        return -self._negamax(child, depth, -beta, -alpha, 1)

    def _root(self, pos: P, moves: list[M], depth: int) -> tuple[M, float]:
        """One full-window pass over the given root moves, in the given order."""
        player = self._player
        me = player(pos) if player is not None else -1
        alpha = best = -INF
        best_move = moves[0]
        path = self._path
        if path is not None:
            path.add(self._root_key)
        try:
            for move in moves:
                value = self._child_value(pos, me, self.a.play(pos, move), depth - 1,
                                          alpha, INF)
                if value > best:
                    best, best_move = value, move
                    alpha = max(alpha, value)
        finally:
            if path is not None:
                path.discard(self._root_key)
        return best_move, best

    def pv(self, pos: P, first: M | None, limit: int) -> list[M]:
        """The principal line from the table (``first`` is the root's move)."""
        line: list[M] = []
        seen: set[Hashable] = set()
        move = first
        while move is not None and len(line) < limit:
            line.append(move)
            pos = self.a.play(pos, move)
            key = self.a.key(pos)
            if key in seen:
                break
            seen.add(key)
            entry = self.tt.get(key)
            move = entry[3] if entry is not None else None
        return line

    def value(self, pos: P, depth: int, alpha: float = -INF, beta: float = INF) -> float:
        """One fixed-depth search of ``pos`` with the given window, no budget (the table is
        kept between calls)."""
        self._deadline, self._node_limit = INF, INF
        self._next_check = self.nodes + self.check_every
        self._root_key = None
        self._path = set() if self.draw_repeats is not None else None
        return self._negamax(pos, depth, alpha, beta, 0)

    # ---- iterative deepening ---------------------------------------------------------------
    def search(self, pos: P, max_depth: int, time_limit: float | None = None, *,
               root_moves: Sequence[M] | None = None, reorder_root: bool = False,
               min_depth: int = 0, hard_limit: float | None = None,
               node_limit: int | None = None, history: Mapping[Hashable, int] | None = None,
               decided_depth: int = 0, stop_when_complete: bool = True,
               started: float | None = None) -> SearchResult[M]:
        """Deepen from depth 1 to ``max_depth``, keeping the last completed depth.

        Budgets: depths up to ``min_depth`` are always completed unless ``hard_limit``
        seconds pass; deeper ones stop at ``time_limit`` seconds (and ``hard_limit``) or
        after ``node_limit`` nodes in all (a budget that does not depend on the load), and
        are not started when the last iteration's cost says they cannot finish in time.
        Seconds count from ``started`` (the caller's clock reading when the move began, so
        its own set-up counts) or from now.

        Without ``root_moves`` the root is an ordinary node (table, ordering, ``rng``);
        with them it is a full-window pass over those moves (e.g. legal moves that obey a
        rule the search below ignores), the previous iteration's best first — moved to the
        front of the running order, or put before the adapter's order of the moves when
        ``reorder_root``. Deepening stops early when the result is exact (``complete``,
        unless ``stop_when_complete`` is off) or, from ``decided_depth`` on, when a won or
        lost value (beyond ``win_bound``) is found."""
        start = self.clock() if started is None else started
        # (the garbage collector keeps running: paused, it would owe a pass over every
        # tuple the search made, and pay it right after the deadline, on every move)
        return self._deepen(pos, max_depth, time_limit, root_moves, reorder_root, min_depth,
                            hard_limit, node_limit, history, decided_depth,
                            stop_when_complete, start)

    def _deepen(self, pos: P, max_depth: int, time_limit: float | None,
                root_moves: Sequence[M] | None, reorder_root: bool, min_depth: int,
                hard_limit: float | None, node_limit: int | None,
                history: Mapping[Hashable, int] | None, decided_depth: int,
                stop_when_complete: bool, start: float) -> SearchResult[M]:
        soft = start + time_limit if time_limit is not None else INF
        hard = start + hard_limit if hard_limit is not None else INF
        self.nodes = self.checks = 0
        self._next_check = self.check_every
        self._root_key = self.a.key(pos)
        self._history = history or {}
        self._path = set() if self.draw_repeats is not None else None
        given = list(root_moves) if root_moves is not None else list(self.a.moves(pos))
        if not given:
            raise ValueError("search called on a position with no legal move")
        result: SearchResult[M] = SearchResult(given[0], 0.0, 0, 0)
        order = given
        last_cost = prev_cost = 0.0
        for depth in range(1, max_depth + 1):
            beyond = depth > min_depth
            self._deadline = min(soft, hard) if beyond else hard
            self._node_limit = node_limit if beyond and node_limit is not None else INF
            began = self.clock()
            if self._deadline < INF and last_cost > 0:
                growth = min(max(last_cost / prev_cost, 1.0), GROWTH_CAP) if prev_cost else 1.0
                if began + last_cost * growth > self._deadline:
                    result.stopped = "predicted"
                    break
            self._hit_horizon = False
            try:
                if root_moves is None:
                    value = self._negamax(pos, depth, -INF, INF, 0)
                    entry = self.tt.get(self._root_key)
                    move = entry[3] if entry is not None and entry[3] is not None \
                        else result.move
                else:
                    if reorder_root and self._order is not None:
                        order = list(self._order(pos, given, result.move if depth > 1
                                                 else None, depth))
                    move, value = self._root(pos, order, depth)
                    if not reorder_root:
                        order.remove(move)
                        order.insert(0, move)
            except OutOfBudget:
                result.stopped = "nodes" if self.nodes > self._node_limit else "time"
                break
            prev_cost, last_cost = last_cost, self.clock() - began
            result.move, result.value, result.depth = move, value, depth
            result.complete = not self._hit_horizon and self._path is None
            result.iterations.append((depth, self.nodes, self.clock() - start))
            if result.complete and stop_when_complete:
                result.stopped = "complete"
                break
            if self.win_bound is not None and depth >= decided_depth \
                    and abs(value) > self.win_bound:
                result.stopped = "decided"
                break
        else:
            result.stopped = "depth"
        result.nodes = self.nodes
        result.pv = self.pv(pos, result.move, max(result.depth, 1))
        result.seconds = self.clock() - start
        self._deadline, self._node_limit = INF, INF
        return result


def search(adapter: Adapter[P, M], pos: P, max_depth: int,
           time_limit: float | None = None) -> SearchResult[M]:
    """One-shot search (a fresh transposition table)."""
    return AlphaBeta(adapter).search(pos, max_depth, time_limit)
