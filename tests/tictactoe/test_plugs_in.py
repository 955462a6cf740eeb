"""docs/architecture.md "Adding a game", proved: the tic-tac-toe package in this folder is
registered by the test (never shipped) and then works in the CLI, the server (a room played
over HTTP + WebSocket), progression (tutorial, feedback, ladder, daily) and a real browser,
with no edit to anything outside this folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from asobiba import games

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = "tictactoe=tests.tictactoe"


@pytest.fixture
def registered() -> Iterator[None]:
    games.register("tictactoe", "tests.tictactoe")
    try:
        yield
    finally:
        games.unregister("tictactoe")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ASOBIBA_GAMES": PLUGIN}
    return subprocess.run([sys.executable, "-c", "from asobiba.cli.main import main; main()",
                           *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_cli_lists_describes_and_replays_the_plugged_in_game() -> None:
    listed = _cli("games", "--json")
    assert listed.returncode == 0, listed.stderr
    ids = [g["id"] for g in json.loads(listed.stdout)]
    assert ids[-1] == "tictactoe" and "reversi" in ids
    replay = _cli("replay", "tictactoe", "b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1",
                  "c1", "--json")
    assert replay.returncode == 0, replay.stderr
    final = json.loads(replay.stdout)
    assert final["state"]["over"] is True and final["outcome"]["draw"] is True
    assert final["state"]["board"] == ["OXX", "XXO", "OOX"]
    bad = _cli("replay", "tictactoe", "b2", "b2")
    assert bad.returncode != 0 and "already taken" in (bad.stdout + bad.stderr)
    own = _cli("tictactoe", "lines")  # the game's own cli.py, as `asobiba tictactoe ...`
    assert own.returncode == 0, own.stderr
    assert own.stdout.splitlines()[0] == "a1 b1 c1" and len(own.stdout.splitlines()) == 8


def test_without_registration_the_game_does_not_exist() -> None:
    with pytest.raises(games.UnknownGameError):
        games.get("tictactoe")


def test_server_plays_a_room_over_http_and_websocket(registered: None, tmp_path: Any) -> None:
    from tests.web.helpers import create_room, is_update, make_client, my_view
    from tests.web.test_server import join, play_to_end

    with make_client(tmp_path) as client:
        listed = client.get("/api/games").json()["games"]
        assert any(g["id"] == "tictactoe" and g["title"]["ja"] == "三目並べ" for g in listed)
        room = create_room(client, "tictactoe", [{"kind": "human"},
                                                 {"kind": "bot", "level": "perfect"}])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            first = join(ws, room["keys"])
            assert my_view(first)["board"] == ["...", "...", "..."]
            final = play_to_end(ws, first)
            assert is_update(final) and final["room"]["status"] == "finished"
            # a perfect player never loses: with our first-legal-move play it wins
            assert final["room"]["result"]["winners"] == [1]
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["game"] == "tictactoe" and record["moves"]


def test_progression_hooks_plug_in(registered: None) -> None:
    from asobiba.progression import daily, feedback, ladder_data, tutorials

    assert "tictactoe" in tutorials.games_with_tutorials()
    step = tutorials.tutorial("tictactoe").step("line")
    assert step.attempt("c3").done and not step.attempt("c1").done
    assert "already taken" in step.attempt("a3").message.en
    review = feedback.review("tictactoe", [(0, "b2"), (1, "b1"), (0, "a1"), (1, "c3")])
    qualities = [m.quality for m in review.moves]
    assert qualities[1] == "blunder", "b1 after b2 loses against perfect play (edge reply)"
    game = games.get("tictactoe")
    assert ladder_data.has_ladder(game)
    assert ladder_data.tier_levels(game)[0] == "random"
    assert ladder_data.tier_levels(game)[-1] == "perfect"
    ch = daily.challenge("tictactoe", date(2026, 12, 1))
    assert ch.kind == "opponent" and len(ch.opening) <= 1
    assert ch.public_json()["view"]["game"] == "tictactoe"


@pytest.mark.browser
def test_browser_plays_the_game_it_has_no_renderer_for(tmp_path: Any) -> None:
    from playwright.sync_api import sync_playwright

    from tests.web.browser import Server, click_listed, launch, new_game, open_context, wait_turn

    # the server process gets it; the suite's own plug-ins (tests/conftest.py) stay
    # registered for the servers of the tests that come after this one in this process
    server = Server(tmp_path, env={"ASOBIBA_GAMES": ",".join(
        e for e in (os.environ.get("ASOBIBA_GAMES", ""), PLUGIN) if e)}).start()
    errors: list[str] = []
    try:
        with sync_playwright() as p:
            browser = launch(p)
            try:
                context = open_context(browser, locale="en-US")
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                new_game(page, server.url, "tictactoe", ["you", "bot:random"])
                assert "..." in page.locator("#board").inner_text(), "the generic renderer"
                for _ in range(9):
                    if wait_turn(page) == "finished":
                        break
                    click_listed(page)
                assert wait_turn(page) == "finished"
                context.close()
            finally:
                browser.close()
    finally:
        server.stop()
    assert not errors, errors


def test_conformance_random_games_and_record_roundtrip(registered: None) -> None:
    """Checklist item 9: the conformance checks every shipped game runs, on the plug-in."""
    from tests.conformance import check_random_games

    check_random_games("tictactoe", [{}], games=6)


def test_rule_three_in_a_row_wins_and_a_full_board_draws(registered: None) -> None:
    game = games.get("tictactoe")
    won = game.replay(["a1", "a2", "b1", "b2", "c1"])[-1]
    assert won.outcome is not None and won.outcome.winners == (0,)
    assert won.outcome.reason == "three in a row"
    drawn = game.replay(["b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"])[-1]
    assert drawn.outcome is not None and drawn.outcome.is_draw
