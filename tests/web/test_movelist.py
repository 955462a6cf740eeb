"""Issue 27 item 4: the move list as a score sheet and the keyboard on the game page.

Two-sided games list their moves in numbered rows of a full move ("1. c4 e3"), other games a
compact run of numbered plies; the arrow keys step the in-game list (and the replay viewer's),
move a cursor over every board's cells, and Enter plays the move at the cursor; the focus never
falls to the page's body after a move or a choice."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import Server, click_a_move, new_game, wait_my_move, wait_turn
from .helpers import pacer_for

pytestmark = pytest.mark.browser


TWO_SIDED = [
    ("reversi", ["you", "bot:1"], {}),
    ("flipflop", ["you", "bot:1"], {}),
    ("reverstargo", ["you", "bot:entry"], {}),
    ("algo", ["you", "bot:1"], {}),
]
BOARDS = TWO_SIDED + [
    ("memory_matrix", ["you", "bot:1"], {"players": 2}),
    ("patapata", ["you", "bot:greedy"], {"players": 2}),
]

# what has the focus: the attributes the tests look at, or "body"
ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return {body: true};
  const at = a.getAttribute('data-at');
  return {body: false, at, step: a.getAttribute('data-step'),
          move: a.getAttribute('data-move'), board: !!a.closest('#board'),
          pick: ['data-pick', 'data-attack', 'data-from', 'data-write']
            .some(n => a.hasAttribute(n)),
          pressed: a.getAttribute('aria-pressed') === 'true'};
}"""




def sheet(page: Any) -> list[dict[str, Any]]:
    """The rows of the score sheet: the number shown, and each column's entries."""
    return page.eval_on_selector_all(
        "#movelog > li.row",
        "rows => rows.map(r => ({num: r.querySelector('.num').textContent,"
        " cols: [...r.querySelectorAll('ol.cell')].map(c => [...c.querySelectorAll('li[data-ply]')]"
        ".map(li => ({ply: Number(li.dataset.ply), seat: Number(li.dataset.seat),"
        " text: [...li.querySelector('button').childNodes]"
        ".filter(n => !(n.classList && n.classList.contains('sr-only')))"
        ".map(n => n.textContent).join('').trim()})))}))")


def play_moves(page: Any, n: int) -> None:
    for _ in range(n):
        assert wait_turn(page) == "turn"
        click_a_move(page)
    assert wait_turn(page) in ("turn", "finished")


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_reversi_moves_are_paired_numbered_rows_in_game_and_in_the_replay(
        pages: Any, server: Server, size: str, locale: str) -> None:
    page = pages(size=size, locale=locale)
    room = new_game(page, server.url, "reversi", ["you", "bot:1"])
    play_moves(page, 3)
    assert page.get_attribute("#movelog", "data-layout") == "sheet"
    rows = sheet(page)
    ply = int(page.evaluate("document.body.dataset.ply"))
    assert len(rows) == (ply + 1) // 2 >= 3
    for r, row in enumerate(rows):
        assert row["num"] == f"{r + 1}."
        black, white = row["cols"]
        assert [e["ply"] for e in black] == [2 * r]
        assert all(e["seat"] == 0 for e in black) and all(e["seat"] == 1 for e in white)
        # the square in the game's notation, not "● Black (CPU Level 1): c3"
        assert len(black[0]["text"]) == 2 and black[0]["text"][0] in "abcdefgh", row
        if white:
            assert len(white[0]["text"]) == 2, row
    # a screen reader hears the number and the side before the square
    said = page.eval_on_selector("#movelog li[data-ply='0'] button", "b => b.textContent")
    assert said.startswith("1. ") and said.endswith(rows[0]["cols"][0][0]["text"])
    assert ("Black" if locale == "en-US" else "黒") in said
    # one Tab stop: only the entry shown
    assert page.eval_on_selector_all("#movelog [tabindex='0']", "els => els.length") == 1
    if size == "phone":
        small = page.eval_on_selector_all(
            "#movelog button", "bs => bs.map(b => b.getBoundingClientRect())"
            ".filter(r => r.height < 43.5 || r.width < 43.5).length")
        assert small == 0
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("body[data-status=finished]")
    page.goto(f"{server.url}/replay?room={room}")
    page.wait_for_selector("body[data-status=loaded]")
    assert page.get_attribute("#movelog", "data-layout") == "sheet"
    assert [r["num"] for r in sheet(page)] == [r["num"] for r in rows]
    # the replay's list steps with the arrows where it has the focus
    page.focus("#movelog [aria-current='step']")
    last = int(page.evaluate("document.body.dataset.step"))
    page.keyboard.press("ArrowLeft")
    assert int(page.evaluate("document.body.dataset.step")) == last - 1
    assert page.evaluate(ACTIVE)["step"] == str(last - 1)
    page.keyboard.press("ArrowUp")
    assert int(page.evaluate("document.body.dataset.step")) == last - 3


@pytest.mark.parametrize(("game", "seats", "options"), TWO_SIDED[1:],
                         ids=[g[0] for g in TWO_SIDED[1:]])
