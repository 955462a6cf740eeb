"""Why a well-formed move is illegal, naming the rule (kept apart from the state's logic)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import cell_name, switch_name, switch_of, visible_mask
from .notation import PatapataMove, writes_text
from .sheet import clears
from .tasks import MARK_SYMBOLS, MARKS

if TYPE_CHECKING:
    from .game import PatapataState


def why_illegal(state: PatapataState, move: PatapataMove, seat: int) -> str:
    sheet = state.sheets[seat]
    task = state.task or ""
    if move[0] in ("pass", "clear") and sheet.pending:
        return ("marks were already written for this task (" + ", ".join(
            cell_name(p) for p in range(32) if sheet.pending >> p & 1)
            + "); a mark may only be written as part of the pattern that clears the task "
            "(Q2), so finish it with write/switch")
    if move[0] == "clear":
        writes = move[1]
        added = writes[0] | writes[1] | writes[2]
        taken = added & sheet.occupied
        if taken:
            p = (taken & -taken).bit_length() - 1
            return (f"{cell_name(p)} already holds {MARK_SYMBOLS[MARKS[sheet.mark_at(p) or 0]]}; "
                    "a cell holds one mark, written once, forever")
        if not added:
            return ("the task's pattern cannot be shown without writing: no switch setting and "
                    "rotation shows it with the marks already on the sheet")
        ways = {c.writes for c in clears(task, sheet.marks)}
        if writes not in ways:
            return (f"writing {writes_text(writes)} does not make the pattern appear: a clear "
                    "writes exactly the blank cells of one occurrence of the task (same marks, "
                    "its own orientation or a turn of it, never mirrored), and nothing else (Q2)")
    if move[0] == "write":
        p, m = move[1], move[2]
        if sheet.occupied >> p & 1:
            return (f"{cell_name(p)} already holds {MARK_SYMBOLS[MARKS[sheet.mark_at(p) or 0]]}; "
                    "a cell holds one mark, written once, forever")
        if not visible_mask(sheet.switches) >> p & 1:
            idx, _ = switch_of(p)
            return (f"{cell_name(p)} is folded away; flip switch {switch_name(idx // 2, idx % 2)} "
                    "to show it before writing")
        return (f"{MARK_SYMBOLS[MARKS[m]]} on {cell_name(p)} is not part of any way the task can "
                "still appear together with the marks written for it so far; Q2 forbids "
                "marks that the task does not use")
    return "it is not among the legal moves in this position"
