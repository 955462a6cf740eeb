"""Issue 27 item 1 in a real browser (Debian's Chromium through Playwright), in English and
Japanese, on a desktop (1280×900) and a phone (390×844): Memory Matrix ends at a dead board;
Algo shows every card at the end; Patapata's hint names the turn and flaps and can be
followed on the table, its move list says what each move did and a solo result says so; the
review chart leaves gaps where a move has no chance and names the turning point's move."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from asobiba.core import Record
from asobiba.games import get

from .browser import Server, click_listed, new_game, wait_my_move, wait_turn
from .helpers import pacer_for

pytestmark = pytest.mark.browser

EVERY = [("desktop", "en-US"), ("desktop", "ja-JP"), ("phone", "en-US"), ("phone", "ja-JP")]
WAIT = 60_000


@pytest.fixture
def pages(accepting_pages: Any) -> Any:
    """Resign and abort confirmations are accepted (the player clicks OK)."""
    return accepting_pages


def ready_turn(page: Any) -> str:
    """Wait for this page's turn, passing the hot-seat hand-over and the mover's own review."""
    while True:
        state = wait_turn(page)
        if state == "handover":
            page.click("#handover-go")
        elif state == "review":
            page.click("#review-done")
        else:
            return state


def type_move(page: Any, move: str) -> None:
    mine = page.evaluate("document.body.dataset.myMoves")
    pacer_for(page).wait()
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    wait_my_move(page, mine)


# ---- Memory Matrix: the game ends at the first dead board -------------------------------

DEAD_LINE = ["f4", "c4w", "g4w"]  # windmill start, one piece each: dead after 3 plies
MM_OPTIONS = {"players": 2, "start_pieces": 1, "layout": "windmill"}


def test_the_dead_line_really_kills_the_board_at_its_last_move() -> None:
    state = get("memory_matrix").new_game(MM_OPTIONS, 0)
    for k, move in enumerate(DEAD_LINE):
        assert not state.is_over, k
        state = state.play(move)
    assert state.is_over and state.outcome is not None and state.outcome.scores == (0, 0)


@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_memory_matrix_ends_at_the_dead_board_with_its_reason(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    new_game(page, server.url, "memory_matrix", ["you", "you"], MM_OPTIONS)
    for move in DEAD_LINE:
        assert ready_turn(page) == "turn"
        type_move(page, move)
    page.wait_for_selector("body[data-status=finished]", timeout=WAIT)
    result = page.inner_text("#result")
    if locale == "en-US":
        assert "Draw" in result and "no piece shows a colour" in result
    else:
        assert "色の見えるピースがなくなりました" in result
    assert page.locator("#movelog li[data-ply]").count() == len(DEAD_LINE)
    assert page.locator("#legal [data-move], #board [data-move]").count() == 0


# ---- Algo: every card is shown at the end -----------------------------------------------

@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_algo_end_screen_shows_every_card_to_the_players_and_spectators(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    new_game(page, server.url, "algo", ["you", "bot:1"])
    for _ in range(600):
        if wait_turn(page) == "finished":
            break
        click_listed(page)
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector("body[data-status=finished]", timeout=WAIT)
    spectator = pages(size=size, locale=locale)
    spectator.goto(page.url.split("#")[0])
    spectator.wait_for_selector("body[data-connected=true]", timeout=WAIT)
    spectator.wait_for_selector("#board [data-card-id]", timeout=WAIT)
    for who in (page, spectator):
        cards = who.locator("#board [data-card-id]")
        assert cards.count() >= 8
        numbers = who.eval_on_selector_all("#board [data-card-id] .num",
                                           "els => els.map(e => e.textContent)")
        assert "?" not in numbers, numbers
        # the survivor's face-down cards are shown, marked as revealed
        assert who.locator("#board [data-card-id].revealed").count() >= 1


# ---- Patapata: hints to follow, a move list that says what was done, a solo result -----

def hint(page: Any) -> tuple[str, list[str], bool]:
    before = page.inner_text("#hint-text")
    page.click("#hint")
    page.wait_for_function(
        "(b) => { const e = document.getElementById('hint-text'); "
        "return e && e.textContent && (e.textContent !== b || e.dataset.free === 'true'); }",
        arg=before, timeout=WAIT)
    out = page.locator("#hint-text")
    moves = (out.get_attribute("data-moves") or "").split("|")
    return out.inner_text(), [m for m in moves if m], out.get_attribute("data-free") == "true"


def follow(page: Any, move: str) -> None:
    """Make one hint step with the table's own controls (flap, turn, cell + mark pad)."""
    mine = page.evaluate("document.body.dataset.myMoves")
    pacer_for(page).wait()
    if move.startswith("write "):
        cell = move.split()[1][:2]
        page.click(f"#board [data-write='{cell}']")
    page.click(f"#board [data-move='{move}'], #legal [data-move='{move}']")
    wait_my_move(page, mine)


