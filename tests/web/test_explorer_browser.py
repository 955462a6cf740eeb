"""Issue 29 items 4–5 in Chromium: the opening explorer page (/explorer/<game>) with its table
(js/explorer.js) — moves with counts, the win/draw/loss bar and the book — walked by clicking
a table move, a board square and the keyboard, and back; in English and Japanese, on a
desktop and a phone (44 px targets); axe (every impact) in the light and dark theme; every
explorer's page draws its board and table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine

from asobiba.core import Outcome, Record
from asobiba.core.record import MoveEntry
from asobiba.progression import Progression, ratings

from .browser import PHONE, Server, open_context
from .test_accessibility import AXE
from .test_phone import INTERACTIVE, TARGET
from .test_phone import SMALL_CONTROLS as SMALL

pytestmark = pytest.mark.browser
WAIT = 60_000
DESKTOP = {"viewport": {"width": 1200, "height": 900}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def seeded(server: Server) -> None:
    """Three Reversi games: f5 d6 c3 (Black won, rated), d3 c5 f6 (the same first two moves
    seen in another orientation; Black lost), f5 f6 (a draw)."""
    prog = Progression(create_engine(f"sqlite:///{server.data_dir / 'asobiba.db'}"))
    a = prog.register("explora", "a long password")[0]["id"]
    b = prog.register("explorb", "a long password")[0]["id"]
    for line, scores, rated in ((["f5", "d6", "c3"], (40, 24), True),
                                (["d3", "c5", "f6"], (20, 44), False),
                                (["f5", "f6"], (32, 32), False)):
        rec = Record(game="reversi", options={}, seed=0,
                     moves=tuple(MoveEntry(i % 2, m) for i, m in enumerate(line)))
        with prog.session() as s:
            ratings.record_result(s, "reversi", [a, b], Outcome.from_scores(scores),
                                  record=rec.to_json(), rated=rated)


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []
    errors: list[str] = []

    def make(locale: str, size: str, theme: str = "light") -> Any:
        ctx = open_context(browser, locale=locale, **SIZES[size])
        contexts.append(ctx)
        ctx.add_init_script(
            f"localStorage.setItem('asobiba.settings', JSON.stringify({{theme: '{theme}'}}))")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page
    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def ready(page: Any, moves: str | None = None) -> None:
    page.wait_for_selector("body[data-status=ready]", timeout=WAIT)
    if moves is not None:
        page.wait_for_function("(m) => new URLSearchParams(location.search).get('moves') === m"
                               " && document.body.dataset.status === 'ready'", arg=moves,
                               timeout=WAIT)


def rows(page: Any) -> dict[str, str]:
    """Move → games column of the table."""
    out = {}
    for r in page.locator(".explorer-table tbody tr").all():
        out[str(r.get_attribute("data-move"))] = r.locator("td").first.inner_text()
    return out


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_issue29_explorer_page_walks_the_tree(open_page: Any, server: Server, seeded: None,
                                              locale: str, size: str) -> None:
    page = open_page(locale, size)
    page.goto(f"{server.url}/explorer/reversi")
    ready(page)
    # the start: the four first moves are one up to symmetry, played in all three games
    assert rows(page)["c4"] == "3"
    bar = page.locator(".explorer-table tbody tr[data-move=c4] .wdl")
    assert bar.get_attribute("aria-label") in ("33% won, 34% drawn, 33% lost",
                                               "勝ち33%、引き分け34%、負け33%")
    heading = page.locator("#explorer h2").inner_text()
    assert heading == ("この局面で打たれた手" if locale == "ja-JP" else "Moves played here")
    if size == "phone":
        assert page.evaluate(SMALL, [INTERACTIVE, TARGET]) == []
    # a table move walks on (c4 is this board's orientation of f5)
    page.click(".explorer-table button[data-move=c4]")
    ready(page, "c4")
    after = rows(page)
    assert after.get("c5") == "2" or after.get("e3") == "2", after  # d6/c5 folded: 2 games
    book = page.locator(".explorer-table tbody tr td.book").first.inner_text()
    assert book not in ("", "–")
    # the keyboard: the first move button, Enter
    page.focus(".explorer-table button.explorer-move")
    first = page.locator(".explorer-table button.explorer-move").first.get_attribute("data-move")
    page.keyboard.press("Enter")
    ready(page, f"c4,{first}")
    # a board square walks on too, then Back and Start walk back
    square = page.locator("#board [data-move]").first
    move = square.get_attribute("data-move")
    square.click()
    ready(page, f"c4,{first},{move}")
    page.click("#back")
    ready(page, f"c4,{first}")
    page.click("#start")
    page.wait_for_function("() => !location.search.includes('moves') && "
                           "document.body.dataset.status === 'ready'", timeout=WAIT)
    assert rows(page)["c4"] == "3"


def test_issue29_explorer_page_shows_a_refused_line_by_its_code(
        open_page: Any, server: Server) -> None:
    page = open_page("ja-JP", "desktop")
    page.goto(f"{server.url}/explorer/reversi?moves=f5,f5")
    page.wait_for_selector("#explorer .error", timeout=WAIT)
    assert page.inner_text("#explorer .error") == "2手目（f5）はその局面では打てません。"


@pytest.mark.parametrize("name", ["flipflop-3x3", "flipflop-5x5", "reverstargo"])
def test_issue29_every_explorer_page_draws_its_board_and_book(
        open_page: Any, server: Server, name: str) -> None:
    page = open_page("en-US", "desktop")
    page.goto(f"{server.url}/explorer/{name}")
    ready(page)
    assert page.locator("#board svg").count() == 1
    assert page.locator(".explorer-table tbody tr").count() >= 2  # the book's moves


def violations(page: Any) -> list[str]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    return list(page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3)
        .map(n => n.target.join(' ')).join(', ')}`);
    }"""))


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_issue29_axe_explorer_page(open_page: Any, server: Server, seeded: None, locale: str,
                                   theme: str) -> None:
    page = open_page(locale, "desktop", theme)
    page.goto(f"{server.url}/explorer/reversi?moves=f5")
    ready(page)
    assert violations(page) == []
