"""Issue 26 item 3 in a real browser, in English and Japanese: a rank-up exam survives a
reload. The exam game's page shows an "Exam" banner and the browser asks before the page is
left; a reload comes back to the same running game with the exam still on; the ladder's
Play resumes that game; a page gone past the grace fails the exam, and the ladder page says
why. On the old main a reload failed the exam (the page's ``pagehide`` beacon) while the
reloaded page played on, with no banner and no word on the ladder page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine

from asobiba.progression import Progression

from .browser import Server, click_a_move, open_context, wait_turn

pytestmark = pytest.mark.browser
WAIT = 60_000
BANNER = {"en": "Exam", "ja": "昇格試験"}
WHY_ABANDONED = {"en": "closed for over a minute", "ja": "1分以上閉じられていた"}


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose exam grace is two seconds (the real one is a minute)."""
    srv = Server(tmp_path_factory.mktemp("exam_quick"),
                 env={"ASOBIBA_EXAM_GRACE": "2", "ASOBIBA_EXAM_CHECK": "0.5"}).start()
    yield srv
    srv.stop()


def person(browser: Any, lang: str) -> tuple[Any, Any, list[str], list[str]]:
    ctx = open_context(browser, locale="ja-JP" if lang == "ja" else "en-US",
                       viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def dialog(d: Any) -> None:
        dialogs.append(d.type)
        d.accept()
    page.on("dialog", dialog)
    return ctx, page, errors, dialogs


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready=true]", timeout=WAIT)


def into_exam(page: Any, server: Server) -> tuple[Progression, int]:
    """A guest with three Lv.1 wins starts the Stone exam and opens its first game."""
    page.goto(f"{server.url}/account")
    ready(page)
    page.click("#guest")
    page.wait_for_selector("body[data-signed-in=true]", timeout=WAIT)
    me = page.evaluate("fetch('/api/account').then(r => r.json())")["player"]
    prog = Progression(create_engine(f"sqlite:///{server.data_dir / 'asobiba.db'}"))
    for _ in range(3):
        prog.ladder_result(me["id"], "reversi", "random", True, "lv1")
    page.goto(f"{server.url}/ladder/reversi")
    ready(page)
    page.click("#start-exam")
    page.wait_for_selector("body[data-exam=running]", timeout=WAIT)
    page.click("#exam-play")
    page.wait_for_url("**/r/*", timeout=WAIT)
    page.wait_for_selector("body[data-connected=true][data-progress=ready]", timeout=WAIT)
    return prog, int(me["id"])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue26_an_exam_survives_a_reload(browser: Any, server: Server, lang: str) -> None:
    ctx, page, errors, dialogs = person(browser, lang)
    try:
        prog, pid = into_exam(page, server)
        banner = page.locator("#exam-banner")
        assert BANNER[lang] in banner.inner_text()
        room_url = page.url
        assert wait_turn(page) == "turn"
        click_a_move(page)  # a move played (the page has been used: the browser may ask)
        page.wait_for_function("() => document.body.dataset.myTurn === 'true'", timeout=WAIT)
        plies = page.evaluate("document.querySelectorAll('#movelog li, #moves li').length")
        page.reload()
        assert "beforeunload" in dialogs, "the browser asked before the exam page was left"
        page.wait_for_selector("body[data-connected=true][data-progress=ready]", timeout=WAIT)
        assert page.url == room_url
        assert BANNER[lang] in page.locator("#exam-banner").inner_text()
        assert page.evaluate("document.body.dataset.status") == "active"
        assert page.evaluate("document.querySelectorAll('#movelog li, #moves li').length") \
            == plies, "the same game, its moves kept"
        assert prog.ladder(pid, "reversi")["exam"] is not None, "the exam goes on"
        assert wait_turn(page) == "turn", "the reloaded page plays its seat"
        # the ladder's Play brings the same running game back, not a second one
        page.goto(f"{server.url}/ladder/reversi")
        ready(page)
        assert page.evaluate("document.body.dataset.exam") == "running"
        page.click("#exam-play")
        page.wait_for_url(room_url, timeout=WAIT)
        page.wait_for_selector("body[data-connected=true][data-progress=ready]", timeout=WAIT)
        assert page.evaluate("document.body.dataset.myTurn") == "true"
    finally:
        ctx.close()
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue26_an_exam_left_past_its_grace_fails_and_the_ladder_says_why(
        browser: Any, quick_server: Server, lang: str) -> None:
    ctx, page, errors, _dialogs = person(browser, lang)
    try:
        prog, pid = into_exam(page, quick_server)
        room_url = page.url
        page.goto("about:blank")  # the exam game's page is closed
        for _ in range(600):  # the server's watch, every half second: bounded, never assumed
            if prog.ladder(pid, "reversi")["exam"] is None:
                break
            page.wait_for_timeout(50)
        status = prog.ladder(pid, "reversi")
        assert status["exam"] is None and status["last_exam"]["reason"] == "abandoned"
        page.goto(f"{quick_server.url}/ladder/reversi")
        ready(page)
        last = page.locator("#last-exam[data-reason=abandoned]")
        assert last.is_visible() and WHY_ABANDONED[lang] in last.inner_text()
        assert page.evaluate("document.body.dataset.exam") == "due", "retry any time"
        # its game ended (resigned): the page back there says so and plays no more
        page.goto(room_url)
        page.wait_for_selector("body[data-status=finished]", timeout=WAIT)
    finally:
        ctx.close()
    assert not errors, errors
