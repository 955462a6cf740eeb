"""A Patapata puzzle solved in a real browser (issue 29 item 2): the game's own renderer shows
the puzzle's sheet and task, the player finishes the task step by step with the page's move
buttons (flaps, then writes: the task clears with the last one), in English on a desktop and
in Japanese on a phone (dark); axe finds nothing serious."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.games.patapata.puzzles import steps_to
from asobiba.puzzles import load_set

from .browser import open_context
from .test_accessibility import axe_source, serious  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser
WAIT = 30_000


@pytest.fixture(params=[("en-US", False), ("ja-JP", True)], ids=["en-desktop", "ja-phone"])
def page(request: Any, browser: Any) -> Iterator[tuple[Any, str]]:
    locale, phone = request.param
    size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    ctx = open_context(browser, locale=locale, viewport=size,
                       color_scheme="dark" if phone else "light", is_mobile=phone,
                       has_touch=phone)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg, locale[:2]
    ctx.close()
    assert not errors, errors


def test_a_patapata_puzzle_is_solved_on_the_page(page: tuple[Any, str], server: Any,
                                                 axe_source: str) -> None:  # noqa: F811
    pg, lang = page
    pg.goto(f"{server.url}/puzzles")
    pg.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    pg.click("#guest")
    pg.wait_for_selector("#sign-in[hidden]", state="attached", timeout=WAIT)
    pg.select_option("#set", "patapata")
    pg.click("#rated")
    pg.wait_for_function("() => document.body.dataset.puzzle", timeout=WAIT)
    pid = pg.evaluate("document.body.dataset.puzzle")
    pz = {p.id: p for p in load_set("patapata")}[pid]
    # the renderer shows the puzzle's position: its window and its current task
    pg.wait_for_selector("#board .patapata svg.window", timeout=WAIT)
    assert pg.locator("#board .task.current").count() == 1
    message = pg.inner_text("#message")
    assert ("highest final score" in message) if lang == "en" else ("最終得点" in message)
    # whole clears are not listed (they would be the answers); the steps are
    listed = pg.eval_on_selector_all("#legal [data-move]", "els => els.map(e => e.dataset.move)")
    assert not any(m.startswith("clear ") for m in listed)
    assert serious(pg, axe_source) == []
    state = pz.position()
    for way in pz.line:
        for mv in steps_to(state, way):
            pg.evaluate("() => { document.body.dataset.result = 'waiting'; }")
            if pg.locator(f'#legal [data-move="{mv}"]').count():
                pg.click(f'#legal [data-move="{mv}"]')
            else:  # a whole clear when no order of writes does it: typed
                pg.fill("#move-input", mv)
                pg.press("#move-input", "Enter")
            pg.wait_for_function(
                "() => ['step', 'right', 'solved', 'failed'].includes("
                "document.body.dataset.result)", timeout=WAIT)
            assert pg.evaluate("document.body.dataset.result") != "failed"
        state = state.play(way)
    assert pg.evaluate("document.body.dataset.result") == "solved"
    assert ("Solved" if lang == "en" else "正解") in pg.inner_text("#message")
    assert "→" in pg.inner_text("#rating-change")
    assert serious(pg, axe_source) == []
