"""Tutorials in a real browser (issue 9: "tutorial steps completable in a real browser"):
every step of the Reversi and ReverStarGo tutorials is completed by clicking the board, every
step of the other four by typing the move, and wrong moves are refused with their message."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.progression.tutorials import tutorial

from .browser import Server, open_context

pytestmark = pytest.mark.browser
WAIT = 30_000


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def open_tutorial(page: Any, base: str, game: str) -> None:
    page.goto(f"{base}/tutorial/{game}")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)


def click_board(page: Any, move: str) -> str:
    """Click the board target of ``move`` (a pass is only in the move list); return the
    page's verdict (done/refused)."""
    page.evaluate("() => { document.body.dataset.result = 'waiting'; }")
    target = page.locator(f'#board [data-move="{move}"]')
    if not target.count():
        # a two-step move: pick its card (Algo) or cell (a CP call, a colour choice) first
        pick = move.split(" ", 1)[1].split("=")[0] if move.startswith("attack ") else \
            move.split("[")[0].rstrip("w")
        picker = page.locator(f'#board [data-attack="{pick}"], #board [data-pick="{pick}"]')
        if picker.count():
            picker.first.click(timeout=WAIT)
            target = page.locator(f'#board [data-move="{move}"]')
    if not target.count():
        target = page.locator(f'#legal [data-move="{move}"]')
    target.first.click(timeout=WAIT)
    page.wait_for_function("() => ['done', 'refused'].includes(document.body.dataset.result)",
                           timeout=WAIT)
    return str(page.evaluate("document.body.dataset.result"))


def type_move(page: Any, move: str) -> str:
    page.evaluate("() => { document.body.dataset.result = 'waiting'; }")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    page.wait_for_function("() => ['done', 'refused'].includes(document.body.dataset.result)",
                           timeout=WAIT)
    return str(page.evaluate("document.body.dataset.result"))


def complete_every_step(page: Any, game: str, play: Any = None) -> None:
    play = play or click_board
    steps = tutorial(game).steps
    for i, step in enumerate(steps):
        assert page.evaluate("document.body.dataset.step") == step.key
        assert step.goal.en in page.inner_text("#goal")
        assert play(page, step.solutions[0]) == "done", page.inner_text("#message")
        assert page.evaluate("document.body.dataset.stepDone") == "true"
        assert "Well done" in page.inner_text("#message")
        # the position after the move is shown, with nothing left to click
        assert page.locator("#board [data-move], #legal [data-move]").count() == 0
        if i + 1 == len(steps):
            break
        page.click("#next")
        page.wait_for_function(f"() => document.body.dataset.stepIndex === '{i + 1}'",
                               timeout=WAIT)
    assert page.evaluate("document.body.dataset.finished") == "true"
    assert "every step" in page.inner_text("#message")
    lobby = page.url.split("/tutorial/")[0] + "/"
    page.click("#next")  # the last step's button leads back to the lobby
    page.wait_for_url(lobby, timeout=WAIT)


def test_rule_every_reversi_tutorial_step_completable_by_clicking(page: Any,
                                                                  server: Server) -> None:
    open_tutorial(page, server.url, "reversi")
    complete_every_step(page, "reversi")


def test_rule_every_reverstargo_tutorial_step_completable_by_clicking(page: Any,
                                                                      server: Server) -> None:
    open_tutorial(page, server.url, "reverstargo")
    complete_every_step(page, "reverstargo")


def test_wrong_moves_are_refused_with_their_message(page: Any, server: Server) -> None:
    open_tutorial(page, server.url, "reversi")
    page.click('#steps [data-step="lines"]')
    page.wait_for_function("() => document.body.dataset.step === 'lines'", timeout=WAIT)
    board = page.inner_html("#board")
    # a legal move that misses the goal: the step's hint, and the position is unchanged
    assert click_board(page, "e5") == "refused"
    assert "brackets c4 and d4" in page.inner_text("#message")
    assert page.evaluate("document.body.dataset.stepDone") == "false"
    assert page.inner_html("#board") == board
    # an illegal move typed in: the game's own rule sentence
    assert type_move(page, "c6") == "refused"
    assert "would not bracket" in page.inner_text("#message")
    assert page.inner_html("#board") == board
    # then the right one still works
    assert click_board(page, "c5") == "done"


