"""A hint a person can follow: the steps — turn, flaps, writes — that clear the current task.

A clear names printed cells (``clear c2O d2X``), and those may lie outside the window as it
stands: the flaps that expose them, and the turn that shows the pattern upright, are what a
person needs to be told (issue 27). :func:`plan` picks an occurrence of the task that the
sheet can still take — it holds every mark already written for this task (Q2) and no cell of
it holds another mark — with the fewest writes, then the fewest steps, and lists the steps
as moves of the game's notation, in the order a person makes them: turn the sheet, flip the
flaps, write the marks (the last write clears the task), or ``clear`` when nothing is left
to write. Every step is a legal move when its turn comes (tests/patapata/test_plan.py plays
them).

Each step is also given as a code with arguments (:func:`step_json`) that the web client
renders in either language.
"""

from __future__ import annotations

from ...core.jsontypes import JSONObject
from .geometry import cell_name, switch_name
from .notation import PatapataMove, move_text, writes_text
from .sheet import Marks, fits
from .tasks import MARKS, Occurrence, occurrences


def _turn(rotation: int, rotations: int) -> int:
    """Quarter turns clockwise from ``rotation`` to the nearest rotation in ``rotations``."""
    return min((r - rotation) % 4 for r in range(4) if rotations >> r & 1)


def plan(task: str, marks: Marks, pending: int, switches: int,
         rotation: int) -> list[PatapataMove] | None:
    """The steps that clear ``task`` from this sheet (``pending``: cells written for the task
    so far), or None when no occurrence can be completed (the only way on is ``pass``)."""
    occupied = marks[0] | marks[1] | marks[2]
    best: tuple[tuple[int, int, str], Occurrence] | None = None
    for occ in occurrences(task):
        if occ.cells & pending != pending or not fits(occ, marks):
            continue
        blank = occ.cells & ~occupied
        flips = ((switches ^ occ.switch_bits) & occ.switch_mask).bit_count()
        turn = 1 if _turn(rotation, occ.rotations) else 0
        writes = (occ.req[0] & blank, occ.req[1] & blank, occ.req[2] & blank)
        key = (blank.bit_count(), flips + turn, writes_text(writes))
        if best is None or key < best[0]:
            best = (key, occ)
    if best is None:
        return None
    occ = best[1]
    steps: list[PatapataMove] = []
    turn = _turn(rotation, occ.rotations)
    if turn:
        steps.append(("rotate", turn))
    steps.extend(("switch", i) for i in range(8)
                 if occ.switch_mask >> i & 1 and (switches ^ occ.switch_bits) >> i & 1)
    written = 0
    for p, m in occ.cell_marks():
        if not occupied >> p & 1:
            steps.append(("write", p, m))
            written += 1
    if not written:
        if pending:  # cannot happen: a complete, visible occurrence clears on its last write
            return steps
        steps.append(("clear", (0, 0, 0)))
    return steps


def step_json(move: PatapataMove) -> JSONObject:
    """A step as a code with arguments (the web's ``patapata.step.<code>``) and its move."""
    text = move_text(move)
    if move[0] == "rotate":
        return {"code": "rotate", "args": {"deg": 90 * move[1]}, "move": text}
    if move[0] == "switch":
        return {"code": "switch", "args": {"s": switch_name(move[1] // 2, move[1] % 2)},
                "move": text}
    if move[0] == "write":
        return {"code": "write", "args": {"cell": cell_name(move[1]), "mark": MARKS[move[2]]},
                "move": text}
    if move[0] == "clear":
        return {"code": "clear", "args": {}, "move": text}
    return {"code": "pass", "args": {}, "move": text}
