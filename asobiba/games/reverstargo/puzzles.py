"""ReverStarGo's puzzle judge (docs/puzzles.md).

* **Endings** (at most :data:`EXACT_EMPTIES` empty cells): ReverStarGo's alpha-beta below
  every legal move to the end of the game (``ReverStarGoEvaluator`` with its endgame depth),
  values ±1 000 000 + the final margin — exact, with one caveat written down: the search applies
  the ko rule at the root, not below it.
* **Middle game** (:data:`EXACT_EMPTIES` < empties <= :data:`MID_EMPTIES`): the same search at
  :data:`DEPTH` plies and one shallower; the verdict stands only when both name the same best
  move, which must keep the mover at least even (:data:`BEST_MIN`) and make every other move a
  **blunder** by the game's own review scale: a loss of at least :data:`CHANCE_DROP` (0.30,
  ``Thresholds.blunder``) in winning chance, the chance of a value ``v`` being
  1/(1+e^(−v/:data:`SCALE`)) with ReverStarGo's scale of 66 (``progression.PROGRESSION``). The
  bound follows from the best move's value: a clear margin at an even position (≈ 81 at 0),
  a wider one when the mover is already well ahead (≈ 330 at 200). Proven cheaply (``_middle``): the
  shallow search picks the candidate, one full-window search at :data:`DEPTH` values it, and
  every other move gets a *null-window* search that only proves "at most the bound" (the first move that fails the proof ends the judging: no puzzle). The
  verdict holds the candidate's value and the other moves' proven upper bounds — the same
  criterion as comparing full values, at a fraction of the nodes (docs/puzzles.md)."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from ...core import State
from ...core.hooks import Verdict
from ...core.jsontypes import JSONMapping
from .board import STONE_CELLS
from .bots import root_children
from .game import ReverStarGoState
from .progression import ReverStarGoEvaluator

EXACT_EMPTIES = 6
MID_EMPTIES = 30
DEPTH = 3
SCALE = 66.0
"""ReverStarGo's ``Thresholds.scale`` (progression.py; a test keeps them equal)."""
CHANCE_DROP = 0.30
"""Every other move loses at least this much winning chance (the review's blunder band)."""
BEST_MIN = 0.0
WIN = 500_000.0
NULL = 1e-6
"""The width of the null window (the evaluation's values are floats)."""


def chance(value: float) -> float:
    """The mover's winning chance at ``value`` (the review's logistic, scale :data:`SCALE`)."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / SCALE))))


def blunder_bound(best: float) -> float:
    """The highest value another move may have for ``best`` to be clearly best: its winning
    chance :data:`CHANCE_DROP` below the best's (−inf past the bottom: nothing qualifies)."""
    p = chance(best) - CHANCE_DROP
    if p <= 0.0:
        return -math.inf
    return SCALE * math.log(p / (1.0 - p))


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
        if _empties(state) <= EXACT_EMPTIES:
            return Verdict(self.exact.move_values(state), exact=True, win_value=WIN)
        return self._middle(state)

    def _middle(self, state: ReverStarGoState) -> Verdict | None:
        """The middle game's clearly-best test by null windows (the module's docstring)."""
        children = root_children(state, auto_only=False)
        if len(children) < 2:
            return None
        shallow = self.shallow.move_values(state)
        best = max(shallow, key=lambda m: (shallow[m], m))
        engine = self.exact.engine
        engine.tt.clear()
        engine.kids.clear()
        inf = float("inf")
        texts = [state.move_text(move) for move, _, _ in children]
        nodes = dict(zip(texts, (node for _, node, _ in children), strict=True))
        v_best = -engine.negamax(nodes[best], DEPTH - 1, -inf, inf)
        if v_best < BEST_MIN:
            return None
        # every other move must be at most ``bound``: a proven win against no other win, or
        # a blunder (CHANCE_DROP of winning chance lost)
        bound = WIN - 1.0 if v_best >= WIN else blunder_bound(v_best)
        values = {best: v_best}
        for text in texts:
            if text == best:
                continue
            # a null window just above ``bound``: fails low (value <= bound) or it is no puzzle
            v = -engine.negamax(nodes[text], DEPTH - 1, -(bound + NULL), -bound)
            if v > bound:
                return None
            values[text] = v
        margin = v_best - bound if v_best < WIN else 0.0
        return Verdict(values, exact=False, win_value=WIN, margin=margin, best_min=BEST_MIN)

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
