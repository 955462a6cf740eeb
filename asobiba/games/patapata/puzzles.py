"""Patapata's puzzle judge (docs/puzzles.md, "Patapata"): the last tasks of a solo course,
solved exactly.

A Patapata puzzle is a position of the solo daily's course (one sheet, ``course: dice``) with
at most :data:`TASKS_LEFT` tasks to go, the current task uncovered and nothing written for it
yet: the sheet (marks, switches, rotation, passes) and the task. The question: **the way to
finish this task** — ``pass`` or one ``clear <writes>`` (a distinct set of marks written;
occurrences that write the same marks leave the same sheet) — that gives the highest final
score. The step-by-step moves (``write``, ``switch``, ``rotate``) are parts of a clear, not
choices of their own: the trainer accepts them as steps towards the solution's clear
(:meth:`PatapataJudge.step`).

The value of a way is its **exact expected final score**: every way of every later task is
tried (expectimax, no beam, no cut), and each later task is averaged over the three sheet rows
a die picks with equal chance (1–2, 3–4, 5–6; ``tasks.dice_course``) — only what the player
knows: the course's rule and the printed task sheet, never the game's seed. A fixed-row
course has one future. The puzzle's best way must beat every other by :data:`MARGIN` (one
point of expected final score): the verdict is exact with that margin (``unique_best``'s solo
rule). A position whose best way is the bare ``clear`` (the pattern already shows, nothing to
write) is no puzzle. The line goes on into the next task when its best way is again
unique."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from ...core import State
from ...core.hooks import Verdict
from ...core.jsontypes import JSONMapping, JSONObject
from .game import PatapataState, marks_rows
from .notation import move_text, parse_move, writes_text
from .scoring import TABLES, ScoreTable, score
from .sheet import Marks, clears
from .tasks import COURSE_LENGTH, TASK_SHEET

TASKS_LEFT = 2
"""Positions with at most this many tasks to go (the current one included)."""
MARGIN = 1.0
"""The best way beats every other by at least one point of expected final score."""
OPTIONS: JSONMapping = {"players": 1, "course": "dice"}
"""The set's game options: the solo daily's course."""


def _rows_for(course: str, index: int) -> tuple[int, ...]:
    """The sheet rows the task at ``index`` may come from, equally likely."""
    return (0, 1, 2) if course == "dice" else (int(course) - 1,)


@lru_cache(maxsize=200_000)
def _future(marks: Marks, passes: int, index: int, course: str, table: str) -> float:
    """The exact expected final score from a sheet when task ``index`` is about to be
    uncovered, played best from there."""
    t = TABLES[table]
    if index >= COURSE_LENGTH:
        return float(score(marks, passes, t).total)
    rows = _rows_for(course, index)
    return sum(_best(marks, passes, index, TASK_SHEET[r][index], course, table)
               for r in rows) / len(rows)


def _ways(marks: Marks, passes: int, task: str) -> dict[str, tuple[Marks, int]]:
    """Every way to finish ``task``: its move text → the sheet and passes after it."""
    out: dict[str, tuple[Marks, int]] = {"pass": (marks, passes + 1)}
    for way in clears(task, marks):
        w = way.writes
        text = "clear " + writes_text(w) if (w[0] | w[1] | w[2]) else "clear"
        out[text] = ((marks[0] | w[0], marks[1] | w[1], marks[2] | w[2]), passes)
    return out


def _best(marks: Marks, passes: int, index: int, task: str, course: str, table: str) -> float:
    return max(_future(m, p, index + 1, course, table)
               for m, p in _ways(marks, passes, task).values())


def way_values(state: PatapataState) -> dict[str, float]:
    """Each way to finish the current task → its exact expected final score."""
    sheet = state.sheets[0]
    task = state.task
    assert task is not None
    course = str(state.options["course"])
    table = str(state.options.get("scores", "standard"))
    return {text: _future(m, p, state.round + 1, course, table)
            for text, (m, p) in _ways(sheet.marks, sheet.passes, task).items()}


def _ready(state: State) -> bool:
    """A position a puzzle can start from (or continue at): one sheet, a task uncovered,
    nothing written for it."""
    return (isinstance(state, PatapataState) and not state.is_over and len(state.sheets) == 1
            and state.task is not None and not state.sheets[0].pending
            and not state.sheets[0].finished)


class PatapataJudge:
    selfplay_levels: tuple[str, ...] = ("greedy", "random")

    def candidate(self, state: State) -> bool:
        return (_ready(state) and isinstance(state, PatapataState)
                and state.round >= COURSE_LENGTH - TASKS_LEFT)

    def judge(self, state: State) -> Verdict | None:
        if not _ready(state) or not isinstance(state, PatapataState):
            return None
        if state.round < COURSE_LENGTH - TASKS_LEFT:
            return None
        values = way_values(state)
        if max(values, key=lambda m: (values[m], m)) == "clear":
            return None  # the pattern already shows and clearing it is best: no question
        return Verdict(values, exact=True, win_value=math.inf, margin=MARGIN,
                       best_min=-math.inf)

    def key(self, state: State) -> str:
        assert isinstance(state, PatapataState)
        sheet = state.sheets[0]
        return (f"{''.join(marks_rows(sheet.marks))}:{sheet.passes}:{state.round}:"
                f"{state.task}:{state.options['course']}:{state.options.get('scores')}")

    def themes(self, state: State, line: Sequence[str]) -> list[str]:
        assert isinstance(state, PatapataState)
        tags = ["exact", "final_task" if state.round == COURSE_LENGTH - 1 else "last_tasks"]
        sheet = state.sheets[0]
        table: ScoreTable = state.table
        before = score(sheet.marks, sheet.passes, table)
        first = line[0]
        if first == "pass":
            tags.append("pass")
        else:
            move = parse_move(first)
            assert move[0] == "clear"
            w = move[1]
            written = (w[0] | w[1] | w[2]).bit_count()
            if written == 0:
                tags.append("no_write")
            elif written < 4:
                tags.append("reuse")  # marks already on the sheet are part of the clear
            marks = (sheet.marks[0] | w[0], sheet.marks[1] | w[1], sheet.marks[2] | w[2])
            after = score(marks, sheet.passes, table)
            if any(a > b for a, b in zip(after.group_points, before.group_points, strict=True)):
                tags.append("group")
            if after.blank_points >= before.blank_points:
                tags.append("blanks")  # the clear costs no blank points
        tags.append("one_move" if len(line) == 1 else "long" if len(line) >= 5 else "short")
        return sorted(set(tags))

    # ---- the trainer's step-by-step play (docs/puzzles.md) ------------------------------

    def step(self, state: State, steps: Sequence[str], want: str) -> str:
        """Judge the player's step-by-step moves ``steps`` (``write``/``switch``/``rotate``,
        in order, from ``state``) against the solution's way ``want``: ``"right"`` when they
        finish the task exactly as ``want`` does, ``"wrong"`` when they finish it another
        way or write a mark ``want`` does not, ``"more"`` while they are still on the way."""
        assert isinstance(state, PatapataState)
        target = _ways(state.sheets[0].marks, state.sheets[0].passes, state.task or "")
        goal = target.get(want)
        s: State = state
        for text in steps:
            s = s.play(text)
        assert isinstance(s, PatapataState)
        if s.round != state.round or s.sheets[0].finished:  # the task was finished
            sheet = s.sheets[0]
            return "right" if goal == (sheet.marks, sheet.passes) else "wrong"
        marks = s.sheets[0].marks
        if goal is None or any(marks[m] & ~goal[0][m] for m in range(3)):
            return "wrong"
        return "more"

    def public_view(self, state: State, seat: int) -> JSONObject:
        """The seat's view without the hint (``plan``: the steps of a clear the hints rank
        first — it would give the answer away)."""
        view = dict(state.view(seat))
        sheets = view.get("sheets")
        if isinstance(sheets, list):
            view["sheets"] = [{k: v for k, v in s.items() if k != "plan"}
                              if isinstance(s, dict) else s for s in sheets]
        return view


def make_judge(options: JSONMapping) -> PatapataJudge:
    return PatapataJudge()


def steps_to(state: State, way: str) -> list[str]:
    """The step-by-step moves that finish the current task as ``way`` does: the flaps its
    occurrence needs, then its writes (the task clears with the last one); ``pass`` and a
    bare ``clear`` are one move. For showing a solution, and for tests."""
    assert isinstance(state, PatapataState) and state.task is not None
    move = parse_move(way)
    if move[0] != "clear" or not (move[1][0] | move[1][1] | move[1][2]):
        return [way]
    sheet = state.sheets[0]
    occ = next(c.occurrence for c in clears(state.task, sheet.marks) if c.writes == move[1])
    flaps = [move_text(("switch", i)) for i in range(8)
             if occ.switch_mask >> i & 1
             and (sheet.switches >> i & 1) != (occ.switch_bits >> i & 1)]
    writes = [move_text(("write", p, m)) for p in range(32) for m in range(3)
              if move[1][m] >> p & 1]
    # an order of the writes that does not clear the task early (another occurrence can be
    # complete before the last write: the rules clear it then, a different way)
    for order in permutations(writes):
        s: State = state
        for i, text in enumerate([*flaps, *order]):
            s = s.play(text)
            assert isinstance(s, PatapataState)
            done = s.round != state.round or s.is_over
            if done != (i == len(flaps) + len(order) - 1):
                break
        else:
            return [*flaps, *order]
    return [way]  # only the whole clear in one move does it
