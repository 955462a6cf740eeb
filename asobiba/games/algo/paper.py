"""Algo on paper: tsume-algo puzzle sheets (``--level 1-4 --count N``) with the answers on a
separate page, and the rows of cards of a record's final position. Puzzles come from the
engine's generator (:func:`.tsume.generate`), whose answers are proved unique; puzzle ``i``
of a sheet is ``generate(level, seed + i)``, the same as ``asobiba puzzle algo --level L
--seed S+i``."""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintOption, PrintRequest
from ...paper.doc import MARGIN, LineStyle
from .cards import COLOUR_LETTERS
from .tsume import COLOURS, ROW_NAMES, Puzzle, Question, explain, generate
from .views import algo_view

CARD_W, CARD_H = 11.0, 16.0
FACE = {"b": (0.12, 0.12, 0.12), "w": (1.0, 1.0, 1.0), "r": (0.8, 0.15, 0.15)}


def card(doc: Document, x: float, y: float, colour: str, number: int | None,
         w: float = CARD_W, h: float = CARD_H) -> None:
    """A card: its colour always shows; a face-up card shows its number, a face-down one a
    hatched back."""
    doc.rect(x, y, w, h, LineStyle("card", 0.35, (0, 0, 0)), fill=FACE[colour])
    ink = (1, 1, 1) if colour in "br" else (0, 0, 0)
    if number is not None:
        doc.text(x + w / 2, y + h * 0.66, str(number), h * 1.25, anchor="middle", colour=ink)
    else:
        hatch = LineStyle("back", 0.2, (0.55, 0.55, 0.55))
        for k in range(1, 4):
            doc.line(x + 1.5, y + k * h / 4, x + w - 1.5, y + k * h / 4, hatch)


def question_text(doc: Document, q: Question) -> str:
    if q.kind == "where":
        colour = ("black", "white")[q.key % COLOURS]
        colour_ja = ("黒", "白")[q.key % COLOURS]
        return doc.t(f"Where is {colour} {q.key // COLOURS}? (answer like B3)",
                     f"{colour_ja}の{q.key // COLOURS}はどこ？（例：B3）")
    return doc.t(f"What is card {q.pos + 1} of row {ROW_NAMES[q.row]}? (answer like w7)",
                 f"{ROW_NAMES[q.row]}列の{q.pos + 1}枚目は？（例：w7）")


def draw_puzzle(doc: Document, n: int, pz: Puzzle, y: float) -> float:
    doc.text(MARGIN, y + 5, doc.t(f"Puzzle {n} (level {pz.level}, seed {pz.seed})",
                                  f"問題 {n}（レベル{pz.level}、シード{pz.seed}）"), 11)
    y += 8
    for r, row in enumerate(pz.rows):
        doc.text(MARGIN + 2, y + CARD_H * 0.65, ROW_NAMES[r], 11)
        for p, key in enumerate(row):
            x = MARGIN + 10 + p * (CARD_W + 2)
            card(doc, x, y, COLOUR_LETTERS[key % COLOURS],
                 key // COLOURS if pz.up[r][p] else None)
            doc.text(x + CARD_W / 2, y + CARD_H + 3.2, f"{ROW_NAMES[r]}{p + 1}", 6,
                     anchor="middle", colour=(0.4, 0.4, 0.4))
        y += CARD_H + 6
    for i, q in enumerate(pz.questions, 1):
        doc.text(MARGIN + 4, y + 4, f"Q{i}. {question_text(doc, q)}   ______", 10)
        y += 6
    return y + 4


class AlgoPaper:
    options = (
        PrintOption("level", 1, "choice", (1, 2, 3, 4),
                    description="tsume-algo level: 1 (2 rows) … 4 (4 rows, case analysis)"),
        PrintOption("count", 3, "int", minimum=1, maximum=12,
                    description="how many puzzles (seeds seed, seed+1, …)"),
    )

    def blank(self, doc: Document, request: PrintRequest) -> None:
        level, count = request.extra["level"], request.extra["count"]
        puzzles = [generate(level, request.seed + i) for i in range(count)]
        intro = doc.t(
            "The 20 cards black and white 0–9 lie in these rows, each row in ascending order "
            "(at equal numbers black before white). Numbered cards are face up; hatched cards "
            "are face down. Deduce the answers; they are on the last page.",
            "黒と白の0〜9の20枚がこの列に並んでいます。各列は小さい順（同じ数なら黒が先）。数字のあるカードは"
            "表、斜線のカードは伏せています。推理して答えましょう（答えは最後のページ）。")
        title = doc.t("Tsume-algo", "詰めアルゴ")
        y = doc.page(title, doc.t(f"level {level}, {count} puzzle(s)",
                                  f"レベル{level}・{count}問"))
        y = doc.paragraph(MARGIN, y + 2, doc.width - 2 * MARGIN, intro, 9)
        for n, pz in enumerate(puzzles, 1):
            need = 14 + len(pz.rows) * (CARD_H + 6) + 6 * len(pz.questions)
            if y + need > doc.height - MARGIN - 8:
                y = doc.page(title, doc.t("puzzles, continued", "問題（続き）"))
            y = draw_puzzle(doc, n, pz, y)
        y = doc.page(doc.t("Tsume-algo — answers", "詰めアルゴ — 答え"),
                     doc.t("Each answer holds in every layout the open cards allow.",
                           "どの答えも、表のカードと矛盾しないすべての並びで成り立ちます。"))
        for n, pz in enumerate(puzzles, 1):
            answers = "   ".join(f"Q{i}: {pz.answer(q)}" for i, q in enumerate(pz.questions, 1))
            if y > doc.height - MARGIN - 30:
                y = doc.page(doc.t("Tsume-algo — answers", "詰めアルゴ — 答え"))
            doc.text(MARGIN, y + 5, doc.t(f"Puzzle {n}: ", f"問題 {n}：") + answers, 10)
            y += 7
            if doc.lang == "en":  # the solver's reasoning, step by step (English only)
                for step in explain(pz):
                    if y > doc.height - MARGIN - 12:
                        y = doc.page(doc.t("Tsume-algo — answers", "詰めアルゴ — 答え"))
                    y = doc.paragraph(MARGIN + 4, y, doc.width - 2 * MARGIN - 4, "· " + step, 8,
                                      leading=1.3)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        view = algo_view(view)
        for seat, row in enumerate(view["rows"]):
            doc.text(x, y + CARD_H * 0.65, doc.t(f"seat {seat + 1}", f"席{seat + 1}"), 9)
            step = min(CARD_W + 2, (width - 20) / max(1, len(row)))
            for p, c in enumerate(row):
                card(doc, x + 18 + p * step, y, c["colour"],
                     c.get("number") if c.get("up") else None, min(CARD_W, step - 1))
            y += CARD_H + 4
        return y


PAPER = AlgoPaper()
