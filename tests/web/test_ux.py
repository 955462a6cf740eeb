"""Issue 15 in a real browser (Debian's Chromium through Playwright): what stood in a new
player's way, each checked where it happened — desktop 1280×900 and a phone 390×844 —
and the table features added for it (rules panel, highlighted targets, the move list with
stepping, kept keyboard focus, names in the page's language)."""

from __future__ import annotations

from typing import Any

import pytest

from .browser import PHONE, Server, click_a_move, every_game, new_game, wait_turn

pytestmark = pytest.mark.browser


# game, seats, lobby options: one game page of each renderer
GAMES = every_game([
    ("reversi", ["you", "bot:1"], {}),
    ("flipflop", ["you", "bot:1"], {}),
    ("reverstargo", ["you", "bot:entry"], {}),
    ("memory_matrix", ["you", "bot:1"], {"players": 2}),
    ("algo", ["you", "bot:1"], {}),
    ("patapata", ["you", "bot:greedy"], {"players": 2}),
])  # and every other registered game (plug-ins: tests/conftest.py)
IDS = [g[0] for g in GAMES]

# every control on a board a finger may press
BOARD_CONTROLS = ("#board [data-move], #board [data-attack], #board [data-pick], "
                  "#board [data-from], #board [data-write], #board button")




COVERED = """() => [...document.querySelectorAll('a[data-link]')].map(a => {
  a.scrollIntoView({block: 'center'});
  const r = a.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return [a.dataset.link, !!hit && (hit === a || a.contains(hit))];
}).filter(([, ok]) => !ok).map(([name]) => name)"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_issue15_every_lobby_link_can_be_clicked_at_its_centre(
        pages: Any, server: Server, size: str) -> None:
    page = pages(size=size)
    page.goto(server.url)
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("a[data-link]").count() >= 24  # 4 a game, and more may come
    assert page.evaluate(COVERED) == [], "links covered by the next row of game cards"
    # and a click lands where it should: the tutorial of Reversi, not another game's form
    page.click("a[data-link=tutorial-reversi]")
    page.wait_for_url("**/tutorial/reversi")


# measured against the phone's own 390 px: a mobile browser widens its layout viewport to
# content that overflows (innerWidth grows with it), so innerWidth alone would hide the fault
NO_SIDEWAYS = """(screen) => {
  const wide = [...document.querySelectorAll('body *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width && r.right > screen + 0.5;
  }).map(e => e.id || e.className.baseVal || e.className || e.tagName);
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, wide};
}"""


def assert_fits_the_phone(page: Any) -> None:
    width = PHONE["viewport"]["width"]
    got = page.evaluate(NO_SIDEWAYS, width)
    assert got["scroll"] <= width and got["inner"] <= width, got
    assert got["wide"] == [], got


def test_issue15_phone_lobby_form_fits_and_create_is_tappable(pages: Any, server: Server) -> None:
    page = pages(size="phone")
    page.goto(f"{server.url}/?game=reversi")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#match-row:not([hidden])")  # two seats taking turns: a set
    assert_fits_the_phone(page)
    assert page.evaluate("""() => {
      const b = document.getElementById('create-btn');
      b.scrollIntoView({block: 'center'});
      const r = b.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b;
    }""")


SIZES_OF = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect();
    return [e.getAttribute('aria-label') || e.textContent.trim(), r.width, r.height]; })"""


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=IDS)
def test_issue15_phone_game_page_fits_and_every_board_control_is_finger_sized(
        pages: Any, server: Server, game: str, seats: list[str],
        options: dict[str, Any]) -> None:
    page = pages(size="phone")
    new_game(page, server.url, game, seats, options)
    assert wait_turn(page) == "turn"
    assert_fits_the_phone(page)
    controls = page.evaluate(SIZES_OF, BOARD_CONTROLS)
    assert controls, "the board offers something to press"
    small = [c for c in controls if c[1] < 44 or c[2] < 44]
    assert small == [], small
    listed = page.evaluate(SIZES_OF, "#legal button")
    assert [c for c in listed if c[1] < 44 or c[2] < 44] == []
    # a two-step target opens a pad of finger-sized buttons (Algo's numbers, the CP call)
    pick = page.locator("#board [data-attack], #board [data-pick]")
    if pick.count():
        pick.first.click()
        page.wait_for_selector("#board .move-pad [data-move]")
        pad = page.evaluate(SIZES_OF, "#board .move-pad [data-move]")
        assert pad and [c for c in pad if c[1] < 44 or c[2] < 44] == []
        assert_fits_the_phone(page)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=IDS)
