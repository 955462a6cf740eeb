"""Print material of every game (issue 19 items 2–5), checked as paper: page count and size,
every label in the text pypdf extracts, fonts embedded, and pixels of the page rendered by
poppler where the engine puts goal squares, stones, pieces and cards."""

from __future__ import annotations

import random
import re

import pytest

from asobiba.core import MoveEntry, Record, SeatInfo
from asobiba.games import available, get, manifest
from asobiba.games.algo.tsume import generate
from asobiba.games.memory_matrix.paper import RGB
from asobiba.games.reverstargo.board import LABELS
from asobiba.paper import PaperError, parse_request, print_game, print_record

from .pdfread import (
    embedded_fonts_only,
    page_size_mm,
    pixel,
    reader,
    render,
    strokes,
    texts,
)

DPI = 100
#: every registered game with print material (its manifest names a paper), plug-ins included
PAPER_GAMES = [g for g in available() if manifest(g).paper is not None]


def pdf(game: str, seed: int | None = None, paper: str = "a4", lang: str = "en",
        **raw: str) -> bytes:
    return print_game(parse_request(game, raw, seed, paper, lang))


def all_text(data: bytes) -> str:
    return "\n".join(" ".join(t.text for t in texts(data, i))
                     for i in range(len(reader(data).pages)))


def near(a: tuple[int, int, int], b: tuple[float, float, float], tol: int = 40) -> bool:
    return all(abs(x - round(y * 255)) <= tol for x, y in zip(a, b, strict=True))


def cell_rects(data: bytes, page: int, colour=(0.0, 0.0, 0.0)):
    """The board's squares (solid black outlines), as a grid keyed (row, col)."""
    rects = [s for s in strokes(data, page) if s.kind == "rect" and s.colour == colour
             and s.dash == () and 5 < s.x2 - s.x1 < 45 and abs((s.x2 - s.x1) - (s.y2 - s.y1)) < 0.1]
    xs = sorted({round(r.x1, 1) for r in rects})
    ys = sorted({round(r.y1, 1) for r in rects})
    return {(ys.index(round(r.y1, 1)), xs.index(round(r.x1, 1))): r for r in rects}


# ---- every game: size, fonts, both languages -------------------------------------------------
@pytest.mark.parametrize("game", PAPER_GAMES)
@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_every_game_prints_on_both_papers_with_embedded_fonts(game, paper, size):
    variants = {"flipflop": {"board": "5x5"}, "memory_matrix": {"shape": "10x10", "players": "8"},
                "algo": {"level": "4", "count": "5"}}
    for lang, options in (("en", {}), ("ja", variants.get(game, {}))):
        data = pdf(game, paper=paper, lang=lang, **options)
        for i in range(len(reader(data).pages)):
            w, h = page_size_mm(data, i)
            assert abs(w - size[0]) < 0.5 and abs(h - size[1]) < 0.5
        assert embedded_fonts_only(data) == [], "every font is embedded"
        for i in range(len(reader(data).pages)):  # nothing falls off the printable page
            for t in texts(data, i):
                assert 4 <= t.x <= size[0] - 4 and 4 <= t.y <= size[1] - 4, (i, t)
            for s in strokes(data, i):
                assert min(s.x1, s.x2) >= 4 and max(s.x1, s.x2) <= size[0] - 4, (i, s)
                assert min(s.y1, s.y2) >= 4 and max(s.y1, s.y2) <= size[1] - 4, (i, s)
        text = all_text(data)
        assert ("asobiba" in text)
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), "Japanese text extracts"


def test_unknown_game_and_bad_values_are_refused():
    with pytest.raises(PaperError, match="unknown game"):
        pdf("chess")
    with pytest.raises(PaperError, match="level"):
        pdf("algo", level="9")
    with pytest.raises(PaperError, match="count"):
        pdf("algo", count="0")
    with pytest.raises(PaperError, match="lang"):
        pdf("reversi", lang="fr")
    with pytest.raises(PaperError, match="paper"):
        pdf("reversi", paper="a3")


