"""Issue 27 item 2 and the lobby's defects around the games, in a real browser (Debian's
Chromium), in English and Japanese, on a desktop and a phone (390×844):

- every game card starts a game against the CPU in one tap ("Play the computer"), at a
  suggested level shown on the card and changeable there, and reaches a board the player
  can act on; "Play a friend" opens the game page with the invite link;
- "All options" opens the full form inside that card, with the focus inside the form (it
  used to drop to the page body); on a phone the open form fits one screen, every control
  44 px;
- CPU levels are named in players' words with their level in both languages (the live list
  said "CPU entry", Japanese "CPU：入門"), weakest first (Reversi listed Random after
  level 6);
- a game with a CPU seat offers no rated choice (it could never be honoured);
- every option of every game has a label and a one-line help in both languages, without
  the engine's words (seed, mask, 0-based)."""

from __future__ import annotations

import json
from typing import Any
from urllib.request import urlopen

import pytest

from asobiba.games import available

from .browser import PHONE, Server, wait_turn
from .test_accessibility import AXE
from .test_i18n_table import every_word
from .test_phone import INTERACTIVE, SMALL_CONTROLS, TARGET

pytestmark = pytest.mark.browser

GAMES = available()  # every registered game, plug-ins included (tests/conftest.py)
# (locale, size): English on a desktop, Japanese on a phone — both languages, both sizes
RUNS = [("en-US", "desktop"), ("ja-JP", "phone")]
RUN_IDS = ["en-desktop", "ja-phone"]
BOARD_TARGETS = ("#board [data-move], #board [data-attack], #board [data-pick], "
                 "#board [data-from], #board [data-write]")




@pytest.fixture(scope="module")
def described(server: Server) -> dict[str, Any]:
    with urlopen(f"{server.url}/api/games") as res:  # noqa: S310 - the test's own server
        return {g["id"]: g for g in json.load(res)["games"]}


def room_info(server: Server, room: str) -> dict[str, Any]:
    with urlopen(f"{server.url}/api/rooms/{room}") as res:  # noqa: S310
        return dict(json.load(res))


def lobby(page: Any, base: str, query: str = "") -> None:
    page.goto(f"{base}/{query}")
    page.wait_for_selector("body[data-ready=true]")


def weakest_first(game: dict[str, Any]) -> list[str]:
    levels = [b["level"] for b in game["bots"]]
    return [lv for lv in levels if lv == "random"] + [lv for lv in levels if lv != "random"]


def title(game: dict[str, Any], level: str, locale: str) -> str:
    bot = next(b for b in game["bots"] if b["level"] == level)
    return str(bot["title_ja"] if locale == "ja-JP" and bot["title_ja"] else bot["title"])


# ---- Play the computer, in one tap -----------------------------------------------------------

@pytest.mark.parametrize(("locale", "size"), RUNS, ids=RUN_IDS)
@pytest.mark.parametrize("game", GAMES)
def test_issue27_play_the_computer_in_one_tap_at_the_shown_level(
        pages: Any, server: Server, described: dict[str, Any], game: str, locale: str,
        size: str) -> None:
    info = described[game]
    page = pages(locale, size)
    lobby(page, server.url)
    level = page.locator(f"[data-level={game}]")
    # the suggested level is on the card, selected and marked, in the page's language
    assert info["default_bot"] in weakest_first(info)
    assert level.input_value() == info["default_bot"]
    shown = level.evaluate("s => s.options[s.selectedIndex].textContent")
    assert title(info, info["default_bot"], locale) in shown
    assert ("おすすめ" if locale == "ja-JP" else "suggested") in shown
    # changeable on the card: the Japanese phone run plays the weakest level instead
    want = info["default_bot"]
    if size == "phone":
        want = weakest_first(info)[0] if weakest_first(info)[0] != want else weakest_first(info)[1]
        level.select_option(want)
    page.click(f"[data-play-cpu={game}]")  # the one tap
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-connected=true]")
    assert wait_turn(page) in ("turn", "handover")
    if page.evaluate("document.body.dataset.handover") == "true":
        page.click("#handover-go")
        assert wait_turn(page) == "turn"
    assert page.locator(BOARD_TARGETS).count() > 0, "a board the player can act on"
    room = room_info(server, page.url.rsplit("/", 1)[1])
    seats = room["seats"]
    assert seats[0]["kind"] == "human" and len(seats) >= 2
    assert all(s["kind"] == "bot" and s["level"] == want for s in seats[1:])
    assert room["casual"] is True, "a game against the CPU is casual: it is never rated"


