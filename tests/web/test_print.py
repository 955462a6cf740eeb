"""Print-and-play PDFs over HTTP and in the browser (issue 19 item 4): a real server process
serves GET /api/print/{game} and POST /api/print/record; the lobby and the game page link the
same PDFs, downloaded by a real Chromium."""

from __future__ import annotations

import io
from typing import Any

import httpx2
import pytest
from pypdf import PdfReader

from asobiba.games import available, manifest

from .browser import TIMEOUT_MS, new_game, open_context

#: every registered game with print material (its manifest names a paper), plug-ins included
GAMES = [g for g in available() if manifest(g).paper is not None]


def pages_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(p.extract_text() for p in reader.pages)


def test_print_endpoint_serves_each_games_pdf(server: Any) -> None:
    with httpx2.Client(base_url=server.url, timeout=120) as http:
        for game in GAMES:
            res = http.get(f"/api/print/{game}", params={"lang": "ja"})
            assert res.status_code == 200, res.text
            assert res.headers["content-type"] == "application/pdf"
            assert "attachment" in res.headers["content-disposition"]
            n, text = pages_text(res.content)
            assert n >= 1 and "asobiba" in text
        res = http.get("/api/print/patapata", params={"course": "2", "paper": "letter"})
        n, text = pages_text(res.content)
        assert n == 3 and "course 2" in text
        res = http.get("/api/print/algo", params={"level": "2", "count": "2", "seed": "4"})
        assert "Puzzle 2" in pages_text(res.content)[1]


def test_print_endpoint_refuses_bad_options_with_a_reason(server: Any) -> None:
    with httpx2.Client(base_url=server.url, timeout=60) as http:
        res = http.get("/api/print/flipflop", params={"board": "4x4"})
        assert res.status_code == 400 and "board" in res.json()["error"]["message"]
        res = http.get("/api/print/algo", params={"colour": "red"})
        assert res.status_code == 400 and "unknown print option" in res.json()["error"]["message"]
        res = http.get("/api/print/reversi", params={"seed": "x"})
        assert res.status_code == 400
        res = http.get("/api/print/chess")
        assert res.status_code == 404


def test_print_record_endpoint(server: Any) -> None:
    from tests.paper.test_games_paper import random_record

    record = random_record("flipflop")
    with httpx2.Client(base_url=server.url, timeout=60) as http:
        res = http.post("/api/print/record", content=record.dumps(),
                        headers={"content-type": "application/json"})
        assert res.status_code == 200
        n, text = pages_text(res.content)
        assert n >= 1 and record.moves[0].move in text
        res = http.post("/api/print/record", content=b'{"game": "flipflop"}',
                        headers={"content-type": "application/json"})
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_record"


@pytest.mark.browser
def test_lobby_and_game_page_offer_the_pdfs(server: Any, browser: Any) -> None:
    context = open_context(browser, locale="en-US", accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        for game in GAMES:
            link = page.locator(f"[data-link=print-{game}]")
            assert link.count() == 1
            assert link.get_attribute("href").startswith(f"/api/print/{game}?lang=")
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            # dispatched: in the current lobby CSS the next row of cards overlaps the links
            # of the row above (the ux restyle owns that layout)
            page.dispatch_event("[data-link=print-flipflop]", "click")
        path = info.value.path()
        with open(path, "rb") as fh:
            assert pages_text(fh.read())[0] == 2
        new_game(page, server.url, "flipflop", ["you", "bot:1"], {"board": "5x5"})
        link = page.locator("#print-link")
        link.wait_for(state="visible")
        href = link.get_attribute("href")
        assert href.startswith("/api/print/flipflop?") and "board=5x5" in href
        assert "seed" not in href
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            link.click()
        with open(info.value.path(), "rb") as fh:
            assert "5×5" in pages_text(fh.read())[1]
    finally:
        context.close()
