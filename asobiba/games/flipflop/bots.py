"""FlipFlop bots, levels 1–5 on each board. Every bot sees views only: FlipFlop is perfect
information, so a bot rebuilds the state (history included, for repetitions) with
``GAME.state_from_view``.

Level 6 (``learned.py``) is level 5 on 5×5 with an evaluation learned by self-play (the same
search, clock and tables); on 3×3 it is level 5's perfect play.

Levels differ by how far they look and how noisy their judgement is; all break ties with
their seeded ``Rng``, so two games between the same levels are not the same game. On 3×3,
level 5 plays perfectly from the solved table (re-solving with the game's history when a
position has already occurred twice, so the repetition rule is respected exactly). On 5×5,
level 5 plays a value-optimal move (fastest win, draw, slowest loss) whenever the position is
inside the endgame tables (≤ 5 pieces, :mod:`.tables`), and its search scores table
positions exactly at every node.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...core import Bot, Rng
from ...core.jsontypes import JSONMapping, JSONObject
from ...search.budget import MoveClock
from . import board as bd
from . import solver3, tables
from .notation import FFMove, move_text
from .search import MATERIAL_ONLY, Searcher, Weights

if TYPE_CHECKING:
    from ...learn.ntuple import NTuple
    from .game import FlipFlopState


@dataclass(frozen=True)
class Plan:
    depth: int
    weights: Weights
    time_limit: float | None = None
    tables: bool = False
    """Use the 5×5 endgame tables (perfect play inside them, exact leaves in the search)."""
    learned: bool = False
    """The evaluation learned by self-play (``learned.py``) instead of ``weights``."""


PLANS: dict[int, dict[str, Plan | None]] = {
    3: {
        "1": None,
        "2": Plan(1, Weights(noise=60)),
        "3": Plan(2, Weights(noise=25)),
        "4": Plan(3, Weights(noise=60)),
        "5": None,  # perfect: the retrograde table
        "6": None,  # the same perfect play: nothing is stronger on the solved board
    },
    5: {
        "1": None,
        "2": Plan(1, replace(MATERIAL_ONLY, noise=60)),
        "3": Plan(2, Weights(noise=40)),
        "4": Plan(4, Weights(noise=5)),
        "5": Plan(64, Weights(), time_limit=1.8, tables=True),
        "6": Plan(64, Weights(), time_limit=1.8, tables=True, learned=True),
    },
}
LEVELS = ("1", "2", "3", "4", "5", "6")


def _state(view: JSONMapping) -> FlipFlopState:
    from .game import GAME

    return GAME.state_from_view(view)


def _to_move(state: FlipFlopState, pair: tuple[int, int]) -> FFMove:
    mv: FFMove
    for mv in state.legal_moves():
        if (mv.frm, mv.to) == pair:
            move: FFMove = mv
            return move
    raise ValueError(f"search returned {pair}, which is not a legal move")


class FlipFlopBot(Bot):
    """One level on either board (the board comes from the options at ``reset``)."""

    def __init__(self, level: str, seed: int = 0, time_limit: float | None = None,
                 max_depth: int | None = None, model: NTuple | None = None) -> None:
        super().__init__(seed)
        self.max_depth = max_depth
        """Overrides the level's depth (tests and benches that must not depend on time)."""
        if level not in LEVELS:
            raise ValueError(f"unknown FlipFlop bot level {level!r}; levels: 1–6")
        self.level = level
        self.model = model
        """Level 6's tables (None: the shipped ones; benches give others)."""
        self.name = f"flipflop-{level}"
        self.time_limit = time_limit
        self._searcher: Searcher | None = None
        self._clock: MoveClock | None = None
        self.last_info: JSONObject = {}

    def reset(self, seat: int, options: JSONMapping) -> None:
        super().reset(seat, options)
        self._searcher = None

    def choose(self, view: JSONMapping) -> str:
        started = time.perf_counter()
        state = _state(view)
        legal = list(state.legal_moves())
        if not legal:
            raise ValueError("FlipFlop bot asked to move with no legal move")
        n = state.n
        if self.level == "1":
            return move_text(n, self._level1(state, legal))
        if n == 3 and self.level in ("5", "6"):
            return move_text(n, perfect_move(state, self.rng)[0])
        plan = PLANS[n][self.level]
        assert plan is not None
        tab = tables.load() if plan.tables and n == 5 else None
        if tab is not None and tab.covers(state.white, state.black):
            mv, value, dist = table_move(state, tab, self.rng)
            self.last_info = {"table": tables.NAMES[value], "plies": dist}
            return move_text(n, mv)
        if self._searcher is None:
            adapter = None
            salt = self.rng.next64()
            if plan.learned:  # NumPy (the learned extra) only for this level
                from .learned import LearnedAdapter, shipped

                adapter = LearnedAdapter(self.model or shipped(), salt, tab)
            self._searcher = Searcher(n, plan.weights, salt=salt, tables=tab, adapter=adapter)
        else:
            self._searcher.salt = self.rng.next64()
        counts = Counter(state.history)
        counts[state.key] += 1
        order = self.rng.shuffled([(m.frm, m.to) for m in legal])
        limit = self.time_limit if self.time_limit is not None else plan.time_limit
        if self.max_depth is not None:
            limit = self.time_limit
        depth = self.max_depth if self.max_depth is not None else plan.depth
        clock = None
        if limit is not None:  # the whole move, set-up included, within the limit
            if self._clock is None or self._clock.limit != limit:
                self._clock = MoveClock(limit)
            clock = self._clock
            limit = clock.budget()
        res = self._searcher.search(state.tuple4(), depth, limit, counts, order, started)
        self.last_info = {"depth": res.depth, "nodes": res.nodes, "value": res.value,
                          "seconds": res.seconds}
        assert res.move is not None
        text = move_text(n, _to_move(state, res.move))
        if clock is not None:
            clock.done(started)
        return text

    def _level1(self, state: FlipFlopState, legal: list[FFMove]) -> FFMove:
        """Random, except that it takes a move that wins at once and retakes its goal."""
        for mv in legal:
            child = state.child(mv)
            out = child.outcome
            if out is not None and out.ranks[state.turn] == 1 and not out.is_draw:
                return mv
        home = state.geometry.home_centre[state.turn]
        retakes = [mv for mv in legal if mv.to == home and mv.capture]
        theirs = state.black if state.turn == bd.WHITE else state.white
        if theirs >> home & 1 and retakes:
            return self.rng.choice(retakes)
        return self.rng.choice(legal)


