"""Why a well-formed move is illegal, naming the rule (kept apart from the state's logic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Why, why
from .geometry import cell_name, switch_name, switch_of, visible_mask
from .notation import PatapataMove, writes_text
from .sheet import clears
from .tasks import MARK_SYMBOLS, MARKS

if TYPE_CHECKING:
    from .game import PatapataState

WHY: dict[str, str] = {
    # the end
    "patapata.course_done": "the course of {n} tasks is finished",
    # malformed moves
    "patapata.notation": "this is not a patapata move: use 'clear <cells>', 'write c2O', "
                         "'switch 2R', 'rotate 90' or 'pass'",
    "patapata.mark": "{text} is not a mark: use O (〇), X (×) or B (■)",
    "patapata.cell_mark": "{text} must be a printed cell followed by a mark, e.g. c2O",
    "patapata.twice": "cell {cell} is written twice",
    "patapata.rotate": "rotate by 90, 180 or 270 (degrees clockwise)",
    # a refused move's rule
    "patapata.pending": "marks were already written for this task ({cells}); a mark may only "
                        "be written as part of the pattern that clears the task (Q2), so "
                        "finish it with write/switch",
    "patapata.taken": "{cell} already holds {mark}; a cell holds one mark, written once, "
                      "forever",
    "patapata.needs_writing": "the task's pattern cannot be shown without writing: no switch "
                              "setting and rotation shows it with the marks already on the "
                              "sheet",
    "patapata.no_pattern": "writing {writes} does not make the pattern appear: a clear writes "
                           "exactly the blank cells of one occurrence of the task (same marks, "
                           "its own orientation or a turn of it, never mirrored), and nothing "
                           "else (Q2)",
    "patapata.folded": "{cell} is folded away; flip switch {switch} to show it before writing",
    "patapata.unused_mark": "{mark} on {cell} is not part of any way the task can still appear "
                            "together with the marks written for it so far; Q2 forbids marks "
                            "that the task does not use",
}
"""The English of every code Patapata emits (``mark`` is a symbol: 〇, × or ■)."""


def why_illegal(state: PatapataState, move: PatapataMove, seat: int) -> Why:
    sheet = state.sheets[seat]
    task = state.task or ""
    if move[0] in ("pass", "clear") and sheet.pending:
        return why(WHY, "patapata.pending", cells=", ".join(
            cell_name(p) for p in range(32) if sheet.pending >> p & 1))
    if move[0] == "clear":
        writes = move[1]
        added = writes[0] | writes[1] | writes[2]
        taken = added & sheet.occupied
        if taken:
            p = (taken & -taken).bit_length() - 1
            return why(WHY, "patapata.taken", cell=cell_name(p),
                       mark=MARK_SYMBOLS[MARKS[sheet.mark_at(p) or 0]])
        if not added:
            return why(WHY, "patapata.needs_writing")
        ways = {c.writes for c in clears(task, sheet.marks)}
        if writes not in ways:
            return why(WHY, "patapata.no_pattern", writes=writes_text(writes))
    if move[0] == "write":
        p, m = move[1], move[2]
        if sheet.occupied >> p & 1:
            return why(WHY, "patapata.taken", cell=cell_name(p),
                       mark=MARK_SYMBOLS[MARKS[sheet.mark_at(p) or 0]])
        if not visible_mask(sheet.switches) >> p & 1:
            idx, _ = switch_of(p)
            return why(WHY, "patapata.folded", cell=cell_name(p),
                       switch=switch_name(idx // 2, idx % 2))
        return why(WHY, "patapata.unused_mark", cell=cell_name(p), mark=MARK_SYMBOLS[MARKS[m]])
    return why({"not_legal": "it is not among the legal moves in this position"}, "not_legal")
