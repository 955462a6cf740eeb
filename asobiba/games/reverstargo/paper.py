"""ReverStarGo on paper: the 37-cell star with the app's official cell labels (CP, A1…AJ,
BQ…BJ, CQ…CJ, DQ…DX) and the start stones, and a kifu sheet in the app's record format
(``01.●B2[B] +0``). Cell positions come from the engine's cube coordinates (board.CELLS):
a pointy-top hexagon per cell, DQ at twelve o'clock as the labels' clock face says."""

from __future__ import annotations

import math

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintOption, PrintRequest
from ...paper.boards import move_sheet
from ...paper.doc import MARGIN, SOLID, LineStyle
from . import GAME
from .board import CUBES, LABELS
from .views import reverstargo_view

SYMBOL = ("●", "○")
CP_FILL = (0.95, 0.85, 0.5)


def cell_centre(i: int, radius: float) -> tuple[float, float]:
    """Cube (q, r, s) → offset from the star's centre in mm (y down), pointy-top hexes."""
    q, r, _s = CUBES[i]
    return radius * math.sqrt(3) * (q + r / 2), radius * 1.5 * r


def hexagon(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [(cx + radius * math.cos(math.radians(60 * k - 30)),
             cy + radius * math.sin(math.radians(60 * k - 30))) for k in range(6)]


def draw_star(doc: Document, board: str, cx: float, cy: float, radius: float,
              labels: bool = True) -> float:
    """The star centred on (cx, cy); ``board`` is the view's 37 characters (B, W, .)."""
    bottom = cy
    for i, label in enumerate(LABELS):
        dx, dy = cell_centre(i, radius)
        x, y = cx + dx, cy + dy
        doc.polygon(hexagon(x, y, radius * 0.98), SOLID,
                    fill=CP_FILL if label == "CP" else (0.97, 0.97, 0.94))
        stone = board[i] if i < len(board) else "."
        if stone in "BW":
            doc.circle(x, y, radius * 0.62, LineStyle("stone", 0.3, (0, 0, 0)),
                       fill=(0.1, 0.1, 0.1) if stone == "B" else (1, 1, 1))
        if labels:
            size = max(5.0, radius * 0.75)
            ink = (0.8, 0.8, 0.8) if stone == "B" else (0.35, 0.35, 0.35)
            doc.text(x, y + size * 0.125, label, size, anchor="middle", colour=ink)
        bottom = max(bottom, y + radius)
    return bottom


def kifu_lines(view: JSONMapping) -> list[str]:
    """The moves as the app's record writes them: number, ●/○, cell, [call], +captured."""
    view = reverstargo_view(view)
    out = []
    for n, e in enumerate(view.get("entries", []), 1):
        mark = SYMBOL[e["seat"]]
        if e.get("cell") is None:
            out.append(f"{n:02d}.{mark}--")
        else:
            out.append(f"{n:02d}.{mark}{e['cell']}[{e['call']}] +{e['captured']}")
    return out


class ReverStarGoPaper:
    options = (PrintOption("sheets", "all", choices=("all", "board", "kifu"),
                           description="which pages: all, the board, or the kifu sheet"),)

    def blank(self, doc: Document, request: PrintRequest) -> None:
        view = reverstargo_view(GAME.new_game(request.options, request.seed).view(None))
        which = request.extra["sheets"]
        if which in ("all", "board"):
            y = doc.page(doc.t("ReverStarGo — board", "リバースターゴ — 盤"),
                         doc.t("The 37-cell star with the app's cell labels. CP is the Core "
                               "Point, the wildcard cell that never keeps a stone between moves.",
                               "アプリのマス名つきの37マスの星形盤。CPはコアポイント（手と手の間に石が"
                               "残らないワイルドカードのマス）。"))
            radius = min(12.0, (doc.width - 2 * MARGIN) / (2 * 5.2 * math.sqrt(3) / 1.5 + 2))
            bottom = draw_star(doc, view["board"], doc.width / 2, y + 8 + 6 * radius * 1.0 +
                               radius, radius)
            doc.text(MARGIN, bottom + 8, doc.t(
                f"Start: {view['score'][0]} black, {view['score'][1]} white on the A ring; "
                "Black moves first.",
                f"開始：Aの輪に黒{view['score'][0]}・白{view['score'][1]}。黒が先手。"), 9)
        if which in ("all", "kifu"):
            y = doc.page(doc.t("ReverStarGo — kifu sheet", "リバースターゴ — 棋譜用紙"),
                         doc.t("One line per entry: ●/○, the cell, [B]/[W] the colour called on "
                               "the CP, +k stones captured; -- for a pass (the app's format).",
                               "1行1手：●/○、マス、CPで宣言した色 [B]/[W]、+取った石の数。パスは --"
                               "（アプリの棋譜形式）。"))
            doc.text(MARGIN, y + 4, doc.t("● Black: ______________   ○ White: ______________"
                                          "   Date: __________",
                                          "●黒：______________　○白：______________　日付：__________"),
                     10)
            y = move_sheet(doc, y + 10, [doc.t("No.", "手"), "●/○", doc.t("cell", "マス"),
                                         doc.t("call", "宣言"), doc.t("captured", "取り")], 60,
                           blocks=2)
            doc.text(MARGIN, y + 6, doc.t("Result: Black ___ - White ___",
                                          "結果：黒 ___ - 白 ___"), 10)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        view = reverstargo_view(view)
        radius = 7.5
        bottom = draw_star(doc, view["board"], x + width / 2, y + 6.5 * radius * 1.5, radius)
        b, w = view["score"]
        cb, cw = view["captured"]
        doc.text(x, bottom + 6, doc.t(f"● Black {b} (captured {cb})   ○ White {w} (captured {cw})",
                                      f"●黒 {b}（取り {cb}）　○白 {w}（取り {cw}）"), 9)
        return bottom + 8

    def moves(self, view: JSONMapping) -> list[str]:
        return kifu_lines(view)


PAPER = ReverStarGoPaper()