def test_every_two_sided_game_lists_moves_as_a_score_sheet(
        pages: Any, server: Server, game: str, seats: list[str],
        options: dict[str, Any]) -> None:
    page = pages()
    new_game(page, server.url, game, seats, options)
    play_moves(page, 2)
    assert page.get_attribute("#movelog", "data-layout") == "sheet"
    rows = sheet(page)
    assert rows and rows[0]["num"] == "1."
    assert [r["num"] for r in rows] == [f"{i + 1}." for i in range(len(rows))]
    plies = [e["ply"] for row in rows for col in row["cols"] for e in col]
    assert sorted(plies) == list(range(int(page.evaluate("document.body.dataset.ply"))))
    for row in rows:
        for k, col in enumerate(row["cols"]):
            assert all(e["seat"] == k for e in col)
            # the move, not the seat's long name with the bot's level (Algo's moves reach
            # the page hidden: its entries are what the seat's own view says happened)
            assert all("CPU" not in e["text"] for e in col), row
            if game != "algo":
                assert all(": " not in e["text"] for e in col), row


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_three_players_get_a_compact_numbered_list(pages: Any, server: Server,
                                                   locale: str) -> None:
    page = pages(size="desktop", locale=locale)
    new_game(page, server.url, "memory_matrix", ["you", "bot:1", "bot:1"], {"players": 3})
    play_moves(page, 2)
    assert page.get_attribute("#movelog", "data-layout") == "compact"
    texts = page.eval_on_selector_all("#movelog li[data-ply] button",
                                      "bs => bs.map(b => b.innerText.trim())")
    assert len(texts) == int(page.evaluate("document.body.dataset.ply")) >= 4
    for i, text in enumerate(texts):
        assert text.startswith(f"{i + 1}. "), text
        assert "CPU" not in text and "レベル" not in text, text


def test_arrows_step_the_in_game_list_and_the_focus_follows(pages: Any,
                                                              server: Server) -> None:
    page = pages()
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    play_moves(page, 3)
    ply = int(page.evaluate("document.body.dataset.ply"))
    page.focus("#movelog [aria-current='step']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-stepping='{ply - 1}']")
    assert page.evaluate(ACTIVE)["step"] == str(ply - 1)
    page.keyboard.press("ArrowUp")  # a row up: the same side's move of the full move before
    page.wait_for_selector(f"body[data-stepping='{ply - 3}']")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-stepping='0']")
    assert page.evaluate(ACTIVE)["step"] == "0"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-stepping='1']")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("body[data-stepping='3']")
    page.keyboard.press("End")
    page.wait_for_function("() => document.body.dataset.stepping === ''")
    assert page.evaluate(ACTIVE)["step"] == str(ply)
    # a choice that hides its own button: the focus goes back to the list, not the body
    page.click("#movelog [data-step='2']")
    page.wait_for_selector("body[data-stepping='2']")
    page.click("#step-live")
    page.wait_for_function("() => document.body.dataset.stepping === ''")
    assert page.evaluate(ACTIVE)["step"] == str(ply)


def keyboard_move(page: Any) -> None:
    """Arrow over the board's cells to the first one with a move (or a pick) and press
    Enter; after a pick, on to a move the same way (a FlipFlop square, a pad's number)."""
    mine = page.evaluate("document.body.dataset.myMoves")
    pacer_for(page).wait()
    page.focus("#board [data-at]")
    key = "ArrowRight"
    seen = 0
    for _ in range(400):
        now = page.evaluate(ACTIVE)
        assert not now["body"]
        if now["move"]:
            page.keyboard.press("Enter")
            wait_my_move(page, mine)
            return
        if now["pick"] and not now["pressed"]:
            page.keyboard.press("Enter")
            continue
        page.keyboard.press(key)
        after = page.evaluate(ACTIVE)
        if after["at"] == now["at"]:  # the end of the board: back the other way
            key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
        seen += 1
    raise AssertionError("no move reached with the arrow keys")


@pytest.mark.parametrize(("game", "seats", "options"), BOARDS, ids=[g[0] for g in BOARDS])
def test_arrow_keys_move_a_cursor_and_enter_plays_on_every_board(
        pages: Any, server: Server, game: str, seats: list[str],
        options: dict[str, Any]) -> None:
    page = pages()
    new_game(page, server.url, game, seats, options)
    assert wait_turn(page) == "turn"
    # every cell of the cursor has a name (its coordinate and what is on it)
    names = page.eval_on_selector_all("#board [data-at]",
                                      "els => els.map(e => e.getAttribute('aria-label') || '')")
    assert len(names) >= 8 and "" not in names
    # Down goes to the line below, near the same column; Right along the reading order
    page.focus("#board [data-at]")
    start = page.evaluate(ACTIVE)["at"]
    page.keyboard.press("ArrowDown")
    down = page.evaluate(ACTIVE)["at"]
    (x0, y0), (x1, y1) = (map(int, a.split(",")) for a in (start, down))
    assert y1 > y0 and abs(x1 - x0) <= 40, (start, down)
    page.keyboard.press("ArrowUp")
    assert page.evaluate(ACTIVE)["at"] == start
    page.keyboard.press("ArrowRight")
    right = page.evaluate(ACTIVE)["at"]
    assert right != start and int(right.split(",")[1]) >= y0
    for n in range(2):
        keyboard_move(page)
        state = wait_turn(page)
        now = page.evaluate(ACTIVE)
        assert not now["body"] and now["board"], f"after move {n + 1} the focus left the board"
        if state != "turn":
            break


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_an_offer_that_hides_its_own_button_leaves_the_focus_in_the_page(
        pages: Any, server: Server, locale: str) -> None:
    page = pages(size="desktop", locale=locale)
    new_game(page, server.url, "reversi", ["you", "you"])  # a draw is offered between people
    assert wait_turn(page) == "turn"
    page.wait_for_selector("#draw:visible")
    page.focus("#draw")
    page.keyboard.press("Enter")
    page.wait_for_selector("#draw-wait")
    page.wait_for_selector("#draw", state="hidden")
    now = page.evaluate(ACTIVE)
    assert not now["body"] and now["board"], now
    # and a move played from the keyboard keeps it there
    keyboard_move(page)
    assert wait_turn(page) == "turn"
    assert page.evaluate(ACTIVE)["board"]
