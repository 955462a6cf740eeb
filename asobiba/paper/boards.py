"""Drawing helpers shared by the games' paper modules: a square board with its coordinates,
round pieces with a letter, and a blank move sheet. Games decide what goes where."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .doc import SOLID, Document, LineStyle

FILES = "abcdefghijklmnopqrstuvwxyz"
Colour = tuple[float, float, float]


def square_board(doc: Document, x: float, y: float, cell: float, rows: Sequence[str],
                 rank_names: Sequence[str], draw: Callable[[str, float, float, float], None],
                 hole: str = "-", shade: Callable[[int, int], Colour | None] | None = None
                 ) -> float:
    """A board of ``rows`` (top row first) with file letters above and below and the given
    rank names on both sides; ``draw(ch, cx, cy, cell)`` puts a piece; returns the y below."""
    width = max(len(r) for r in rows)
    label = max(5.0, min(9.0, cell * 0.45))
    for c in range(width):
        cx = x + (c + 0.5) * cell
        doc.text(cx, y - 1.2, FILES[c], label, anchor="middle", colour=(0.3, 0.3, 0.3))
        doc.text(cx, y + len(rows) * cell + label * 0.4 + 1.5, FILES[c], label,
                 anchor="middle", colour=(0.3, 0.3, 0.3))
    for r, row in enumerate(rows):
        cy = y + r * cell
        doc.text(x - 1.2, cy + cell / 2 + label * 0.17, rank_names[r], label, anchor="end",
                 colour=(0.3, 0.3, 0.3))
        doc.text(x + width * cell + 1.2, cy + cell / 2 + label * 0.17, rank_names[r], label,
                 colour=(0.3, 0.3, 0.3))
        for c, ch in enumerate(row):
            if ch == hole:
                continue
            fill = shade(r, c) if shade else None
            doc.rect(x + c * cell, cy, cell, cell, SOLID, fill=fill or (1, 1, 1))
            draw(ch, x + (c + 0.5) * cell, cy + cell / 2, cell)
    return y + len(rows) * cell + label * 0.4 + 4


def piece(doc: Document, cx: float, cy: float, r: float, fill: Colour, letter: str = "",
          ink: Colour = (0, 0, 0)) -> None:
    doc.circle(cx, cy, r, LineStyle("piece", 0.3, (0, 0, 0)), fill=fill)
    if letter:
        size = r * 2.835 * 0.95
        doc.text(cx, cy + size * 0.35 * 0.3528 * 1.0, letter, size, anchor="middle", colour=ink)


def move_sheet(doc: Document, y: float, columns: Sequence[str], lines: int,
               widths: Sequence[float] | None = None, blocks: int = 2) -> float:
    """Empty numbered lines to write a game down, in ``blocks`` side-by-side tables."""
    from .doc import MARGIN

    avail = doc.width - 2 * MARGIN
    block_w = (avail - 6 * (blocks - 1)) / blocks
    widths = list(widths) if widths else [10.0] + [(block_w - 10) / (len(columns) - 1)] * (
        len(columns) - 1)
    per_block = -(-lines // blocks)
    row_h = min(7.0, (doc.height - y - MARGIN - 10) / (per_block + 1))
    for b in range(blocks):
        bx = MARGIN + b * (block_w + 6)
        rows = [list(columns)] + [[str(b * per_block + i + 1)] + [""] * (len(columns) - 1)
                                  for i in range(per_block) if b * per_block + i < lines]
        doc.table(bx, y, widths, rows, row_h=row_h, size=8)
    return float(y + (per_block + 1) * row_h + 3)
