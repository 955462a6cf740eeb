"""ReverStarGo's part of the search: raw-bitboard nodes, children, move ordering and the
evaluations, behind the project's one alpha-beta (``asobiba.search.alphabeta``): negamax
with a transposition table, iterative deepening under time and node budgets, and an exact
endgame when few cells remain.

A search node is ``(black, white, captured_black, captured_white, turn)``. Below the root
the search ignores ko (as the app's does); the root moves are the state's legal moves, so a
bot never picks an illegal one. Two evaluations live here: the app's published one (for the
reference bots) and ours (captures, interior cells, the CP ring, mobility, parity).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from ...search.adapter import Orders, Passes
from ...search.alphabeta import AlphaBeta as Engine
from ...search.alphabeta import SearchResult as EngineResult
from .board import A_RING, APP_CELL_VALUE, INTERIOR, LABELS, STONE_CELLS
from .rules import (
    BLACK,
    CellOption,
    cell_options,
    cp_ray_flips,
    has_playable,
    near,
    plain_flips,
)

Node = tuple[int, int, int, int, int]
Child = tuple[tuple[int, int], Node, int]  # (cell, colour), child node, flips + captured
Evaluator = Callable[[Node], float]

WIN = 1_000_000.0


def _mask(prefix: str) -> int:
    return sum(1 << i for i, lab in enumerate(LABELS) if lab[0] == prefix and lab != "CP")


A_CELLS, B_CELLS, C_CELLS, D_CELLS = (_mask(p) for p in "ABCD")


def playable_count(me: int, op: int) -> int:
    """How many cells ``me`` could play (any call): the mobility term."""
    empty = STONE_CELLS & ~(me | op) & near(op)
    n = 0
    while empty:
        low = empty & -empty
        empty ^= low
        cell = low.bit_length() - 1
        if (plain_flips(me, op, cell) or cp_ray_flips(me, op, cell, True)
                or cp_ray_flips(me, op, cell, False)):
            n += 1
    return n


Delta = tuple[tuple[int, int], int, int, int, int]  # move, black, white, captured, gain


def _deltas_of(options: list[CellOption], turn: int, auto_only: bool) -> list[Delta]:
    """Children of a board as (move, black, white, stones captured, flips + captured): the
    capture totals are added per node, so one list serves every node with this board."""
    out: list[Delta] = []
    for opt in options:
        colours = (opt.auto,) if auto_only or not opt.call_matters else opt.valid
        for c in colours:
            res = opt.by_colour[c]
            assert res is not None
            if turn == BLACK:
                out.append(((opt.cell, c), res.me, res.op, res.captured,
                            res.flips + res.captured))
            else:
                out.append(((opt.cell, c), res.op, res.me, res.captured,
                            res.flips + res.captured))
    return out


def final_value(node: Node) -> float:
    """Exact result for the side to move: win/loss dominates, then the score margin
    (captures break equal totals, as in the rules)."""
    black, white, cb, cw, turn = node
    tb, tw = black.bit_count() + cb, white.bit_count() + cw
    margin = (tb - tw) * 4 + (cb - cw)
    if turn != BLACK:
        margin = -margin
    if margin == 0:
        return 0.0
    return (WIN if margin > 0 else -WIN) + margin


def app_evaluation(node: Node, me_colour: int) -> float:
    """The app's evaluation from ``me_colour``'s side: Σ own cell values − Σ opponent's +
    4 × mobility difference ± 25 for a full A ring; captures are not in it."""
    black, white = node[0], node[1]
    me, op = (black, white) if me_colour == BLACK else (white, black)
    v = 0
    m = me
    while m:
        low = m & -m
        v += APP_CELL_VALUE[low.bit_length() - 1]
        m ^= low
    m = op
    while m:
        low = m & -m
        v -= APP_CELL_VALUE[low.bit_length() - 1]
        m ^= low
    v += 4 * (playable_count(me, op) - playable_count(op, me))
    if me & A_RING == A_RING:
        v += 25
    elif op & A_RING == A_RING:
        v -= 25
    return float(v)


B_INNER = B_CELLS & INTERIOR  # BQ, B2, B4, B6, B8, BX: capturable
B_CORNER = B_CELLS & ~INTERIOR  # B1, B3, B5, B7, B9, BJ: on the edge of the hexagon


@dataclass
class Weights:
    """Our evaluation's weights: per stone by cell class, per captured stone, and the
    positional terms."""

    stone: float = 0.0  # stones are counted by where they stand (below) until the end
    captured: float = 5.0  # a captured stone is a point that can never be lost
    tip: float = 50.0  # star tips: never flipped, never captured
    c_cell: float = 20.0  # star points: edge cells, never captured
    b_corner: float = 10.0  # hexagon corners: on the edge, never captured
    b_inner: float = 6.0  # interior: can be enclosed
    a_cell: float = 2.0  # interior, around the CP
    ring: float = 25.0  # the whole A ring (the CP inside can be taken for +1)
    mobility: float = 4.0
    parity: float = 4.0  # moving last among an odd number of empties


def our_evaluation(node: Node, w: Weights | None = None) -> float:
    """Our evaluation for the side to move."""
    w = w or DEFAULT_WEIGHTS
    black, white, cb, cw, turn = node
    if turn == BLACK:
        me, op, cme, cop = black, white, cb, cw
    else:
        me, op, cme, cop = white, black, cw, cb
    v = w.stone * (me.bit_count() - op.bit_count()) + w.captured * (cme - cop)
    v += w.tip * ((me & D_CELLS).bit_count() - (op & D_CELLS).bit_count())
    v += w.c_cell * ((me & C_CELLS).bit_count() - (op & C_CELLS).bit_count())
    v += w.b_corner * ((me & B_CORNER).bit_count() - (op & B_CORNER).bit_count())
    v += w.b_inner * ((me & B_INNER).bit_count() - (op & B_INNER).bit_count())
    v += w.a_cell * ((me & A_CELLS).bit_count() - (op & A_CELLS).bit_count())
    if me & A_RING == A_RING:
        v += w.ring
    elif op & A_RING == A_RING:
        v -= w.ring
    v += w.mobility * (playable_count(me, op) - playable_count(op, me))
    if w.parity:
        empties = (STONE_CELLS & ~(me | op)).bit_count()
        v += w.parity if empties % 2 else -w.parity
    return v


DEFAULT_WEIGHTS = Weights()


class ReverStarGoAdapter(Passes[Node], Orders[Node, Child]):
    """Search positions are nodes; a move is a whole child ``((cell, colour), node, gain)``
    (the children of a board are computed once and cached), so ``play`` is a lookup. A
    side with no move passes; two passes in a row end the game."""

    def __init__(self, evaluate: Evaluator, auto_only: bool, terminal: Evaluator) -> None:
        self.leaf = evaluate
        self.terminal = terminal
        self.auto_only = auto_only
        self.kids: dict[tuple[int, int, int], list[Delta]] = {}

    def children(self, node: Node) -> list[Child]:
        black, white, cb, cw, turn = node
        k = (black, white, turn)
        deltas = self.kids.get(k)
        if deltas is None:
            deltas = _deltas_of(cell_options(black, white, turn), turn, self.auto_only)
            if len(self.kids) > 400_000:
                self.kids.clear()
            self.kids[k] = deltas
        if turn == BLACK:
            return [(m, (b, w, cb + c, cw, 1), g) for m, b, w, c, g in deltas]
        return [(m, (b, w, cb, cw + c, 0), g) for m, b, w, c, g in deltas]

    moves = children

    def play(self, node: Node, move: Child) -> Node:
        return move[1]

    def key(self, node: Node) -> Hashable:
        return (node[0], node[1], node[4], node[2] - node[3])

    def evaluate(self, node: Node) -> float:
        b, w = node[0], node[1]
        if has_playable(b, w, 0) or has_playable(b, w, 1):
            return self.leaf(node)
        return self.terminal(node)

    def terminal_value(self, node: Node) -> float:
        return self.terminal(node)

    def pass_move(self, node: Node) -> Node | None:
        black, white, cb, cw, turn = node
        after = (black, white, cb, cw, 1 - turn)
        return after if self.children(after) else None

    def order(self, node: Node, moves: Sequence[Child], first: Child | None, depth: int = 0
              ) -> Sequence[Child]:
        """Most flips + captures first (stable: cell order among equals), the table's move
        before all."""
        order = sorted(moves, key=lambda c: -c[2])
        if first is not None:
            best = first[0]
            order.sort(key=lambda c: c[0] != best)
        return order


@dataclass
class SearchResult:
    move: tuple[int, int] | None
    value: float
    depth: int
    nodes: int
    seconds: float = 0.0
    pv: list[tuple[int, int]] = field(default_factory=list)
    stopped: str = ""


class AlphaBeta:
    """Negamax alpha-beta on the project's engine. ``evaluate(node)`` scores a leaf for its
    side to move; ``auto_only`` plays only the automatic CP colour below the root (the app's
    CPU); ``use_tt`` adds the transposition table and best-move ordering."""

    def __init__(self, evaluate: Evaluator, auto_only: bool = False, use_tt: bool = True,
                 endgame_empties: int = 0, terminal: Evaluator = final_value,
                 clock: Callable[[], float] | None = None) -> None:
        self.adapter = ReverStarGoAdapter(evaluate, auto_only, terminal)
        self.engine: Engine[Node, Child] = Engine(
            self.adapter, tt_size=10_000_000 if use_tt else 0, solved_entries=False,
            win_bound=WIN / 2, clock=clock)
        self.endgame_empties = endgame_empties
        self.last: EngineResult[Child] | None = None

    @property
    def nodes(self) -> int:
        return self.engine.nodes

    @property
    def tt(self) -> dict[Hashable, tuple[int, float, int, Child | None]]:
        return self.engine.tt

    @property
    def kids(self) -> dict[tuple[int, int, int], list[Delta]]:
        return self.adapter.kids

    def children(self, node: Node) -> list[Child]:
        return self.adapter.children(node)

    def negamax(self, node: Node, depth: int, alpha: float, beta: float) -> float:
        """The value of ``node`` searched ``depth`` plies with the given window, no budget
        (the table is kept: clear ``tt`` and ``kids`` for a fresh position)."""
        return self.engine.value(node, depth, alpha, beta)

    def search(self, root_moves: list[Child], empties: int, max_depth: int,
               time_limit: float | None = None, min_depth: int = 0,
               hard_limit: float | None = None, node_limit: int | None = None,
               started: float | None = None, node: Node | None = None) -> SearchResult:
        """Iterative deepening to ``max_depth`` (or the end of the game when few cells
        remain), keeping the last completed depth when a budget runs out. Depths beyond
        ``min_depth`` stop at ``time_limit`` seconds or after ``node_limit`` nodes in all
        (a budget that does not depend on the machine's load) and are not started when
        they cannot finish in time; the depths up to ``min_depth`` are always completed,
        unless ``hard_limit`` seconds pass. Seconds count from ``started`` (the clock
        reading when the move began) or from now. ``node`` is the root position (only its
        key is used; any child's stands in when it is not given)."""
        self.engine.tt.clear()
        self.adapter.kids.clear()
        if empties <= self.endgame_empties:
            max_depth = max(max_depth, empties + 4)
        root = node if node is not None else root_moves[0][1]
        res = self.engine.search(root, max_depth, time_limit, root_moves=root_moves,
                                 reorder_root=True, min_depth=min_depth,
                                 hard_limit=hard_limit, node_limit=node_limit,
                                 decided_depth=empties, stop_when_complete=False,
                                 started=started)
        self.last = res
        best = res.move[0] if res.depth else root_moves[0][0]
        return SearchResult(best, res.value, res.depth, res.nodes, res.seconds,
                            [c[0] for c in res.pv], res.stopped)
