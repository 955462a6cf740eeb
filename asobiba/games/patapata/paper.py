"""Patapata on paper: play sheets with their cut and fold lines, the task sheet, the score sheet.

Everything is drawn from the engine's own data: the fold lines from
:func:`.geometry.switch_of` (which printed cells each switch shows in each setting), the cell
and switch names from :func:`.geometry.cell_name` / :func:`.geometry.switch_name`, the tasks
from :data:`.tasks.TASK_SHEET` and :func:`.tasks.course_rows`, the score lines from
:data:`.scoring.TABLES`. tests/paper/test_patapata_paper.py folds the printed sheet back in
a model, reading only the PDF, and compares every window with the engine's.
"""

from __future__ import annotations

from ...core.jsontypes import JSONMapping
from ...paper import Document, PrintOption, PrintRequest
from ...paper.doc import CUT, GRID, MARGIN, MOUNTAIN, THIN, VALLEY, LineStyle
from .geometry import CELLS, COLS, ROWS, cell_name, switch_name, switch_of
from .scoring import TABLES
from .tasks import COURSE_LENGTH, TASK_SHEET, course_rows, pattern
from .views import patapata_view

CELL = 15.0  # mm: a cell of the play sheet, room for a written mark
SHEETS_PER_PAGE = 3
MARK_COLOURS = {"O": (0.85, 0.2, 0.2), "X": (0.15, 0.35, 0.8), "B": (0.1, 0.1, 0.1)}
TASK_FILL = (0.85, 0.93, 0.98)


# ---- the fold, derived from the geometry ---------------------------------------------------
def fins() -> list[tuple[int, int, int, int]]:
    """Each switch's fin as (row, switch index, left fin cell, right fin cell): the last
    cell shown in setting 0 and the first shown in setting 1, printed side by side."""
    out = []
    for row in range(ROWS):
        by_switch: dict[int, dict[int, list[int]]] = {}
        for col in range(COLS):
            p = row * COLS + col
            idx, setting = switch_of(p)
            by_switch.setdefault(idx, {0: [], 1: []})[setting].append(p)
        for idx, sides in sorted(by_switch.items()):
            out.append((row, idx, max(sides[0]), min(sides[1])))
    return out


def sheet_lines() -> list[tuple[LineStyle, float, float, float, float]]:
    """Fold and cut lines in cell units (x = column, y = row), from the fins: a valley fold
    on each outer edge of a fin, a mountain fold along its middle, and a cut along each fin
    edge that borders the next row's fin (the seed's three dotted lines per mountain)."""
    lines: list[tuple[LineStyle, float, float, float, float]] = []
    fin_cells: set[int] = set()
    for row, _idx, left, right in fins():
        lc, rc = left % COLS, right % COLS
        fin_cells.update((left, right))
        lines.append((VALLEY, lc, row, lc, row + 1))
        lines.append((MOUNTAIN, rc, row, rc, row + 1))
        lines.append((VALLEY, rc + 1, row, rc + 1, row + 1))
    for p in sorted(fin_cells):
        below = p + COLS
        if below < CELLS and below in fin_cells:
            row, col = divmod(p, COLS)
            lines.append((CUT, col, row + 1, col + 1, row + 1))
    return lines


def draw_mark(doc: Document, mark: str, cx: float, cy: float, size: float) -> None:
    r = size * 0.3
    if mark == "O":
        doc.circle(cx, cy, r, LineStyle("mark", max(0.5, size * 0.06), MARK_COLOURS["O"]))
    elif mark == "X":
        doc.cross(cx, cy, r, max(0.5, size * 0.07), MARK_COLOURS["X"])
    elif mark == "B":
        doc.rect(cx - r, cy - r, 2 * r, 2 * r, None, fill=MARK_COLOURS["B"])


def draw_sheet(doc: Document, x0: float, y0: float, cell: float = CELL,
               marks: list[str] | None = None, cuts: bool = True) -> None:
    """One 4×8 play sheet at (x0, y0): cells named, switch names in the margins."""
    name_size = max(4.5, cell * 0.4)
    for p in range(CELLS):
        row, col = divmod(p, COLS)
        x, y = x0 + col * cell, y0 + row * cell
        doc.rect(x, y, cell, cell, GRID)
        doc.text(x + 0.8, y + name_size * 0.38, cell_name(p), name_size,
                 colour=(0.45, 0.6, 0.75))
        if marks is not None and marks[row][col] != ".":
            draw_mark(doc, marks[row][col], x + cell / 2, y + cell * 0.55, cell)
    if cuts:
        paper_white = LineStyle("erase", 0.8, (1.0, 1.0, 1.0))
        for style, xa, ya, xb, yb in sheet_lines():
            # blank out the cell frame under the line first, so its dashes read clearly
            doc.line(x0 + xa * cell, y0 + ya * cell, x0 + xb * cell, y0 + yb * cell, paper_white)
            doc.line(x0 + xa * cell, y0 + ya * cell, x0 + xb * cell, y0 + yb * cell, style)
        doc.rect(x0, y0, COLS * cell, ROWS * cell, CUT)
    for row in range(ROWS):
        cy = y0 + (row + 0.62) * cell
        doc.text(x0 - 2, cy, switch_name(row, 0), max(6, cell * 0.5), anchor="end")
        doc.text(x0 + COLS * cell + 2, cy, switch_name(row, 1), max(6, cell * 0.5))


