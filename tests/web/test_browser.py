"""The platform in a real browser (Debian's Chromium through Playwright): a full game to its
result, reload and server restart mid-game, the language switch, keyboard play, replays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import (
    TIMEOUT_MS,
    Server,
    click_a_move,
    english_left,
    new_game,
    open_context,
    play_to_end,
    wait_turn,
)

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


def discs(page: Any) -> list[str]:
    return page.eval_on_selector_all("#board [data-disc]",
                                     "els => els.map(e => e.dataset.disc)")


def test_rule_a_full_reversi_game_against_a_bot_ends_with_the_result(page: Any,
                                                                     server: Server) -> None:
    new_game(page, server.url, "reversi", ["you", "bot:random"])
    play_to_end(page)
    result = page.locator("#result")
    assert result.is_visible()
    assert "Winner" in result.inner_text() or "Draw" in result.inner_text()
    assert page.locator("#record").is_visible()
    # the replay viewer steps through the finished game
    page.click("#replay")
    page.wait_for_selector("body[data-status=loaded]")
    last = int(page.evaluate("document.body.dataset.step"))
    assert last > 50
    page.click("#back")
    assert int(page.evaluate("document.body.dataset.step")) == last - 1
    page.click("#first")
    assert page.evaluate("document.body.dataset.step") == "0"
    assert sorted(discs(page)) == ["B", "B", "W", "W"]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.step") == "1"
    page.keyboard.press("End")
    assert int(page.evaluate("document.body.dataset.step")) == last


def test_rule_reload_mid_game_restores_the_game(page: Any, server: Server) -> None:
    room = new_game(page, server.url, "reversi", ["you", "bot:1"])
    for _ in range(3):
        wait_turn(page)
        click_a_move(page)
    wait_turn(page)
    before = (page.evaluate("document.body.dataset.ply"), discs(page))
    page.reload()
    page.wait_for_selector("body[data-connected=true]")
    wait_turn(page)
    assert page.url.endswith(f"/r/{room}")
    assert (page.evaluate("document.body.dataset.ply"), discs(page)) == before
    click_a_move(page)  # and the seat is still ours


# every change of data-connected / data-seat, with both values as they were after it
RECORD_SEATS = """
window.__seen = [];
new MutationObserver(() => {
  const d = document.body.dataset;
  window.__seen.push([d.connected ?? null, d.seat ?? null]);
}).observe(document, { subtree: true, attributes: true,
                       attributeFilter: ["data-connected", "data-seat"] });