def test_rule_reverstargo_ko_call_refused_in_the_browser(page: Any, server: Server) -> None:
    open_tutorial(page, server.url, "reverstargo")
    page.click('#steps [data-step="ko"]')
    page.wait_for_function("() => document.body.dataset.step === 'ko'", timeout=WAIT)
    # only the Black call is offered on the board; typing the White call is refused by ko
    assert page.locator('#board [data-move="B1[W]"]').count() == 0
    assert type_move(page, "B1[W]") == "refused"
    assert "ko" in page.inner_text("#message").lower()
    assert click_board(page, "B1[B]") == "done"


def test_tutorial_in_japanese_and_by_keyboard(browser: Any, server: Server) -> None:
    context = open_context(browser, locale="ja-JP")
    page = context.new_page()
    try:
        open_tutorial(page, server.url, "reversi")
        assert "目標" in page.inner_text("#goal")
        assert tutorial("reversi").steps[0].goal.ja in page.inner_text("#goal")
        page.evaluate("() => { document.body.dataset.result = 'waiting'; }")
        page.focus('#board [data-move="d3"]')
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.body.dataset.result === 'done'", timeout=WAIT)
        assert "よくできました" in page.inner_text("#message")
        page.click("#lang")
        assert "Goal" in page.inner_text("#goal")
    finally:
        context.close()


@pytest.mark.parametrize("game", ["flipflop", "algo", "memory_matrix", "patapata"])
def test_rule_every_step_of_the_other_tutorials_completable_by_typing(page: Any, server: Server,
                                                                      game: str) -> None:
    """The other games' tutorials render with their own board, and every step is completed
    with its intended move typed in the move box (the Reversi and ReverStarGo tests above
    click the board)."""
    open_tutorial(page, server.url, game)
    assert page.locator("#board svg, #board button, #board .board").count() > 0
    complete_every_step(page, game, type_move)


def open_step(page: Any, base: str, game: str, step: str) -> None:
    open_tutorial(page, base, game)
    page.click(f'#steps [data-step="{step}"]')
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'", timeout=WAIT)


def test_rule_flipflop_blocked_step_refuses_jump_and_capture_off_the_goals(
        page: Any, server: Server) -> None:
    open_step(page, server.url, "flipflop", "blocked")
    board = page.inner_html("#board")
    assert type_move(page, "Ra1-a3") == "refused"
    assert "cannot jump" in page.inner_text("#message")
    assert type_move(page, "Ra1xa2") == "refused"
    assert "goal squares" in page.inner_text("#message")
    assert type_move(page, "Rc1-c2") == "refused"  # legal, but short of the goal: the hint
    assert "free column" in page.inner_text("#message")
    assert page.inner_html("#board") == board
    assert type_move(page, "Rc1-c3") == "done"


def test_rule_memory_matrix_run_step_hides_the_colour_and_hints(page: Any,
                                                               server: Server) -> None:
    """The blue under c3 is never sent to the browser: the page's data holds only W there."""
    open_step(page, server.url, "memory_matrix", "run")
    data = page.evaluate("() => fetch('/api/tutorials/memory_matrix').then(r => r.json())")
    run = next(s for s in data["steps"] if s["key"] == "run")
    assert run["view"]["board"][2] == ".RWBRB"
    assert "under" not in run["view"]
    assert type_move(page, "a3w") == "refused"
    assert "blue side up" in page.inner_text("#message")
    assert type_move(page, "a3") == "done"


def test_algo_tutorial_shows_the_players_own_cards_after_stay(page: Any, server: Server) -> None:
    """After a stay the turn passes to B, but the page keeps showing A's view: B's face-down
    numbers never reach the browser."""
    open_step(page, server.url, "algo", "stay")
    res = page.evaluate("""() => fetch('/api/tutorials/algo/stay', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: JSON.stringify({move: 'stay'})})
        .then(r => r.json())""")
    assert res["done"] and res["view"]["seat"] == 0
    assert all("number" not in c for c in res["view"]["rows"][1] if not c["up"])
    assert type_move(page, "stay") == "done"
