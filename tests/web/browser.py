"""Real-browser plumbing: a server in its own process (so a test can kill and restart it),
Debian's Chromium through Playwright, and a helper that plays a game by clicking."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import pacer_for

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
# Every wait is bounded. Generous: CI runs two test workers on a small shared machine, so a
# page or a server start can be slow; a real hang still fails, with Playwright's message.
TIMEOUT_MS = 60_000
START_TIMEOUT = 60.0  # seconds for the server subprocess to print its address and listen


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``asobiba.server.run`` in a subprocess; ``stop()`` kills it like a crash would."""

    def __init__(self, data_dir: Path, port: int | None = None,
                 env: dict[str, str] | None = None, db_url: str | None = None) -> None:
        self.data_dir = data_dir
        self.db_url = db_url  # None: SQLite in data_dir
        self.port = port or free_port()
        self.env = env or {}  # more settings of the server process (ASOBIBA_...)
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        # every browser of a test module comes from 127.0.0.1: per-address limits x100
        env = {**os.environ, "ASOBIBA_BOT_DELAY": "0", "ASOBIBA_BOT_PROCESSES": "1",
               "PYTHONUNBUFFERED": "1", "ASOBIBA_LIMIT_SCALE": "100", **self.env}
        code = ("from asobiba.server import run; "
                f"run('127.0.0.1', {self.port}, {str(self.data_dir)!r}, {self.db_url!r})")
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        assert self.proc.stdout is not None
        line = self._first_line(START_TIMEOUT)
        assert f"serving on http://127.0.0.1:{self.port}/" in line, line
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}): "
                                   f"{self.proc.stdout.read()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not listen within {START_TIMEOUT:g} s")

    def _first_line(self, timeout: float) -> str:
        """The server's first output line, waiting at most ``timeout`` seconds (a plain
        readline would block forever on a server that hangs before printing)."""
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self.stop()
            raise RuntimeError(f"the server printed nothing within {timeout:g} s")
        return self.proc.stdout.readline()

    def stop(self, hard: bool = True) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL if hard else signal.SIGTERM)
            self.proc.wait(30)
        self.proc = None


def launch(playwright: Any) -> Any:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=TIMEOUT_MS)


DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def open_context(browser: Any, **kw: Any) -> Any:
    """A browser context (its own storage, like another person's browser)."""
    ctx = browser.new_context(**kw)
    ctx.set_default_timeout(TIMEOUT_MS)  # every wait, click and navigation is bounded
    ctx.set_default_navigation_timeout(TIMEOUT_MS)
    return ctx


def new_game(page: Any, base: str, game: str, seats: list[str],
             options: dict[str, Any] | None = None) -> str:
    """Create a game through the lobby form; ``seats`` like ["you", "bot:1", "friend"]."""
    page.goto(f"{base}/?game={game}")
    page.wait_for_selector("body[data-ready=true]")
    for name, value in (options or {}).items():
        sel = f"[data-option={name}]"
        if not page.locator(sel).is_visible():  # a game with many options folds the rest away
            page.click("#more-options > summary")
        tag = page.eval_on_selector(sel, "e => e.tagName === 'SELECT' ? 'select' : e.type")
        if tag == "checkbox":
            page.set_checked(sel, value in (True, "true"))
        elif tag == "select":
            page.select_option(sel, json.dumps(value) if not isinstance(value, str)
                               else json.dumps(value))
        else:
            page.fill(sel, str(value))
        page.dispatch_event(sel, "change")
    # the seat list follows the options (an /api/seats round trip): wait for its new length
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-seat]').length === {len(seats)}")
    for i, choice in enumerate(seats):
        page.select_option(f"#seat-{i}", choice)
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.wait_for_selector("body[data-connected=true]")
    return page.url.rsplit("/", 1)[1]


def wait_turn(page: Any, timeout: float = TIMEOUT_MS) -> str:
    # predicates are arrow functions: Playwright runs those without eval, so the page's
    # Content-Security-Policy stays in force during the tests
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'true' || document.body.dataset.status === "
        "'finished' || document.body.dataset.handover === 'true' || "
        "document.body.dataset.review === 'true'", timeout=timeout)
    if page.evaluate("document.body.dataset.status") == "finished":
        return "finished"
    if page.evaluate("document.body.dataset.review") == "true":
        return "review"
    if page.evaluate("document.body.dataset.handover") == "true":
        return "handover"
    return "turn"


def click_a_move(page: Any) -> None:
    """Click a legal move on the board (its data-move target), else in the move list."""
    mine = page.evaluate("document.body.dataset.myMoves")
    pacer_for(page).wait()
    target = page.locator("#board [data-move]")
    if not target.count():
        # two-step moves (an Algo card, a ReverStarGo or Memory Matrix cell with a choice):
        # pick on the board, then the move in the pad that opens under it
        pick = page.locator("#board [data-attack], #board [data-pick]")
        if pick.count() and not page.locator("#legal [data-move]").count():
            pick.first.click()
            page.wait_for_selector("#board .move-pad [data-move]")
    if target.count():
        target.first.click()
    else:
        page.locator("#legal [data-move]").first.click()
    wait_my_move(page, mine)


