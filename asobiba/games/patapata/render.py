"""Text pictures of a view for the terminal: the task, the seen window, the printed sheet."""

from __future__ import annotations

from typing import cast

from ...core.jsontypes import JSONMapping
from .views import SheetView, patapata_view

SYMBOL = {"O": "〇", "X": "×", "B": "■", ".": "・"}


def _pattern_lines(rows: list[str]) -> list[str]:
    return ["  " + "".join(SYMBOL[ch] if ch != "." else "　" for ch in row) for row in rows]


def _sheet_lines(sheet: JSONMapping) -> list[str]:
    lines = ["  printed sheet   a b c d | e f g h"]
    for r, row in enumerate(sheet["marks"]):
        cells = [SYMBOL[ch] if ch != "." else "・" for ch in row]
        lines.append(f"            {r + 1}   " + "".join(cells[:4]) + " | " + "".join(cells[4:]))
    return lines


def render_view(view: JSONMapping) -> str:
    view = patapata_view(view)
    out: list[str] = []
    course = view["course"]
    task = view["task"]
    if task:
        out.append(f"task {course['number']}/{course['length']} "
                   f"(row {course['tasks'][-1]['row']}):")
        out.extend(_pattern_lines(task))
    seat = view.get("seat")
    for sheet in view["sheets"]:
        mine = sheet["seat"] == seat
        head = f"seat {sheet['seat']}" + (" (you)" if mine else "")
        sc = sheet["score"]
        out.append(f"{head}: score {sc['total']}  groups 〇{sc['groups']['O']} "
                   f"×{sc['groups']['X']} ■{sc['groups']['B']}  blanks {sc['blanks']}  "
                   f"passes {sheet['passes']}")
        if "window" in sheet:  # seen whole
            whole = cast(SheetView, sheet)
            switches = " ".join(f"{k}{'ab'[v]}" for k, v in whole["switches"].items())
            out.append(f"  window (turned {whole['rotation']}°), switches {switches}:")
            for names, marks in zip(whole["window"], whole["window_marks"], strict=True):
                out.append("    " + " ".join(f"{n}{SYMBOL[m]}" for n, m in
                                             zip(names, marks, strict=True)))
            if whole["pending"]:
                out.append("  written for this task: " + " ".join(whole["pending"]))
        out.extend(_sheet_lines(sheet))
    outcome = view.get("outcome")
    if outcome:
        out.append("final scores: " + ", ".join(map(str, outcome["scores"])))
    return "\n".join(out)
