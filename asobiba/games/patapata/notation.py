"""Move notation. Cells are printed cells (``a1``..``h4``), marks ``O`` ``X`` ``B``.

* ``clear c1X d1X c2O d2O`` — write these marks (nothing else) and clear the task in one go;
  bare ``clear`` clears with marks already on the sheet. Writes are listed in cell order.
* ``write c2O`` — write one mark on a visible blank cell (the physical way, step by step).
* ``switch 2R`` — flip the switch of printed row 2, right block, to its other side.
* ``rotate 90`` / ``rotate 180`` / ``rotate 270`` — turn the sheet clockwise.
* ``pass`` — give up the current task.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, TypeAlias

from ...core import MalformedMoveError, why
from .geometry import cell_name, parse_cell, parse_switch, switch_name
from .tasks import MARKS

PatapataMove: TypeAlias = (
    tuple[Literal["pass"]]
    | tuple[Literal["clear"], tuple[int, int, int]]  # the marks written, per mark kind
    | tuple[Literal["write"], int, int]  # cell, mark
    | tuple[Literal["switch", "rotate"], int]  # switch index (2 per row) or quarter turns
)
"""A Patapata move object: a tuple tagged by its kind (``move[0]``)."""

PASS: tuple[Literal["pass"]] = ("pass",)
MARK_ALIASES = {"O": 0, "X": 1, "B": 2, "〇": 0, "○": 0, "×": 1, "■": 2, "#": 2, "S": 2}


def _why() -> dict[str, str]:
    from .explain import WHY  # explain imports this module

    return WHY


def parse_mark(text: str, move: str) -> int:
    mark = MARK_ALIASES.get(text.strip().upper())
    if mark is None:
        raise MalformedMoveError(
            f"{text!r} is not a mark: use O (〇), X (×) or B (■)", move=move,
            why=why(_why(), "patapata.mark", text=text.strip()[:8]))
    return mark


def parse_cell_mark(token: str, move: str) -> tuple[int, int]:
    """``"c2O"`` → (cell, mark)."""
    if len(token) < 3:
        raise MalformedMoveError(
            f"{token!r} must be a printed cell followed by a mark, e.g. c2O", move=move,
            why=why(_why(), "patapata.cell_mark", text=token[:8]))
    return parse_cell(token[:2]), parse_mark(token[2:], move)


_CELL_NAMES = tuple(cell_name(p) for p in range(32))


@lru_cache(maxsize=4096)  # every clear writes its text into the sheet's history
def writes_text(writes: tuple[int, int, int]) -> str:
    # (cell, mark) in order, visiting the written cells' set bits only
    words = []
    bits = writes[0] | writes[1] | writes[2]
    while bits:
        low = bits & -bits
        name = _CELL_NAMES[low.bit_length() - 1]
        for m in range(3):
            if writes[m] & low:
                words.append(name + MARKS[m])
        bits ^= low
    return " ".join(words)


def move_text(move: PatapataMove) -> str:
    if move[0] == "pass":
        return "pass"
    if move[0] == "clear":
        rest = writes_text(move[1])
        return f"clear {rest}" if rest else "clear"
    if move[0] == "write":
        return f"write {cell_name(move[1])}{MARKS[move[2]]}"
    if move[0] == "switch":
        return f"switch {switch_name(move[1] // 2, move[1] % 2)}"
    if move[0] == "rotate":
        return f"rotate {90 * move[1]}"
    raise ValueError(f"not a patapata move: {move!r}")


def parse_move(text: str) -> PatapataMove:
    """Text → move tuple; MalformedMoveError for anything that is not in the notation."""
    words = text.split()
    head = words[0].lower() if words else ""
    if head == "pass" and len(words) == 1:
        return PASS
    if head == "clear":
        writes = [0, 0, 0]
        seen: set[int] = set()
        for token in words[1:]:
            p, m = parse_cell_mark(token, text)
            if p in seen:
                raise MalformedMoveError(f"cell {cell_name(p)} is written twice", move=text,
                                         why=why(_why(), "patapata.twice", cell=cell_name(p)))
            seen.add(p)
            writes[m] |= 1 << p
        return ("clear", (writes[0], writes[1], writes[2]))
    if head == "write" and len(words) in (2, 3):
        token = "".join(words[1:])
        p, m = parse_cell_mark(token, text)
        return ("write", p, m)
    if head == "switch" and len(words) == 2:
        return ("switch", parse_switch(words[1]))
    if head == "rotate" and len(words) == 2:
        turns = {"90": 1, "180": 2, "270": 3}.get(words[1].strip())
        if turns is None:
            raise MalformedMoveError("rotate by 90, 180 or 270 (degrees clockwise)", move=text,
                                     why=why(_why(), "patapata.rotate"))
        return ("rotate", turns)
    raise MalformedMoveError(
        f"{text.strip()[:40]!r} is not a patapata move: use 'clear <cells>', 'write c2O', "
        "'switch 2R', 'rotate 90' or 'pass'", move=text, why=why(_why(), "patapata.notation"))
