"""Patapata on paper (issue 19 items 1 and 5): the printed play sheet, folded in a model that
reads only the PDF, shows in its window exactly the printed cells the engine says — for all
256 switch states × 4 rotations (rule: docs/rules/patapata.md, "the fold"); and the task and
score sheets carry the course's tasks and the score table's lines."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from asobiba.games.patapata.geometry import (
    ALL_SWITCHES,
    cell_name,
    parse_switch,
    visible_window,
)
from asobiba.games.patapata.scoring import STANDARD
from asobiba.games.patapata.tasks import TASK_SHEET, course_rows
from asobiba.paper import parse_request, print_game

from .pdfread import page_size_mm, pixel, reader, render, strokes, texts

CELL_RE = re.compile(r"^[a-h][1-4]$")
SWITCH_RE = re.compile(r"^[1-4][LR]$")


def pdf(**raw: str) -> bytes:
    seed = raw.pop("seed", None)
    paper = raw.pop("paper", "a4")
    lang = raw.pop("lang", "en")
    return print_game(parse_request("patapata", raw, None if seed is None else int(seed),
                                    paper, lang))


@pytest.fixture(scope="module")
def play_pdf() -> bytes:
    return pdf(sheets="play")


def legend_kinds(page_texts, page_strokes) -> dict[tuple, str]:
    """Which (colour, dash) the page's legend calls cut / valley fold / mountain fold."""
    kinds = {}
    for label, kind in (("cut", "cut"), ("valley fold", "valley"), ("mountain fold", "mountain")):
        t = next(t for t in page_texts if t.text == label)
        sample = min((s for s in page_strokes if s.kind == "line" and s.y1 == s.y2
                      and abs(s.y1 - t.y) < 3 and s.x2 <= t.x + 0.5),
                     key=lambda s: t.x - s.x2)
        kinds[(sample.colour, sample.dash)] = kind
    assert len(set(kinds.values())) == 3
    return kinds


def read_first_sheet(data: bytes):
    """The first sheet on the page: printed cell name per cell rectangle, and its fold/cut
    lines classified through the legend."""
    page_texts, page_strokes = texts(data, 0), strokes(data, 0)
    kinds = legend_kinds(page_texts, page_strokes)
    labels = [t for t in page_texts if CELL_RE.match(t.text)]
    assert len(labels) == 3 * 32, "three sheets of 32 named cells"
    top = min(t.y for t in labels)
    sheet_labels = [t for t in labels if t.y < top + 4 * 20]  # the first sheet's 32
    sheet_labels = sorted(sheet_labels, key=lambda t: t.y)[:32]
    rects = [s for s in page_strokes if s.kind == "rect"]
    cells = {}
    for t in sheet_labels:
        inside = [r for r in rects if r.x1 <= t.x <= r.x2 and r.y1 <= t.y <= r.y2
                  and (r.x2 - r.x1) < 30]
        assert len(inside) == 1, f"label {t.text} must lie in exactly one cell"
        r = inside[0]
        cells[(round(r.x1, 1), round(r.y1, 1), round(r.x2, 1), round(r.y2, 1))] = t.text
    assert sorted(cells.values()) == sorted(cell_name(p) for p in range(32))
    x_min = min(k[0] for k in cells)
    x_max = max(k[2] for k in cells)
    y_min = min(k[1] for k in cells)
    y_max = max(k[3] for k in cells)
    lines = defaultdict(list)
    for s in page_strokes:
        kind = kinds.get((s.colour, s.dash))
        if s.kind != "line" or kind is None:
            continue
        if x_min - 0.1 <= min(s.x1, s.x2) and max(s.x1, s.x2) <= x_max + 0.1 and \
                y_min - 0.1 <= min(s.y1, s.y2) and max(s.y1, s.y2) <= y_max + 0.1:
            lines[kind].append(s)
    switch_labels = [t for t in page_texts if SWITCH_RE.match(t.text)
                     and y_min <= t.y <= y_max]
    return cells, lines, switch_labels


