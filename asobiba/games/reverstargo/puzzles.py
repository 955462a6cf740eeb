"""ReverStarGo's puzzle judge (docs/puzzles.md).

* **Endings** (at most :data:`EXACT_EMPTIES` empty cells): ReverStarGo's alpha-beta below
  every legal move to the end of the game (``ReverStarGoEvaluator`` with its endgame depth),
  values ±1 000 000 + the final margin — exact, with one caveat written down: the search applies
  the ko rule at the root, not below it.
* **Middle game** (up to :data:`MID_EMPTIES` empties): the same search at :data:`DEPTH` plies
  and one shallower; the verdict stands only when both name the same best move, which must
  beat the next one by :data:`MARGIN` (three of the feedback scale's units, 66)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ...core import State
from ...core.hooks import Verdict
from ...core.jsontypes import JSONMapping
from .board import STONE_CELLS
from .game import ReverStarGoState
from .progression import ReverStarGoEvaluator

EXACT_EMPTIES = 6
MID_EMPTIES = 6
DEPTH = 3
MARGIN = 200.0
BEST_MIN = 100.0
WIN = 500_000.0


def _empties(state: ReverStarGoState) -> int:
    return (STONE_CELLS & ~(state.black | state.white)).bit_count()


class ReverStarGoJudge:
    def __init__(self) -> None:
        self.exact = ReverStarGoEvaluator(depth=DEPTH, endgame_empties=EXACT_EMPTIES)
        self.shallow = ReverStarGoEvaluator(depth=DEPTH - 1, endgame_empties=0)

    selfplay_levels: tuple[str, ...] = ("random",)

    def candidate(self, state: State) -> bool:
        return (isinstance(state, ReverStarGoState) and not state.is_over
                and len(state.legal_moves()) >= 2 and _empties(state) <= MID_EMPTIES)

    def judge(self, state: State) -> Verdict | None:
        if not isinstance(state, ReverStarGoState) or state.is_over:
            return None
        values = self.exact.move_values(state)
        if _empties(state) <= EXACT_EMPTIES:
            return Verdict(values, exact=True, win_value=WIN)
        best = max(values, key=lambda m: (values[m], m))
        if values[best] < WIN:
            shallow = self.shallow.move_values(state)
            if max(shallow, key=lambda m: (shallow[m], m)) != best:
                return None
        return Verdict(values, exact=False, win_value=WIN, margin=MARGIN, best_min=BEST_MIN)

    def key(self, state: State) -> str:
        assert isinstance(state, ReverStarGoState)
        return (f"{state.black:x}:{state.white:x}:{state.captured[0]}:{state.captured[1]}:"
                f"{state.turn}:{state.previous}:"
                + hashlib.blake2b(repr(sorted(state.seen)).encode(), digest_size=6).hexdigest())

    def themes(self, state: State, line: Sequence[str]) -> list[str]:
        assert isinstance(state, ReverStarGoState)
        tags = ["ending" if _empties(state) <= EXACT_EMPTIES else "middlegame"]
        if _empties(state) <= EXACT_EMPTIES:
            tags.append("exact")
        after: ReverStarGoState = state
        for i, text in enumerate(line):
            nxt = after.play(text)
            assert isinstance(nxt, ReverStarGoState)
            if i % 2 == 0:
                mover = after.turn
                if nxt.captured[mover] > after.captured[mover]:
                    tags.append("capture")
                if text.startswith("D"):
                    tags.append("star_point")
                if text.startswith("CP"):
                    tags.append("core_point")
                if not nxt.is_over and nxt.turn == mover:
                    tags.append("tempo")  # the opponent must pass
            after = nxt
        if after.is_over:
            b, w = after.black.bit_count(), after.white.bit_count()
            if 0 in (b, w):
                tags.append("wipeout")
        tags.append("one_move" if len(line) == 1 else "long" if len(line) >= 5 else "short")
        return sorted(set(tags))


def make_judge(options: JSONMapping) -> ReverStarGoJudge:
    return ReverStarGoJudge()