def legend(doc: Document, x: float, y: float) -> float:
    items = [(CUT, doc.t("cut", "切る（・・・）")),
             (VALLEY, doc.t("valley fold", "谷折り（ー ー）")),
             (MOUNTAIN, doc.t("mountain fold", "山折り（ー・ー）"))]
    cx = x
    for style, label in items:
        doc.line(cx, y - 1.2, cx + 12, y - 1.2, style)
        doc.text(cx + 14, y, label, 9)
        cx += 16 + doc.text_width(label, 9) + 8
    return y + 5


def play_sheets(doc: Document, request: PrintRequest) -> None:
    """Three sheets a page, as the designer's print; enough pages for ``--players``."""
    players = int(request.options.get("players", 1))
    for first in range(0, players, SHEETS_PER_PAGE):
        y = doc.page(doc.t("Patapata Kamipen — play sheets", "パタパタ紙ペン — プレイ用紙"),
                     doc.t("Cut out one sheet per player. Fold each row's two fins (valley, "
                           "mountain, valley), then cut the dotted lines between the fins: "
                           "8 switches, 1L–4R.",
                           "1人1枚切り取ります。各行の谷折り・山折り・谷折りで山を2つ作り、山の点線を"
                           "切ると8つのスイッチ（1L〜4R）ができます。"))
        y = legend(doc, MARGIN, y + 4)
        x0 = (doc.width - COLS * CELL) / 2
        for n in range(first, first + SHEETS_PER_PAGE):
            doc.text(x0, y + 4, doc.t(f"Player {n + 1}: ____________",
                                      f"プレイヤー {n + 1}：____________"), 9)
            draw_sheet(doc, x0, y + 6)
            y += 6 + ROWS * CELL + 8


def draw_task(doc: Document, text: str, x: float, y: float, cell: float) -> None:
    """A task in its printed orientation: coloured cells with marks, dotted don't-care cells."""
    pat = pattern(text)
    rows = pat.rows()
    dotted = LineStyle("dontcare", 0.2, (0.5, 0.5, 0.5), (0.5, 0.8))
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            cx, cy = x + c * cell, y + r * cell
            if ch == ".":
                doc.rect(cx, cy, cell, cell, dotted)
            else:
                doc.rect(cx, cy, cell, cell, THIN, fill=TASK_FILL)
                draw_mark(doc, ch, cx + cell / 2, cy + cell / 2, cell)


def dice_pips(doc: Document, x: float, y: float, size: float, value: int) -> None:
    doc.rect(x, y, size, size, THIN)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
             4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
             6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}[value]
    for sx, sy in spots:
        doc.circle(x + size * (0.22 + 0.28 * sx), y + size * (0.22 + 0.28 * sy),
                   size * 0.09, None, fill=(0, 0, 0))


def task_sheet(doc: Document, request: PrintRequest) -> None:
    course = str(request.options["course"])
    if course == "dice":
        title = doc.t("Task sheet — dice course", "お題シート — サイコロ")
        sub = doc.t("Roll a die for each task: 1–2 → row 1, 3–4 → row 2, 5–6 → row 3; "
                    "take the task of that row in the current column.",
                    "お題ごとにサイコロを振り、出た目の行（1–2・3–4・5–6）の、いまの列のお題を使います。")
        rows = [0, 1, 2]
    else:
        r = int(course) - 1
        dice = f"{2 * r + 1}·{2 * r + 2}"  # the seed's ⚀⚁ / ⚂⚃ / ⚄⚅ (drawn as pips too)
        title = doc.t(f"Task sheet — course {course} (dice {dice})",
                      f"お題シート — コース {course}（サイコロ {dice}）")
        sub = doc.t("Cover the tasks with a sheet of paper and uncover one at a time.",
                    "カバーシートで隠し、お題を1つずつ見せます。")
        rows = [r]
    y = doc.page(title, sub)
    if course != "dice":
        y = fixed_course(doc, rows[0], y)
    else:
        y = dice_rows(doc, request, y)
    doc.paragraph(MARGIN, y + 6, doc.width - 2 * MARGIN, doc.t(
        "A task is cleared when its four marks appear in the 4×4 window in this orientation "
        "or turned by 90°, 180° or 270° (never mirrored). Dotted cells are not part of the "
        "task. You may reuse marks already written, switch and turn the sheet; write only "
        "marks the task needs.",
        "お題は4×4の窓に、この向きか90°・180°・270°回転した向きで現れればクリアです（鏡像は不可）。"
        "点線のマスはお題に含まれません。書いたマークの再利用、スイッチ、回転は自由です。お題に使わない"
        "マークは書けません。"), 9)


