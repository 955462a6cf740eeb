"""Issue 26 item 2 in Chromium: on a Japanese page, a refused move and the end of the game
are shown from their codes in Japanese — no English sentence of the server reaches the page
(before issue 26 the refusal read "受け付けられません：a1 is illegal: a disc on a1 would not
bracket…" and FlipFlop's and Algo's ends were regex-parsed English)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser import Server, new_game, open_context, play_to_end, wait_turn

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
# three ASCII words in a row (a move like "Ra1-b2" or "d3", a name like "CP", is not prose)
ENGLISH_PROSE = re.compile(r"[A-Za-z']{2,}(?:[ ,:;]+[A-Za-z']{2,}){2,}")

CASES = [
    # game, seats, options, an illegal move on the first turn and the Japanese it must show
    ("flipflop", ["you", "bot:1"], {}, "Ra1-b2", "動けません"),
    ("reversi", ["you", "bot:1"], {}, "a1", "挟めません"),
]


@pytest.mark.browser
@pytest.mark.parametrize(("game", "seats", "options", "move", "words"), CASES,
                         ids=[c[0] for c in CASES])
def test_issue26_a_japanese_page_shows_no_english_from_the_server(
        browser: Any, server: Server, game: str, seats: list[str], options: dict[str, Any],
        move: str, words: str) -> None:
    errors: list[str] = []
    context = open_context(browser, locale="ja-JP", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        new_game(page, server.url, game, seats, options)
        assert wait_turn(page) == "turn"
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        page.wait_for_function("() => document.getElementById('error').textContent.length > 0")
        refused = page.text_content("#error") or ""
        assert words in refused and move in refused, refused
        assert not ENGLISH_PROSE.search(refused), refused
        play_to_end(page)
        page.wait_for_selector("#result:not([hidden]) .reason")
        reason = page.text_content("#result .reason") or ""
        result = page.text_content("#result") or ""
        assert JAPANESE.search(reason), reason
        assert not ENGLISH_PROSE.search(result), result
        assert errors == []
    finally:
        context.close()
