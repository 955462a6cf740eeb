"""A person in a real browser (Debian's Chromium) plays a BOT account to the end: the bot is
the tiny engine run by ``asobiba connect`` against an ``asobiba serve`` process; the person
challenged it and opens the room with the seat key it was given (docs/bot-api.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from .browser import Server, open_context, play_to_end
from .scale_helpers import WAIT, eventually
from .test_bot_api_live import bot_account, connect, finish

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def test_a_person_in_a_browser_plays_a_bot_to_the_end(page: Any, server: Server,
                                                      tmp_path: Path) -> None:
    _, token = bot_account(server.url, "browserbot")
    proc = connect(server.url, token, tmp_path)
    try:
        made = httpx2.post(f"{server.url}/api/challenge/browserbot",
                           json={"game": "reversi", "seat": 0}, timeout=WAIT)
        assert made.status_code == 201, made.text
        ch = made.json()
        eventually(lambda: httpx2.get(f"{server.url}/api/challenge/{ch['challenge']}/status",
                                      timeout=WAIT).json()["status"] == "accepted",
                   "the bot accepts the challenge")
        page.goto(f"{server.url}/r/{ch['room']}#seat=0&key={ch['key']}")
        page.wait_for_selector("body[data-connected=true]")
        assert "BOT browserbot" in page.inner_text("body")
        play_to_end(page)
        assert page.locator("#result").is_visible()
        finish(proc)
        info = httpx2.get(f"{server.url}/api/rooms/{ch['room']}", timeout=WAIT).json()
        assert info["status"] == "finished" and any(m[0] == 1 for m in info["moves"])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
