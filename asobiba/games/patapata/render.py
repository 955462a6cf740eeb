"""Text pictures of a view for the terminal: the task, the seen window, the printed sheet."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping

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
    out: list[str] = []
    course = view["course"]
    if view.get("task"):
        out.append(f"task {course['number']}/{course['length']} "
                   f"(row {course['tasks'][-1]['row']}):")
        out.extend(_pattern_lines(view["task"]))
    seat = view.get("seat")
    for sheet in view["sheets"]:
        mine = sheet["seat"] == seat
        head = f"seat {sheet['seat']}" + (" (you)" if mine else "")
        sc = sheet["score"]
        out.append(f"{head}: score {sc['total']}  groups 〇{sc['groups']['O']} "
                   f"×{sc['groups']['X']} ■{sc['groups']['B']}  blanks {sc['blanks']}  "
                   f"passes {sheet['passes']}")
        if "window" in sheet:
            switches = " ".join(f"{k}{'ab'[v]}" for k, v in sheet["switches"].items())
            out.append(f"  window (turned {sheet['rotation']}°), switches {switches}:")
            for names, marks in zip(sheet["window"], sheet["window_marks"], strict=True):
                out.append("    " + " ".join(f"{n}{SYMBOL[m]}" for n, m in
                                             zip(names, marks, strict=True)))
            if sheet["pending"]:
                out.append("  written for this task: " + " ".join(sheet["pending"]))
        out.extend(_sheet_lines(sheet))
    outcome = view.get("outcome")
    if outcome:
        out.append("final scores: " + ", ".join(map(str, outcome["scores"])))
    return "\n".join(out)