@pytest.mark.parametrize(("locale", "size"), RUNS, ids=RUN_IDS)
@pytest.mark.parametrize("game", GAMES)
def test_issue27_play_a_friend_opens_the_invite(
        pages: Any, server: Server, game: str, locale: str, size: str) -> None:
    page = pages(locale, size)
    lobby(page, server.url)
    page.click(f"[data-play-friend={game}]")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-connected=true]")
    page.wait_for_selector("#invites:not([hidden])")
    links = page.locator("#invite-list a, #invite-list input").evaluate_all(
        "els => els.map(e => e.href || e.value)")
    assert len([x for x in links if "#seat=1&key=" in x]) >= 1, links
    seats = room_info(server, page.url.rsplit("/", 1)[1])["seats"]
    assert [s["kind"] for s in seats] == ["human", "human"], "you and one friend"


# ---- the full form: inside the card, the focus in it, one screen on a phone ------------------

FORM_HEIGHT = "() => document.getElementById('create').getBoundingClientRect().height"


@pytest.mark.parametrize(("locale", "size"), [*RUNS, ("ja-JP", "desktop"), ("en-US", "phone")],
                         ids=[*RUN_IDS, "ja-desktop", "en-phone"])
@pytest.mark.parametrize("game", GAMES)
def test_issue27_all_options_open_in_the_card_with_the_focus_inside_and_fit_a_phone(
        pages: Any, server: Server, game: str, locale: str, size: str) -> None:
    page = pages(locale, size)
    lobby(page, server.url)
    more = page.locator(f"[data-game={game}]")
    assert more.get_attribute("aria-expanded") == "false"
    more.click()
    page.wait_for_selector("#seat-0")
    page.wait_for_timeout(300)  # the seat list's redraw after /api/seats
    assert more.get_attribute("aria-expanded") == "true"
    # the form is in the chosen card, not below all cards
    assert page.evaluate("() => document.getElementById('create').closest('[data-card]')"
                         "?.dataset.card") == game
    # the focus went into the form (it used to drop to the page body)
    assert page.evaluate("() => document.getElementById('create-form')"
                         ".contains(document.activeElement)"), page.evaluate(
        "() => document.activeElement.outerHTML.slice(0, 80)")
    # every option has its one-line help
    options = page.locator("#options [data-option]")
    for i in range(options.count()):
        name = options.nth(i).get_attribute("data-option")
        assert page.locator(f"#help-{name}").text_content().strip(), name
    if size == "phone":
        height = page.evaluate(FORM_HEIGHT)
        assert height <= PHONE["viewport"]["height"], f"the form is {height:.0f} px tall"
        assert page.evaluate(SMALL_CONTROLS, [INTERACTIVE, TARGET]) == []
    # the same button closes it, the focus back on it
    more.click()
    assert page.locator("#create").is_hidden()
    assert page.evaluate("() => document.activeElement.dataset.game") == game


# ---- CPU labels: players' words, the level in both languages, weakest first ------------------

@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_issue27_cpu_levels_are_weakest_first_with_their_level_everywhere(
        pages: Any, server: Server, described: dict[str, Any], locale: str) -> None:
    page = pages(locale)
    lobby(page, server.url, "?game=reversi")
    for game, info in described.items():
        if not info["bots"]:
            continue
        values = page.eval_on_selector_all(f"[data-level={game}] option",
                                           "els => els.map(e => e.value)")
        assert values == weakest_first(info), game
        texts = page.eval_on_selector_all(f"[data-level={game}] option",
                                          "els => els.map(e => e.textContent)")
        assert all(any(c.isdigit() for c in t) or "ランダム" in t or "Random" in t
                   or "MAX" in t or "FINAL" in t or "LEARNED" in t for t in texts), texts
    # Reversi: Random is the weakest, so it comes first, here and in the seats
    seat_bots = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")[2:]
    assert seat_bots == [f"bot:{v}" for v in weakest_first(described["reversi"])]
    assert seat_bots[:2] == ["bot:random", "bot:1"]
    # the ReverStarGo titles carry the level in Japanese too
    rsg = page.eval_on_selector_all("[data-level=reverstargo] option",
                                    "els => els.map(e => e.textContent)")
    assert rsg[0].startswith("Lv.1 ") and ("入門" if locale == "ja-JP" else "Entry") in rsg[0]


def test_issue27_live_list_names_cpus_by_level_in_both_languages(
        pages: Any, server: Server) -> None:
    player = pages("en-US")
    lobby(player, server.url)
    player.select_option("[data-level=reverstargo]", "entry")
    player.click("[data-play-cpu=reverstargo]")
    player.wait_for_url("**/r/*")
    player.wait_for_selector("body[data-connected=true]")  # connected: the room is live
    room = player.url.rsplit("/", 1)[1]
    for locale, want, raw in (("en-US", "CPU: Lv.1 Entry", "CPU entry"),
                              ("ja-JP", "CPU：Lv.1 入門", "CPU entry")):
        watcher = pages(locale)
        lobby(watcher, server.url)
        item = watcher.locator(f"#live-list [data-live='{room}']")
        item.wait_for()
        text = item.inner_text()
        assert want in text, text
        assert raw not in text and "entry" not in text, text


