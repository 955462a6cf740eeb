"""Take the README's screenshots: the lobby, every game's page mid-game, a finished game and
the replay viewer — each in English and Japanese, in the light and the dark theme, at a
desktop and a phone size.

Needs a running server (``asobiba serve``) and Debian's Chromium:
``python docs/screenshots/take.py http://127.0.0.1:8000``. Writes PNGs next to this file
(``--out DIR`` elsewhere). Names: ``<scene>-<lang>.png`` (desktop, light), ``phone-`` before
a phone's, ``-dark`` after a dark one's: ``reversi-ja.png``, ``phone-algo-en-dark.png``.
A subset: ``--scenes lobby,algo --langs en --themes dark --sizes phone``.

The theme is a setting (js/settings.js: the root element's ``data-theme``, kept in
localStorage ``asobiba.settings``): each context starts with it set, and the browser's own
colour scheme set to match.
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


SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1200, "height": 860}, "device_scale_factor": 1},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
              "is_mobile": True, "has_touch": True},
}
THEMES = ("light", "dark")
LANGS = {"en": "en-US", "ja": "ja-JP"}
SCENES = ["lobby", *[g[0] for g in GAMES], "game-over", "replay"]


def shot_name(scene: str, lang: str, theme: str, size: str) -> str:
    return (f"{'phone-' if size == 'phone' else ''}{scene}-{lang}"
            f"{'-dark' if theme == 'dark' else ''}.png")


def take(page: Any, base: str, scene: str, size: str) -> None:
    """Bring ``page`` to ``scene`` (the replay starts from a finished game of its own)."""
    if scene == "lobby":
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready=true]")
        return
    if scene in ("game-over", "replay"):
        new_game(page, base, "reversi", ["you", "bot:random"])
        play_to_end(page)
        page.wait_for_timeout(600)
        if scene == "replay":
            page.click("#replay")
            page.wait_for_selector("body[data-status=loaded]")
            page.click("#back")
        return
    game, seats, options, via, moves = next(g for g in GAMES if g[0] == scene)
    new_game(page, base, game, seats, options)
    advance(page, via, moves if size == "desktop" else min(moves, 3))
    if game == "algo":  # show the number pad of an attack
        target = page.locator("#board [data-attack]").first
        if target.count():
            target.click()
    if game == "reverstargo" and size == "phone":  # the CP-call pad open
        pick = page.locator("#board [data-pick]")
        if pick.count():
            pick.first.click()
    page.wait_for_timeout(600)  # let the flip animations finish


def main(base: str, out: Path = HERE, scenes: list[str] | None = None,
         langs: list[str] | None = None, themes: list[str] | None = None,
         sizes: list[str] | None = None) -> list[Path]:
    """Every (size, theme, language, scene) asked for; returns the files written."""
    written: list[Path] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for size in sizes or list(SIZES):
            for theme in themes or list(THEMES):
                for lang in langs or list(LANGS):
                    ctx = browser.new_context(locale=LANGS[lang], color_scheme=theme,
                                              **SIZES[size])
                    ctx.add_init_script("localStorage.setItem('asobiba.settings', "
                                        f"JSON.stringify({{theme: '{theme}'}}))")
                    page = ctx.new_page()
                    for scene in scenes or SCENES:
                        take(page, base, scene, size)
                        assert page.evaluate("document.documentElement.dataset.theme") == theme
                        path = out / shot_name(scene, lang, theme, size)
                        # a desktop game page whole (its side panel runs long); the rest as seen
                        page.screenshot(path=str(path), full_page=size == "desktop"
                                        and scene not in ("lobby", "game-over", "replay"))
                        written.append(path)
                    ctx.close()
        browser.close()
    return written


def _list(text: str | None, allowed: list[str]) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",")
    bad = [i for i in items if i not in allowed]
    if bad:
        raise SystemExit(f"unknown {bad}; choose from {', '.join(allowed)}")
    return items


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", nargs="?", default="http://127.0.0.1:8000")
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--scenes")
    ap.add_argument("--langs")
    ap.add_argument("--themes")
    ap.add_argument("--sizes")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    files = main(a.base, a.out, _list(a.scenes, SCENES), _list(a.langs, list(LANGS)),
                 _list(a.themes, list(THEMES)), _list(a.sizes, list(SIZES)))
    print(f"{len(files)} screenshots in {a.out}")