"""


def test_rule_a_seated_page_never_shows_the_spectator_view_and_a_refused_key_spectates(
        browser: Any, server: Server) -> None:
    # the server sends every new connection the spectator's update before the page's hello
    # is read; a page holding a seat's key waits for its seat rather than flash that view
    ctx = open_context(browser, locale="en-US")
    ctx.add_init_script(RECORD_SEATS)
    other = open_context(browser, locale="en-US")
    other.add_init_script(RECORD_SEATS)
    try:
        page = ctx.new_page()
        room = new_game(page, server.url, "reversi", ["you", "friend"])
        page.reload()
        page.wait_for_selector("body[data-connected=true]")
        seen = page.evaluate("window.__seen")
        assert ["true", "0"] in seen
        assert all(s == "0" for c, s in seen if c == "true"), seen
        # a forged key for seat 1: the page shows what a spectator sees, and says why
        stranger = other.new_page()
        stranger.goto(f"{server.url}/r/{room}#seat=1&key=forged")
        stranger.wait_for_selector("body[data-connected=true]")
        assert stranger.evaluate("document.body.dataset.seat") == ""
        stranger.wait_for_function(
            "() => document.getElementById('error').textContent.includes('key for this seat is wrong')")
        assert stranger.evaluate("document.body.dataset.myTurn") == "false"
    finally:
        ctx.close()
        other.close()


def test_rule_server_restart_mid_game_loses_no_acknowledged_move(
        browser: Any, tmp_path: Path) -> None:
    srv = Server(tmp_path).start()
    context = open_context(browser, locale="en-US")
    page = context.new_page()
    try:
        new_game(page, srv.url, "reversi", ["you", "you"])
        for _ in range(5):
            wait_turn(page)
            click_a_move(page)
        acknowledged = page.evaluate("document.body.dataset.ply")
        board = discs(page)
        srv.stop(hard=True)  # a crash: no clean shutdown
        page.wait_for_selector("body[data-connected=false]")
        srv.start()  # same port, same data directory; the page reconnects by itself
        page.wait_for_selector("body[data-connected=true]", timeout=TIMEOUT_MS)
        assert page.evaluate("document.body.dataset.ply") == acknowledged
        assert discs(page) == board
        wait_turn(page)
        click_a_move(page)
    finally:
        context.close()
        srv.stop()


def test_rule_language_switch_changes_every_visible_string(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click("[data-game=reversi]")
    assert english_left(page, ["reversi"]), "the check must see English strings first"
    page.click("#lang")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert english_left(page, ["reversi"]) == []
    assert "リバーシ" in page.inner_text("body")
    page.click("#lang")
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    wait_turn(page)
    click_a_move(page)
    wait_turn(page)
    page.click("#lang")
    assert english_left(page, ["reversi"]) == []
    assert "あなたの番です" in page.inner_text("#status")
    page.reload()  # the choice is remembered
    page.wait_for_selector("body[data-connected=true]")
    assert page.evaluate("document.documentElement.lang") == "ja"


def test_rule_japanese_browser_starts_in_japanese(browser: Any, server: Server) -> None:
    context = open_context(browser, locale="ja-JP")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "ゲーム" in page.inner_text("h1")
    context.close()


def test_rule_every_action_works_from_the_keyboard(page: Any, server: Server) -> None:
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    wait_turn(page)
    page.focus("#board [data-move]")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.ply !== '0'")
    wait_turn(page)
    page.focus("#move-input")
    move = page.locator("#legal [data-move]").first.get_attribute("data-move")
    page.keyboard.type(move)
    ply = page.evaluate("document.body.dataset.ply")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.body.dataset.ply !== '{ply}'")
    wait_turn(page)
    page.once("dialog", lambda d: d.accept())
    page.focus("#resign")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-status=finished]")
    assert page.locator("#rematch").is_visible()
    page.focus("#rematch")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rematch-go")
    page.click("#rematch-go")
    page.wait_for_selector("body[data-connected=true]")
    page.wait_for_function("() => document.body.dataset.status === 'active'")
    # seats were swapped: we are White now, and the bot (Black) opens
    page.wait_for_function("() => document.body.dataset.seat === '1'")
    wait_turn(page)


def test_rule_an_uploaded_record_replays_and_a_tampered_one_is_refused(
        page: Any, server: Server, tmp_path: Path) -> None:
    import json

    from asobiba.core import RandomBot
    from asobiba.games import get
    from asobiba.play.runner import play_game

    result = play_game(get("reversi"), [RandomBot(1), RandomBot(2)], {}, 5)
    good = tmp_path / "game.json"
    good.write_text(result.record.dumps())
    page.goto(server.url + "/replay")
    page.set_input_files("#file", str(good))
    page.wait_for_selector("body[data-status=loaded]")
    assert int(page.evaluate("document.body.dataset.step")) == len(result.moves)
    data = json.loads(result.record.dumps())
    data["result"]["scores"] = [64, 0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("body[data-status=error]")
    assert "altered" in page.inner_text("#status")


def test_rule_clocks_show_and_count_down_when_a_time_control_is_set(
        page: Any, server: Server) -> None:
    page.goto(f"{server.url}/?game=reversi")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#clock", "1")  # 1 min + 0 s
    page.select_option("#seat-1", "bot:1")
    page.click("#create-btn")
    page.wait_for_selector("body[data-connected=true]")
    wait_turn(page)
    first = page.inner_text("[data-clock='0']")
    # the clock runs from the room's creation: on a loaded machine the page may take a few
    # seconds to show it, so only its shape and a count down are asserted
    assert first.startswith("1:00") or first.startswith("0:")
    page.wait_for_function(
        f"() => document.querySelector(\"[data-clock='0']\").textContent < {first!r}")
    assert page.inner_text("[data-clock='1']") == "1:00" or \
        page.inner_text("[data-clock='1']").startswith("0:5")


def test_rule_undo_against_a_bot_and_a_spectator_sees_the_game(
        page: Any, server: Server, browser: Any) -> None:
    room = new_game(page, server.url, "reversi", ["you", "bot:1"])
    for _ in range(2):
        wait_turn(page)
        click_a_move(page)
    wait_turn(page)
    assert page.evaluate("document.body.dataset.ply") == "4"
    page.click("#undo")  # my last move and the bot's reply are taken back
    page.wait_for_function("() => document.body.dataset.ply === '2'")
    wait_turn(page)
    watcher = open_context(browser, locale="en-US")
    spectator = watcher.new_page()
    try:
        spectator.goto(f"{server.url}/r/{room}")
        spectator.wait_for_selector("body[data-connected=true]")
        assert "watching" in spectator.inner_text("#status")
        assert spectator.evaluate("document.body.dataset.ply") == "2"
        assert spectator.locator("#board [data-move]").count() == 0
        assert spectator.locator("#resign").is_hidden()
        assert sorted(spectator.eval_on_selector_all(
            "#board [data-disc]", "els => els.map(e => e.dataset.disc)")) == sorted(
            page.eval_on_selector_all("#board [data-disc]",
                                      "els => els.map(e => e.dataset.disc)"))
    finally:
        watcher.close()


def test_rule_the_lobby_lists_the_games_this_browser_holds_seats_in(
        page: Any, server: Server) -> None:
    room = new_game(page, server.url, "reversi", ["you", "bot:1"])
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.click(f"#mine-list [data-room='{room}']")
    # the first update (sent on connecting) is a spectator's; the seat comes with the
    # update that answers the page's hello, so wait for that one, not the first
    page.wait_for_function("() => document.body.dataset.seat === '0'")


def test_create_right_after_an_option_change_waits_for_the_new_seat_list(
        page: Any, server: Server) -> None:
    """The seat list follows the options through an /api/seats round trip; a click on
    Create in the same moment as the change must send the new number of seats (the click
    used to send Memory Matrix's default four seats with players=2, and nothing opened)."""
    page.goto(f"{server.url}/?game=memory_matrix")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("[data-seat]").count() == 4
    page.evaluate("""() => {
        const players = document.querySelector('[data-option=players]');
        players.value = '2';
        players.dispatchEvent(new Event('change'));
        document.getElementById('create-btn').click();
    }""")
    page.wait_for_url("**/r/*")
    room = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"{server.url}/api/rooms/{room}").json()
    assert len(info["seats"]) == 2 and info["options"]["players"] == 2