# ---- FlipFlop --------------------------------------------------------------------------------
@pytest.mark.parametrize("board, n", [("3x3", 3), ("5x5", 5)])
def test_flipflop_board_marks_both_goals_and_has_pieces_to_cut(board, n, tmp_path):
    """Rule: only pieces on the goal squares (each side's first-row centre) can be taken."""
    data = pdf("flipflop", board=board)
    assert len(reader(data).pages) == 2
    page = " ".join(t.text for t in texts(data, 0))
    assert f"{n}×{n}" in page and page.count("goal") >= 2
    for f in "abcde"[:n]:
        assert f in page.split()
    view = get("flipflop").new_game({"board": board}).view(None)
    goals = {view["goals"]["white"], view["goals"]["black"]}
    grid = cell_rects(data, 0)
    assert len(grid) == n * n
    image = render(data, tmp_path, DPI)[0]
    for (r, c), rect in grid.items():
        name = f"{'abcde'[c]}{n - r}"
        corner = pixel(image, rect.x1 + 1.5, rect.y2 - 1.5, DPI)  # clear of piece and label
        if name in goals:
            assert near(corner, (1.0, 0.9, 0.55)), name
        else:
            assert corner == (255, 255, 255), name
    # pieces: n white and n black strips, each a cut outline with a valley fold
    cuts = [s for s in strokes(data, 0) if s.kind == "rect" and s.dash and s.colour == (0.8, 0.1, 0.1)]
    assert len(cuts) == 2 * n
    score = " ".join(t.text for t in texts(data, 1))
    assert "Ra1-a2" in score and "Rb1xb3" in score and "White" in score and "Black" in score


# ---- ReverStarGo -----------------------------------------------------------------------------
def test_reverstargo_board_has_every_official_label_and_the_start_stones(tmp_path):
    data = pdf("reverstargo", sheets="board")
    items = texts(data, 0)
    found = {t.text: t for t in items if t.text in LABELS}
    assert set(found) == set(LABELS), "all 37 official cell labels"
    view = get("reverstargo").new_game().view(None)
    image = render(data, tmp_path, DPI)[0]
    colours = {"B": (0.1, 0.1, 0.1), "W": (1.0, 1.0, 1.0), ".": (0.97, 0.97, 0.94)}
    for i, label in enumerate(LABELS):
        t = found[label]
        # a point inside the cell left of its label, clear of the letters
        x, y = t.x - 1.2, t.y - 1.0
        if label == "CP":
            assert near(pixel(image, x, y, DPI), (0.95, 0.85, 0.5)), label
        else:
            assert near(pixel(image, x, y, DPI), colours[view["board"][i]], 20), label
    kifu = pdf("reverstargo", sheets="kifu")
    text = all_text(kifu)
    assert "kifu" in text and "[B]" in text and "--" in text


# ---- Memory Matrix ---------------------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"shape": "8x8"},
    {"shape": "cross", "players": "2", "colours": "2", "layout": "windmill"},
    {"shape": "6x6", "players": "2", "layout": "butterfly"},
    {"shape": "custom", "mask": "##..##/######/######/##..##", "players": "2"},
    {"shape": "8x8", "players": "3", "layout": "random"},
])
def test_memory_matrix_board_shape_and_start_position(options, tmp_path):
    data = pdf("memory_matrix", seed=5, **options)
    view = get("memory_matrix").new_game(options, 5).view(None)
    rows = view["board"]
    grid = cell_rects(data, 0)
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "-"]
    assert len(grid) == len(cells), "one printed square per board cell, none for holes"
    xs = sorted({round(g.x1, 1) for g in grid.values()})
    ys = sorted({round(g.y1, 1) for g in grid.values()})
    size = xs[1] - xs[0]
    image = render(data, tmp_path, DPI)[0]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x0, y0 = xs[0] + c * size, ys[0] + r * size
            if ch == "-":
                assert pixel(image, x0 + size / 2, y0 + size / 2, DPI) == (255, 255, 255)
                continue
            # left part of the disc, clear of its letter
            sample = pixel(image, x0 + size * 0.5 - size * 0.28, y0 + size / 2, DPI)
            if ch in RGB:
                assert near(sample, RGB[ch]), (r, c, ch)
            else:
                assert near(sample, (0.93, 0.97, 0.92), 12), (r, c, ch)
    text = all_text(data)
    for colour in view["colours"]:
        assert colour["name"] in text


