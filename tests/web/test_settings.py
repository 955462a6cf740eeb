"""Issue 27 items 5, 6 and 9 in the browser client: the settings page (kept in this browser,
and on the account when signed in), dark mode and board themes on every page, the
move-quality badge off by default between people, the turn notice in the tab's title and
favicon, and the HTML error page in a real browser. The account API
(``/api/account/settings``) is checked directly as well."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba.server import create_app
from asobiba.server.api_schema import SettingsValues

from .browser import ROOT, Server, click_a_move, new_game, wait_turn
from .test_accessibility import serious

LOCALES = {"en": "en-US", "ja": "ja-JP"}
WORDS = {"en": {"not_found": "Page not found", "turn": "Your turn", "settings": "Settings"},
         "ja": {"not_found": "ページが見つかりません", "turn": "あなたの番です",
                "settings": "設定"}}
DARK_BG = "rgb(23, 22, 20)"   # --paper in dark mode
LIGHT_BG = "rgb(247, 243, 234)"  # --paper in light mode
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


# ---- the account API ------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def test_issue27_account_settings_need_a_session(client: TestClient) -> None:
    r = client.get("/api/account/settings")
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = client.put("/api/account/settings", json={"settings": {"theme": "dark"}})
    assert r.status_code == 401


def test_issue27_account_settings_are_kept_and_bad_values_change_nothing(
        client: TestClient) -> None:
    assert client.post("/api/account/guest").status_code == 201
    assert client.get("/api/account/settings").json() == {"settings": {}}
    r = client.put("/api/account/settings", json={"settings": {"theme": "dark",
                                                               "board": "contrast"}})
    assert r.status_code == 200
    kept = client.get("/api/account/settings").json()["settings"]
    assert kept["theme"] == "dark" and kept["board"] == "contrast" and kept["coords"] == "on"
    for bad, field in [({"theme": "purple"}, "settings.theme"),
                       ({"board": "contrast", "bogus": "x"}, "settings.bogus"),
                       ({"coords": True}, "settings.coords"),
                       ("dark", "settings"), ([], "settings")]:
        r = client.put("/api/account/settings", json={"settings": bad})
        assert r.status_code == 400, bad
        err = r.json()["error"]
        assert err["code"] == "bad_settings" and err["message"].startswith(field), err
        assert client.get("/api/account/settings").json()["settings"] == kept  # unchanged
    r = client.put("/api/account/settings", json={"nothing": 1})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_settings"


def test_issue27_the_client_and_the_server_offer_the_same_choices() -> None:
    """js/settings.js's CHOICES and api_schema.SettingsValues: the same keys, the same
    values, the same defaults (the first of each list)."""
    src = (ROOT / "asobiba" / "web" / "js" / "settings.js").read_text(encoding="utf-8")
    block = src[src.index("export const CHOICES = {"):]
    block = block[:block.index("};")]
    js = {k: re.findall(r'"([^"]+)"', v)
          for k, v in re.findall(r"^\s+(\w+): \[([^\]]*)\],", block, re.M)}
    schema = SettingsValues.model_json_schema()["properties"]
    py = {k: list(p["enum"]) for k, p in schema.items()}
    assert {k: sorted(v) for k, v in js.items()} == {k: sorted(v) for k, v in py.items()}
    assert {k: v[0] for k, v in js.items()} == SettingsValues().model_dump()


# ---- in the browser -------------------------------------------------------------------------



def background(page: Any) -> str:
    return str(page.evaluate("() => getComputedStyle(document.body).backgroundColor"))


def settings_ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function("() => !!document.documentElement.dataset.settings")


def choose(page: Any, key: str, value: str) -> None:
    page.select_option(f"#set-{key}", value)
    page.wait_for_selector("body[data-saved=true]")


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue27_unknown_address_is_a_404_page_in_the_browser(
        pages: Any, server: Server, lang: str, size: str) -> None:
    page = pages(size=size, locale=LOCALES[lang])
    res = page.goto(f"{server.url}/r/nowhere/at/all")
    assert res is not None and res.status == 404
    assert page.inner_text("h1") == WORDS[lang]["not_found"]
    assert page.evaluate("() => document.documentElement.lang") == lang
    api = page.request.get(f"{server.url}/api/unknown", headers={"accept": "text/html"})
    assert api.status == 404 and api.json()["error"]["code"] == "not_found"


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue27_settings_page_is_linked_and_dark_mode_applies_on_every_page_after_reload(
        pages: Any, server: Server, lang: str, size: str) -> None:
    page = pages(size=size, locale=LOCALES[lang], color_scheme="light")
    page.goto(f"{server.url}/")
    page.wait_for_selector("body[data-ready=true]")
    assert background(page) == LIGHT_BG
    link = page.locator("header nav a[href='/settings']")
    if size == "phone":  # on a phone the navigation is behind the header's menu button
        page.click("header .menu-toggle")
    assert link.inner_text() == WORDS[lang]["settings"]
    link.click()
    page.wait_for_url("**/settings")
    settings_ready(page)
    assert page.inner_text("header h1") == WORDS[lang]["settings"]
    choose(page, "theme", "dark")
    assert background(page) == DARK_BG  # at once, on this page
    choose(page, "coords", "off")
    page.goto(f"{server.url}/replay")  # another page, loaded anew
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert background(page) == DARK_BG
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.coords === 'off'")
    assert background(page) == DARK_BG


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue27_dark_mode_follows_the_system_unless_chosen(
        pages: Any, server: Server, lang: str) -> None:
    page = pages(size="desktop", locale=LOCALES[lang], color_scheme="dark")
    page.goto(f"{server.url}/settings")
    settings_ready(page)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "system"
    assert background(page) == DARK_BG  # the system is dark
    choose(page, "theme", "light")
    assert background(page) == LIGHT_BG  # the person's choice wins over the system
    page.emulate_media(color_scheme="light")
    choose(page, "theme", "system")
    assert background(page) == LIGHT_BG
    page.emulate_media(color_scheme="dark")
    page.wait_for_function(f"() => getComputedStyle(document.body).backgroundColor === '{DARK_BG}'")


@pytest.mark.browser
def test_issue27_account_settings_survive_a_new_browser_after_login(
        pages: Any, server: Server) -> None:
    page = pages(size="desktop", locale="ja-JP")
    page.goto(f"{server.url}/account")
    page.wait_for_selector("body[data-ready=true]")
    page.fill("#reg-name", "settei27")
    page.fill("#reg-password", "a long password")
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("#me-name")
    page.goto(f"{server.url}/settings")
    settings_ready(page)
    assert page.evaluate("() => document.documentElement.dataset.settings") == "account"
    choose(page, "board", "contrast")
    choose(page, "theme", "dark")
    # another browser (nothing in its storage): the defaults until it signs in
    other = pages(size="phone", locale="en-US", color_scheme="light")
    other.goto(f"{server.url}/")
    other.wait_for_selector("body[data-ready=true]")
    assert other.evaluate("() => document.documentElement.dataset.board") == "classic"
    other.goto(f"{server.url}/account")
    other.wait_for_selector("body[data-ready=true]")
    other.fill("#login-name", "settei27")
    other.fill("#login-password", "a long password")
    other.click("#login-form button[type=submit]")
    other.wait_for_selector("#me-name")
    other.goto(f"{server.url}/")
    other.wait_for_function("() => document.documentElement.dataset.board === 'contrast' && "
                            "document.documentElement.dataset.theme === 'dark'")
    assert background(other) == "rgb(0, 0, 0)"  # high contrast, dark


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue27_no_feedback_badge_between_people_by_default(
        pages: Any, server: Server, lang: str) -> None:
    """A casual hot-seat game (two people, no computer): no move-quality question is asked
    and no badge is shown; with the setting "in every casual game" it is."""
    page = pages(size="desktop", locale=LOCALES[lang])
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/feedback") else None)
    new_game(page, server.url, "reversi", ["you", "you"])
    page.wait_for_selector("body[data-progress=ready]")
    for _ in range(2):
        assert wait_turn(page) == "turn"
        before = page.evaluate("document.body.dataset.ply")
        click_a_move(page)
        page.wait_for_function(f"() => document.body.dataset.ply !== '{before}'")
    page.wait_for_timeout(500)  # a question would have been sent right after the move
    assert asked == []
    assert page.locator("#feedback .badge").count() == 0
    # the same game with the setting on: the question goes out (the badge itself shows to
    # the seat that moved only, which a hot-seat game has just handed over)
    room = page.url
    page.goto(f"{server.url}/settings")
    settings_ready(page)
    choose(page, "feedback", "on")
    page.goto(room)
    page.wait_for_selector("body[data-progress=ready]")
    assert wait_turn(page) in ("turn", "handover")
    if page.evaluate("document.body.dataset.handover") == "true":
        page.click("#handover-go")
        assert wait_turn(page) == "turn"
    with page.expect_request(lambda r: r.url.endswith("/feedback")):
        click_a_move(page)
    assert asked


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_issue27_the_tab_title_and_favicon_say_when_it_is_your_turn(
        pages: Any, server: Server, lang: str, size: str) -> None:
    page = pages(size=size, locale=LOCALES[lang])
    new_game(page, server.url, "reversi", ["you", "friend"])
    assert wait_turn(page) == "turn"
    turn = f"● {WORDS[lang]['turn']} — "
    page.wait_for_function(f"() => document.title.startsWith({turn!r})")
    assert page.get_attribute("link[rel=icon]", "data-turn") == "true"
    assert page.get_attribute("link[rel=icon]", "href").startswith("data:image/svg+xml,")
    click_a_move(page)  # now the friend's turn (nobody has joined that seat)
    page.wait_for_function("() => document.body.dataset.myTurn === 'false'")
    page.wait_for_function(f"() => !document.title.startsWith({turn!r}) && "
                           "document.title.length > 0")
    assert page.get_attribute("link[rel=icon]", "data-turn") == "false"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `make node-deps` (npm ci)")
    return AXE.read_text(encoding="utf-8")


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("theme", "board"), [("light", "classic"), ("dark", "classic"),
                                              ("light", "contrast"), ("dark", "contrast")])
def test_issue27_settings_page_has_no_serious_accessibility_violation(
        pages: Any, server: Server, axe_source: str, lang: str, theme: str, board: str) -> None:
    page = pages(size="desktop", locale=LOCALES[lang])
    page.goto(f"{server.url}/settings")
    settings_ready(page)
    choose(page, "theme", theme)
    choose(page, "board", board)
    page.reload()
    settings_ready(page)
    assert page.evaluate("() => document.documentElement.dataset.board") == board
    assert serious(page, axe_source) == []