def test_issue15_every_game_page_has_rules_a_legend_and_the_tutorial(
        pages: Any, server: Server, game: str, seats: list[str], options: dict[str, Any],
        locale: str) -> None:
    page = pages(size="desktop", locale=locale)
    new_game(page, server.url, game, seats, options)
    wait_turn(page)
    rules = page.locator(f"[data-rules={game}] li")
    legend = page.locator(f"[data-legend={game}] li")
    assert rules.count() >= 3
    assert legend.count() >= 4, "a legend of the marks the board draws"
    assert page.locator(f"[data-legend={game}] li svg").count() == legend.count()
    text = page.inner_text("#rules-panel")
    if locale == "ja-JP":
        assert any("\u3040" <= ch <= "\u30ff" for ch in text), "the rules in Japanese"
    assert page.get_attribute("#rules-tutorial", "href") == f"/tutorial/{game}"


def test_issue15_patapata_actions_never_list_a_solution_and_a_hint_leaves_a_marker(
        pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "patapata", ["you", "bot:greedy"], {"players": 2})
    assert wait_turn(page) == "turn"
    listed = page.eval_on_selector_all("#legal [data-move]", "els => els.map(e => e.dataset.move)")
    assert "pass" in listed
    assert [m for m in listed if m.startswith("clear ")] == [], "no complete solutions"
    # person-actions are on the table: flaps (switch), turning, writing on visible blanks
    assert page.locator("#board [data-move^='switch ']").count() == 8
    assert page.locator("#board [data-move^='rotate ']").count() == 3
    assert page.locator("#board [data-write]").count() > 0
    assert page.inner_text("#hints-used").endswith("0")
    page.click("#hint")
    assert page.inner_text("#hint-text"), "the hint is shown"
    page.wait_for_function("() => document.getElementById('hints-used').dataset.hints === '1'")
    # the marker is the table's: a spectator sees it in the notes
    watcher = pages()
    watcher.goto(page.url)
    watcher.wait_for_selector("body[data-connected=true]")
    assert "took a hint" in watcher.inner_text("#notes")
    page.reload()
    page.wait_for_selector("body[data-connected=true]")
    wait_turn(page)
    assert page.inner_text("#hints-used").endswith("1"), "the marker stays"


