"""Memory Matrix on paper: the board of any shape (named or a custom mask) with the start
position of the chosen layout, the players' colours, and a tally of pieces per colour.
Everything comes from the engine's start state (``view(None)``): holes, the layout, who
plays which colour. Pieces are printed in their colour with the colour's letter, so a
black-and-white printer still tells them apart."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintRequest
from ...paper.boards import piece, square_board
from ...paper.doc import MARGIN
from . import GAME
from .palette import HOLE, NEUTRAL, WHITE
from .views import memory_matrix_view

RGB = {"B": (0.2, 0.4, 0.9), "R": (0.9, 0.2, 0.2), "Y": (0.98, 0.85, 0.15),
       "G": (0.2, 0.7, 0.3), "O": (1.0, 0.55, 0.1), "P": (0.55, 0.3, 0.75),
       "K": (1.0, 0.6, 0.75), "C": (0.3, 0.8, 0.9), "N": (0.55, 0.35, 0.2),
       "L": (0.65, 0.9, 0.3), "M": (0.85, 0.2, 0.65), "T": (0.1, 0.55, 0.55),
       "V": (0.6, 0.45, 0.9), "A": (1.0, 0.75, 0.3), "I": (0.3, 0.25, 0.6),
       "U": (0.15, 0.25, 0.7), WHITE: (1.0, 1.0, 1.0), NEUTRAL: (0.6, 0.6, 0.6)}


def draw_board(doc: Document, view: JSONMapping, x: float, y: float,
               cell: float) -> float:
    view = memory_matrix_view(view)
    rows = view["board"]
    light = {"Y", "L", "K", "C", "A", WHITE}

    def draw(ch: str, cx: float, cy: float, size: float) -> None:
        if ch in RGB:
            piece(doc, cx, cy, size * 0.4, RGB[ch], ch,
                  ink=(0, 0, 0) if ch in light else (1, 1, 1))

    names = [str(r + 1) for r in range(len(rows))]
    return square_board(doc, x, y, cell, rows, names, draw, hole=HOLE,
                        shade=lambda r, c: (0.93, 0.97, 0.92))


def colour_key(doc: Document, view: JSONMapping, y: float) -> float:
    view = memory_matrix_view(view)
    for c in view["colours"]:
        piece(doc, MARGIN + 3, y + 2, 2.5, RGB.get(c["letter"], (0.5, 0.5, 0.5)), "")
        name = doc.t(c["name"], c["name_ja"])
        doc.text(MARGIN + 8, y + 3.5, doc.t(
            f"{c['letter']} {name}: player {c['seat'] + 1}, {c['in_hand']} in hand   "
            "showing: ____  ____  ____  ____",
            f"{c['letter']} {name}：プレイヤー{c['seat'] + 1}、手持ち{c['in_hand']}　"
            "見えている数：____  ____  ____  ____"), 9)
        y += 7
    return y


class MemoryMatrixPaper:
    options = ()

    def blank(self, doc: Document, request: PrintRequest) -> None:
        view = memory_matrix_view(GAME.new_game(request.options, request.seed).view(None))
        o = request.options
        shape = o["shape"] if o["shape"] != "custom" else doc.t("custom", "自由形")
        layout = {"random": doc.t(f"random (seed {request.seed})", f"ランダム（シード{request.seed}）"),
                  "windmill": doc.t("windmill", "風車"),
                  "butterfly": doc.t("butterfly", "蝶々")}[o["layout"]]
        y = doc.page(doc.t("Memory Matrix — board and start position", "メモマト — 盤と開始配置"),
                     doc.t(f"Board {shape}, layout {layout}, {view['seats']} players, "
                           f"{o['colours']} colour(s) each.",
                           f"盤 {shape}、配置 {layout}、{view['seats']}人、1人{o['colours']}色。"))
        width = max(len(r) for r in view["board"])
        height = len(view["board"])
        cell = min(20.0, (doc.width - 2 * MARGIN - 12) / width,
                   (doc.height - y - 30 - 7 * len(view["colours"])) / height)
        x = (doc.width - width * cell) / 2
        y = draw_board(doc, view, x, y + 8, cell)
        y = colour_key(doc, view, y + 2)
        doc.paragraph(MARGIN, y + 2, doc.width - 2 * MARGIN, doc.t(
            "Each piece has one colour face and a white back: flipping turns a colour white and "
            "white back to the colour underneath — remember which.",
            "ピースは片面が色、裏が白。はさまれると色は白に、白は下の色に戻ります。どの白の下が何色かを覚えましょう。"),
            9)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        view = memory_matrix_view(view)
        cols = max(len(r) for r in view["board"])
        cell = min(14.0, (width - 20) / cols)
        y = draw_board(doc, view, x + 8, y + 6, cell)
        scores = ", ".join(f"{c['letter']} {c['showing']}" for c in view["colours"])
        doc.text(x, y + 4, doc.t(f"Showing: {scores}", f"見えている数：{scores}"), 9)
        return y + 6


PAPER = MemoryMatrixPaper()
