"""Issue 26 item 3, with two browser contexts (two people): an open game (seek) whose
opener's lobby has closed is withdrawn from the other lobbies after the grace, and a seek
taken in the moment the opener was away gives them their seat when they come back (a "your
game" link in their lobby, en and ja). On the old main the seek stayed listed for good and
its opener never got the key of the seat it was taken for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .browser import Server, open_context

pytestmark = pytest.mark.browser
LATE = {"en": "taken while you were away", "ja": "離れている間に"}


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose seek grace is one second (the real one is ten)."""
    srv = Server(tmp_path_factory.mktemp("seek_quick"),
                 env={"ASOBIBA_SEEK_GRACE": "1"}).start()
    yield srv
    srv.stop()


@pytest.fixture
def people(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []
    errors: list[str] = []

    def person(locale: str = "en-US") -> Any:
        ctx = open_context(browser, locale=locale, viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield person
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def lobby(page: Any, base: str, game: str | None = None) -> None:
    page.goto(f"{base}/" + (f"?game={game}" if game else ""))
    page.wait_for_selector("body[data-ready=true][data-seeks]")


def open_seek(page: Any, base: str) -> None:
    lobby(page, base, "flipflop")
    page.wait_for_selector("#seek-btn:not([hidden])")
    page.click("#seek-btn")
    page.wait_for_selector("#seek-list [data-cancel]")


def test_issue26_a_seek_is_withdrawn_when_its_openers_lobby_is_gone(
        people: Any, quick_server: Server) -> None:
    a, b = people(), people()
    lobby(b, quick_server.url)
    open_seek(a, quick_server.url)
    b.wait_for_selector("#seek-list [data-take]")
    page_left_open = b.locator("#seek-list [data-take]").count()
    assert page_left_open == 1
    a.goto("about:blank")  # the opener's lobby tab is closed
    # B's lobby hears of the withdrawal over its WebSocket (no reload)
    b.wait_for_function("() => document.body.dataset.seeks === '0'")
    assert b.locator("#seek-list [data-take]").count() == 0


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue26_an_opener_away_when_their_seek_was_taken_gets_their_seat_back(
        people: Any, server: Server, lang: str) -> None:
    a, b = people("ja-JP" if lang == "ja" else "en-US"), people()
    lobby(b, server.url)
    open_seek(a, server.url)
    a.goto("about:blank")  # away (the grace is ten seconds: the seek is still listed)
    b.wait_for_selector("#seek-list [data-take]")
    b.click("#seek-list [data-take]")
    b.wait_for_url("**/r/*")
    lobby(a, server.url)  # the opener comes back
    link = a.locator("#meet-note a[data-mine]")
    link.wait_for()
    assert LATE[lang] in a.inner_text("#meet-note")
    link.click()
    a.wait_for_url(b.url)
    for p in (a, b):
        p.wait_for_selector("body[data-connected=true]")
        p.wait_for_function("() => document.body.dataset.seat !== undefined && "
                            "document.body.dataset.seat !== ''")
    seats = {a.evaluate("document.body.dataset.seat"), b.evaluate("document.body.dataset.seat")}
    assert seats == {"0", "1"}, "one seat each: the opener holds theirs"
