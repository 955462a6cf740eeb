"""Bots. Each sees only its seat's view: its own sheet, the tasks uncovered so far, and the
course mode. A fixed-row course is printed on the (public) task sheet, so the bot knows the
rest of it; on a dice course it samples the rows still to be rolled and plans over each
sample, choosing the move with the best mean final score (determinisation)."""

from __future__ import annotations

from ...core import Bot
from ...core.jsontypes import JSONMapping
from ...core.views import own_seat
from .game import rows_marks
from .notation import PatapataMove, move_text
from .optimiser import children, optimise, value
from .scoring import TABLES
from .tasks import COURSE_LENGTH, TASK_SHEET
from .views import own_sheet, patapata_view


def read_view(view: JSONMapping) -> tuple[tuple[int, int, int], int, int, str]:
    """(marks, passes, task index, current task text) of the viewing seat."""
    view = patapata_view(view)
    sheet = view["sheets"][own_seat(view)]
    course = view["course"]
    task = view["task"]
    if task is None:
        raise ValueError("the course is over: there is no task to read")
    return (rows_marks(sheet["marks"]), int(sheet["passes"]), int(course["number"]) - 1,
            "/".join(task))


class PatapataBot(Bot):
    name = "patapata"

    def __init__(self, level: str, seed: int = 0, width: int = 8, samples: int = 3) -> None:
        super().__init__(seed)
        self.level = level
        self.width = width
        self.samples = samples

    def future(self, view: JSONMapping, index: int) -> list[str]:
        view = patapata_view(view)
        mode = view["course"]["mode"]
        rest = range(index + 1, COURSE_LENGTH)
        if mode == "dice":
            return [TASK_SHEET[self.rng.below(3)][i] for i in rest]
        return [TASK_SHEET[int(mode) - 1][i] for i in rest]

    def choose(self, view: JSONMapping) -> str:
        view = patapata_view(view)
        sheet = own_sheet(view)
        if sheet["pending"]:  # only a person mid-way through step-by-step play gets here
            return str(view["legal_moves"][0])
        marks, passes, index, task = read_view(view)
        table = TABLES[view.get("scores", "standard")]
        options = children(task, (marks, passes))
        if self.level == "random":
            clears_only: list[PatapataMove] = ([m for m, _ in options if m[0] == "clear"]
                                               or [options[-1][0]])
            return move_text(self.rng.choice(clears_only))
        if self.level == "greedy":
            move, _ = max(options, key=lambda mc: value(mc[1], table))
            return move_text(move)
        runs = 1 if view["course"]["mode"] != "dice" else self.samples
        totals: dict[PatapataMove, float] = {}
        for _ in range(runs):
            tasks = [task, *self.future(view, index)]
            plan = optimise(tasks, (marks, passes), self.width, table)
            first = plan.moves[0]
            totals[first] = totals.get(first, 0.0) + plan.total
        best = max(totals, key=lambda m: (totals[m], move_text(m)))
        return move_text(best)


def make_bot(level: str, seed: int = 0) -> PatapataBot:
    if level not in ("random", "greedy", "god"):
        raise ValueError(f"patapata has no bot level {level!r}; levels: random, greedy, god")
    return PatapataBot(level, seed)