# ---- perfect 3×3 play ----------------------------------------------------------------------
_HISTORY_CACHE: dict[tuple[int, frozenset[int]], solver3.Solution] = {}


def move_scores(state: FlipFlopState) -> list[tuple[FFMove, int, int]]:
    """Each legal move with (value, distance) for the mover, under the real repetition rule:
    the plain table when no position has occurred twice, otherwise a re-solve in which the
    positions seen twice are draws (their third occurrence)."""
    counts = Counter(state.history)
    counts[state.key] += 1
    blocked = frozenset(k for k, c in counts.items() if c >= 2)
    solution = None
    if blocked:
        cache_key = (state.key, blocked)
        solution = _HISTORY_CACHE.get(cache_key)
        if solution is None:
            if len(_HISTORY_CACHE) > 64:
                _HISTORY_CACHE.clear()
            w, b, x, t = state.tuple4()
            solution = solver3.solve_with_history(w, b, x, t, blocked)
            _HISTORY_CACHE[cache_key] = solution
    out = []
    for mv in state.legal_moves():
        child = state.child(mv)
        outcome = child.outcome
        if outcome is not None:  # the move ends the game
            if outcome.is_draw:
                out.append((mv, solver3.DRAW, 1))
            else:
                won = outcome.ranks[state.turn] == 1
                out.append((mv, solver3.WIN if won else solver3.LOSS, 1))
            continue
        if solution is not None:
            value, dist = solution.lookup(child.key)
        else:
            value, dist = solver3.value_of(*child.tuple4())
        mine = {solver3.WIN: solver3.LOSS, solver3.LOSS: solver3.WIN}.get(value, solver3.DRAW)
        out.append((mv, mine, dist + 1))
    return out


def _rank(value: int, dist: int) -> tuple[int, int]:
    """Sort key: fastest win, then draw, then slowest loss."""
    if value == solver3.WIN:
        return (0, dist)
    if value == solver3.DRAW:
        return (1, 0)
    return (2, -dist)


def perfect_move(state: FlipFlopState, rng: Rng | None = None) -> tuple[FFMove, int, int]:
    """An optimal move with its (value, distance); ties broken by ``rng``."""
    scored = move_scores(state)
    best = min(_rank(v, d) for _, v, d in scored)
    choices = [s for s in scored if _rank(s[1], s[2]) == best]
    return rng.choice(choices) if rng is not None else choices[0]


# ---- perfect 5×5 play inside the endgame tables -------------------------------------------
def table_scores(state: FlipFlopState, tab: tables.EndgameTables
                 ) -> list[tuple[FFMove, int, int]]:
    """Each legal move with (value, distance) for the mover, from the endgame tables. A move
    that ends the game (goal held, opponent stuck, a third occurrence) is scored by the
    game itself, so a move into a position already seen twice is the draw it is."""
    out = []
    for mv in state.legal_moves():
        child = state.child(mv)
        outcome = child.outcome
        if outcome is not None:
            if outcome.is_draw:
                out.append((mv, tables.DRAW, 1))
            else:
                won = outcome.ranks[state.turn] == 1
                out.append((mv, tables.WIN if won else tables.LOSS, 1))
            continue
        value, dist = tab.lookup(*child.tuple4())
        mine = {tables.WIN: tables.LOSS, tables.LOSS: tables.WIN}.get(value, tables.DRAW)
        out.append((mv, mine, dist + 1))
    return out


def table_move(state: FlipFlopState, tab: tables.EndgameTables, rng: Rng | None = None
               ) -> tuple[FFMove, int, int]:
    """A value-optimal move inside the tables (fastest win, a draw, slowest loss)."""
    scored = table_scores(state, tab)
    best = min(_rank(v, d) for _, v, d in scored)
    choices = [s for s in scored if _rank(s[1], s[2]) == best]
    return rng.choice(choices) if rng is not None else choices[0]


def make_bot(level: str, seed: int = 0, time_limit: float | None = None,
             max_depth: int | None = None, model: NTuple | None = None) -> FlipFlopBot:
    return FlipFlopBot(str(level), seed, time_limit, max_depth, model)
