"""FlipFlop on paper: the 3×3 and 5×5 boards with both goal squares marked, fold-over pieces to
cut out (+ rook face on one half, × bishop face on the other), and a score sheet in the
designer's notation (``Rb1xb3``). Board, goals and pieces come from the engine's start
position (``view(None)``), so the print always matches the rules' geometry."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintOption, PrintRequest
from ...paper.boards import move_sheet, square_board
from ...paper.doc import CUT, MARGIN, VALLEY, LineStyle
from . import GAME
from .views import flipflop_view

GOAL_FILL = (1.0, 0.9, 0.55)
WHITE, BLACK = (1.0, 1.0, 1.0), (0.12, 0.12, 0.12)


def face(doc: Document, cx: float, cy: float, size: float, white: bool, bishop: bool) -> None:
    """One face of a piece: a disc in the owner's colour with + (rook) or × (bishop)."""
    r = size * 0.38
    doc.circle(cx, cy, r, LineStyle("piece", 0.35, (0, 0, 0)), fill=WHITE if white else BLACK)
    ink = (0, 0, 0) if white else (1, 1, 1)
    arm = r * 0.62
    style = LineStyle("face", max(0.5, size * 0.07), ink)
    if bishop:
        doc.line(cx - arm * 0.72, cy - arm * 0.72, cx + arm * 0.72, cy + arm * 0.72, style)
        doc.line(cx - arm * 0.72, cy + arm * 0.72, cx + arm * 0.72, cy - arm * 0.72, style)
    else:
        doc.line(cx - arm, cy, cx + arm, cy, style)
        doc.line(cx, cy - arm, cx, cy + arm, style)


def draw_board(doc: Document, json_view: JSONMapping, x: float, y: float, cell: float) -> float:
    view = flipflop_view(json_view)
    n = view["board_size"]
    goals = {view["goals"]["white"]: "white", view["goals"]["black"]: "black"}
    names = [str(n - i) for i in range(n)]  # view rows: rank n at the top

    def shade(r: int, c: int) -> tuple[float, float, float] | None:
        return GOAL_FILL if f"{'abcde'[c]}{n - r}" in goals else None

    def draw(ch: str, cx: float, cy: float, size: float) -> None:
        if ch != ".":
            face(doc, cx, cy + size * 0.05, size * 0.85, ch.isupper(), ch.lower() == "b")

    bottom = square_board(doc, x, y, cell, view["board"], names, draw, shade=shade)
    for sq in goals:
        c, r = "abcde".index(sq[0]), n - int(sq[1:])
        size = min(8.0, cell * 0.28)
        doc.text(x + c * cell + 0.8, y + r * cell + size * 0.4, doc.t("goal", "ゴール"), size,
                 colour=(0.55, 0.35, 0.0))
    return bottom


def pieces_to_cut(doc: Document, y: float, count: int, cell: float) -> float:
    """Per piece a strip of two faces: cut round it, fold along the middle, glue."""
    doc.text(MARGIN, y + 4, doc.t(
        "Pieces: cut along the dotted outline, fold the valley line, glue the halves back to "
        "back: + (rook) on one side, × (bishop) on the other.",
        "駒：点線で切り、谷折りして貼り合わせます。表が＋（飛車・ルーク）、裏が×（角・ビショップ）。"), 9)
    y += 8
    x = MARGIN
    for white in (True, False):
        for _ in range(count):
            if x + 2 * cell > doc.width - MARGIN:
                x, y = MARGIN, y + cell + 4
            if y + cell > doc.height - MARGIN - 4:  # the rest on a page of its own
                y = doc.page(doc.t("FlipFlop — pieces", "フリップフロップ — 駒")) + 4
                x = MARGIN
            doc.rect(x, y, 2 * cell, cell, CUT)
            doc.line(x + cell, y, x + cell, y + cell, VALLEY)
            face(doc, x + cell / 2, y + cell / 2, cell, white, False)
            face(doc, x + 1.5 * cell, y + cell / 2, cell, white, True)
            x += 2 * cell + 4
    return y + cell + 4


class FlipFlopPaper:
    options = (PrintOption("sheets", "all", choices=("all", "board", "score"),
                           description="which pages: all, the board with pieces, or the "
                                       "score sheet"),)

    def blank(self, doc: Document, request: PrintRequest) -> None:
        state = GAME.new_game(request.options, request.seed)
        view = flipflop_view(state.view(None))
        n = view["board_size"]
        which = request.extra["sheets"]
        if which in ("all", "board"):
            y = doc.page(doc.t(f"FlipFlop — {n}×{n} board", f"フリップフロップ — {n}×{n}盤"),
                         doc.t("White (white pieces) moves first. Captures only on the two goal "
                               "squares; hold the opponent's goal to win.",
                               "白が先手。取れるのはゴールの2マスの上の駒だけ。相手のゴールを占めれば勝ち。"))
            cell = 40.0 if n == 3 else 24.0
            x = (doc.width - n * cell) / 2
            y = draw_board(doc, view, x, y + 8, cell)
            pieces_to_cut(doc, y + 2, n, 24.0 if n == 3 else 18.0)
        if which in ("all", "score"):
            y = doc.page(doc.t(f"FlipFlop {n}×{n} — score sheet", f"フリップフロップ {n}×{n} — 棋譜用紙"),
                         doc.t("Notation: the face before moving (R + / B ×), from, - (move) or "
                               "x (capture), to — e.g. Ra1-a2, Rb1xb3.",
                               "表記：動かす前の面（R＝＋／B＝×）、元のマス、-（移動）または x（取り）、"
                               "行き先。例 Ra1-a2、Rb1xb3"))
            doc.text(MARGIN, y + 4, doc.t("White: ______________   Black: ______________   "
                                          "Date: __________",
                                          "白：______________　黒：______________　日付：__________"),
                     10)
            y = move_sheet(doc, y + 10, [doc.t("No.", "手"), doc.t("White", "白"),
                                         doc.t("Black", "黒")], 40)
            doc.text(MARGIN, y + 6, doc.t("Result: ______________", "結果：______________"), 10)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        cell = min(18.0, (width - 20) / flipflop_view(view)["board_size"])
        return draw_board(doc, view, x + 8, y + 6, cell)


PAPER = FlipFlopPaper()
