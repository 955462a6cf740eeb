"""A terminal picture of a view: the board as everyone sees it, scores and the last move."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from .views import memory_matrix_view


def render(view: JSONMapping) -> str:
    view = memory_matrix_view(view)
    width = view["width"]
    header = "   " + " ".join(chr(97 + c) for c in range(width))
    lines = [header]
    aid = view.get("memory_aid") or {}
    for r, row in enumerate(view["board"]):
        cells = []
        for c, ch in enumerate(row):
            name = f"{chr(97 + c)}{r + 1}"
            if ch == "-":
                cells.append(" ")
            elif ch == ".":
                cells.append("·")
            elif ch == "W" and name in aid:
                cells.append(aid[name].lower())
            else:
                cells.append(ch)
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    scores = view["scores"]
    for colour in view["colours"]:
        lines.append(f"  {colour['letter']} {colour['name']:<8} seat {colour['seat']}  "
                     f"face up {colour['showing']:>2}  in hand {colour['in_hand']:>2}")
    lines.append("  scores: " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(scores)))
    last = view.get("last_move")
    if last:
        up = ", ".join(f"{cell}→{letter}" for cell, letter in last["flipped_up"].items())
        lines.append(f"  last: {last['colour']} {last['move']}  flipped {len(last['flipped'])}"
                     + (f" (up: {up})" if up else ""))
    if view["over"]:
        outcome = view["outcome"]
        lines.append(f"  game over: {outcome['reason'] if outcome else ''}")
    else:
        lines.append(f"  to move: {view['to_move_colour']} (seat {view['to_move']})")
        if view["legal_moves"]:
            lines.append("  moves: " + " ".join(view["legal_moves"]))
    return "\n".join(lines)