# ---- no rated choice against the CPU ---------------------------------------------------------

@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_issue27_no_rated_choice_with_a_cpu_seat(pages: Any, server: Server, locale: str) -> None:
    page = pages(locale)
    lobby(page, server.url, "?game=reversi")
    assert page.input_value("#seat-1").startswith("bot:")
    assert page.locator("#casual-row").is_hidden(), "no rated choice that cannot be honoured"
    note = page.locator("#cpu-note")
    assert note.is_visible()
    assert ("レーティングの対象外" if locale == "ja-JP" else "never rated") in note.inner_text()
    page.select_option("#seat-1", "friend")  # two people: rated or casual is a real choice
    assert page.locator("#casual-row").is_visible() and note.is_hidden()
    page.select_option("#seat-1", "bot:2")
    assert page.locator("#casual-row").is_hidden()


def test_the_dealer_offers_only_the_seats_the_table_has(pages: Any, server: Server) -> None:
    """Algo's dealer (a seat-numbered option) listed seats 1–8 whatever the number of
    players; a dealer past the last seat made the form refuse. Now the select offers the
    table's seats only, and a dealer the smaller table cannot seat falls back to seat 1."""
    page = pages()
    lobby(page, server.url)
    page.locator("[data-game=algo]").click()
    page.wait_for_selector("#seat-0")

    def offered() -> list[int]:
        return list(page.evaluate(
            "() => [...document.getElementById('opt-first').options]"
            ".filter((o) => !o.disabled && !o.hidden).map((o) => JSON.parse(o.value))"))

    page.wait_for_function("() => document.querySelectorAll('#seats [id^=seat-]').length >= 2")
    assert offered() == [0, 1]
    if page.locator("#more-options").count():  # folded under "More rules"
        page.evaluate("() => { document.getElementById('more-options').open = true; }")
    page.select_option("#opt-players", "4")
    page.wait_for_function("() => document.getElementById('seat-3')")
    assert offered() == [0, 1, 2, 3]
    page.select_option("#opt-first", "3")
    page.select_option("#opt-players", "2")
    page.wait_for_function("() => !document.getElementById('seat-2')")
    assert offered() == [0, 1]
    assert page.input_value("#opt-first") == "0"
    assert page.inner_text("#create-error").strip() == ""


# ---- every option in players' words, in both languages (the table, no browser) --------------

ENGINE_WORDS = ("seed", "mask", "0-based", "'#'", "シード", "nullable", "ply")


def test_issue27_every_option_has_a_label_and_a_one_line_help_in_both_languages() -> None:
    from asobiba.games import available, get

    strings = every_word()  # the games' words live in their folders
    missing, engine = [], []
    for gid in available():
        game = get(gid)
        for o in game.options:
            for lang in ("en", "ja"):
                for kind in ("opt", "help"):
                    text = strings[lang].get(f"{gid}.{kind}:{o.name}")
                    if not text:
                        missing.append(f"{lang} {gid}.{kind}:{o.name}")
                    elif kind == "help" and ("\n" in text or len(text) > 100):
                        missing.append(f"{lang} {gid}.help:{o.name} is not one line")
                    elif any(w in text.lower() for w in ENGINE_WORDS):
                        engine.append(f"{lang} {gid}.{kind}:{o.name}: {text}")
            for value in o.choices:
                for lang in ("en", "ja"):
                    if isinstance(value, str) and not strings[lang].get(
                            f"{gid}.value:{o.name}:{value}"):
                        missing.append(f"{lang} {gid}.value:{o.name}:{value}")
        for variant in game.variants:
            for lang in ("en", "ja"):
                if not strings[lang].get(f"{gid}.variant:{variant}"):
                    missing.append(f"{lang} {gid}.variant:{variant}")
    assert missing == []
    assert engine == []


# ---- axe on the open form ----------------------------------------------------------------------

@pytest.mark.parametrize(("locale", "size"), [("en-US", "desktop"), ("ja-JP", "phone")],
                         ids=RUN_IDS)
def test_issue27_lobby_with_an_open_form_has_no_serious_accessibility_violation(
        pages: Any, server: Server, locale: str, size: str) -> None:
    from .test_accessibility import serious

    page = pages(locale, size)
    lobby(page, server.url)
    page.click("[data-game=memory_matrix]")
    page.wait_for_selector("#seat-3")
    page.click("#more-options > summary")
    assert serious(page, AXE.read_text(encoding="utf-8")) == []
