"""CPU levels. Levels 1–4 follow the app's published policies (REFERENCE § ReverStarGo) so
the ladder means the same thing here. Level 5 keeps the app's Formidable measure but looks one
reply ahead (the published one-ply policy does not beat Advanced: docs/rules/reverstargo.md
§ 10); MAX, FINAL and LEARNED (FINAL's search with a learned evaluation, ``learned.py``) are
our own searches. ``app-formidable`` is the app's one-ply Formidable,
``app-max`` and ``app-final`` rebuild the app's 3- and 6-ply alpha-beta with its evaluation:
reference opponents for benchmarks.

Every bot sees views only and rebuilds the state with ``GAME.state_from_view`` (a perfect-
information view holds everything, ko history included)."""

from __future__ import annotations

import math
import time
from typing import cast

from ...core import Bot
from ...core.jsontypes import JSONMapping
from ...search.budget import MoveClock
from .board import APP_CELL_VALUE, INDEX, STONE_CELLS
from .game import EXCEPTION, GAME, ReverStarGoState
from .rules import BLACK
from .search import AlphaBeta, Child, SearchResult, Weights, app_evaluation, our_evaluation

Move = tuple[int, int]


#: The app's cell order (its ``ALL_CELLS``: CP, the A ring, B1…B9, BX, BJ, BQ, then the six
#: arms C3 C2 D2, C9 C8 D8, C6 C7 D6, CQ C1 DQ, CJ CX DX, C5 C4 D4). The CPU lists its
#: candidate moves in this order, and Entry and Intermediate cut ties by it.
APP_CELL_ORDER: tuple[int, ...] = tuple(INDEX[label] for label in (
    "CP", "A1", "A3", "A5", "A7", "A9", "AJ",
    "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "BX", "BJ", "BQ",
    "C3", "C2", "D2", "C9", "C8", "D8", "C6", "C7", "D6", "CQ", "C1", "DQ",
    "CJ", "CX", "DX", "C5", "C4", "D4"))
APP_RANK: tuple[int, ...] = tuple(APP_CELL_ORDER.index(i) for i in range(len(APP_CELL_ORDER)))


def cpu_candidates(state: ReverStarGoState) -> list[tuple[Move, int]]:
    """One move per playable cell (in our cell order), as the app's CPU plays it: the
    automatic CP colour, the other only if ko forbids it. The number is the app's measure
    of the move (its ``evaluateMove``): flips + captures with the automatic colour, which
    the app computes without regard to ko."""
    out = []
    for spot in state.spots():
        opt = spot.option
        allowed = opt.valid if state.mode == EXCEPTION else spot.free
        if not allowed:
            continue
        colour = opt.auto if opt.auto in allowed else allowed[0]
        res = opt.by_colour[opt.auto]
        assert res is not None
        out.append(((opt.cell, colour), res.flips + res.captured))
    return out


def app_pool(level: str, cands: list[tuple[Move, int]]) -> list[tuple[Move, int]]:
    """The moves the app's Entry or Intermediate draws from (docs/rules/reverstargo.md § 10):
    the candidates put in the app's cell order, stably sorted by the measure — worst first
    for Entry, best first for Intermediate — and the first ceil(50 %) or ceil(60 %) kept (at
    least one). A stable sort keeps tied moves in cell order, so ties are cut by it."""
    n = len(cands)
    cands = sorted(cands, key=lambda c: APP_RANK[c[0][0]])  # the app lists cells this way
    if level == "entry":
        return sorted(cands, key=lambda c: c[1])[:max(1, math.ceil(n * 0.5))]
    if level == "intermediate":
        return sorted(cands, key=lambda c: -c[1])[:max(1, math.ceil(n * 0.6))]
    raise ValueError(f"the app draws from a pool only at entry and intermediate, not {level}")


