"""The puzzle page in a real browser (issue 29 items 2 and 5): a guest solves a FlipFlop
puzzle by clicking its moves and sees the rating change; a wrong move typed on a phone in
Japanese (dark) ends the attempt and only then shows the solution; axe finds nothing serious
in either language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.puzzles import load_set

from .browser import open_context
from .test_accessibility import axe_source, serious  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser
WAIT = 30_000


def _context(browser: Any, locale: str, phone: bool, dark: bool) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    return open_context(browser, locale=locale, viewport=size,
                        color_scheme="dark" if dark else "light",
                        is_mobile=phone, has_touch=phone)


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    ctx = _context(browser, "en-US", phone=False, dark=False)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


@pytest.fixture
def phone_ja(browser: Any) -> Iterator[Any]:
    ctx = _context(browser, "ja-JP", phone=True, dark=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def start_as_guest(page: Any, base: str, set_name: str) -> tuple[str, ...]:
    page.goto(f"{base}/puzzles")
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)
    page.click("#guest")
    page.wait_for_selector("#sign-in[hidden]", state="attached", timeout=WAIT)
    page.select_option("#set", set_name)
    page.click("#rated")
    page.wait_for_function("() => document.body.dataset.puzzle", timeout=WAIT)
    pid = page.evaluate("document.body.dataset.puzzle")
    return {p.id: p for p in load_set(set_name)}[pid].line


def test_a_guest_solves_a_puzzle_by_clicking(desktop: Any, server: Any, axe_source: str) -> None:  # noqa: F811
    page = desktop
    line = start_as_guest(page, server.url, "flipflop")
    assert page.inner_text("#solution") == ""
    assert serious(page, axe_source) == []
    for i, mv in enumerate(line[::2]):
        page.evaluate("() => { document.body.dataset.result = 'waiting'; }")
        page.click(f'#legal [data-move="{mv}"]')
        page.wait_for_function(
            "() => ['right', 'solved', 'failed'].includes(document.body.dataset.result)",
            timeout=WAIT)
        if page.evaluate("document.body.dataset.result") == "solved":
            break
        assert i < len(line)
    assert page.evaluate("document.body.dataset.result") == "solved"
    assert "Solved" in page.inner_text("#message")
    assert "→" in page.inner_text("#rating-change")
    assert line[0] in page.inner_text("#solution")
    assert page.inner_text("#my-rating").startswith("Your puzzle rating")
    # the keyboard: the next puzzle button takes focus and Enter
    page.focus("#next")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.result === ''", timeout=WAIT)


def test_a_wrong_move_typed_on_a_phone_in_japanese(phone_ja: Any, server: Any,
                                                   axe_source: str) -> None:  # noqa: F811
    page = phone_ja
    line = start_as_guest(page, server.url, "flipflop")
    assert page.inner_text("#page-title") == "パズル"
    assert serious(page, axe_source) == []
    legal = page.eval_on_selector_all("#legal [data-move]", "els => els.map(e => e.dataset.move)")
    wrong = next(m for m in legal if m != line[0])
    # every control a thumb needs is at least 44 px high
    for sel in ("#rated", "#daily", "#streak", "#set", "#legal [data-move]"):
        box = page.locator(sel).first.bounding_box()
        assert box is not None and box["height"] >= 44, (sel, box)
    page.fill("#move-input", wrong)
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.body.dataset.result === 'failed'", timeout=WAIT)
    assert "残念" in page.inner_text("#message")
    assert line[0] in page.inner_text("#solution")
    assert serious(page, axe_source) == []
