"""FlipFlop's puzzle judge (docs/puzzles.md).

* **3×3** — exact, from the solved table under the real repetition rule (``bots.move_scores``):
  a win is worth 1000 − its length in plies, a loss −(1000 − length), a draw 0.
* **5×5** — FlipFlop's own alpha-beta (``search.Searcher``) below every legal move, at
  :data:`DEPTH5` and again one ply shallower: the verdict stands only when both depths name the
  same best move (otherwise ``None``). A forced win it finds (±(100 000 − plies)) is proven;
  other values are evaluations (a piece is 120), so a move is *clearly best* only by
  :data:`MARGIN5` over the next one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...core import State
from ...core.hooks import Verdict
from ...core.jsontypes import JSONMapping
from .game import FlipFlopState
from .progression import FlipFlop3Evaluator, FlipFlop5Evaluator

DEPTH5 = 3
MARGIN5 = 300.0
"""Two and a half pieces: the second-best move must fall this far behind the best."""
BEST_MIN5 = 150.0
"""…and the best must leave the mover at least a piece and a bit ahead."""
WIN5 = 90_000.0


class FlipFlopJudge:
    def __init__(self, n: int) -> None:
        self.n = n
        self.selfplay_levels: tuple[str, ...] = ("random",) if n == 3 else ("random", "1")

    def candidate(self, state: State) -> bool:
        if not (isinstance(state, FlipFlopState) and not state.is_over
                and len(state.legal_moves()) >= 2):
            return False
        if self.n == 3:
            return True
        # 5×5: a one-ply look first (cheap), the full judgement only where it already sees a
        # move standing out
        ranked = sorted(FlipFlop5Evaluator(1).move_values(state).values(), reverse=True)
        return ranked[0] >= WIN5 or (ranked[0] - ranked[1] >= MARGIN5 / 2 and ranked[0] >= 0)

    def judge(self, state: State) -> Verdict | None:
        if not isinstance(state, FlipFlopState) or state.is_over:
            return None
        if self.n == 3:
            return Verdict(FlipFlop3Evaluator().move_values(state), exact=True, win_value=1.0)
        deep = FlipFlop5Evaluator(DEPTH5).move_values(state)
        best = max(deep, key=lambda m: (deep[m], m))
        if deep[best] < WIN5:  # an evaluation, not a proof: ask one ply shallower too
            shallow = FlipFlop5Evaluator(DEPTH5 - 1).move_values(state)
            if max(shallow, key=lambda m: (shallow[m], m)) != best:
                return None
        return Verdict(deep, exact=False, win_value=WIN5, margin=MARGIN5, best_min=BEST_MIN5)

    def key(self, state: State) -> str:
        assert isinstance(state, FlipFlopState)
        counts = Counter(state.history)
        counts[state.key] += 1
        twice = sorted(k for k, c in counts.items() if c >= 2)
        return f"{state.n}:{state.key}:{','.join(map(str, twice))}"

    def themes(self, state: State, line: Sequence[str]) -> list[str]:
        assert isinstance(state, FlipFlopState)
        tags = ["exact" if self.n == 3 else "search"]
        after: FlipFlopState = state
        n = self.n
        for i, text in enumerate(line):
            mv = after.parse(text)
            if i % 2 == 0:
                if mv.capture:
                    tags.append("capture")
                target = (n - 1) * n + n // 2 if after.turn == 0 else n // 2
                if mv.to == target:
                    tags.append("goal")
                if i == 0:
                    tags.append("bishop" if mv.bishop else "rook")
            nxt = after.child(mv)
            assert isinstance(nxt, FlipFlopState)
            after = nxt
        # the solution line ends in a won game, or the win is forced from there
        if after.is_over and after.outcome is not None and not after.outcome.is_draw:
            tags.append("mate")
        tags.append("one_move" if len(line) == 1 else "long" if len(line) >= 5 else "short")
        return sorted(set(tags))


def make_judge(options: JSONMapping) -> FlipFlopJudge:
    return FlipFlopJudge(5 if options.get("board", "3x3") == "5x5" else 3)