def fold_model(cells, lines, switch_labels):
    """Fold the printed sheet: per row, the cells between two valley folds with a mountain
    fold between them form a fin; the fin laid right shows [cell left of it, its left face],
    laid left [its right face, cell right of it]. Returns window(switch bits) → 4 rows of
    cell names in the order they lie left to right."""
    rows = defaultdict(list)
    for (x1, y1, x2, y2), name in cells.items():
        rows[y1].append((x1, x2, y2, name))
    row_keys = sorted(rows)
    assert len(row_keys) == 4
    fins_by_row = []
    for y_top in row_keys:
        row = sorted(rows[y_top])
        y_bottom = row[0][2]

        def folds(kind: str, y_top: float = y_top, y_bottom: float = y_bottom) -> list[float]:
            return sorted(round(s.x1, 1) for s in lines[kind]
                          if abs(s.x1 - s.x2) < 0.01 and abs(min(s.y1, s.y2) - y_top) < 0.2
                          and abs(max(s.y1, s.y2) - y_bottom) < 0.2)
        valleys, mountains = folds("valley"), folds("mountain")
        assert len(valleys) == 2 * len(mountains)
        fins = []
        for m in mountains:
            left_v = max(v for v in valleys if v < m)
            right_v = min(v for v in valleys if v > m)
            face_l = [i for i, c in enumerate(row) if abs(c[0] - left_v) < 0.2 and
                      abs(c[1] - m) < 0.2]
            face_r = [i for i, c in enumerate(row) if abs(c[0] - m) < 0.2 and
                      abs(c[1] - right_v) < 0.2]
            assert len(face_l) == len(face_r) == 1, "a fin is one cell each side of its ridge"
            fins.append((face_l[0], face_r[0]))
        # the switch named in the margin nearer the fin
        named = [t for t in switch_labels if y_top <= t.y <= y_bottom]
        assert len(named) == len(fins) == 2
        named.sort(key=lambda t: t.x)
        fins_by_row.append((row, [(parse_switch(t.text), fin)
                                  for t, fin in zip(named, fins, strict=True)]))
        # cuts: every fin cell is cut free from the fin cell below it
    for r in range(3):
        row, fins = fins_by_row[r]
        y_cut = row[0][2]
        cut_spans = sorted((round(min(s.x1, s.x2), 1), round(max(s.x1, s.x2), 1))
                           for s in lines["cut"] if abs(s.y1 - y_cut) < 0.2
                           and abs(s.y2 - y_cut) < 0.2)
        fin_spans = sorted((round(row[i][0], 1), round(row[i][1], 1))
                           for _, fin in fins for i in fin)
        assert cut_spans == fin_spans, "cuts free exactly the fins between rows"

    def window(bits: int) -> list[list[str]]:
        out = []
        for row, fins in fins_by_row:
            hidden = set()
            for index, (fl, fr) in fins:
                laid_left = bits >> index & 1
                # laid right: the right face lies face down on the cell right of the fin;
                # laid left: the left face lies face down on the cell left of it.
                hidden |= {fr, fr + 1} if not laid_left else {fl, fl - 1}
            out.append([c[3] for i, c in enumerate(row) if i not in hidden])
        return out

    return window


def turn(grid: list[list[str]], k: int) -> list[list[str]]:
    """Turn the physical window k quarter turns clockwise by moving each cell's position."""
    n = len(grid)
    out = [[""] * n for _ in range(n)]
    for y in range(n):
        for x in range(n):
            px, py = x, y
            for _ in range(k):
                px, py = n - 1 - py, px
            out[py][px] = grid[y][x]
    return out


def test_rule_fold_printed_sheet_matches_engine_for_every_switch_state_and_rotation(play_pdf):
    window = fold_model(*read_first_sheet(play_pdf))
    checked = 0
    for bits in range(ALL_SWITCHES):
        seen = window(bits)
        assert all(len(r) == 4 for r in seen)
        for k in range(4):
            engine = [[cell_name(p) for p in row] for row in visible_window(k, bits)]
            assert turn(seen, k) == engine, (bits, k)
            checked += 1
    assert checked == 256 * 4


