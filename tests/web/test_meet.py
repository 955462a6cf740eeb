"""Issue 15 item 5, meet and watch, with two browser contexts (two people): an open game
appears in the other lobby without a reload, taking it seats both at one table, quick
pairing matches two people, and the live game is listed for anyone to watch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.server.lobby import Seek, SeekBoard
from asobiba.server.rooms import ClientError

from .browser import Server, open_context

pytestmark = pytest.mark.browser


@pytest.fixture
def people(browser: Any) -> Iterator[Any]:
    contexts: list[Any] = []
    errors: list[str] = []

    def person() -> Any:
        ctx = open_context(browser, locale="en-US", viewport={"width": 1280, "height": 900})
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield person
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


def lobby(page: Any, base: str, game: str | None = None) -> None:
    page.goto(f"{base}/" + (f"?game={game}" if game else ""))
    page.wait_for_selector("body[data-ready=true][data-seeks]")


def test_issue15_an_open_game_is_pushed_to_other_lobbies_and_taken(
        people: Any, server: Server) -> None:
    a, b, c = people(), people(), people()
    lobby(c, server.url)  # a third person's lobby is open all along: nothing is reloaded
    lobby(b, server.url)
    lobby(a, server.url, "flipflop")
    a.wait_for_selector("#seek-btn:not([hidden])")
    a.click("#seek-btn")
    # B's lobby hears of it over the WebSocket (no reload)
    b.wait_for_selector("#seek-list [data-take]")
    assert "FlipFlop" in b.inner_text("#seek-list")
    a.wait_for_selector("#seek-list [data-cancel]")  # A sees it as their own: Cancel
    assert a.locator("#seek-list [data-take]").count() == 0
    b.click("#seek-list [data-take]")
    b.wait_for_url("**/r/*")
    a.wait_for_url("**/r/*")  # the opener is taken to the table with their own key
    assert a.url == b.url
    for p in (a, b):
        p.wait_for_selector("body[data-connected=true]")
        p.wait_for_function("() => document.body.dataset.seat !== undefined && "
                            "document.body.dataset.seat !== ''")
    seats = {a.evaluate("document.body.dataset.seat"), b.evaluate("document.body.dataset.seat")}
    assert seats == {"0", "1"}, "one seat each"
    # the third lobby hears of the live game over its WebSocket and can watch it
    room = a.url.rsplit("/", 1)[1]
    c.wait_for_selector(f"#live-list [data-watch='{room}']")
    assert c.locator("#seek-list [data-take]").count() == 0, "the taken seek is gone"
    c.click(f"#live-list [data-watch='{room}']")
    c.wait_for_selector("body[data-connected=true]")
    assert "watching" in c.inner_text("#status")


def test_issue15_quick_pairing_pairs_two_people(people: Any, server: Server) -> None:
    a, b = people(), people()
    lobby(a, server.url)
    lobby(b, server.url)
    a.select_option("#quick-game", "reversi")
    a.click("#quick-btn")
    b.wait_for_selector("#seek-list [data-take]")
    b.select_option("#quick-game", "reversi")
    b.click("#quick-btn")
    b.wait_for_url("**/r/*")
    a.wait_for_url("**/r/*")
    assert a.url == b.url


def seek(i: str, game: str, rating: float, token_hash: str = "x") -> Seek:
    return Seek(i, game, {}, True, None, "", rating, token_hash)


def test_rule_quick_pairing_takes_the_nearest_rating_of_the_same_game() -> None:
    import asyncio

    async def scenario() -> None:
        board = SeekBoard()
        await board.add(seek("far", "reversi", 1900))
        await board.add(seek("near", "reversi", 1560))
        await board.add(seek("other", "flipflop", 1500))
        got = await board.closest("reversi", 1500, None)  # found and taken
        assert got is not None and got.id == "near"
        assert await board.closest("algo", 1500, None) is None
        with pytest.raises(ClientError) as err:
            await board.take("near", None)
        assert err.value.code == "no_seek", "a seek is taken once"
        assert [s.id for s in await board.all()] == ["far", "other"]

    # in a thread of its own: this module's browser fixture keeps an event loop running here
    import threading

    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as exc:  # noqa: BLE001 - re-raised below, in the test
            failures.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failures:
        raise failures[0]


def test_rule_open_games_count_against_the_room_creation_limit(tmp_path: Any) -> None:
    from asobiba.server.limits import RULES

    from .helpers import make_client

    with make_client(tmp_path) as client:
        # these seeks have no lobby page: no withdrawal however slow the machine (issue 26)
        client.app.state.lobby.grace = float("inf")  # type: ignore[attr-defined]
        allowed = RULES["room"].tries
        for _ in range(allowed):
            res = client.post("/api/seeks", json={"game": "reversi"})
            assert res.status_code == 201, res.text
        res = client.post("/api/seeks", json={"game": "reversi"})
        assert res.status_code == 429 and res.json()["error"]["code"] == "too_many"
        assert len(client.get("/api/seeks").json()["seeks"]) == allowed, "nothing added"


def test_rule_a_bad_seek_is_refused_and_changes_nothing(tmp_path: Any) -> None:
    from .helpers import make_client

    with make_client(tmp_path) as client:
        for body, code in (({"game": "nosuch"}, "unknown_game"),
                           ({"game": "patapata"}, "bad_seek"),
                           ({"game": "reversi", "options": {"nope": 1}}, "bad_options"),
                           ({"game": "reversi", "clock": {"initial": -5}}, "bad_clock")):
            res = client.post("/api/seeks", json=body)
            assert res.status_code == 400 and res.json()["error"]["code"] == code, res.text
        assert client.get("/api/seeks").json()["seeks"] == []
        res = client.post("/api/seeks/nosuch/accept", json={})
        assert res.status_code == 400 and res.json()["error"]["code"] == "no_seek"