def root_children(state: ReverStarGoState, auto_only: bool) -> list[Child]:
    """The legal moves of the state as search children (ko respected at the root)."""
    if auto_only:
        moves = [m for m, _ in cpu_candidates(state)]
    else:
        moves = [cast(Move, m) for m in state.legal_moves()]
    out: list[Child] = []
    for cell, colour in moves:
        spot = state.spot(cell)
        assert spot is not None
        res = spot.option.by_colour[colour]
        assert res is not None
        cb, cw = state.captured
        if state.turn == BLACK:
            node = (res.me, res.op, cb + res.captured, cw, 1 - state.turn)
        else:
            node = (res.op, res.me, cb, cw + res.captured, 1 - state.turn)
        out.append(((cell, colour), node, res.flips + res.captured))
    return out


class ReverStarGoBot(Bot):
    level = ""
    started = 0.0
    """Clock reading when the current move was asked for (time limits count from it)."""
    last_started = 0.0

    def choose(self, view: JSONMapping) -> str:
        self.started = time.perf_counter()
        try:
            state = GAME.state_from_view(view)
            move = self.pick(state)
            return state.move_text(move, state.turn)
        finally:
            self.started = 0.0

    def pick(self, state: ReverStarGoState) -> Move:
        raise NotImplementedError


def app_measure(move: Move, gain: int) -> int:
    """The app's Formidable measure of one move: 3 × (flips + captures) + the placed cell's
    value (tips 50, C 20, B 8, A 2)."""
    return 3 * gain + APP_CELL_VALUE[move[0]]


def best_reply_measure(state: ReverStarGoState, move: Move) -> int:
    """The opponent's best reply to ``move`` in the app's Formidable measure, with ko and
    automatic passes applied (0 if the opponent passes or the game ends)."""
    child = cast(ReverStarGoState, state.child(move))
    if child.is_over or child.turn == state.turn:
        return 0
    return max(app_measure(m, g) for m, g in cpu_candidates(child))