# ---- Algo ------------------------------------------------------------------------------------
@pytest.mark.parametrize("level, count", [(1, 2), (3, 3), (4, 1)])
def test_tsume_algo_sheets_with_answers_on_a_separate_page(level, count, tmp_path):
    data = pdf("algo", seed=11, level=str(level), count=str(count))
    pages = [" ".join(t.text for t in texts(data, i)) for i in range(len(reader(data).pages))]
    puzzles = [generate(level, 11 + i) for i in range(count)]
    answer_pages = [i for i, p in enumerate(pages) if "Tsume-algo — answers" in p]
    assert answer_pages and answer_pages[0] > 0
    first_answers = answer_pages[0]
    question_text = " ".join(pages[:first_answers])
    answers_text = " ".join(pages[first_answers:])
    for n, pz in enumerate(puzzles, 1):
        assert f"Puzzle {n}" in question_text
        for q in pz.questions:
            assert f"{pz.answer(q)}" in answers_text
        line = f"Puzzle {n}: " + "   ".join(f"Q{i}: {pz.answer(q)}"
                                            for i, q in enumerate(pz.questions, 1))
        assert line.replace("   ", " ") in answers_text.replace("   ", " ")
    assert "Q1:" not in question_text, "no answer on the puzzle pages"
    # the face-up cards show their numbers; face-down ones are dark (black) or white
    image = render(data, tmp_path, DPI)[0]
    pz = puzzles[0]
    card_rects = [s for s in strokes(data, 0) if s.kind == "rect" and s.colour == (0, 0, 0)
                  and abs((s.x2 - s.x1) - 11) < 0.1]
    flat = [(k, pz.up[r][p]) for r, row in enumerate(pz.rows) for p, k in enumerate(row)]
    assert len(card_rects) >= len(flat)
    for rect, (key, _up) in zip(card_rects, flat, strict=False):
        sample = pixel(image, rect.x1 + 1.0, rect.y1 + 1.0, DPI)
        assert near(sample, (0.12, 0.12, 0.12) if key % 2 == 0 else (1, 1, 1)), key


# ---- records: every game -----------------------------------------------------------------------
def random_record(game_id: str, seed: int = 3, limit: int = 400,
                  options: dict | None = None) -> Record:
    game = get(game_id)
    state = game.new_game(options, seed)
    states, moves, rng = [state], [], random.Random(seed)
    while not state.is_over and len(moves) < limit:
        seat = state.acting_seats[0]
        move = rng.choice(state.legal_moves(seat).texts())
        state = state.play(move, seat)
        states.append(state)
        moves.append(MoveEntry(seat, move))
    seats = [SeatInfo("human", "山田花子")] + [SeatInfo("bot", "CPU", "2")] * (state.num_seats - 1)
    return Record.from_states(states, moves, seed, seats)


@pytest.mark.parametrize("game", PAPER_GAMES)
def test_record_prints_final_position_moves_and_result(game, tmp_path):
    record = random_record(game)
    assert record.result is not None
    data = print_record(record, "a4", "en")
    assert embedded_fonts_only(data) == []
    text = all_text(data)
    assert "game record" in text and "Result" in text and "山田花子" in text
    if game == "reverstargo":
        final = record.replay(get)[-1].view(None)
        for n, e in enumerate(final["entries"], 1):
            cell = "--" if e["cell"] is None else f"{e['cell']}[{e['call']}]"
            assert f"{n:02d}." in text and cell in text
    else:
        for n, m in enumerate(record.moves, 1):
            assert f"{n}. [{m.seat + 1}] {m.move}" in text
    images = render(data, tmp_path, 40)
    assert len(images) == len(reader(data).pages) >= 1
    ja = all_text(print_record(record, "letter", "ja"))
    assert "棋譜" in ja and "結果" in ja


