"""What Patapata brings to the platform: its move-feedback view evaluator (expected final
score, dice to come averaged) and scale, the tutorial (``tutorial.json``), the two-seat form
the ladder plays and the daily solo course (hooks: ``asobiba.core.hooks``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core import Daily, GameProgression, Rng, Thresholds
from ...core.hooks import PuzzleJudge
from ...core.jsontypes import JSONMapping, JSONObject
from .views import own_sheet, patapata_view

if TYPE_CHECKING:
    from .optimiser import Node


class PatapataEvaluator:
    """The optimiser's beam search (width ``width``, rank key ``hints.KEY``) over the rest
    of the course from the sheet each move leaves. What the mover cannot know — the dice
    still to be rolled on a dice course — is averaged over ``samples`` fixed futures drawn
    from a generator seeded by the task number only (never the game's seed), the same
    futures for every move compared (common random numbers): the value is the expected
    final score. A fixed-row course is printed on the public sheet, so one future.

    Values are centred on the best move (best = 0, others minus the points they cost), so
    the winning-chance curve reads a drop of points the same way at any score.

    There are hundreds of ways to clear a task; only the ``candidates`` best by the rank
    key, ``pass`` and the played move get a search (the best is the best of those).
    Step-by-step moves: a ``write`` is worth the best clear that contains every mark written
    for the task so far plus this one; ``switch`` and ``rotate`` change nothing and are worth
    the best clear still open."""

    sees = "views"

    def __init__(self, width: int = 8, samples: int = 2, candidates: int = 5) -> None:
        self.width = width
        self.samples = samples
        self.candidates = candidates

    def futures(self, view: JSONMapping, index: int) -> list[list[str]]:
        view = patapata_view(view)
        from .tasks import COURSE_LENGTH, TASK_SHEET

        mode = view["course"]["mode"]
        rest = range(index + 1, COURSE_LENGTH)
        if mode != "dice":
            return [[TASK_SHEET[int(mode) - 1][i] for i in rest]]
        rng = Rng(0, "feedback", "patapata", index)
        return [[TASK_SHEET[rng.below(3)][i] for i in rest] for _ in range(self.samples)]

    def values_from_views(self, views: Sequence[JSONMapping],
                          played: str | None = None) -> dict[str, float]:
        from .bots import read_view
        from .hints import KEY
        from .notation import move_text, parse_move
        from .optimiser import beam_search
        from .scoring import TABLES
        from .sheet import clears

        view = patapata_view(views[-1])
        sheet = own_sheet(view)
        marks, passes, index, task = read_view(view)
        table = TABLES[view.get("scores", "standard")]
        futures = self.futures(view, index)
        pending = _cell_bits(sheet["pending"])
        base = (marks[0] & ~pending, marks[1] & ~pending, marks[2] & ~pending)
        written = (marks[0] & pending, marks[1] & pending, marks[2] & pending)
        cache: dict[Node, float] = {}

        def expected(node: Node) -> float:
            if node not in cache:
                cache[node] = sum(beam_search(f, node, self.width, table, KEY).total
                                  for f in futures) / len(futures)
            return cache[node]

        ways = {}  # writes → the sheet after that clear
        for way in clears(task, base):
            w = way.writes
            ways[w] = ((base[0] | w[0], base[1] | w[1], base[2] | w[2]), passes)

        def best_of(need: tuple[int, int, int]) -> tuple[float, str]:
            """The best clear whose writes hold ``need``: (expected score, its move)."""
            open_ = [(w, n) for w, n in ways.items()
                     if all(w[m] & need[m] == need[m] for m in range(3))]
            open_.sort(key=lambda wn: KEY(wn[1], table), reverse=True)
            return max(((expected(n), move_text(("clear", w)))
                        for w, n in open_[: self.candidates]), default=(float("-inf"), ""))

        out: dict[str, float] = {}
        if not pending:
            ranked = sorted(ways.items(), key=lambda kv: KEY(kv[1], table), reverse=True)
            for w, node in ranked[: self.candidates]:
                out[move_text(("clear", w))] = expected(node)
            out["pass"] = expected((base, passes + 1))
        moves = [str(m) for m in view["legal_moves"]]
        if played is not None and played in moves and played not in out:
            move = parse_move(played)
            if move[0] == "clear":
                w = move[1]
                out[played] = expected(((base[0] | w[0], base[1] | w[1], base[2] | w[2]),
                                        passes))
            elif move[0] == "write":
                need = list(written)
                need[move[2]] |= 1 << move[1]
                out[played] = best_of((need[0], need[1], need[2]))[0]
            elif move[0] in ("switch", "rotate"):
                out[played] = best_of(written)[0] if pending else max(out.values())
        if pending:  # mid-task: the best is the best way to finish the clear begun
            value, text = best_of(written)
            if text:
                out.setdefault(text, value)
        top = max(out.values())
        return {m: v - top for m, v in out.items()}


def _cell_bits(names: Sequence[str]) -> int:
    from .geometry import parse_cell

    bits = 0
    for name in names:
        bits |= 1 << parse_cell(name)
    return bits


def _sheet(view: JSONMapping) -> JSONMapping:
    """The first seat's sheet of a view."""
    view = patapata_view(view)
    sheet: JSONMapping = view["sheets"][0]
    return sheet


def _marks(view: JSONMapping) -> int:
    """How many marks the first sheet holds."""
    return sum(len(row) - row.count(".") for row in _sheet(view)["marks"])


def _in_window(view: JSONMapping, cell: str) -> bool:
    """Whether printed cell ``cell`` shows in the first sheet's window."""
    return any(cell in row for row in _sheet(view)["window"])


def _seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    """The analysis board's reading of one seat's views (``seat_analysis.py``)."""
    from .seat_analysis import seat_analysis

    return seat_analysis(options, views)


def _puzzles(options: JSONMapping) -> PuzzleJudge:
    """s11-puzzles2: the puzzle miner's judge (``puzzles.py``, docs/puzzles.md)."""
    from .puzzles import make_judge

    return make_judge(options)


PROGRESSION = GameProgression(
    seat_analysis=_seat_analysis,
    puzzles=_puzzles,
    # the solo daily's course (one sheet, dice): the last tasks solved exactly
    puzzle_sets={"patapata": {"players": 1, "course": "dice"}},
    evaluator=lambda options: PatapataEvaluator(),
    # expected final score, centred on the best move (0); with scale 5 losing ≈2 points is an
    # inaccuracy, ≈4 a mistake, ≈7 a blunder (the score bands of the seed's ratings are 5
    # points apart)
    thresholds=lambda options: Thresholds(scale=5.0),
    tutorial="tutorial.json",
    tutorial_functions={"sheet": _sheet, "marks": _marks,
                        "in_window": _in_window},
    ladder_options={"variant": "duel"},
    daily=Daily("puzzle", options={"variant": "solo", "course": "dice"}, target_level="greedy"),
)
