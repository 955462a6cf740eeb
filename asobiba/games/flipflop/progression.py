"""What FlipFlop brings to the platform: move-feedback evaluators (exact on 3×3 from the
solved table, its alpha-beta on 5×5) and their scales, the tutorial (``tutorial.json``) and
seeded openings (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from collections import Counter

from ...core import Analyst, AnyEvaluator, GameProgression, State, Thresholds
from ...core.hooks import ExplorerSpec, PuzzleJudge
from ...core.jsontypes import JSONMapping
from .game import FlipFlopState
from .views import flipflop_view


class FlipFlop3Evaluator:
    """Exact values on 3×3 from FlipFlop's solved table (its ``move_scores``, which follows
    the repetition rule): a win is worth 1000 − its length, a loss −(1000 − length), a draw 0,
    so a faster win and a slower loss are the better moves."""

    def move_values(self, state: State) -> dict[str, float]:
        from . import solver3
        from .bots import move_scores

        if not isinstance(state, FlipFlopState):
            raise TypeError("the FlipFlop evaluator reads FlipFlop states only")
        out = {}
        for move, value, dist in move_scores(state):
            v = 0.0 if value == solver3.DRAW else 1000.0 - dist
            out[state.move_text(move)] = -v if value == solver3.LOSS else v
        return out


class FlipFlop5Evaluator:
    """FlipFlop's own alpha-beta (``search.Searcher``, the default weights, no noise) run
    to a fixed ``depth`` below each legal move — no clock; one transposition table per
    position, shared by its moves in a fixed order, so the same position always gets the
    same values. Repetitions in the game's history count as the game counts them. Values:
    the evaluation in its own units (a piece is 120); a forced win found ``p`` plies ahead is
    ±(100 000 − p)."""

    def __init__(self, depth: int = 3) -> None:
        self.depth = depth

    def move_values(self, state: State) -> dict[str, float]:
        from .search import WIN, Searcher

        if not isinstance(state, FlipFlopState):
            raise TypeError("the FlipFlop evaluator reads FlipFlop states only")
        out: dict[str, float] = {}
        seat = state.to_move
        searcher = Searcher(state.n)
        for mv in state.legal_moves():
            child = state.child(mv)
            assert isinstance(child, FlipFlopState)
            outcome = child.outcome
            if outcome is not None:
                value = 0.0 if outcome.is_draw else (WIN if seat in outcome.winners else -WIN)
            else:
                counts = Counter(child.history)
                counts[child.key] += 1
                res = searcher.search(child.tuple4(), self.depth, None, counts)
                value = -float(res.value)
            out[state.move_text(mv)] = value
        return out


def _evaluator(options: JSONMapping) -> AnyEvaluator:
    return FlipFlop3Evaluator() if options.get("board", "3x3") == "3x3" else FlipFlop5Evaluator()


FLIPFLOP3 = Thresholds(scale=1.0, win_value=500.0)
"""3×3: exact values from the solved table (win/draw/loss); chances 1, ½, 0."""
FLIPFLOP5 = Thresholds(scale=175.0, win_value=90_000.0)
"""5×5: scale fitted by bench/progression_feedback_scale.py flipflop 24: 174.3 on 418
positions (log-loss 0.672 against 0.693 for a coin: the search's evaluation predicts results
of these bot games only weakly, so the bands mostly speak when a move changes the material
or the goal threats)."""


def _thresholds(options: JSONMapping) -> Thresholds:
    return FLIPFLOP5 if options.get("board", "3x3") == "5x5" else FLIPFLOP3


def _square(view: JSONMapping, square: str) -> str:
    """The piece on ``square`` of a view (``R``/``B`` White's rook/bishop face, lower case
    Black's, ``.`` empty)."""
    v = flipflop_view(view)
    return v["board"][v["board_size"] - int(square[1:])]["abcde".index(square[0])]


def _analyst(options: JSONMapping) -> Analyst:
    """The analysis board's engine (``analyst.py``; imported when first asked for)."""
    from .analyst import analyst

    return analyst()


def _puzzles(options: JSONMapping) -> PuzzleJudge:
    """s10-puzzles: the puzzle miner's judge (docs/puzzles.md)."""
    from .puzzles import make_judge

    return make_judge(options)


def _explorer(options: JSONMapping) -> ExplorerSpec:
    """s10-explorer2: the opening explorer's parts (``explorer.py``; docs/explorer.md)."""
    from .explorer import explorer

    return explorer(options)


PROGRESSION = GameProgression(
    analyst=_analyst,
    puzzles=_puzzles,
    explorer=_explorer,
    explorer_sets={"flipflop-3x3": {"board": "3x3"}, "flipflop-5x5": {"board": "5x5"}},
    puzzle_sets={"flipflop": {"board": "3x3"}, "flipflop5": {"board": "5x5"}},
    evaluator=_evaluator,
    thresholds=_thresholds,
    tutorial="tutorial.json",
    tutorial_functions={"square": _square},
    opening_plies=(0, 2),
    # the seven tiers of levels 1–5 as before level 6 existed (spread evenly over five);
    # level 6 (learned, 5×5) is above the ladder, as Reversi's 7 and ReverStarGo's LEARNED
    ladder_levels=("1", "2", "2", "3", "4", "4", "5"),
)
