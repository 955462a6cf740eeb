"""Issue 27 item 7 in a real browser (Debian's Chromium): the create form's custom time
control (Fischer and byo-yomi, in English and Japanese, on a desktop and a phone) and
premoves — one queued on the opponent's turn is played when the turn comes, and one that is
no longer legal then is cancelled with a notice."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from asobiba.games import get

from .browser import Server, wait_turn
from .test_accessibility import AXE, serious
from .test_phone import small_controls

pytestmark = pytest.mark.browser





def room_info(server: Server, room: str) -> Any:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{room}") as res:
        return json.load(res)


def lobby(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/?game=reversi")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#seat-1", "bot:1")


WORDS = {"en-US": ("Byo-yomi periods", "from 1 to 10", "byo-yomi, {n} left", "(+1 × 30 s)"),
         "ja-JP": ("秒読みの回数", "1から10まで", "秒読み 残り{n}回", "（＋秒読み30秒×1）")}


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_issue27_custom_byoyomi_and_fischer_controls_from_the_create_form(
        pages: Any, server: Server, locale: str, size: str) -> None:
    label, bad, in_byo, main_byo = WORDS[locale]
    page = pages(locale, size)
    lobby(page, server)
    assert page.locator("#clock-custom").is_hidden(), "the presets first; custom on demand"
    page.select_option("#clock", "custom")
    page.select_option("#clock-kind", "byoyomi")
    assert page.inner_text("label[for=clock-periods]") == label
    assert page.locator("#clock-inc").is_hidden()
    page.fill("#clock-main", "0")  # no main time: 10 s per move, 2 periods
    page.fill("#clock-period", "10")
    page.fill("#clock-periods", "11")  # out of range: the form says so and sends nothing
    page.click("#create-btn")
    assert bad in page.evaluate("document.getElementById('clock-periods').validationMessage")
    assert "/r/" not in page.url
    page.fill("#clock-periods", "2")
    if size == "phone":
        assert small_controls(page) == []
    else:  # axe-core on the open custom fields (labels, contrast)
        assert serious(page, AXE.read_text(encoding="utf-8")) == []
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-connected=true]")
    room = page.url.rsplit("/", 1)[1]
    clock = room_info(server, room)["clock"]
    assert (clock["initial"], clock["periods"], clock["byoyomi"]) == (0, 2, 10)
    wait_turn(page)
    assert in_byo.format(n=2) in page.inner_text("[data-clock='1']")
    assert in_byo.format(n=2) in page.inner_text("[data-clock='0']")
    # we do not move: the first period (10 s) is used up and lost, the page says so
    page.wait_for_function(
        f"() => document.querySelector(\"[data-clock='0']\").textContent"
        f".includes({in_byo.format(n=1)!r})", timeout=30_000)
    # a byo-yomi preset (the ReverStarGo app's 3 min + 30 s): main time, then the period
    lobby(page, server)
    page.select_option("#clock", "b1")
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-connected=true]")
    assert main_byo in page.inner_text("[data-clock='1']"), "main time, then the periods"
    assert page.inner_text("[data-clock='1']").startswith("3:00")
    # Fischer, custom: 2 min + 3 s per move
    lobby(page, server)
    page.select_option("#clock", "custom")
    page.select_option("#clock-kind", "fischer")
    assert page.locator("#clock-periods").is_hidden()
    page.fill("#clock-main", "2")
    page.fill("#clock-inc", "3")
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    room = page.url.rsplit("/", 1)[1]
    clock = room_info(server, room)["clock"]
    assert (clock["initial"], clock["increment"]) == (120, 3) and "periods" not in clock


def plan() -> tuple[str, str, str, str]:
    """Black opens d3; White's reply and Black's premove, once kept legal by the reply and
    once made illegal by it (from the rules engine, so the test does not guess)."""
    game = get("reversi")
    start = game.new_game().play("d3")
    black = [m for m in game.new_game().legal_moves(0).texts() if m != "d3"]
    good = bad = None
    for reply in start.legal_moves(1).texts():
        after = start.play(reply).legal_moves(0).texts()
        for p in black:
            if p in after and good is None:
                good = (reply, p)
            if p not in after and bad is None:
                bad = (reply, p)
    assert good and bad
    return (*good, *bad)


@pytest.mark.parametrize(("locale", "size"), [("en-US", "desktop"), ("ja-JP", "phone")])
def test_issue27_premove_is_played_on_turn_and_an_illegal_one_is_cancelled(
        pages: Any, server: Server, locale: str, size: str) -> None:
    reply, premove, bad_reply, bad_premove = plan()
    a = pages(locale, size)
    a.goto(f"{server.url}/?game=reversi")
    a.wait_for_selector("body[data-ready=true]")
    a.select_option("#clock", "4")  # 10 min + 5 s
    a.select_option("#seat-1", "friend")
    a.click("#create-btn")
    a.wait_for_url("**/r/*")
    a.wait_for_selector("body[data-connected=true]")
    room = a.url.rsplit("/", 1)[1]
    link = a.locator("#invite-list input").first.input_value()
    b = pages(locale, size)
    b.goto(link)
    b.wait_for_selector("body[data-connected=true][data-seat='1']")

    def premove_game(a: Any, white: str, black: str) -> None:
        wait_turn(a)
        a.click("#board [data-move='d3']")
        a.wait_for_selector("body[data-ply='1'][data-my-turn=false]")
        # the opponent's turn: queue a move on the board; it shows, and can be cancelled
        a.click(f"#board [data-move='{black}']")
        a.wait_for_selector(f"body[data-premove='{black}']")
        assert a.locator(f"#board .premove[data-move='{black}']").count() == 1
        a.click("#premove-cancel")
        a.wait_for_selector("body[data-premove='']")
        a.click(f"#board [data-move='{black}']")
        a.wait_for_selector(f"body[data-premove='{black}']")
        if size == "phone":
            assert small_controls(a) == []
        else:
            assert serious(a, AXE.read_text(encoding="utf-8")) == []
        wait_turn(b)
        b.click(f"#board [data-move='{white}']")

    premove_game(a, reply, premove)
    # played at once when the turn came: the board has Black's disc there, White to move
    a.wait_for_selector("body[data-ply='3']")
    moves = [m[1] for m in room_info(server, room)["moves"]]
    assert moves == ["d3", reply, premove]
    assert a.evaluate("document.body.dataset.premove") == ""
    assert a.evaluate("document.body.dataset.myTurn") == "false"

    # a new game (same pages): this premove is no longer legal after White's reply
    a2 = pages(locale, size)
    a2.goto(f"{server.url}/?game=reversi")
    a2.wait_for_selector("body[data-ready=true]")
    a2.select_option("#clock", "4")
    a2.select_option("#seat-1", "friend")
    a2.click("#create-btn")
    a2.wait_for_url("**/r/*")
    a2.wait_for_selector("body[data-connected=true]")
    room2 = a2.url.rsplit("/", 1)[1]
    b.goto(a2.locator("#invite-list input").first.input_value())
    b.wait_for_selector("body[data-connected=true][data-seat='1']")
    a = a2
    premove_game(a, bad_reply, bad_premove)
    a.wait_for_selector("body[data-ply='2'][data-my-turn=true]")
    notice = a.locator("#premove .premove-notice")
    notice.wait_for()
    assert bad_premove in notice.inner_text()
    assert ("not legal" if locale == "en-US" else "取り消しました") in notice.inner_text()
    assert a.evaluate("document.body.dataset.premove") == ""
    assert [m[1] for m in room_info(server, room2)["moves"]] == ["d3", bad_reply]
