"""A terminal picture of a view: the star drawn row by row, stones as ●/○, playable cells
marked with their label and an indicator."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from .board import CUBES, LABELS
from .views import reverstargo_view

_MARK = {"playable": "*", "one-colour": "!", "ko-blocked": "x", "exception": "E"}


def render(view: JSONMapping) -> str:
    view = reverstargo_view(view)
    board: str = view["board"]
    marks = view.get("indicators") or {}
    rows: dict[int, dict[int, str]] = {}
    for i, (q, r, _s) in enumerate(CUBES):
        label = LABELS[i]
        ch = board[i]
        if ch == "B":
            text = " ● "
        elif ch == "W":
            text = " ○ "
        elif label == "CP":
            text = "(+)"
        elif label in marks:
            text = label + _MARK[marks[label]["mark"]]
        else:
            text = " · "
        rows.setdefault(r, {})[2 * q + r] = text
    xs = [x for row in rows.values() for x in row]
    lo, hi = min(xs), max(xs)
    lines = []
    for r in sorted(rows):
        chars = [" "] * (2 * (hi - lo) + 4)
        for x, text in rows[r].items():
            col = 2 * (x - lo)
            chars[col:col + 3] = list(text)
        lines.append("".join(chars).rstrip())
    b, w = view["score"]
    cb, cw = view["captured"]
    lines.append(f"● black {b} (captured {cb})   ○ white {w} (captured {cw})")
    if view.get("over"):
        lines.append(f"game over: {view.get('reason', '')}")
    else:
        extra = "  (ko exception in force)" if view.get("mode") == "exception" else ""
        lines.append(f"{view['turn']} to move{extra}   * playable  ! one call colour  "
                     "x ko-blocked  E exception")
    return "\n".join(lines)
