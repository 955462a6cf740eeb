"""Patapata for the learning environments (asobiba.envs).

Action 0 gives up the current task (``pass``); action ``1 + k`` clears it through the
``k``-th occurrence of the current task (``tasks.occurrences`` order: every placement of the
pattern over all rotations and switch settings), writing that occurrence's blank cells. The
environments play the game's one-move form ``clear <writes>``: the step-by-step moves
(``write``, ``switch``, ``rotate``) reach the same sheets (scoring never depends on the
switches or the rotation left on the sheet), so they are left out of the action space, and an
episode has exactly one action per seat and task. Several occurrences needing the same
writes are the same move: only the first of them is legal, so every legal action is a
different move (OpenSpiel requires it).

Patapata is simultaneous: every seat works on the same task at once. In PettingZoo's AEC
model the seats that still have to act on the task take their turns one after another; what
one seat sees of another is only that seat's sheet as it was when the task was uncovered, so
the order reveals nothing.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, one_hot
from .game import rows_marks
from .notation import PatapataMove, parse_move
from .sheet import fits
from .tasks import COURSE_LENGTH, MARKS, TASK_SHEET, occurrences

MAX_OCCURRENCES = max(len(occurrences(t)) for row in TASK_SHEET for t in row)


@cache
def _task_text(rows: tuple[str, ...]) -> str:
    return "/".join(rows)


def _clear_moves(task: str, marks: tuple[int, int, int]) -> dict[int, PatapataMove]:
    occupied = marks[0] | marks[1] | marks[2]
    free = ~occupied
    out: dict[int, PatapataMove] = {}
    seen = set()
    for k, occ in enumerate(occurrences(task)):
        if fits(occ, marks):
            writes = (occ.req[0] & free, occ.req[1] & free, occ.req[2] & free)
            if writes not in seen:  # one action per distinct move: the first occurrence
                seen.add(writes)
                out[1 + k] = ("clear", writes)
    return out


class Codec(_Base[PatapataMove]):
    max_game_length = 12 * 8  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        n = self.num_seats
        self.num_actions = 1 + MAX_OCCURRENCES
        self.fields = (
            Field("my_marks", 3 * 32, "own sheet, per mark O X B, printed cell 8*row+column"),
            Field("others_marks", 3 * 32 * (n - 1),
                  "each other seat (offset 1, 2, …): its sheet when the task was uncovered"),
            Field("task", 3 * 16, "the current task, per mark, on a 4×4 grid (row-major)"),
            Field("task_number", COURSE_LENGTH, "one-hot: which of the 12 tasks is current"),
            Field("passes", n, "passes so far per seat offset / 12"),
            Field("finished_task", 1, "1 if the viewing seat has finished the current task"),
            Field("switches", 8, "own switches (side b = 1), 1L 1R 2L … 4R"),
            Field("rotation", 4, "one-hot: own sheet rotation 0/90/180/270"),
        )

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        me, n = view["seat"], self.num_seats
        sheets = view["sheets"]

        def marks_planes(rows: list[str]) -> NDArray[np.float32]:
            grid = np.array([list(r) for r in rows])
            return np.stack([grid == m for m in MARKS]).astype(np.float32)

        task = np.zeros((3, 4, 4), np.float32)
        for r, row in enumerate(view["task"] or ()):
            for c, ch in enumerate(row):
                if ch in MARKS:
                    task[MARKS.index(ch), r, c] = 1
        others = [marks_planes(sheets[(me + k) % n]["marks"]) for k in range(1, n)]
        mine = sheets[me]
        return {
            "my_marks": marks_planes(mine["marks"]),
            "others_marks": np.concatenate([o.reshape(-1) for o in others]) if others else None,
            "task": task,
            "task_number": one_hot(view["course"]["number"] - 1 if view["task"] else None,
                                   COURSE_LENGTH),
            "passes": [sheets[(me + k) % n]["passes"] / 12 for k in range(n)],
            "finished_task": [mine["finished_task"]],
            "switches": list(mine.get("switches", {}).values()) or None,
            "rotation": one_hot(mine.get("rotation", 0) // 90, 4),
        }

    def actions_of(self, text: str, view: JSONMapping) -> list[int]:
        if text == "pass":
            return [0]
        move = parse_move(text)
        if move[0] != "clear" or not view["task"]:
            return []
        marks = rows_marks(view["sheets"][view["seat"]]["marks"])
        task = _task_text(tuple(view["task"]))
        return [a for a, m in _clear_moves(task, marks).items() if m == move]

    def action(self, text: str, view: JSONMapping) -> int | None:
        found = self.actions_of(text, view)
        return found[0] if found else None

    def legal_actions(self, state: State[PatapataMove], seat: int) -> dict[int, PatapataMove]:
        # straight from the sheet, without the game's full move list (which also holds the
        # step-by-step moves): pass and clear are legal while nothing is pending this task
        sheet = state.sheets[seat]  # type: ignore[attr-defined]
        if state.is_over or seat not in state.acting_seats or sheet.pending:
            return {}
        out: dict[int, PatapataMove] = {0: ("pass",)}
        out.update(_clear_moves(state.task, sheet.marks))  # type: ignore[attr-defined]
        return out
