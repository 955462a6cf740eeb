"""Take the README's screenshots: every game's page mid-game (English and Japanese), the
lobby, a finished game, the replay viewer and a phone-sized page.

Needs a running server (``asobiba serve``) and Debian's Chromium:
``python docs/screenshots/take.py http://127.0.0.1:8000``. Writes PNGs next to this file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.web.browser import (  # noqa: E402
    ARGS,
    CHROMIUM,
    click_a_move,
    click_listed,
    new_game,
    play_to_end,
    wait_my_move,
    wait_turn,
)

GAMES = [
    ("reversi", ["you", "bot:1"], {}, "board", 9),
    ("reverstargo", ["you", "bot:beginner"], {}, "board", 6),
    ("flipflop", ["you", "bot:1"], {"board": "5x5"}, "list", 3),
    ("memory_matrix", ["you", "bot:1", "bot:1", "bot:1"], {"memory_aid": "true"}, "board", 6),
    ("algo", ["you", "bot:2"], {}, "list", 3),
    ("patapata", ["you", "bot:greedy"], {"players": 2}, "patapata", 4),
]


def advance(page: Any, via: str, moves: int) -> None:
    for _ in range(moves):
        state = wait_turn(page)
        if state != "turn":
            break
        if via == "board":
            click_a_move(page)
        elif via == "patapata":  # write marks through the window, as a person would
            mine = page.evaluate("document.body.dataset.myMoves")
            page.locator("#board [data-write]").first.click()
            page.locator("#board .pad").first.click()
            wait_my_move(page, mine)
        else:
            click_listed(page)
    wait_turn(page)


def main(base: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for lang, locale in (("en", "en-US"), ("ja", "ja-JP")):
            ctx = browser.new_context(locale=locale, viewport={"width": 1200, "height": 860},
                                      device_scale_factor=1)
            page = ctx.new_page()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready=true]")
            page.screenshot(path=str(HERE / f"lobby-{lang}.png"))
            for game, seats, options, via, moves in GAMES:
                new_game(page, base, game, seats, options)
                advance(page, via, moves)
                if game == "algo":  # show the number pad of an attack
                    target = page.locator("#board [data-attack]").first
                    if target.count():
                        target.click()
                page.wait_for_timeout(600)  # let the flip animations finish
                page.screenshot(path=str(HERE / f"{game}-{lang}.png"), full_page=True)
            ctx.close()
        # a finished game and its replay, and a phone
        ctx = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 860})
        page = ctx.new_page()
        new_game(page, base, "reversi", ["you", "bot:random"])
        play_to_end(page)
        page.wait_for_timeout(600)
        page.screenshot(path=str(HERE / "game-over-en.png"))
        page.click("#replay")
        page.wait_for_selector("body[data-status=loaded]")
        page.click("#back")
        page.screenshot(path=str(HERE / "replay-en.png"))
        ctx.close()
        # phones (390×844), both languages: the lobby, ReverStarGo with the CP-call pad open,
        # Algo with its finger-sized cards and the number pad
        for lang, locale in (("en", "en-US"), ("ja", "ja-JP")):
            phone = browser.new_context(locale=locale, viewport={"width": 390, "height": 844},
                                        device_scale_factor=2, is_mobile=True, has_touch=True)
            page = phone.new_page()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready=true]")
            page.screenshot(path=str(HERE / f"phone-lobby-{lang}.png"))
            new_game(page, base, "reverstargo", ["you", "bot:beginner"])
            advance(page, "board", 3)
            pick = page.locator("#board [data-pick]")
            if pick.count():
                pick.first.click()
            page.wait_for_timeout(600)
            page.screenshot(path=str(HERE / f"phone-reverstargo-{lang}.png"))
            new_game(page, base, "algo", ["you", "bot:2"])
            advance(page, "list", 2)
            target = page.locator("#board [data-attack]").first
            if target.count():
                target.click()
            page.wait_for_timeout(300)
            page.screenshot(path=str(HERE / f"phone-algo-{lang}.png"))
            phone.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
