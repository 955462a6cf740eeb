"""Issue 27 item 3 in a real browser (Debian's Chromium, a phone of 390×844): the game pages'
header is one compact row (≤ 64 px) whose menu button opens the navigation, Japanese labels
never wrap inside a word, and every visible control on every page is at least 44×44 px
(WCAG 2.5.5), in English and in Japanese.

What the size check leaves out, and why (docs/web.md, "Phones"):
- a link inside running text (an inline ``a`` whose parent element has text of its own, as in
  "see the <a>tutorial</a> first"): WCAG 2.5.5's inline exception; it is as tall as its line;
- ``tabindex="-1"`` elements: focus targets for scripts (the board, a heading), not controls;
- a checkbox or radio button is measured by its label, the area that toggles it.
Board cells are NOT left out: every game's targets reach 44 px on a 390 px phone."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import Server, new_game, wait_turn
from .test_ux import GAMES, IDS

pytestmark = pytest.mark.browser

LOCALES = ["en-US", "ja-JP"]
HEADER_MAX = 64  # px: the header of a game page on a phone
TARGET = 44  # px: WCAG 2.5.5

INTERACTIVE = ("a[href], button, input:not([type=hidden]), select, textarea, [role=button], "
               "summary, [tabindex]")

# [name, width, height] of every visible control under 44×44, after the exceptions above
SMALL_CONTROLS = """([sel, min]) => {
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}` +
    ` "${(e.getAttribute('aria-label') || e.textContent || e.value || '').trim().slice(0, 30)}"`;
  const inRunningText = (e) => e.tagName === 'A' && getComputedStyle(e).display === 'inline' &&
    [...e.parentElement.childNodes].some(n => n.nodeType === 3 && n.data.trim());
  const out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    if (e.getAttribute('tabindex') === '-1' && !e.matches('a[href], button, input, select, textarea, summary, [role=button]')) continue;
    if (inRunningText(e)) continue;
    let box = e;
    if (e.matches('input[type=checkbox], input[type=radio]') && e.labels && e.labels.length) box = e.labels[0];
    const r = box.getBoundingClientRect();
    if (r.width < min - 0.5 || r.height < min - 0.5) out.push([name(e), Math.round(r.width), Math.round(r.height)]);
  }
  return out;
}"""

# labels that wrapped inside a word: each line break inside a text node of a control or a
# heading must fall on a word boundary of Intl.Segmenter (ICU's dictionary for Japanese):
# "ロビ/ー" and "アカウン/ト" fail, "棋譜/再生" (two words) passes
MID_WORD = """() => {
  const seg = new Intl.Segmenter('ja', {granularity: 'word'});
  const bad = [];
  const els = [...document.querySelectorAll(
      'nav a, button, .button, label, summary, h1, h2, h3, h4, [role=button]')]
    .filter(e => !e.closest('svg') && e.getClientRects().length);
  for (const el of els) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let text = '', top = null, height = 0;
    const breaks = [];
    while (walk.nextNode()) {
      const node = walk.currentNode;
      for (let i = 0; i < node.length; i++) {
        const at = text.length;
        text += node.data[i];
        if (!node.data[i].trim()) continue;
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        // a break inside one text node: between two blocks (a card's title and its summary)
        // the text runs on by design
        if (top !== null && i > 0 && r.top > top + height / 2) breaks.push(at);
        top = r.top; height = r.height;
      }
    }
    if (!breaks.length) continue;
    const bounds = new Set([...seg.segment(text)].map(s => s.index));
    for (const b of breaks.filter(b => !bounds.has(b)))
      bad.push(`${text.slice(0, b).trim()}/${text.slice(b).trim()}`);
  }
  return bad;
}"""




def small_controls(page: Any) -> list[Any]:
    return list(page.evaluate(SMALL_CONTROLS, [INTERACTIVE, TARGET]))


def header_height(page: Any) -> float:
    return float(page.evaluate("document.querySelector('header.top').getBoundingClientRect().height"))


def check_menu(page: Any, locale: str) -> None:
    """The menu button opens the navigation (aria-expanded, the focus on its first link), its
    links are finger-sized and whole words, and Escape closes it with the focus back."""
    toggle = page.locator("header .menu-toggle")
    assert toggle.is_visible()
    assert page.locator("header nav").is_hidden(), "the navigation waits behind the button"
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("header nav a[href='/replay']").is_visible()
    assert page.locator("#lang").is_visible(), "the language switch is in the menu"
    assert page.evaluate("() => document.activeElement.closest('header nav') !== null")
    assert small_controls(page) == []
    if locale == "ja-JP":
        assert page.evaluate(MID_WORD) == []
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.locator("header nav").is_hidden()
    assert page.evaluate("() => document.activeElement.classList.contains('menu-toggle')")
    toggle.click()  # open again: a tap elsewhere on the page closes it
    assert page.locator("header nav").is_visible()
    page.mouse.click(2, 800)  # the left page margin below the open panel: no control
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.locator("header nav").is_hidden()


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=IDS)
def test_issue27_phone_game_page_compact_header_whole_words_and_44px_controls(
        pages: Any, server: Server, game: str, seats: list[str], options: dict[str, Any],
        locale: str) -> None:
    page = pages(locale, "phone")
    room = new_game(page, server.url, game, seats, options)
    assert wait_turn(page) == "turn"
    assert header_height(page) <= HEADER_MAX
    assert small_controls(page) == []
    if locale == "ja-JP":
        assert page.evaluate(MID_WORD) == []
    check_menu(page, locale)
    # the game over: the result, the record and notation links, rematch
    page.on("dialog", lambda d: d.accept())
    page.click("#resign" if page.locator("#resign").is_visible() else "#abort")
    page.wait_for_selector("body[data-status=finished]")
    page.wait_for_selector("#notation a")
    assert header_height(page) <= HEADER_MAX
    assert small_controls(page) == []
    if locale == "ja-JP":
        assert page.evaluate(MID_WORD) == []
    # the replay viewer of the same game: a game page too
    page.goto(f"{server.url}/replay?room={room}")
    page.wait_for_selector("body[data-status=loaded]")
    page.wait_for_function("() => document.querySelectorAll('#board svg').length > 0")
    assert header_height(page) <= HEADER_MAX
    assert small_controls(page) == []
    if locale == "ja-JP":
        assert page.evaluate(MID_WORD) == []


OTHER_PAGES = (["/", "/account", "/player/me", "/ladder/flipflop", "/leaderboard/memory_matrix"]
               + [f"/tutorial/{g}" for g in IDS] + [f"/daily/{g}" for g in IDS])
GAME_PAGES = ("/tutorial/", "/daily/")  # a board on them: the compact header's height counts


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("path", OTHER_PAGES)
def test_issue27_phone_every_other_page_whole_words_and_44px_controls(
        pages: Any, server: Server, path: str, locale: str) -> None:
    page = pages(locale, "phone")
    page.goto(server.url + path)
    page.wait_for_function("() => document.body.dataset.ready !== undefined && "
                           "document.body.dataset.ready !== 'false'")
    page.wait_for_timeout(300)  # late panels (progress, charts) drawn
    if path.startswith(GAME_PAGES):
        assert header_height(page) <= HEADER_MAX
    assert small_controls(page) == []
    if locale == "ja-JP":
        assert page.evaluate(MID_WORD) == []
    check_menu(page, locale)
