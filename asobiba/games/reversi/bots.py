"""Reversi bots, graded as Egaroucid grades its levels: level N searches N plies in the
midgame with alpha-beta and solves the endgame exactly once 2N or fewer squares are empty.
Level 7 (``learned.py``) is the same search with an evaluation learned by self-play.

Bots see views only: a Reversi view holds the whole position, so ``state_from_view`` rebuilds
it and the search runs on bitboard tuples ``(mine, theirs, seat)``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ...core import Bot, RandomBot
from ...core.jsontypes import JSONMapping
from ...search.adapter import Decides, Orders, Terminates
from ...search.alphabeta import AlphaBeta, SearchResult
from ...search.budget import MoveClock
from . import bitboard as bb
from .game import GAME, PASS, ReversiState
from .views import reversi_view

# Square weights (a1 = index 0): corners good, X- and C-squares next to empty corners bad.
_W = [
    100, -20, 10, 5, 5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
    10, -2, 1, 1, 1, 1, -2, 10,
    5, -2, 1, 0, 0, 1, -2, 5,
    5, -2, 1, 0, 0, 1, -2, 5,
    10, -2, 1, 1, 1, 1, -2, 10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10, 5, 5, 10, -20, 100,
]
# Group squares by weight so evaluation is a few popcounts instead of 64 lookups.
_MASKS: list[tuple[int, int]] = []
for _w in sorted(set(_W)):
    _m = 0
    for _sq, _v in enumerate(_W):
        if _v == _w:
            _m |= 1 << _sq
    _MASKS.append((_w, _m))
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
WIN = 100_000


Pos = tuple[int, int, int]


class ReversiAdapter(Orders[Pos, int], Decides[Pos], Terminates[Pos]):
    """Search positions are ``(mine, theirs, seat)``; passes are moves, so turns alternate."""

    def moves(self, pos: Pos) -> Sequence[int]:
        p, o, _ = pos
        mask = bb.legal_mask(p, o)
        return bb.squares(mask) if mask else [PASS]

    def order(self, pos: Pos, moves: Sequence[int], first: int | None, depth: int
              ) -> list[int]:
        """The table's move first, then by square weight (corners first)."""
        ordered = sorted(moves, key=lambda m: -_W[m] if m >= 0 else 0)
        if first is not None and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def play(self, pos: Pos, move: int) -> Pos:
        p, o, seat = pos
        if move == PASS:
            return (o, p, 1 - seat)
        f = bb.flips(p, o, move)
        return (o ^ f, p | f | (1 << move), 1 - seat)

    def is_terminal(self, pos: Pos) -> bool:
        p, o, _ = pos
        return not bb.legal_mask(p, o) and not bb.legal_mask(o, p)

    def decided(self, pos: Pos) -> float | None:
        """The exact value when neither side can place a disc."""
        p, o, _ = pos
        if bb.legal_mask(p, o) or bb.legal_mask(o, p):
            return None
        return self.terminal_value(pos)

    def terminal_value(self, pos: Pos) -> float:
        diff = pos[0].bit_count() - pos[1].bit_count()
        return diff + (WIN if diff > 0 else -WIN if diff < 0 else 0)

    def evaluate(self, pos: Pos) -> float:
        p, o, _ = pos
        score = 0
        for w, m in _MASKS:
            score += w * ((p & m).bit_count() - (o & m).bit_count())
        # X/C squares are only bad next to an empty corner: refund when the corner is taken
        taken = (p | o) & CORNERS
        if taken:
            for corner, near in ((0, 0x302), (7, 0xC040), (56, 0x0203000000000000),
                                 (63, 0x40C0000000000000)):
                if taken >> corner & 1:
                    score += 30 * ((p & near).bit_count() - (o & near).bit_count())
        mp = bb.legal_mask(p, o).bit_count()
        mo = bb.legal_mask(o, p).bit_count()
        score += 8 * (mp - mo)
        return score

    def key(self, pos: Pos) -> tuple[int, int]:
        return pos[0], pos[1]


class AlphaBetaBot(Bot):
    """Level N: N plies of alpha-beta, exact endgame at 2N empties, optional time limit."""

    def __init__(self, level: int, seed: int = 0, time_limit: float | None = None) -> None:
        super().__init__(seed)
        self.level = str(level)
        self.depth = level
        self.time_limit = time_limit
        self.clock = MoveClock(time_limit) if time_limit is not None else None
        self.name = f"reversi-ab{level}"
        # levels 1-3 break ties between equal moves at random, for variety
        self.searcher = AlphaBeta(ReversiAdapter(), rng=self.rng if level <= 3 else None)
        self.game = GAME
        self.last_result: SearchResult[int] | None = None

    def endgame_from(self) -> int:
        """Empties from which the endgame is solved exactly (2N at level N)."""
        return 2 * self.depth

    def choose(self, view: JSONMapping) -> str:
        view = reversi_view(view)
        started = time.perf_counter()
        legal = view["legal_moves"]
        if len(legal) == 1:
            return str(legal[0])
        state = self.game.state_from_view(view)
        mine, theirs = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        # the whole move, set-up included, within the limit
        limit = self.clock.budget() if self.clock is not None else None
        return self.search_move(state, mine, theirs, limit, started)

    def search_move(self, state: ReversiState, mine: int, theirs: int, limit: float | None,
                    started: float) -> str:
        """The search's move from ``state`` (``mine``/``theirs``: the mover's discs and the
        other's), exact from :meth:`endgame_from` empties, within ``limit`` seconds of
        ``started``; the move's time is told to the clock."""
        empties = 64 - (mine | theirs).bit_count()
        depth = empties + 4 if empties <= self.endgame_from() else self.depth
        self.searcher.reset()
        result = self.searcher.search((mine, theirs, state.turn), depth, limit,
                                      started=started)
        self.last_result = result
        text = state.move_text(result.move)
        if self.clock is not None:
            self.clock.done(started)
        return text


def make_bot(level: str, seed: int = 0) -> Bot:
    if level == "random":
        return RandomBot(seed)
    if level == "7":
        from .learned import LearnedBot  # NumPy (the learned extra) only for this level

        return LearnedBot(seed)
    try:
        n = int(level)
    except ValueError:
        n = -1
    if not 1 <= n <= 6:
        raise ValueError(f"reversi has no bot level {level!r}; levels: {', '.join(GAME.level_names())}")
    return AlphaBetaBot(n, seed, time_limit=1.0 if n >= 5 else None)
