"""Issue 26 item 1: the browser checks parametrised over EVERY registered game — the shipped
ones and the games plugged in at test time (a folder of tests/, see tests/conftest.py) —
read from the registry, never a hand-picked list. One page load per game (the machine is small): the game is started from
the lobby, a move is played from the page, axe finds no serious violation, and the language
switch leaves no English word on the board. The renderer and its words come from the game's
own folder (``/static/games/<id>.js``, ``<id>.words.json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asobiba.games import available

from .browser import (
    Server,
    click_a_move,
    click_listed,
    lobby_setup,
    new_game,
    open_context,
    wait_turn,
)
from .test_accessibility import AXE, serious
from .test_i18n_table import BOARD_WORDS, JAPANESE, english_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", available())
def test_issue26_every_game_starts_plays_is_accessible_and_switches_language(
        browser: Any, server: Server, game: str) -> None:
    seats, options = lobby_setup(game)
    errors: list[str] = []
    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        new_game(page, server.url, game, seats, options)
        assert wait_turn(page) == "turn"
        # axe on the page as it opens (the position test_accessibility.py checks too)
        assert serious(page, Path(AXE).read_text(encoding="utf-8")) == []
        before = page.evaluate("document.body.dataset.ply")
        if page.locator("#board [data-move], #board [data-attack], #board [data-pick]").count():
            click_a_move(page)
        else:
            click_listed(page)
        wait_turn(page)
        assert page.evaluate("document.body.dataset.ply") != before, "no move was played"
        generic = page.evaluate(
            "async () => (await import('/static/js/util.js')).loadRenderer"
            f"({game!r}).then((r) => Boolean(r.generic))")
        assert not generic, f"{game}: its renderer was not served from its folder"
        english = page.evaluate(BOARD_WORDS)
        assert english and [w for w in english if JAPANESE.search(w)] == []
        page.click("#lang")
        page.wait_for_function("() => document.documentElement.lang === 'ja'")
        japanese = page.evaluate(BOARD_WORDS)
        assert any(JAPANESE.search(w) for w in japanese), japanese
        assert english_in(page, japanese) == []
    finally:
        context.close()
    assert not errors, errors
