"""What ReverStarGo brings to the platform: its move-feedback evaluator and scale, tutorial
(``tutorial.json``), the app's seven CPU levels for the ladder, seeded openings and the
reverse-match tie-break (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from ...core import Analyst, GameProgression, State, Thresholds
from ...core.hooks import ExplorerSpec, PuzzleJudge
from ...core.jsontypes import JSONMapping
from .board import LABELS
from .game import ReverStarGoState
from .views import reverstargo_view


class ReverStarGoEvaluator:
    """Values from ReverStarGo's own alpha-beta (``search.AlphaBeta`` with its evaluation):
    each legal move — ko respected, both CP calls where they differ — searched ``depth``−1
    plies below it with a full window, exact when few cells are empty."""

    def __init__(self, depth: int = 3, endgame_empties: int = 6) -> None:
        from .search import AlphaBeta, our_evaluation

        self.depth = depth
        self.engine = AlphaBeta(our_evaluation, endgame_empties=endgame_empties)

    def move_values(self, state: State) -> dict[str, float]:
        from .board import STONE_CELLS
        from .bots import root_children

        if not isinstance(state, ReverStarGoState):
            raise TypeError("the ReverStarGo evaluator reads ReverStarGo states only")
        empties = (STONE_CELLS & ~(state.black | state.white)).bit_count()
        depth = empties + 4 if empties <= self.engine.endgame_empties else self.depth
        self.engine.tt.clear()
        self.engine.kids.clear()
        inf = float("inf")
        return {state.move_text(move): -self.engine.negamax(node, depth - 1, -inf, inf)
                for move, node, _ in root_children(state, auto_only=False)}


def _cell(view: JSONMapping, label: str) -> str:
    """The stone on cell ``label`` of a view's board text (``B``, ``W`` or ``.``)."""
    view = reverstargo_view(view)
    return str(view["board"][LABELS.index(label)])


def _captures(view: JSONMapping) -> tuple[float, ...]:
    view = reverstargo_view(view)
    return tuple(float(x) for x in view["captured"])


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
    explorer_sets={"reverstargo": {}},
    puzzle_sets={"reverstargo": {}},
    evaluator=lambda options: ReverStarGoEvaluator(),
    # its search's evaluation (cell classes, captures ×5, ring, mobility); exact values are
    # ±1 000 000 + margin (search.WIN); scale fitted like Reversi's
    thresholds=lambda options: Thresholds(scale=66.0, win_value=500_000.0),
    tutorial="tutorial.json",
    tutorial_functions={"cell": _cell},
    # the app's seven CPU levels, one to one
    ladder_levels=("entry", "beginner", "intermediate", "advanced", "formidable", "max",
                   "final"),
    opening_plies=(2, 6),
    view_tiebreak=_captures,  # REFERENCE: "ties broken by summed captures"
)
