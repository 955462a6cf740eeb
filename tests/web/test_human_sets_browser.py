"""Two people in two browsers choose a reverse match in the lobby, play both games of
FlipFlop 3x3 (the second with colours swapped, reached from the set panel) and see the set's
result; a spectator sees the same standing."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from .browser import TIMEOUT_MS, Server, click_first, open_context, wait_any_turn
from .helpers import pacer_for


def play_both(a: Any, b: Any) -> None:
    """Whoever's turn it is clicks the first listed legal move, until the game ends."""
    for _ in range(60):
        mover = wait_any_turn([a, b])
        if mover is None:
            return
        ply = mover.evaluate("document.body.dataset.ply")
        pacer_for(mover).wait()
        click_first(mover)
        for p in (a, b):
            p.wait_for_function(f"() => document.body.dataset.ply !== '{ply}' || "
                                "document.body.dataset.status === 'finished'")
    raise AssertionError("the game did not end")


def room_info(server: Server, room: str) -> Any:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{room}", timeout=30) as res:
        return json.load(res)


def test_rule_two_browsers_play_a_reverse_match_and_see_the_set_result(
        browser: Any, server: Server) -> None:
    ctx_a = open_context(browser, locale="en-US")
    ctx_b = open_context(browser, locale="en-US")
    ctx_c = open_context(browser, locale="ja-JP")
    errors: list[str] = []
    a, b = ctx_a.new_page(), ctx_b.new_page()
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        a.goto(f"{server.url}/?game=flipflop")
        a.wait_for_selector("body[data-ready=true]")
        a.wait_for_selector("#match-row:not([hidden])")
        a.select_option("#match", label="Reverse match (two games, colours swapped, "
                                        "combined score)")
        a.wait_for_selector("#seat-1")
        a.select_option("#seat-0", "you")
        a.select_option("#seat-1", "friend")
        a.click("#create-btn")
        a.wait_for_url("**/r/*")
        a.wait_for_selector("body[data-connected=true]")
        first = a.url.rsplit("/", 1)[1]
        b.goto(a.locator("#invite-list input").first.input_value())
        b.wait_for_selector("body[data-connected=true]")
        assert (a.evaluate("document.body.dataset.seat"),
                b.evaluate("document.body.dataset.seat")) == ("0", "1")
        assert "game 1 of the set" in a.inner_text("#set-panel")

        play_both(a, b)
        for p in (a, b):
            p.wait_for_selector("#set-panel[data-games='1']")
            assert p.locator("#set-result").count() == 0, "the set is not decided yet"
        # the next game starts when both have asked; each page then goes there by itself
        a.click("#set-next")
        b.wait_for_selector("#set-panel >> text=would like to start the next game")
        b.click("#set-next")
        for p in (a, b):
            p.wait_for_url(lambda url: not url.endswith(f"/r/{first}"), timeout=TIMEOUT_MS)
            p.wait_for_selector("body[data-connected=true]")
        second = a.url.rsplit("/", 1)[1]
        assert b.url.rsplit("/", 1)[1] == second != first
        # colours swapped: the creator plays seat 1 now, the friend seat 0
        assert (a.evaluate("document.body.dataset.seat"),
                b.evaluate("document.body.dataset.seat")) == ("1", "0")
        assert "game 2 of the set" in b.inner_text("#set-panel")

        play_both(a, b)
        info = room_info(server, second)["set"]
        assert info["over"] is True and len(info["games"]) == 2
        for p in (a, b):
            p.wait_for_selector("#set-panel[data-over='true'] #set-result")
        expected = {None: ("The set is drawn.", "The set is drawn."),
                    "A": ("You won the set!", "You lost the set."),
                    "B": ("You lost the set.", "You won the set!")}[info["winner"]]
        assert (a.inner_text("#set-result"), b.inner_text("#set-result")) == expected
        totals = "-".join(f"{x:g}" for x in info["totals"])
        assert a.get_attribute("#set-panel [data-set-total]", "data-set-total") == totals
        assert a.locator("#rematch").is_visible(), "after the set, a rematch may be offered"

        # a spectator (no keys, in Japanese) sees the standing and the result too
        c = ctx_c.new_page()
        c.goto(f"{server.url}/r/{second}")
        c.wait_for_selector("#set-panel[data-over='true'] #set-result")
        assert c.get_attribute("#set-result", "data-winner") == (info["winner"] or "draw")
        assert "セット" in c.inner_text("#set-panel")
        assert c.locator("#set-next").count() == 0
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            ctx.close()
    assert not errors, errors