def test_fold_model_catches_a_misprinted_sheet(play_pdf):
    """The check can fail: swap two printed names and the model disagrees with the engine."""
    cells, lines, labels = read_first_sheet(play_pdf)
    keys = list(cells)
    a = next(k for k in keys if cells[k] == "b1")
    b = next(k for k in keys if cells[k] == "c1")
    cells[a], cells[b] = cells[b], cells[a]
    window = fold_model(cells, lines, labels)
    assert any([[cell_name(p) for p in row] for row in visible_window(0, s)] != window(s)
               for s in range(ALL_SWITCHES))


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_pages_sizes_and_counts(paper, size, tmp_path):
    data = pdf(course="1", paper=paper)
    w, h = page_size_mm(data)
    assert abs(w - size[0]) < 0.5 and abs(h - size[1]) < 0.5
    assert len(reader(data).pages) == 3  # play sheets, task sheet, score sheet
    images = render(data, tmp_path)
    assert len(images) == 3


def test_play_sheet_pixels_where_the_geometry_puts_lines_and_cells(play_pdf, tmp_path):
    """Rendered by poppler: a mountain-fold pixel on a fin ridge, a cut between two fins, and
    white paper in the middle of every cell."""
    dpi = 150
    image = render(play_pdf, tmp_path, dpi)[0]
    cells, lines, _ = read_first_sheet(play_pdf)
    for (x1, y1, x2, y2), _name in cells.items():
        assert pixel(image, (x1 + x2) / 2, (y1 + y2) / 2 + 3, dpi) == (255, 255, 255)
    m = lines["mountain"][0]
    x, y = m.x1, (m.y1 + m.y2) / 2
    found = [pixel(image, x + dx / 10, y + dy / 5, dpi) for dx in range(-3, 4)
             for dy in range(-8, 9)]
    assert any(g > r + 40 and g > b for r, g, b in found), "the green mountain fold is printed"


def test_task_sheet_names_the_course(tmp_path):
    for course in ("1", "2", "3"):
        data = pdf(course=course, sheets="tasks")
        page = " ".join(t.text for t in texts(data, 0))
        assert f"course {course}" in page
        assert all(str(n) in page.split() for n in range(1, 13))
        marks = sum(ch != "." for t in TASK_SHEET[int(course) - 1] for ch in t if ch != "/")
        filled = [s for s in strokes(data, 0) if s.kind == "rect"
                  and s.colour == (0.45, 0.45, 0.45) and 7 < (s.x2 - s.x1) < 10]
        assert len(filled) == marks == 48, "the course's 12 tasks, 4 marks each"
    data = pdf(course="dice", sheets="tasks", seed="7")
    page = " ".join(t.text for t in texts(data, 0))
    assert "dice course" in page and "seed 7" in page
    # the dice course prints all three rows: 36 tasks + 12 of the rolled course
    task_cells = sum(ch != "." for row in TASK_SHEET for t in row for ch in t if ch != "/")
    rolled = sum(ch != "." for i, r in enumerate(course_rows("dice", 7))
                 for ch in TASK_SHEET[r][i] if ch != "/")
    filled = [s for s in strokes(data, 0) if s.kind == "rect" and s.colour == (0.45, 0.45, 0.45)
              and (s.x2 - s.x1) < 5]
    assert len(filled) == task_cells + rolled


def test_score_sheet_has_the_seeds_scoring_lines():
    data = pdf(sheets="score")
    page = " ".join(t.text for t in texts(data, 0))
    for line in ("6-1 largest 〇 group", "6-1 largest × group", "6-1 largest ■ group",
                 "6-2 blanks", "6-3 passes", "6-4 total"):
        assert line in page
    for points in STANDARD.group[2:] + STANDARD.blanks + STANDARD.passes:
        assert str(points) in page
    data = pdf(sheets="score", lang="ja")
    page = " ".join(t.text for t in texts(data, 0))
    assert "得点表" in page and "神" in page and "マスター" in page


def test_bad_print_option_is_refused_and_names_the_allowed_ones():
    from asobiba.paper import PaperError
    with pytest.raises(PaperError, match="sheets"):
        pdf(sheets="everything")
    with pytest.raises(PaperError, match="course"):
        pdf(colour="red")
    with pytest.raises(Exception, match="course"):
        pdf(course="4")


def test_enough_play_and_score_sheets_for_the_players():
    """Option players: three sheets a page, as the designer prints them."""
    for players, pages in ((1, 3), (3, 3), (4, 5), (8, 7)):
        data = pdf(players=str(players))
        assert len(reader(data).pages) == pages
        names = [t.text for i in range(pages) for t in texts(data, i)
                 if t.text.startswith("Player ")]
        assert len(names) >= players and f"Player {players}: ____________" in names
