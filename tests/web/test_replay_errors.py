"""Issue 14 item 6: on the replay page "a server error is shown as one, not blamed on the
record". Real servers, real Chromium, no mocked fetch: each server below runs with a time
budget of 0 for its replay or its review (``ASOBIBA_REPLAY_BUDGET`` /
``ASOBIBA_REVIEW_BUDGET``), so it really answers 503 ``busy``; a really broken record is
refused as a record (400 ``bad_record``) and only that is called unreplayable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import Server, open_context

pytestmark = pytest.mark.browser

SERVER_PROBLEM = {  # the table's "error.server", per language
    "en": "The server failed on this request — not your input's fault; try again later",
    "ja": "サーバー側でエラーが起きました（入力のせいではありません）",
}
NOT_REPLAYABLE = {"en": "This record cannot be replayed", "ja": "この棋譜は再生できません"}


@pytest.fixture(scope="module")
def record() -> str:
    from asobiba.core import RandomBot
    from asobiba.games import get
    from asobiba.play.runner import play_game

    return play_game(get("reversi"), [RandomBot(1), RandomBot(2)], {}, 5).record.dumps()


def start(tmp: pytest.TempPathFactory, name: str, env: dict[str, str]) -> Server:
    return Server(tmp.mktemp(name), env=env).start()


@pytest.fixture(scope="module")
def review_refused(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Replays as usual; every review is over its budget (0 s) before it starts."""
    srv = start(tmp_path_factory, "review0", {"ASOBIBA_REVIEW_BUDGET": "0"})
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def replay_refused(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Every replay is over its budget (0 s)."""
    srv = start(tmp_path_factory, "replay0", {"ASOBIBA_REPLAY_BUDGET": "0"})
    yield srv
    srv.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = open_context(browser, locale="en-US", viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    answers: list[tuple[str, int]] = []
    pg.on("response", lambda r: answers.append((r.url.split("/", 3)[-1], r.status)))
    pg.answers = answers  # what the server really said, to show the test saw a real 503
    yield pg
    context.close()
    assert not errors, errors


def upload(page: Any, tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    page.set_input_files("#file", str(path))


def test_issue14_a_busy_review_is_the_servers_problem_not_the_records(
        page: Any, review_refused: Server, record: str, tmp_path: Path) -> None:
    page.goto(review_refused.url + "/replay")
    upload(page, tmp_path, "game.json", record)
    page.wait_for_selector("body[data-status=loaded]")
    page.click("#review-btn")
    page.wait_for_selector("body[data-review=server-error]")
    assert ("api/review", 503) in page.answers
    said = page.inner_text("#review-status")
    assert SERVER_PROBLEM["en"] in said, said
    assert NOT_REPLAYABLE["en"] not in said and "invalid" not in said.lower()
    # the record stays loaded and can be stepped through: nothing was blamed on it
    assert page.evaluate("document.body.dataset.status") == "loaded"
    # the same in Japanese
    page.click("#lang")
    page.click("#review-btn")
    page.wait_for_function("() => document.getElementById('review-status').textContent"
                           f".includes({json.dumps(SERVER_PROBLEM['ja'])})")
    assert NOT_REPLAYABLE["ja"] not in page.inner_text("#review-status")


def test_issue14_a_busy_replay_is_the_servers_problem_not_the_records(
        page: Any, replay_refused: Server, record: str, tmp_path: Path) -> None:
    page.goto(replay_refused.url + "/replay")
    upload(page, tmp_path, "game.json", record)
    page.wait_for_selector("body[data-status=server-error]")
    assert ("api/replay", 503) in page.answers
    said = page.inner_text("#status")
    assert SERVER_PROBLEM["en"] in said, said
    assert NOT_REPLAYABLE["en"] not in said


def test_issue14_a_truly_invalid_record_is_called_one(
        page: Any, review_refused: Server, record: str, tmp_path: Path) -> None:
    """The same page, a server that replays fine: a record with a move that is not legal is
    refused as a record, and the page says so (not a server problem)."""
    data = json.loads(record)
    data["moves"][1]["move"] = "a1"  # never legal as Reversi's second move
    page.goto(review_refused.url + "/replay")
    upload(page, tmp_path, "bad.json", json.dumps(data))
    page.wait_for_selector("body[data-status=error]")
    assert ("api/replay", 400) in page.answers
    said = page.inner_text("#status")
    assert NOT_REPLAYABLE["en"] in said, said
    assert SERVER_PROBLEM["en"] not in said
    page.goto(review_refused.url + "/replay")
    upload(page, tmp_path, "not-json.json", "{ this is not a record")
    page.wait_for_selector("body[data-status=error]")
    said = page.inner_text("#status")
    assert NOT_REPLAYABLE["en"] in said and SERVER_PROBLEM["en"] not in said, said


def test_issue14_an_unreachable_server_is_not_blamed_on_the_record(
        page: Any, tmp_path_factory: pytest.TempPathFactory, record: str,
        tmp_path: Path) -> None:
    """The server goes away after the record is loaded (killed like a crash): the review's
    request fails in the browser itself. The page said "This record cannot be replayed:
    Failed to fetch"; it now says the server could not be reached."""
    srv = start(tmp_path_factory, "gone", {})
    try:
        page.goto(srv.url + "/replay")
        upload(page, tmp_path, "game.json", record)
        page.wait_for_selector("body[data-status=loaded]")
        srv.stop()
        page.click("#review-btn")
        page.wait_for_selector("body[data-review=server-error]")
        said = page.inner_text("#review-status")
        assert "could not be reached" in said and NOT_REPLAYABLE["en"] not in said, said
    finally:
        srv.stop()
