"""Connect Four on paper: the empty 7 × 6 grid with its column letters; a record's final
position."""

from __future__ import annotations

from asobiba.core.jsontypes import JSONMapping
from asobiba.paper import Document, PrintOption, PrintRequest
from asobiba.paper.boards import piece, square_board
from asobiba.paper.doc import MARGIN

from .game import GAME

BLUE = (0.25, 0.4, 0.8)
COLOURS = {"R": (0.85, 0.15, 0.15), "Y": (0.95, 0.8, 0.1)}


def draw_board(doc: Document, view: JSONMapping, x: float, y: float, cell: float) -> float:
    def draw(ch: str, cx: float, cy: float, size: float) -> None:
        piece(doc, cx, cy, size * 0.4, COLOURS.get(ch, (1, 1, 1)))

    rows = view["board"]
    return square_board(doc, x, y, cell, rows, [str(len(rows) - r) for r in range(len(rows))],
                        draw, shade=lambda r, c: BLUE)


class Connect4Paper:
    options = (PrintOption("sheets", "all", choices=("all",), description="the board"),)

    def blank(self, doc: Document, request: PrintRequest) -> None:
        view = GAME.new_game(request.options, request.seed).view(None)
        y = doc.page(doc.t("Connect Four — board", "四目並べ — 盤"),
                     doc.t("Red drops first; a disc falls to the lowest empty cell.",
                           "赤が先手。石はその列のいちばん下の空きに落ちます。"))
        cell = min(24.0, (doc.width - 2 * MARGIN - 12) / 7)
        draw_board(doc, view, (doc.width - 7 * cell) / 2, y + 8, cell)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        return draw_board(doc, view, x + 8, y + 6, min(12.0, (width - 20) / 7))


PAPER = Connect4Paper()