def fixed_course(doc: Document, r: int, y: float) -> float:
    """One row of the task sheet, large: two lines of six numbered tasks."""
    per_line = 6
    box_w = (doc.width - 2 * MARGIN - 16) / per_line
    cell = min(8.0, (box_w - 4) / 3)
    box_h = 3 * cell + 9
    dice_pips(doc, MARGIN, y + 2, 6, 2 * r + 1)
    dice_pips(doc, MARGIN + 7, y + 2, 6, 2 * r + 2)
    for i, text in enumerate(TASK_SHEET[r]):
        bx = MARGIN + 16 + (i % per_line) * box_w
        by = y + (i // per_line) * (box_h + 3)
        doc.rect(bx, by, box_w, box_h, THIN)
        doc.text(bx + 2, by + 4.5, str(i + 1), 10)
        pat = pattern(text)
        draw_task(doc, text, bx + (box_w - pat.width * cell) / 2,
                  by + 7 + (3 * cell - pat.height * cell) / 2, cell)
    return y + 2 * (box_h + 3)


def dice_rows(doc: Document, request: PrintRequest, y: float) -> float:
    """All three rows of the task sheet, each headed by its dice faces."""
    rows = [0, 1, 2]
    course = "dice"
    col_w = (doc.width - 2 * MARGIN - 16) / COURSE_LENGTH
    cell = min(4.6, (col_w - 1.5) / 3)
    for i in range(COURSE_LENGTH):
        doc.text(MARGIN + 16 + i * col_w + col_w / 2, y + 5, str(i + 1), 9, anchor="middle")
    y += 8
    for r in rows:
        row_h = cell * 3 + 6
        dice_pips(doc, MARGIN, y + 1, 6, 2 * r + 1)
        dice_pips(doc, MARGIN + 7, y + 1, 6, 2 * r + 2)
        doc.text(MARGIN, y + 12, doc.t(f"row {r + 1}", f"{r + 1}行目"), 6)
        for i in range(COURSE_LENGTH):
            text = TASK_SHEET[r][i]
            pat = pattern(text)
            bx = MARGIN + 16 + i * col_w
            draw_task(doc, text, bx + (col_w - pat.width * cell) / 2,
                      y + (cell * 3 - pat.height * cell) / 2 + 1, cell)
            doc.rect(bx, y - 1, col_w, row_h, THIN)
        y += row_h + 2
    if course == "dice" and request.seed_given:
        chosen = course_rows("dice", request.seed)
        y += 6
        doc.text(MARGIN, y, doc.t(f"Rolled for seed {request.seed} (the same course as the "
                                  "app's game with this seed):",
                                  f"シード {request.seed} の出目（アプリの同じシードと同じコース）："), 9)
        y += 4
        for i, r in enumerate(chosen):
            bx = MARGIN + 16 + i * col_w
            doc.text(bx + col_w / 2, y + 4, str(i + 1), 8, anchor="middle")
            dice_pips(doc, bx + col_w / 2 - 3, y + 6, 6, 2 * r + 1)
            pat = pattern(TASK_SHEET[r][i])
            draw_task(doc, TASK_SHEET[r][i], bx + (col_w - pat.width * cell) / 2, y + 14, cell)
        y += 14 + 3 * cell + 4
    return y


def score_sheet(doc: Document, request: PrintRequest) -> None:
    """Three players a page (enough pages for ``--players``)."""
    for first in range(0, int(request.options.get("players", 1)), SHEETS_PER_PAGE):
        score_page(doc, request, first)


def score_page(doc: Document, request: PrintRequest, first: int) -> None:
    table = TABLES[request.options["scores"]]
    y = doc.page(doc.t("Patapata Kamipen — score sheet", "パタパタ紙ペン — 得点表"),
                 doc.t(f"Score table: {request.options['scores']}",
                       f"得点表：{request.options['scores']}"))
    players = SHEETS_PER_PAGE
    numbers = range(first + 1, first + players + 1)
    head = [doc.t("scoring line", "得点項目")] + [doc.t(f"player {n}", f"プレイヤー{n}")
                                              for n in numbers]
    lines = [
        doc.t("6-1 largest 〇 group: size → points", "6-1 〇の最大の塊：個数 → 点"),
        doc.t("6-1 largest × group: size → points", "6-1 ×の最大の塊：個数 → 点"),
        doc.t("6-1 largest ■ group: size → points", "6-1 ■の最大の塊：個数 → 点"),
        doc.t("6-2 blanks seen at once → points", "6-2 同時に見える空白 → 点"),
        doc.t("6-3 passes → bonus", "6-3 パス回数 → ボーナス"),
        doc.t("6-4 total", "6-4 合計"),
        doc.t("rating", "称号"),
    ]
    rows = [head] + [[line] + ["   → " if i < 5 else ""] * players
                     for i, line in enumerate(lines)]
    y = doc.table(MARGIN, y + 2, [78] + [34] * players, rows, row_h=9, size=9)
    y += 2
    doc.text(MARGIN, y + 4, doc.t("Tasks: write 〇 when cleared, P when passed",
                                  "お題：クリアは〇、パスはP"), 9)
    y += 6
    rows = [[doc.t("task", "お題")] + [str(i + 1) for i in range(COURSE_LENGTH)]]
    rows += [[doc.t(f"player {n}", f"プレイヤー{n}")] + [""] * COURSE_LENGTH
             for n in numbers]
    y = doc.table(MARGIN, y, [30] + [12] * COURSE_LENGTH, rows, row_h=8, size=8)
    y += 3
    groups = [[doc.t("group size", "塊の個数")] + [str(n) for n in range(2, len(table.group))]
              + [f"{len(table.group)}+"]]
    groups.append([doc.t("points", "点")] + [str(table.group[n]) for n in range(2, len(table.group))]
                  + [str(table.group[-1])])
    n_cols = len(groups[0]) - 1
    y = doc.table(MARGIN, y, [30] + [min(12.0, 150 / n_cols)] * n_cols, groups, size=8)
    blanks = [[doc.t("blanks", "空白")] + [str(n) for n in range(len(table.blanks) - 1)]
              + [f"{len(table.blanks) - 1}+"]]
    blanks.append([doc.t("points", "点")] + [str(p) for p in table.blanks])
    y = doc.table(MARGIN, y, [30] + [12] * len(table.blanks), blanks, size=8)
    passes = [[doc.t("passes", "パス")] + [str(n) for n in range(len(table.passes) - 1)]
              + [f"{len(table.passes) - 1}+"]]
    passes.append([doc.t("bonus", "ボーナス")] + [str(p) for p in table.passes])
    y = doc.table(MARGIN, y, [30] + [12] * len(table.passes), passes, size=8)
    ratings = [[doc.t("total", "合計"), doc.t("rating", "称号")]]
    ratings += [[f"{floor}+", doc.t(en, ja)] for floor, en, ja in table.ratings]
    doc.table(MARGIN, y, [30, 40], ratings, size=8)


class PatapataPaper:
    options = (
        PrintOption("sheets", "all", choices=("all", "play", "tasks", "score"),
                    description="which pages: all, or only the play sheets / task sheet / "
                                "score sheet"),
    )

    def blank(self, doc: Document, request: PrintRequest) -> None:
        which = request.extra["sheets"]
        if which in ("all", "play"):
            play_sheets(doc, request)
        if which in ("all", "tasks"):
            task_sheet(doc, request)
        if which in ("all", "score"):
            score_sheet(doc, request)

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        view = patapata_view(view)
        sheets = view["sheets"]
        cols = 1 if len(sheets) == 1 else 2
        col_w = width / cols
        cell = min(9.0, (col_w - 24) / COLS)
        block = 6 + ROWS * cell + 6
        for i, sheet in enumerate(sheets):
            sx, sy = x + (i % cols) * col_w, y + (i // cols) * block
            sc = sheet.get("score") or {}
            doc.text(sx, sy + 4, doc.t(f"seat {sheet['seat'] + 1}: score {sc.get('total', '?')}",
                                       f"席{sheet['seat'] + 1}：{sc.get('total', '?')}点"), 9)
            draw_sheet(doc, sx + 10, sy + 6, cell, marks=sheet.get("marks"), cuts=False)
        return y + -(-len(sheets) // cols) * block


PAPER = PatapataPaper()
