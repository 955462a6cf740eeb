"""Issue 15 item 7: axe-core (the npm package, installed into ./node_modules by the Makefile)
checks the lobby and every game page in Chromium; no serious or critical violation may be
left. The pages' Content-Security-Policy stays in force: axe's source is evaluated through
the DevTools protocol, as Playwright's own predicates are, not as a page script."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import ROOT, Server, new_game, open_context, wait_turn
from .test_ux import GAMES, IDS

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `make node-deps` (npm ci)")
    return Path(AXE).read_text(encoding="utf-8")


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    locale = getattr(request, "param", "en-US")
    ctx = open_context(browser, locale=locale, viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    yield pg
    ctx.close()


def serious(page: Any, source: str) -> list[str]:
    page.evaluate(source)
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
    }""")
    return list(found)


@pytest.mark.parametrize("page", ["en-US", "ja-JP"], indirect=True)
def test_issue15_lobby_has_no_serious_accessibility_violation(
        page: Any, server: Server, axe_source: str) -> None:
    page.goto(f"{server.url}/?game=reversi")
    page.wait_for_selector("body[data-ready=true]")
    assert serious(page, axe_source) == []


@pytest.mark.parametrize("page", ["en-US", "ja-JP"], indirect=True)
@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=IDS)
def test_issue15_game_page_has_no_serious_accessibility_violation(
        page: Any, server: Server, axe_source: str, game: str, seats: list[str],
        options: dict[str, Any]) -> None:
    new_game(page, server.url, game, seats, options)
    wait_turn(page)
    assert serious(page, axe_source) == []
