"""Reversi on paper: the 8×8 board with the start position and a score sheet of the 60 moves;
and a record's final position. Coordinates as the engine writes them (files a–h, ranks 1–8
from the top, the usual Othello convention)."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintOption, PrintRequest
from ...paper.boards import move_sheet, piece, square_board
from ...paper.doc import MARGIN
from . import GAME
from .views import reversi_view

GREEN = (0.2, 0.55, 0.3)


def draw_board(doc: Document, view: JSONMapping, x: float, y: float, cell: float) -> float:
    view = reversi_view(view)
    def draw(ch: str, cx: float, cy: float, size: float) -> None:
        if ch in "BW":
            piece(doc, cx, cy, size * 0.4, (0.1, 0.1, 0.1) if ch == "B" else (1, 1, 1))

    rows = view["board"]
    return square_board(doc, x, y, cell, rows, [str(r + 1) for r in range(len(rows))], draw,
                        shade=lambda r, c: GREEN)


class ReversiPaper:
    options = (PrintOption("sheets", "all", choices=("all", "board", "score"),
                           description="which pages: all, the board, or the score sheet"),)

    def blank(self, doc: Document, request: PrintRequest) -> None:
        view = reversi_view(GAME.new_game(request.options, request.seed).view(None))
        which = request.extra["sheets"]
        if which in ("all", "board"):
            y = doc.page(doc.t("Reversi — board", "リバーシ — 盤"),
                         doc.t("Black moves first from the start position shown.",
                               "図の初期配置から黒が先手。"))
            cell = min(20.0, (doc.width - 2 * MARGIN - 12) / 8)
            draw_board(doc, view, (doc.width - 8 * cell) / 2, y + 8, cell)
        if which in ("all", "score"):
            y = doc.page(doc.t("Reversi — score sheet", "リバーシ — 棋譜用紙"),
                         doc.t("Write each move as its square (d3); 'pass' when a side cannot "
                               "move.", "各手をマス名（d3）で書きます。打てないときは pass。"))
            doc.text(MARGIN, y + 4, doc.t("● Black: ______________   ○ White: ______________",
                                          "●黒：______________　○白：______________"), 10)
            y = move_sheet(doc, y + 10, [doc.t("No.", "手"), doc.t("● Black", "●黒"),
                                         doc.t("○ White", "○白")], 30)
            doc.text(MARGIN, y + 6, doc.t("Result: Black ___ - White ___",
                                          "結果：黒 ___ - 白 ___"), 10)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        view = reversi_view(view)
        cell = min(12.0, (width - 20) / 8)
        y = draw_board(doc, view, x + 8, y + 6, cell)
        counts = view.get("counts", {})
        doc.text(x, y + 4, doc.t(f"● Black {counts.get('black', '?')}   ○ White "
                                 f"{counts.get('white', '?')}",
                                 f"●黒 {counts.get('black', '?')}　○白 {counts.get('white', '?')}"), 9)
        return y + 6


PAPER = ReversiPaper()
