"""What Reversi brings to the platform: its move-feedback evaluator, feedback scale, tutorial
(``tutorial.json``), ladder levels and seeded openings (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from ...core import Analyst, GameProgression, State, Thresholds
from ...core.hooks import ExplorerSpec, PuzzleJudge
from ...core.jsontypes import JSONMapping
from .game import PASS, ReversiState
from .views import reversi_view


class ReversiEvaluator:
    """Values from the Reversi bots' alpha-beta: each move's child searched ``depth``−1 plies,
    exact once few squares are empty (as the bots do)."""

    def __init__(self, depth: int = 3) -> None:
        from ...search.alphabeta import AlphaBeta
        from .bots import ReversiAdapter

        self.depth = depth
        self.adapter = ReversiAdapter()
        self.searcher = AlphaBeta(self.adapter)

    def move_values(self, state: State) -> dict[str, float]:
        if not isinstance(state, ReversiState):
            raise TypeError("the Reversi evaluator reads Reversi states only")
        black, white, turn = state.black, state.white, state.turn
        mine, theirs = (black, white) if turn == 0 else (white, black)
        pos = (mine, theirs, turn)
        empties = 64 - (mine | theirs).bit_count()
        depth = empties + 4 if empties <= 2 * self.depth else self.depth
        out = {}
        for move in self.adapter.moves(pos):
            child = self.adapter.play(pos, move)
            if self.adapter.is_terminal(child):
                value = -self.adapter.terminal_value(child)
            else:
                self.searcher.reset()
                value = -self.searcher.search(child, max(1, depth - 1)).value
            out["pass" if move == PASS else state.move_text(move)] = value
        return out


def _disc(view: JSONMapping, square: str) -> str:
    """The disc on ``square`` of a view (``B``, ``W`` or ``.``)."""
    view = reversi_view(view)
    return str(view["board"][8 - int(square[1])]["abcdefgh".index(square[0])])


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
    explorer_sets={"reversi": {}},
    puzzle_sets={"reversi": {}},
    evaluator=lambda options: ReversiEvaluator(),
    # Reversi bots: square weights (a corner is 100) + 8 per mobility move; exact endgame
    # values are ±100 000 + disc difference (bots.WIN); scale fitted by
    # bench/progression_feedback_scale.py (log-loss 0.55 against 0.693 for a coin)
    thresholds=lambda options: Thresholds(scale=56.0, win_value=50_000.0),
    tutorial="tutorial.json",
    tutorial_functions={"disc": _disc},
    # the random mover as Lv.1 (weaker than any search), then alpha-beta depths 1–6
    ladder_levels=("random", "1", "2", "3", "4", "5", "6"),
    opening_plies=(4, 10),
)