def test_issue15_flipflop_marks_movable_pieces_and_their_squares(
        pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "flipflop", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    legal = page.evaluate("() => [...document.querySelectorAll('#legal [data-move]')]"
                          ".map(e => e.dataset.move)")
    froms = {m[1:3] for m in legal}
    movable = set(page.eval_on_selector_all(".piece.movable", "els => els.map(e => e.dataset.square)"))
    assert movable == froms
    assert page.locator(".piece.movable .ring").count() == len(froms)
    first = sorted(froms)[0]
    page.click(f"[data-from={first}]")
    dests = page.eval_on_selector_all("#board [data-move]", "els => els.map(e => e.dataset.move)")
    assert sorted(dests) == sorted(m for m in legal if m[1:3] == first)


def test_issue15_algo_guessable_cards_are_highlighted_and_not_listed(
        pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "algo", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    guessable = page.locator("#board .card.guessable")
    assert guessable.count() > 0
    assert page.locator("#board .card.down:not(.guessable)[data-owner='0']").count() > 0, \
        "own cards are not highlighted"
    listed = page.eval_on_selector_all("#legal [data-move]", "els => els.map(e => e.dataset.move)")
    assert not [m for m in listed if m.startswith("attack")], "100+ guess buttons are gone"
    stroke = page.evaluate("() => getComputedStyle(document.querySelector("
                           "'#board .card.guessable .face')).strokeDasharray")
    assert stroke not in ("", "none"), "a visible mark on a guessable card"
    guessable.first.click()
    pad = page.locator("#board .move-pad [data-move]")
    assert pad.count() >= 2
    assert all(m.startswith("attack ") for m in pad.evaluate_all("els => els.map(e => e.dataset.move)"))


def test_issue15_memory_matrix_move_log_steps_back_and_forth(pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "memory_matrix", ["you", "bot:1"], {"players": 2})
    for _ in range(2):
        assert wait_turn(page) == "turn"
        click_a_move(page)
    assert wait_turn(page) == "turn"
    ply = int(page.evaluate("document.body.dataset.ply"))
    steps = page.locator("#movelog [data-step]")
    assert steps.count() == ply + 1
    texts = steps.all_inner_texts()
    assert all("flipped" in t for t in texts[1:]), texts  # each move with its cell and flips
    before = page.eval_on_selector_all("#board [data-piece]", "els => els.length")
    page.click("#movelog [data-step='1']")
    page.wait_for_selector("body[data-stepping='1']")
    assert page.locator("#stepping").is_visible()
    assert page.locator("#board [data-move], #board [data-pick]").count() == 0, \
        "no moves from a past position"
    assert page.eval_on_selector_all("#board [data-piece]", "els => els.length") < before
    page.click("#step-forward")
    page.wait_for_selector("body[data-stepping='2']")
    page.click("#step-live")
    page.wait_for_function("() => document.body.dataset.stepping === ''")
    assert page.locator("#board [data-move], #board [data-pick]").count() > 0, \
        "back in the game, moves again"


def test_issue15_keyboard_play_keeps_the_focus_on_the_board(pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    page.focus("#board [data-move]")
    for n in range(3):
        mine = page.evaluate("document.body.dataset.myMoves")
        focused = page.evaluate("() => document.activeElement.getAttribute('data-move')")
        assert focused, f"before move {n + 1} a target has the focus"
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.body.dataset.myMoves !== '{mine}'")
        assert wait_turn(page) == "turn"
        where = page.evaluate("() => document.activeElement.closest('#board') !== null")
        assert where, f"after move {n + 1} the focus left the board"
        page.keyboard.press("Tab")  # to the next target: the focus moves within the board
        page.keyboard.press("Shift+Tab")
    ring = page.evaluate("() => getComputedStyle(document.activeElement.querySelector('.hit'))"
                         ".strokeWidth")
    assert float(ring.replace("px", "")) >= 4, "a thick, visible focus ring"


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=IDS)
def test_issue15_pieces_and_squares_have_names_in_japanese(
        pages: Any, server: Server, game: str, seats: list[str],
        options: dict[str, Any]) -> None:
    page = pages(size="desktop", locale="ja-JP")
    new_game(page, server.url, game, seats, options)
    wait_turn(page)
    names = page.eval_on_selector_all(
        "#board [role=img], #board [role=button], #board svg[role=group]",
        "els => els.map(e => e.getAttribute('aria-label') || '')")
    assert len(names) >= 9
    assert "" not in names, "every piece, square and target has a name"
    english = [n for n in names if any(w in n for w in ("board", "empty", "disc", "Place",
                                                         "card", "blank", "Guess", "stone"))]
    assert english == [], english


def test_issue15_japanese_lobby_values_and_casual_only_offers_undo_where_it_exists(
        pages: Any, server: Server) -> None:
    page = pages(size="desktop", locale="ja-JP")
    page.goto(f"{server.url}/?game=memory_matrix")
    page.wait_for_selector("body[data-ready=true]")
    shapes = page.eval_on_selector_all("[data-option=shape] option", "els => els.map(e => e.textContent)")
    assert "十字" in shapes and "cross" not in shapes
    layouts = page.eval_on_selector_all("[data-option=layout] option", "els => els.map(e => e.textContent)")
    assert "風車" in layouts and "windmill" not in layouts
    assert "待った" not in page.inner_text("#casual-label"), "Memory Matrix has no undo"
    page.goto(f"{server.url}/?game=reversi")
    page.wait_for_selector("body[data-ready=true]")
    assert "待った" in page.inner_text("#casual-label")


def test_issue15_a_resigned_reversi_game_shows_the_discs(pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    click_a_move(page)
    assert wait_turn(page) == "turn"
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("body[data-status=finished]")
    table = page.locator("#result dl.score")
    assert table.get_attribute("data-from") == "view"
    values = table.locator("dd").all_inner_texts()
    discs = page.evaluate("() => document.querySelectorAll('#board [data-disc]').length")
    assert sum(int(v) for v in values) == discs, (values, discs)
    # the text exports beside the JSON record: Reversi's transcript of squares, and the
    # numbered text every game has
    page.wait_for_selector("#notation [data-format=transcript]")
    with page.expect_download() as got:
        page.click("#notation [data-format=transcript]")
    text = open(got.value.path(), encoding="utf-8").read()
    moves = page.evaluate("() => [...document.querySelectorAll('#movelog [data-ply]')]"
                          ".map(li => li.textContent.split(': ').pop())")
    assert text.strip() == "".join(m for m in moves if m != "Pass"), (text, moves)
    with page.expect_download() as got:
        page.click("#notation [data-format=text]")
    assert '[Game "reversi"]' in open(got.value.path(), encoding="utf-8").read()


def test_issue15_abort_before_every_seat_has_moved(pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "flipflop", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    assert page.locator("#abort").is_visible()
    page.on("dialog", lambda d: d.accept())
    page.click("#abort")
    page.wait_for_selector("body[data-status=finished]")
    assert "aborted" in page.inner_text("#result")
    assert page.locator("#abort").is_hidden()


def test_issue15_sound_is_off_until_chosen_then_plays_on_moves(
        pages: Any, server: Server) -> None:
    page = pages()
    new_game(page, server.url, "reversi", ["you", "bot:1"])
    assert wait_turn(page) == "turn"
    click_a_move(page)
    assert wait_turn(page) == "turn"
    assert page.evaluate("document.body.dataset.lastSound") is None, "silent by default"
    page.check("#sound")
    page.evaluate("() => { delete document.body.dataset.lastSound; }")
    click_a_move(page)  # my move, then the CPU's reply: tones made with WebAudio
    page.wait_for_function("() => !!document.body.dataset.lastSound")
    page.reload()
    page.wait_for_selector("body[data-connected=true]")
    assert page.is_checked("#sound"), "the choice is remembered"


def test_issue15_a_draw_offered_in_one_browser_is_accepted_in_the_other(
        pages: Any, server: Server) -> None:
    a = pages()
    new_game(a, server.url, "reversi", ["you", "friend"])
    link = a.locator("#invite-list input").first.input_value()
    b = pages()
    b.goto(link)
    b.wait_for_selector("body[data-connected=true][data-seat='1']")
    assert a.locator("#draw").is_visible() and b.locator("#draw").is_visible()
    a.click("#draw")
    a.wait_for_selector("#draw-wait")
    b.wait_for_selector("#draw-accept")
    b.click("#draw-accept")
    for p in (a, b):
        p.wait_for_selector("body[data-status=finished]")
        assert "Drawn by agreement" in p.inner_text("#result")


def test_issue15_the_algo_tutorial_highlights_the_cards_it_asks_to_click(
        pages: Any, server: Server) -> None:
    page = pages()
    page.goto(f"{server.url}/tutorial/algo")
    page.wait_for_selector("body[data-ready=true]")
    steps = page.locator("#steps [data-step]")
    highlighted = 0
    for i in range(steps.count()):
        steps.nth(i).click()
        page.wait_for_function(f"() => document.body.dataset.stepIndex === '{i}'")
        if "highlighted" in page.inner_text("#message"):
            clickable = page.locator("#board .guessable, #board [data-move], #legal [data-move]")
            assert clickable.count() > 0, f"step {i + 1} asks for a highlighted place"
            highlighted += page.locator("#board .guessable").count()
    assert highlighted > 0, "some step asks to guess a card, and the cards are marked"


@pytest.mark.parametrize("path", ["/replay", "/account", "/tutorial/reverstargo",
                                  "/tutorial/algo", "/daily/reversi", "/ladder/flipflop",
                                  "/leaderboard/memory_matrix"])
def test_issue15_every_other_page_fits_a_phone(pages: Any, server: Server, path: str) -> None:
    page = pages(size="phone")
    page.goto(server.url + path)
    if path == "/replay":  # the replay viewer waits for a record; its page is drawn
        page.wait_for_selector("#lang", state="attached")
    else:
        page.wait_for_function("() => document.body.dataset.ready !== undefined && "
                               "document.body.dataset.ready !== 'false'")
    page.wait_for_timeout(300)
    assert_fits_the_phone(page)


def test_issue15_claim_button_when_the_other_person_is_away(pages: Any, server: Server) -> None:
    """Since issue 26 a claim needs an opponent who joined and left (a friend who never came
    cannot be claimed against: the game is aborted instead). The countdown after a friend
    left is tested in test_room_flows_browser.py; here: no claim against a no-show."""
    page = pages()
    new_game(page, server.url, "reversi", ["you", "friend"])  # the friend never comes
    page.wait_for_timeout(1500)  # several presence updates
    assert page.locator("#claim:not([hidden])").count() == 0
    assert page.evaluate("document.body.dataset.status") == "active", "nothing changed"
