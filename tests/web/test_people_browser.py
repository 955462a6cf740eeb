"""Challenges, follows and blocks in Chromium (issue 28 item 3): two people in two browser
contexts, in English and Japanese, on a desktop and a phone; axe finds nothing serious."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .browser import Server, open_context
from .test_accessibility import axe_source, serious  # noqa: F401 - axe_source is a fixture

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def person(browser: Any, base: str, name: str, locale: str, size: str) -> Any:
    """A new browser (its own cookies) signed up as ``name``."""
    ctx = open_context(browser, locale=locale, viewport=SIZES[size])
    page = ctx.new_page()
    page.goto(f"{base}/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#reg-name", name)
    page.fill("#reg-password", "a long password 28")
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#me-name")
    IDS[name] = int(page.evaluate("() => fetch('/api/players/me').then(r => r.json())"
                                  ".then(b => b.player.id)"))
    return page


IDS: dict[str, int] = {}  # each person's number (player pages are by number)


def player_page(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/player/{IDS[name]}")
    page.wait_for_selector("[data-people=challenge], [data-people=unblock]")


def room_seats(base: str, room: str) -> list[str]:
    with urllib.request.urlopen(f"{base}/api/rooms/{room}", timeout=60) as res:
        return [s["name"] for s in json.loads(res.read())["seats"]]


def small_controls(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(selector, """els => els.filter(e => e.offsetParent)
        .filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 60))"""))


@pytest.mark.parametrize(("locale", "size"), [("en-US", "desktop"), ("ja-JP", "phone")])
def test_a_challenge_from_a_player_page_is_accepted_and_both_reach_the_game(
        browser: Any, server: Server, axe_source: str, locale: str,  # noqa: F811
        size: str) -> None:
    tag = locale[:2] + size[0]
    ann_name, ben_name = f"ann{tag}", f"ben{tag}"
    ann = person(browser, server.url, ann_name, locale, size)
    ben = person(browser, server.url, ben_name, locale, size)
    player_page(ann, server.url, ben_name)
    assert serious(ann, axe_source) == []
    assert small_controls(ann, "#people button, #people .button") == []
    ann.click("[data-people=follow]")
    ann.wait_for_selector("[data-people=unfollow]")
    ann.click("[data-people=challenge]")
    ann.wait_for_selector("body[data-ready=true]")
    ann.click("[data-game=reversi]")  # the game's full form, in challenge mode
    ann.wait_for_selector("#challenge-colour")
    words = ann.inner_text("#challenge-banner")
    assert ben_name in words and ("Challenge" in words if locale == "en-US" else "挑戦" in words)
    assert ann.locator("[data-seat]").count() == 0  # a colour, not seats
    ann.select_option("#challenge-colour", "first")
    ann.click("#create-btn")
    ann.wait_for_selector("#notices [data-cancel]")
    # ben's page (any page) shows it, with its terms in ben's language
    ben.goto(f"{server.url}/settings")
    notice = ben.wait_for_selector("#notices [data-accept]")
    text = ben.inner_text("#notices")
    assert ann_name in text
    assert ("you move second" in text) if locale == "en-US" else ("あなたが後手" in text)
    assert serious(ben, axe_source) == []
    assert small_controls(ben, "#notices button, #notices select") == []
    notice.click()
    ben.wait_for_url("**/r/*")
    room = ben.url.rsplit("/", 1)[1]
    ben.wait_for_selector("body[data-connected=true]")
    # ann's page goes to the game by itself (its next ask; a reload asks at once)
    ann.reload()
    ann.wait_for_url(f"**/r/{room}")
    ann.wait_for_selector("body[data-connected=true]")
    assert room_seats(server.url, room) == [ann_name, ben_name]
    # each holds their own seat: the room page shows it is their turn or the other's
    assert ann.evaluate(f"() => JSON.parse(localStorage.getItem('asobiba.keys.{room}'))"
                        "[0].seat") == 0
    assert ben.evaluate(f"() => JSON.parse(localStorage.getItem('asobiba.keys.{room}'))"
                        "[0].seat") == 1
    # ann follows ben: the lobby lists ben, online, with his live game
    ann.goto(f"{server.url}/")
    ann.wait_for_selector(f"[data-follow=\"{ben_name}\"]")
    assert ann.locator(f"[data-follow=\"{ben_name}\"] [data-live=\"{room}\"]").count() == 1
    ann.context.close()
    ben.context.close()


def test_a_decline_is_told_in_the_challengers_language_and_a_block_stops_challenges(
        browser: Any, server: Server) -> None:
    ann = person(browser, server.url, "anndecl", "ja-JP", "desktop")
    ben = person(browser, server.url, "bendecl", "en-US", "desktop")
    player_page(ann, server.url, "bendecl")
    ann.click("[data-people=challenge]")
    ann.wait_for_selector("body[data-ready=true]")
    ann.click("[data-game=flipflop]")
    ann.wait_for_selector("#challenge-colour")
    ann.click("#create-btn")
    ann.wait_for_selector("#notices [data-cancel]")
    ben.goto(f"{server.url}/")
    ben.wait_for_selector("#notices [data-decline]")
    ben.select_option("#notices select", "too_fast")
    ben.click("#notices [data-decline]")
    ben.wait_for_function("() => !document.querySelector('#notices [data-decline]')")
    ann.reload()
    ann.wait_for_selector("#notices [data-dismiss]")
    told = ann.inner_text("#notices")
    assert "bendecl" in told and "持ち時間が短すぎます" in told, told
    # ben blocks ann: ann's page no longer offers a challenge, and the server refuses one
    player_page(ben, server.url, "anndecl")
    ben.click("[data-people=block]")
    ben.wait_for_selector("[data-people=unblock]")
    player_page(ann, server.url, "bendecl")
    assert ann.locator("[data-people=challenge]").count() == 1  # ann cannot know ben's block
    ann.goto(f"{server.url}/?challenge=bendecl&game=reversi")
    ann.wait_for_selector("#challenge-colour")
    ann.click("#create-btn")
    ann.wait_for_function("() => document.getElementById('create-error').textContent")
    assert ann.inner_text("#create-error") == "このプレイヤーには挑戦できません。"
    ann.context.close()
    ben.context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_correspondence_challenge_and_the_your_turn_list_on_every_page(
        browser: Any, server: Server, locale: str) -> None:
    ann = person(browser, server.url, f"anncorr{locale[:2]}", locale, "phone")
    ben = person(browser, server.url, f"bencorr{locale[:2]}", locale, "desktop")
    ann.goto(f"{server.url}/?challenge=bencorr{locale[:2]}&game=reversi")
    ann.wait_for_selector("#challenge-colour")
    label = ann.eval_on_selector("#clock option[value=d3]", "o => o.textContent")
    assert label == ("3 day(s) per move (correspondence)" if locale == "en-US"
                     else "1手3日（通信対局）")
    ann.select_option("#clock", "d3")
    ann.select_option("#challenge-colour", "first")
    ann.uncheck("#casual")  # rated: a deadline per move is a clock
    ann.click("#create-btn")
    ann.wait_for_selector("#notices [data-cancel]")
    assert "3" in ann.inner_text("#notices .terms")
    ben.goto(f"{server.url}/")
    ben.wait_for_selector("#notices [data-accept]").click()
    ben.wait_for_url("**/r/*")
    room = ben.url.rsplit("/", 1)[1]
    # ann's next page goes to the accepted game by itself (her browser holds the key) ...
    ann.goto(f"{server.url}/settings")
    ann.wait_for_url(f"**/r/{room}")
    ann.wait_for_selector("body[data-connected=true]")
    # ... and, as she moves first, any other page lists the game in "your turn", time left
    ann.goto(f"{server.url}/settings")
    row = ann.wait_for_selector(f"#notices [data-turn=\"{room}\"]")
    text = row.inner_text()
    assert f"bencorr{locale[:2]}" in text
    # three days a move, a few seconds gone: "2 d 23 h left" (rounded down)
    assert ("2 d 23 h left" in text) if locale == "en-US" else ("残り2日23時間" in text), text
    assert small_controls(ann, "#notices a, #notices button") == []
    # ben's pages list nothing: it is not his turn
    ben.goto(f"{server.url}/settings")
    ben.wait_for_selector("body[data-ready=true]")
    ben.wait_for_timeout(500)
    assert ben.locator("#notices [data-turn]").count() == 0
    ann.context.close()
    ben.context.close()