class AppPolicyBot(ReverStarGoBot):
    """The app's levels 1–5 (one-ply policies over flips + captures and cell values), and our
    level 5, which looks one reply ahead on the app's Formidable measure."""

    def __init__(self, level: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.level = level
        self.name = f"reverstargo-{level}"

    def scored(self, state: ReverStarGoState) -> list[tuple[Move, int]]:
        """The candidates with the measure this level ranks them by."""
        cands = cpu_candidates(state)
        if self.level == "app-formidable":  # the app's published Formidable
            return [(m, app_measure(m, g)) for m, g in cands]
        if self.level == "formidable":  # ours: minus the opponent's best reply (2-ply)
            return [(m, app_measure(m, g) - best_reply_measure(state, m)) for m, g in cands]
        return cands

    def pick(self, state: ReverStarGoState) -> Move:
        if self.level == "beginner":
            return self.rng.choice(cpu_candidates(state))[0]
        scored = self.scored(state)
        if self.level in ("entry", "intermediate"):  # the app's pools, exactly
            pool = app_pool(self.level, scored)
        else:  # advanced, formidable: the best, ties at random
            top = max(c[1] for c in scored)
            pool = [c for c in scored if c[1] == top]
        return self.rng.choice(pool)[0]


class SearchBot(ReverStarGoBot):
    """Alpha-beta bots: ours (``max``, ``final``) and the app's (``app-max``, ``app-final``)."""

    def __init__(self, level: str, seed: int = 0, depth: int = 4,
                 time_limit: float | None = None, app: bool = False,
                 endgame_empties: int = 0, weights: Weights | None = None,
                 min_depth: int = 0, move_limit: float | None = None,
                 node_limit: int | None = None) -> None:
        super().__init__(seed)
        self.level = level
        self.name = f"reverstargo-{level}"
        self.depth = depth
        self.time_limit = time_limit
        self.min_depth = min_depth
        self.move_limit = move_limit
        """The stated limit of a whole move; its search stops early enough to keep it
        (``MoveClock``), even in the depths up to ``min_depth``."""
        self.clock = MoveClock(move_limit) if move_limit is not None else None
        self.node_limit = node_limit
        self.app = app
        if app:
            self.engine = AlphaBeta(lambda n: app_evaluation(n, n[4]), auto_only=True,
                                    terminal=lambda n: app_evaluation(n, n[4]))
        else:
            w = weights or Weights()
            self.engine = AlphaBeta(lambda n: our_evaluation(n, w),
                                    endgame_empties=endgame_empties)
        self.last: SearchResult | None = None

    @property
    def hard_limit(self) -> float | None:
        """Seconds from the start of the move after which even ``min_depth`` stops."""
        return self.clock.budget() if self.clock is not None else None

    def choose(self, view: JSONMapping) -> str:
        text = super().choose(view)
        if self.clock is not None and self.last is not None and self.last_started:
            self.clock.done(self.last_started)
        return text

    def pick(self, state: ReverStarGoState) -> Move:
        kids = root_children(state, auto_only=self.app)
        self.last = None
        self.last_started = self.started
        if len(kids) == 1:
            return kids[0][0]
        empties = (STONE_CELLS & ~(state.black | state.white)).bit_count()
        node = (state.black, state.white, state.captured[0], state.captured[1], state.turn)
        self.last = self.engine.search(kids, empties, self.depth, self.time_limit,
                                       self.min_depth, self.hard_limit, self.node_limit,
                                       started=self.started or None, node=node)
        assert self.last.move is not None
        return self.last.move


MAX_DEPTH = 7  # MAX's fixed depth (6 only drew with app-final: docs/benchmarks.md)
MAX_ENDGAME_NODES = 60_000  # ≈ 1 s at 61 k nodes/s (10 empties: mean 0.28 s, most 3.7 s)
MAX_ENDGAME_SECONDS = 1.0  # ... and within this many seconds from the start of the move
MAX_LIMIT = 10.0  # seconds: MAX's stated limit per move (the server allows any bot 10 s);
# its 7 plies stop only if they would pass it (on a machine busy enough to need that)
FINAL_LIMIT = 2.0  # seconds: FINAL's stated limit per move, whatever the load
LEVELS = ("entry", "beginner", "intermediate", "advanced", "formidable", "max", "final",
          "learned")
"""The levels offered to players; the app's seven first (the ladder's seven tiers), then ours
above FINAL: ``learned`` is FINAL's search with an evaluation learned by self-play."""
REFERENCE_LEVELS = ("app-formidable", "app-max", "app-final")
ALIASES = {str(i): name for i, name in enumerate(LEVELS, 1)}


def make_bot(level: str, seed: int = 0) -> ReverStarGoBot:
    """A bot of the named level (``1``–``8`` also accepted)."""
    name = ALIASES.get(str(level), str(level).lower())
    if name in LEVELS[:5] or name == "app-formidable":
        return AppPolicyBot(name, seed)
    if name == "max":
        # 7 plies always; the exact endgame beyond them only within MAX_ENDGAME_NODES (an
        # unbounded solve from 10 empties took up to 9.5 s on a loaded machine)
        # and MAX_ENDGAME_SECONDS; on a machine so busy that even the 7 plies would pass
        # MAX_LIMIT, the last completed depth
        return SearchBot("max", seed, depth=MAX_DEPTH, endgame_empties=10,
                         min_depth=MAX_DEPTH, node_limit=MAX_ENDGAME_NODES,
                         time_limit=MAX_ENDGAME_SECONDS, move_limit=MAX_LIMIT)
    if name == "final":  # MAX's depth first, unless that alone would pass 2 s a move
        return SearchBot("final", seed, depth=30, time_limit=1.5, endgame_empties=14,
                         min_depth=MAX_DEPTH, move_limit=FINAL_LIMIT)
    if name == "learned":  # NumPy (the learned extra) only for this level
        from .learned import LearnedBot
        return LearnedBot(seed)
    if name == "app-max":
        return SearchBot("app-max", seed, depth=3, app=True)
    if name == "app-final":
        return SearchBot("app-final", seed, depth=6, app=True)
    raise ValueError(f"unknown reverstargo level {level!r}; levels: "
                     + ", ".join(LEVELS + REFERENCE_LEVELS))