def click_first(page: Any) -> None:
    """Click the first move of the actions panel; where the panel lists none (Algo's
    guesses are made on the board), pick the first highlighted card or cell and click the
    first move of the pad that opens."""
    listed = page.locator("#legal [data-move]")
    if listed.count():
        listed.first.click()
        return
    page.locator("#board [data-attack], #board [data-pick], #board [data-move]").first.click()
    if not page.locator("#board [data-move]").count():
        page.wait_for_selector("#board [data-move]")
    page.locator("#board .move-pad [data-move], #board [data-move]").first.click()


def click_listed(page: Any) -> None:
    """Click the first legal move of the frame's actions (see ``click_first``)."""
    mine = page.evaluate("document.body.dataset.myMoves")
    pacer_for(page).wait()
    click_first(page)
    wait_my_move(page, mine)


def wait_my_move(page: Any, before: str) -> None:
    """Until the server has applied a move of ours (in simultaneous games other seats'
    moves may arrive first, so the ply alone does not say it)."""
    page.wait_for_function(f"() => document.body.dataset.myMoves !== '{before}'",
                           timeout=TIMEOUT_MS)


def play_to_end(page: Any, max_moves: int = 400) -> None:
    for _ in range(max_moves):
        state = wait_turn(page)
        if state == "finished":
            return
        if state == "handover":
            page.click("#handover-go")
            continue
        if state == "review":
            page.click("#review-done")
            continue
        click_a_move(page)
    raise AssertionError("the game did not end")


def wait_any_turn(pages: list[Any], timeout: float = TIMEOUT_MS / 1000) -> Any | None:
    """The page whose seat must act now, or ``None`` once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            state = page.evaluate("[document.body.dataset.status, document.body.dataset.myTurn]")
            if state[0] == "finished":
                return None
            if state[1] == "true":
                return page
        pages[0].wait_for_timeout(30)
    raise AssertionError("no page got the turn")


VISIBLE_TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !parent || !parent.getClientRects().length) continue;
    if (getComputedStyle(parent).visibility === 'hidden') continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('input[placeholder]')) out.push(el.placeholder);
  return out;
}"""

ENGLISH_PATTERNS = r"""async () => {
  // the one table (js/i18n.js): platform strings, and every registered game's own words
  // (its words.json, whether or not this page loaded them: no game's English may show on a
  // Japanese page)
  const {STRINGS} = await import('/static/js/i18n.js');
  const en = {...STRINGS.en}, ja = {...STRINGS.ja};
  for (const g of (await (await fetch('/api/games')).json()).games) {
    const own = await (await fetch(`/static/games/${encodeURIComponent(g.id)}.words.json`)).json();
    for (const k of Object.keys(own.en || {})) {
      en[`${g.id}.${k}`] = own.en[k];
      ja[`${g.id}.${k}`] = (own.ja || {})[k];
    }
  }
  const pairs = [];
  for (const k of Object.keys(en)) {
    const en_ = en[k];
    const ja_ = ja[k];
    // the rules panel's lines are lists: each English line against its Japanese one
    if (Array.isArray(en_)) en_.forEach((line, i) => pairs.push([line, (ja_ || [])[i]]));
    else pairs.push([en_, ja_]);
  }
  // a string is English only by its own words: "{sq}: {colour} {face}" has none
  return pairs.filter(([en, ja]) => en !== ja && /[A-Za-z]{3}/.test(en.replace(/\{\w+\}/g, "")))
              .map(([en]) => en);
}"""


def english_left(page: Any, games: list[str]) -> list[str]:
    """Visible texts that are still an English dictionary string (placeholders as wildcards)."""
    patterns = [re.compile("^" + re.sub(r"\\\{\w+\\\}", ".*", re.escape(en)) + "$", re.S)
                for en in page.evaluate(ENGLISH_PATTERNS)]
    return [text for text in page.evaluate(VISIBLE_TEXTS)
            if any(p.match(text) for p in patterns)]


def lobby_setup(game_id: str) -> tuple[list[str], dict[str, Any]]:
    """Seats and lobby options for a two-seat game of ``game_id`` against its first CPU
    level, from the game's metadata alone (issue 26: any registered game, plug-ins too)."""
    from asobiba.games import get

    game = get(game_id)
    options: dict[str, Any] = {}
    players = next((o for o in game.options if o.name == "players"), None)
    if players is not None and players.default != 2:
        options["players"] = 2
    return ["you", f"bot:{game.bot_levels[0].level}"], options


def every_game(chosen: list[tuple[str, list[str], dict[str, Any]]]
               ) -> list[tuple[str, list[str], dict[str, Any]]]:
    """``chosen`` (hand-tuned seats and options for some games) completed with every other
    registered game (:func:`lobby_setup`): a test parametrised over it runs every game."""
    from asobiba.games import available

    named = {g for g, _, _ in chosen}
    return [*chosen, *((g, *lobby_setup(g)) for g in available() if g not in named)]

