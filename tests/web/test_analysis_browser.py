"""Issue 29 items 1 and 5: the analysis board in a real Chromium against a real server, in
English and Japanese, on a desktop and a phone: playing and the move tree (variations, going
back, promoting a line), the engine's three lines deepening live, FlipFlop 3×3's exact
verdicts, the board editor's coded refusal, the shareable link, pasted moves, export with
comments, Algo's seat analysis, the "Analyse" link of the replay page, keyboard use and axe."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from .browser import Server, open_context
from .test_accessibility import axe_source, serious  # noqa: F401 - the fixture

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
CASES = [("en-US", DESKTOP), ("ja-JP", PHONE)]
IDS = ["en-desktop", "ja-phone"]


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    locale, viewport, *scheme = getattr(request, "param", CASES[0])
    ctx = open_context(browser, locale=locale, viewport=viewport,
                       has_touch=viewport is PHONE, is_mobile=viewport is PHONE,
                       color_scheme=scheme[0] if scheme else "light")
    pg = ctx.new_page()
    pg.locale = locale  # type: ignore[attr-defined]
    yield pg
    ctx.close()


def ready(page: Any, ply: int | None = None) -> None:
    page.wait_for_selector("body[data-status=ready]")
    if ply is not None:
        page.wait_for_selector(f"body[data-ply='{ply}']")


def tree(page: Any) -> list[str]:
    return [b.get_attribute("data-move") for b in page.locator("#tree .tree-move[data-move]").all()]


@pytest.mark.parametrize("page", CASES, indirect=True, ids=IDS)
def test_play_variations_promote_and_the_engine_deepening(page: Any, server: Server,
                                                          axe_source: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/analysis/reversi")
    ready(page, 0)
    title = {"en-US": "Analysis board", "ja-JP": "検討ボード"}[page.locale]
    assert title in page.content()
    page.click("#board [data-move='d3']")
    ready(page, 1)
    page.click("#board [data-move='c5']")
    ready(page, 2)
    page.click("#back")
    ready(page, 1)
    page.click("#board [data-move='c3']")  # an alternative: a variation
    ready(page, 2)
    assert tree(page) == ["d3", "c5", "c3"]
    assert page.locator("#tree .variation").count() == 1
    page.click("#promote")
    assert tree(page) == ["d3", "c3", "c5"]  # c3 is the main line now
    # keyboard: Home goes to the start, ArrowRight follows the main line
    page.locator("#status").click()
    page.keyboard.press("Home")
    ready(page, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-ply='2']")
    assert page.locator("#tree [aria-current=true]").get_attribute("data-move") == "c3"
    # the engine: three lines, deepening live
    page.click("#engine-toggle")
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 3")
    assert page.locator("#lines li").count() == 3
    first_depth = int(page.evaluate("document.body.dataset.depth"))
    page.wait_for_function(f"() => Number(document.body.dataset.depth || 0) > {first_depth}")
    # a PV move is a button that plays the line up to it
    page.locator("#lines li").first.locator(".pv-move").first.click()
    ready(page, 3)
    page.click("#engine-toggle")
    # the opening explorer is mounted under the engine and follows the position: its book
    # moves are buttons that play the move on the board
    page.click("#first")
    ready(page, 0)
    page.wait_for_selector("#explorer .explorer-move[data-move]")
    move = page.locator("#explorer .explorer-move[data-move]").first.get_attribute("data-move")
    page.locator("#explorer .explorer-move[data-move]").first.click()
    ready(page, 1)
    assert page.locator("#tree [aria-current=true]").get_attribute("data-move") == move
    if page.viewport_size["width"] < 500:  # phone: the controls are at least 44 px
        for sel in ("#tree .tree-move", "#engine-toggle", "#promote", "#back"):
            box = page.locator(sel).first.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, sel
    assert serious(page, axe_source) == []


@pytest.mark.parametrize("page", [CASES[0], ("en-US", PHONE, "dark")], indirect=True,
                         ids=[IDS[0], "en-phone-dark"])
def test_flipflop_3x3_answers_exactly_at_once(page: Any, server: Server,
                                               axe_source: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/analysis/flipflop")
    ready(page, 0)
    page.click("#engine-toggle")
    page.wait_for_selector("body[data-engine='stopped-done']")
    verdicts = [li.get_attribute("data-verdict") for li in page.locator("#lines li").all()]
    assert verdicts and all(v in ("win", "draw", "loss") for v in verdicts)
    assert serious(page, axe_source) == []


@pytest.mark.parametrize("page", CASES, indirect=True, ids=IDS)
def test_the_board_editor_refuses_an_impossible_position_with_a_clear_error(
        page: Any, server: Server, axe_source: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/analysis/reversi")
    ready(page, 0)
    page.click("#edit")
    page.click("#edit-clear")
    page.click("#edit-apply")
    page.wait_for_selector("body[data-status=error]")
    said = {"en-US": "the four centre squares are never empty",
            "ja-JP": "中央の4マスが空になることはありません"}[page.locale]
    assert said in page.locator("#error").inner_text()
    assert serious(page, axe_source) == []
    # fill the centre back (row 4: d4 W e4 B ... as rows 3 and 4 of the grid) and add a disc
    for cell, presses in (("3:3", 1), ("3:4", 2), ("4:3", 2), ("4:4", 1), ("0:0", 1)):
        for _ in range(presses):
            page.click(f"[data-cell='{cell}']")
    page.select_option("#edit-turn", "1")
    page.click("#edit-apply")
    ready(page, 0)
    assert page.locator("#error").inner_text() == ""
    board = page.locator("#board").inner_html()
    link = linked(page)
    page.goto(link)  # the set-up board travels in the link (its [Setup] tag)
    ready(page, 0)
    assert page.locator("#board").inner_html() == board
    assert linked(page) == link


def linked(page: Any) -> str:
    """The share link once the page has written it for the tree as it is now."""
    page.wait_for_selector("body[data-link=ready]")
    value: str = page.locator("#link").input_value()
    return value


@pytest.mark.parametrize("page", CASES, indirect=True, ids=IDS)
def test_the_link_and_the_export_carry_the_whole_tree(page: Any, server: Server,
                                                      axe_source: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/analysis/reversi")
    ready(page, 0)
    page.fill("#paste", "f5 d6 c3 d3 c4")
    page.click("#paste-load")
    ready(page, 5)
    page.click("#back")
    ready(page, 4)
    page.fill("#comment", "a quiet move {really}")
    page.locator("#comment").dispatch_event("change")
    alt = next(m for m in (t.get_attribute("data-move") for t in
                            page.locator("#board [data-move]").all()) if m != "c4")
    page.click(f"#board [data-move='{alt}']")
    ready(page, 5)
    page.fill("#comment", "the sideline")
    page.locator("#comment").dispatch_event("change")
    page.click("#export")
    page.wait_for_function("() => document.getElementById('export-text').value.includes('Game')")
    text = page.locator("#export-text").input_value()
    assert '[Game "reversi"]' in text and "{a quiet move {really\\}}" in text
    assert f"(5. {alt} {{the sideline}})" in text
    before = page.locator("#tree").inner_text()
    link = linked(page)
    assert "tree=" in link and "moves=" not in link and len(link) < 400
    # the link opens the same tree (the main line and the variation, both comments) at the
    # same move
    other = page.context.new_page()
    other.goto(link)
    ready(other, 5)
    assert other.locator("#tree").inner_text() == before
    assert other.locator("#tree [aria-current=true]").get_attribute("data-move") == alt
    assert other.locator("#comment").input_value() == "the sideline"
    other.close()
    # the export pasted back restores the same tree
    page.click("#first")
    ready(page, 0)
    page.fill("#paste", text)
    # the page is at ply 0 and ready already: mark it stale so that ``ready`` waits for the
    # paste's own refresh (a refresh still on its way would clear the error asked for below)
    page.evaluate("document.body.dataset.status = 'stale'")
    page.click("#paste-load")
    ready(page, 0)
    assert page.locator("#tree").inner_text() == before
    # garbled pastes and links: a coded error in words, and the tree unchanged
    said = {"en-US": "cannot be read", "ja-JP": "読めません"}[page.locale]
    page.fill("#paste", text.replace(f"(5. {alt}", f"5. {alt}"))
    page.click("#paste-load")
    page.wait_for_function("() => document.getElementById('error').textContent.length > 0")
    assert said in page.locator("#error").inner_text()
    assert page.locator("#tree").inner_text() == before
    page.fill("#paste", "f5 f5")
    page.click("#paste-load")
    page.wait_for_function("() => document.getElementById('error').textContent.includes('f5')")
    assert page.locator("#tree").inner_text() == before
    assert serious(page, axe_source) == []
    broken = page.context.new_page()
    token = parse_qs(urlsplit(link).query)["tree"][0]
    broken.goto(link.replace(token, token[:len(token) // 2]))  # cut short: no deflate end
    broken.wait_for_selector("body[data-status=error]")
    damaged = {"en-US": "This link is damaged", "ja-JP": "このリンクは壊れています"}[page.locale]
    assert damaged in broken.locator("#error").inner_text()
    broken.close()


class Held:
    """The next position request, held back until the test releases it; later requests
    pass. The route stays installed until ``release`` (unrouting would let it go)."""

    def __init__(self, page: Any, action: str) -> None:
        self.page = page
        self.held: list[Any] = []
        page.route("**/api/analysis/position", self.hold)
        page.click(action)
        for _ in range(500):
            if self.held:
                break
            page.wait_for_timeout(10)  # lets Playwright dispatch the route to the handler
        assert len(self.held) == 1

    def hold(self, route: Any) -> None:
        if self.held:
            route.continue_()
        else:
            self.held.append(route)

    def release(self, **fulfil: Any) -> None:
        if fulfil:
            self.held[0].fulfill(**fulfil)
        else:
            self.held[0].continue_()
        self.page.unroute("**/api/analysis/position", self.hold)


def answered(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.answered || '0'"))


def test_a_late_answer_never_draws_a_position_the_player_has_left(page: Any,
                                                                 server: Server) -> None:
    """The player goes back to the start and, before the server has answered, on to the
    first move: the start's answer, arriving last, is dropped — it neither draws the start
    over the first move nor, when it is an error, takes the player back where it was."""
    page.goto(f"{server.url}/analysis/reversi")
    ready(page, 0)
    page.click("#board [data-move='d3']")
    ready(page, 1)
    page.click("#board [data-move='c5']")
    ready(page, 2)
    late = Held(page, "#first")
    page.click("#tree .tree-move[data-move='d3']")
    ready(page, 1)
    n = answered(page)
    late.release()  # the start's real answer, last
    page.wait_for_function(f"() => Number(document.body.dataset.answered) > {n}")
    assert page.evaluate("document.body.dataset.ply") == "1"
    assert page.locator("#tree [aria-current=true]").get_attribute("data-move") == "d3"
    assert page.locator("#board [data-move='c5']").count() == 1  # White's reply is legal
    assert page.locator("#board [data-move='d3']").count() == 0  # not the start's board
    # an error arriving late: no error shown, and the later move stands
    late = Held(page, "#first")
    page.click("#tree .tree-move[data-move='c5']")
    ready(page, 2)
    n = answered(page)
    late.release(status=500, content_type="application/json",
                 body='{"error": {"code": "analysis_bad_record", "args": {"detail": "late"}}}')
    page.wait_for_function(f"() => Number(document.body.dataset.answered) > {n}")
    assert page.evaluate("document.body.dataset.ply") == "2"
    assert page.evaluate("document.body.dataset.status") == "ready"
    assert page.locator("#error").inner_text() == ""
    assert page.locator("#tree [aria-current=true]").get_attribute("data-move") == "c5"


@pytest.mark.parametrize("page", [*CASES, ("ja-JP", DESKTOP, "dark")], indirect=True,
                         ids=[*IDS, "ja-desktop-dark"])
def test_algo_shows_the_seats_exact_posterior(page: Any, server: Server,
                                              axe_source: str) -> None:  # noqa: F811
    page.goto(f"{server.url}/analysis/algo?seed=3")
    ready(page, 0)
    assert page.locator("#seat-box").is_visible()
    assert page.locator("#engine-box").is_hidden()
    assert page.locator(".posterior tbody tr").count() >= 4
    assert page.locator(".best-guess").inner_text()
    assert serious(page, axe_source) == []


def test_the_replay_page_links_to_the_analysis_at_its_move(browser: Any, server: Server,
                                                           tmp_path: Path) -> None:
    from asobiba.core import RandomBot
    from asobiba.games import get
    from asobiba.play.runner import play_game

    record = play_game(get("reversi"), [RandomBot(1), RandomBot(2)], {}, 5).record
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    ctx = open_context(browser, viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{server.url}/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-status=loaded]")
    page.click("#first")
    page.click("#forward")
    page.click("#forward")
    page.click("#analyse")
    ready(page, 2)
    moves = [m.move for m in record.moves]
    assert tree(page) == moves
    page.wait_for_selector("body[data-link=ready]")
    assert page.locator("#link-note").inner_text() == "", page.url
    assert page.evaluate("new URL(document.getElementById('link').value)"
                         ".searchParams.get('at')") == "0.0"  # two moves down the main line
    ctx.close()