def test_record_final_reversi_position_pixels(tmp_path):
    record = random_record("reversi", seed=8)
    data = print_record(record)
    final = record.replay(get)[-1].view(None)
    grid = cell_rects(data, 0)
    assert len(grid) == 64
    image = render(data, tmp_path, DPI)[0]
    for (r, c), rect in grid.items():
        ch = final["board"][r][c]
        # left part of the square: the disc's edge region for pieces, green for empty
        sample = pixel(image, rect.x1 + (rect.x2 - rect.x1) * 0.3, (rect.y1 + rect.y2) / 2, DPI)
        want = {"B": (0.1, 0.1, 0.1), "W": (1, 1, 1), ".": (0.2, 0.55, 0.3)}[ch]
        assert near(sample, want), (r, c, ch)


def test_a_record_with_an_illegal_move_is_refused():
    record = random_record("flipflop")
    bad = Record(record.game, record.options, record.seed,
                 (*record.moves[:1], MoveEntry(1, "Rz9-a1")), record.seats)
    with pytest.raises(Exception, match="Rz9"):
        print_record(bad)


@pytest.mark.parametrize("game, options", [("patapata", {"players": 8}),
                                           ("memory_matrix", {"players": 8}),
                                           ("algo", {"players": 8})])
def test_record_with_the_most_seats_stays_on_the_page(game, options):
    record = random_record(game, options=options, limit=300)
    for paper, size in (("a4", (210, 297)), ("letter", (215.9, 279.4))):
        data = print_record(record, paper, "en")
        for i in range(len(reader(data).pages)):
            for t in texts(data, i):
                assert 4 <= t.x <= size[0] - 4 and 4 <= t.y <= size[1] - 4, (i, t)
            for s in strokes(data, i):
                assert max(s.y1, s.y2) <= size[1] - 4 and max(s.x1, s.x2) <= size[0] - 4, (i, s)
        text = all_text(data)
        assert f"{len(record.moves)}. [" in text, "the last move is printed"


def test_memory_matrix_every_named_shape_and_layout_prints_its_cells():
    from asobiba.games.memory_matrix.game import LAYOUTS
    from asobiba.games.memory_matrix.shapes import SHAPES

    for shape in SHAPES:
        for layout in LAYOUTS:
            options = {"shape": shape, "layout": layout, "players": "2"}
            try:
                view = get("memory_matrix").new_game(options, 2).view(None)
            except Exception as exc:  # a layout the engine refuses on this shape
                with pytest.raises(type(exc)):
                    pdf("memory_matrix", seed=2, **options)
                continue
            data = pdf("memory_matrix", seed=2, **options)
            cells = sum(ch != "-" for row in view["board"] for ch in row)
            assert len(cell_rects(data, 0)) == cells, (shape, layout)


def test_record_of_an_unfinished_hidden_game_prints_only_the_public_view():
    """Hidden information stays hidden on paper: an Algo record cut short prints a number
    on exactly the cards its public view shows face up."""
    record = random_record("algo", seed=4, limit=6)
    final = record.replay(get)[-1]
    assert not final.is_over
    view = final.view(None)
    up = sum(1 for row in view["rows"] for c in row if c.get("up"))
    hidden = sum(1 for row in view["rows"] for c in row if not c.get("up"))
    assert hidden > 0 and up > 0
    data = print_record(record)
    cards = [s for s in strokes(data, 0) if s.kind == "rect" and s.colour == (0, 0, 0)
             and (s.y2 - s.y1) > 15]
    assert len(cards) == up + hidden
    numbers = [t for t in texts(data, 0) if t.text.isdigit()
               and any(c.x1 <= t.x <= c.x2 and c.y1 <= t.y <= c.y2 for c in cards)]
    assert len(numbers) == up


def test_a_plugged_in_game_without_paper_is_told_so():
    """The paper layer finds a game's paper.py beside its rules, wherever the registry found
    the game; the test game (tests/tictactoe) brings none, which is a clear error."""
    from asobiba import games

    games.register("tictactoe", "tests.tictactoe")
    try:
        with pytest.raises(PaperError, match="tictactoe.*no print material"):
            pdf("tictactoe")
    finally:
        games.unregister("tictactoe")