@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_patapata_hint_steps_can_be_followed_on_the_table(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    new_game(page, server.url, "patapata", ["you"], {"players": 1, "course": "1"})
    assert ready_turn(page) == "turn"
    text, steps, free = hint(page)
    assert steps and not free
    page.wait_for_function(
        "() => document.getElementById('hints-used').dataset.hints === '1'", timeout=WAIT)
    # the steps are rendered in the page's language, one per step
    step_word = {"en-US": ("turn the sheet", "flip switch", "write"),
                 "ja-JP": ("回す", "めくる", "書く")}[locale]
    assert text.count("→") == len(steps) - 1
    assert any(w in text for w in step_word)
    # asking again for the same hint is free: nothing new
    again, steps2, free2 = hint(page)
    assert free2 and steps2 == steps
    assert {"en-US": "(free: nothing new)", "ja-JP": "無料"}[locale] in again
    # follow the hint with the table's controls: the task is cleared, the next uncovered
    # the task heading (h2 under the page's h1 since the heading-order fix)
    task_before = page.inner_text("#board h2")
    for move in steps:
        follow(page, move)
    page.wait_for_function("(t) => document.querySelector('#board h2').textContent !== t",
                           arg=task_before, timeout=WAIT)
    # the next task's hint: the paid count goes on from 1 (the repeat was not counted)
    hint(page)
    page.wait_for_function(
        "() => Number(document.getElementById('hints-used').dataset.hints) >= 2", timeout=WAIT)
    assert page.get_attribute("#hints-used", "data-hints") == "2"


@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_patapata_move_list_says_what_each_move_did(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    new_game(page, server.url, "patapata", ["you"], {"players": 1, "course": "1"})
    assert ready_turn(page) == "turn"
    follow(page, "switch 2R")
    follow(page, "rotate 90")
    # the first task of course 1 is cleared by "clear e2X f2X e3O f3B" (a written mark and
    # the clear it completes): write them one by one on the table
    follow(page, "switch 2R")
    follow(page, "rotate 270")
    for move in ("write e2X", "write f2X", "write e3O", "write f3B"):
        follow(page, move)
    log = page.locator("#movelog li[data-ply]").all_inner_texts()
    assert len(log) == 8
    assert not any(line.rstrip().endswith("·") for line in log), log
    words = {"en-US": ["Flip switch 2R", "Turn 90°", "Flip switch 2R", "Turn 270°",
                       "Write × on e2", "Write × on f2", "Write 〇 on e3",
                       "Write ■ on f3 — task cleared"],
             "ja-JP": ["スイッチ2Rをめくる", "90°回す", "スイッチ2Rをめくる", "270°回す",
                       "e2に×を書く", "f2に×を書く", "e3に〇を書く",
                       "f3に■を書く — お題クリア"]}[locale]
    for line, want in zip(log, words, strict=True):
        assert want in line, (line, want)


@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_patapata_solo_result_is_a_solo_result(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    new_game(page, server.url, "patapata", ["you"], {"players": 1, "course": "1"})
    for _ in range(12):
        if ready_turn(page) == "finished":
            break
        follow(page, "pass")
    page.wait_for_selector("body[data-status=finished]", timeout=WAIT)
    result = page.inner_text("#result")
    if locale == "en-US":
        assert "won" not in result.lower() and "Course complete: 12 tasks" in result, result
    else:
        assert "勝ち" not in result and "コース完了" in result, result
    assert page.locator("#result [data-solo=true]").count() == 1


# ---- The review chart: gaps for moves without a chance, the turning point by its move ----

# a FlipFlop 3×3 game whose 6th move is forced (one legal move: nothing is searched, so it
# has no chance) and whose 7th is a turning point
FF_MOVES = [(0, "Rb1xb3"), (1, "Ra3xb3"), (0, "Ra1-a2"), (1, "Rc3-c2"), (0, "Rc1-b1"),
            (1, "Bc2xb1"), (0, "Ba2xb3")]


def test_the_review_record_has_a_forced_move_and_a_turning_point() -> None:
    from asobiba.progression.feedback import review

    r = review("flipflop", FF_MOVES)
    assert [m.ply for m in r.moves if math.isnan(m.chance_after)] == [6]
    assert r.turning_points == [7]


def _record_file(tmp: Path) -> Path:
    game = get("flipflop")
    states = game.replay([m for _, m in FF_MOVES], {}, 0)
    from asobiba.core import MoveEntry, SeatInfo

    record = Record.from_states(states, [MoveEntry(s, m) for s, m in FF_MOVES], 0,
                                [SeatInfo("human", "A"), SeatInfo("human", "B")])
    path = tmp / "flipflop.json"
    path.write_text(json.dumps(record.to_json()))
    return path


@pytest.mark.parametrize(("size", "locale"), EVERY)
def test_review_chart_leaves_a_gap_for_a_forced_move_and_names_the_turning_point(
        pages: Any, server: Server, tmp_path: Path, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    page.goto(f"{server.url}/replay")
    path = _record_file(tmp_path)
    # a cold server may run out of its review budget on the first call (FlipFlop builds its
    # table then): ask until a review is complete, so the page's own review is a whole one
    for _ in range(10):
        answer = page.evaluate(
            "(r) => fetch('/api/review', {method: 'POST', headers: {'content-type': "
            "'application/json'}, body: r}).then(x => x.json())", path.read_text())
        if answer.get("review", {}).get("complete"):
            break
    else:
        raise AssertionError("the server never completed the review")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-status=loaded]", timeout=WAIT)
    page.click("#review-btn")
    page.wait_for_selector("body[data-review=done]", timeout=WAIT)
    chart = page.locator("#win-chart svg[role=img]")
    assert chart.count() == 1
    xs = chart.locator("circle.pick").evaluate_all("els => els.map(e => e.dataset.x)")
    assert xs == ["0", "1", "2", "3", "4", "5", "7"], "no point for the forced 6th move"
    assert chart.locator("polyline").count() == 2, "the line breaks at the gap"
    label = chart.get_attribute("aria-label")
    assert {"en-US": "6: no estimate", "ja-JP": "6：評価なし"}[locale] in label
    status = page.inner_text("#review-status")
    assert not re.search(r"(Turning points?|形勢の分かれ目)[:：] ?\d+ ", status), status
    if locale == "en-US":
        assert "Turning point: move 7 (" in status and "Ba2xb3" in status
    else:
        assert "形勢の分かれ目：7手目（" in status
