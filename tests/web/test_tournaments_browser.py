"""Tournaments in Chromium (issue 28 items 1 and 5): a player creates a Swiss tournament on
/tournaments, three players join from their own browser contexts, the pairing is announced
on their open pages (server-sent events), a spectator's context watches the game from
/t/<id>, and when it ends the standings change on every open page — in English on a
desktop and in Japanese on a phone; axe finds nothing serious on either page."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from websockets.sync.client import connect

from .browser import Server, open_context
from .test_accessibility import axe_source, serious  # noqa: F401 - axe_source is a fixture
from .test_people_browser import SIZES, person, small_controls

pytestmark = pytest.mark.browser


def start_now(server: Server, tid: int) -> None:
    """The start brought forward (the players have joined), as an operator would."""
    from asobiba.tables import now, stamp

    with sqlite3.connect(server.data_dir / "asobiba.db") as db:
        db.execute("UPDATE web_tournaments SET starts = ? WHERE id = ?", (stamp(now()), tid))


def resign(server: Server, game: dict[str, Any]) -> None:
    with connect(f"ws://127.0.0.1:{server.port}/ws/{game['room']}", open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello", "seats": [{"seat": game["seat"],
                                                         "key": game["key"]}]}))
        ws.send(json.dumps({"type": "resign", "seat": game["seat"], "id": "r"}))
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg.get("type") == "update" and msg["room"]["status"] == "finished":
                return


def my_game(page: Any, tid: int) -> Any:
    return page.evaluate(f"() => fetch('/api/tournaments/{tid}').then(r => r.json())"
                         ".then(b => b.you && b.you.game)")


@pytest.mark.parametrize(("locale", "size"), [("en-US", "desktop"), ("ja-JP", "phone")])
def test_created_joined_paired_watched_and_standings_live(
        browser: Any, server: Server, axe_source: str, locale: str,  # noqa: F811
        size: str) -> None:
    en = locale == "en-US"
    tag = locale[:2] + size[0]
    names = [f"t{tag}{who}" for who in ("ann", "ben", "cat")]
    pages = [person(browser, server.url, n, locale, size) for n in names]
    ann = pages[0]
    # ann creates it from the form
    ann.goto(f"{server.url}/tournaments")
    ann.wait_for_selector("body[data-ready=true]")
    assert serious(ann, axe_source) == []
    assert small_controls(ann, "main button, main input, main select") == []
    ann.fill("#tf-name", f"Cup {tag}")
    ann.select_option("#tf-game", "reversi")
    ann.select_option("#tf-kind", "swiss")
    ann.fill("#tf-rounds", "2")
    ann.fill("#tf-start", "5")
    ann.click("#tf-submit")
    ann.wait_for_url("**/t/*")
    tid = int(ann.url.rsplit("/", 1)[1])
    # each player joins from his own context and waits on the open page
    for page in pages:
        if page is not ann:
            page.goto(f"{server.url}/t/{tid}")
        page.wait_for_selector("body[data-ready=true]")
        page.click("#tour-join")
        page.wait_for_selector("#tour-withdraw:not([hidden])")
        text = page.inner_text("#tour-you")
        assert ("waiting" in text) if en else ("待っています" in text)
    assert serious(ann, axe_source) == []
    assert small_controls(ann, "main button:not([hidden])") == []
    # a spectator (no account) has the page open too
    spec_ctx = open_context(browser, locale=locale, viewport=SIZES[size])
    spec = spec_ctx.new_page()
    spec.goto(f"{server.url}/t/{tid}")
    spec.wait_for_selector("body[data-ready=true]")
    assert spec.locator("#tour-standings tbody tr").count() == 3
    start_now(server, tid)
    # the pairing is announced on the players' open pages: two have a game, one a bye
    for page in pages:
        page.wait_for_selector("#tour-rounds li", timeout=60_000)
    paired = []
    for page in pages:
        page.wait_for_function("() => document.querySelectorAll('#tour-rounds li').length"
                               " === 2")
        if my_game(page, tid):
            link = page.wait_for_selector("#tour-play")
            assert link.evaluate("e => e === document.activeElement"), "the focus moves there"
            text = page.inner_text("#tour-you")
            assert ("You are paired" in text) if en else ("対戦が決まりました" in text)
            assert small_controls(page, "#tour-play") == []
            paired.append(page)
    assert len(paired) == 2
    bye_word = "bye" if en else "不戦勝"
    spec.wait_for_selector(f"#tour-rounds li:has-text('{bye_word}')")
    assert serious(spec, axe_source) == []
    # the spectator follows the game's link and watches it
    spec.click(f"#tour-rounds a:has-text('{'watch' if en else '観戦'}')")
    spec.wait_for_url("**/r/*")
    room = spec.url.rsplit("/", 1)[1]
    game = my_game(paired[0], tid)
    assert game["room"] == room
    spec.wait_for_selector("body[data-connected=true]")
    assert spec.locator("#board [data-disc]").count() >= 4, "the board is shown"
    assert spec.locator("#resign").is_hidden(), "a spectator, not a player"
    spec.go_back()
    spec.wait_for_selector("body[data-ready=true]")
    # it ends (one resigns); every open tournament page shows the new standings at once:
    # the two players have a game each (the next round's bye may add a point at once)
    before = paired[0].inner_text("#tour-standings")
    resign(server, game)
    for page in [*pages, spec]:
        page.wait_for_function(
            "() => [...document.querySelectorAll('#tour-standings tbody tr td:nth-child(4)')]"
            ".map(td => td.textContent).sort().join(',') === '0,1,1'")
    assert paired[0].inner_text("#tour-standings") != before
    # the finished game is now linked to its replay
    replay = "replay" if en else "再生"
    paired[1].wait_for_selector(f"#tour-rounds a[href='/r/{room}']:has-text('{replay}')")
    spec_ctx.close()
    for page in pages:
        page.context.close()
