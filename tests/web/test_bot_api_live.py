"""The Bot API end to end (issue 30 item 5; docs/bot-api.md), with real processes: an
``asobiba serve`` process (SQLite), the reference client ``asobiba connect`` running the
tiny engine (tests/web/fixtures/tiny_engine.py, which plays the first legal move it is given)
as a separate program — against the server's CPU to the end, against a person on a
WebSocket, and in an Algo game where everything the engine was shown is checked to be
exactly its seat's view."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from asobiba.core import Record
from asobiba.games import get
from asobiba.server.services import RedisServer

from .scale_helpers import ROOT, WAIT, Client, Web, eventually, free_port, web_pair

ENGINE = Path(__file__).parent / "fixtures" / "tiny_engine.py"
PASSWORD = "correct horse battery 9"


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Web]:
    tmp = tmp_path_factory.mktemp("botapi")
    server = Web(f"sqlite:///{tmp / 'asobiba.db'}", None, tmp / "web.log",
                 port=free_port()).start()
    try:
        yield server
    finally:
        server.stop()


def bot_account(web: Web | str, name: str) -> tuple[httpx2.Client, str]:
    """A registered account upgraded to BOT, and a bot:play token of it."""
    c = httpx2.Client(base_url=web if isinstance(web, str) else web.http, timeout=WAIT)
    assert c.post("/api/account/register", json={"name": name, "password": PASSWORD}
                  ).status_code == 201
    up = c.post("/api/bot/account/upgrade")
    assert up.status_code == 200, up.text
    made = c.post("/api/account/tokens", json={"label": "test"})
    assert made.status_code == 201, made.text
    return c, str(made.json()["token"])


def connect(web: Web | str, token: str, tmp: Path, *args: str,
            log: Path | None = None) -> subprocess.Popen[str]:
    """``asobiba connect`` with the tiny engine, for one game, at ``web`` (or a URL)."""
    env = {"PYTHONUNBUFFERED": "1"}
    if log is not None:
        env["TINY_ENGINE_LOG"] = str(log)
    import os

    return subprocess.Popen(
        [sys.executable, "-m", "asobiba.cli.main", "connect", "--token", token,
         "--engine", f"{sys.executable} {ENGINE}", "--server",
         web if isinstance(web, str) else web.http, "--games", "1",
         *args], cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)


def finish(proc: subprocess.Popen[str]) -> str:
    try:
        out, _ = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError(f"asobiba connect did not finish its game:\n{out}") from None
    assert proc.returncode == 0, out
    return out


def room_of(out: str) -> str:
    for line in out.splitlines():
        if "room " in line and "challenged the CPU" in line:
            return line.rsplit(" ", 1)[1]
    raise AssertionError(f"no room in the client's output:\n{out}")


def play_as_person(web: Web, ch: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 of the challenge's room, played by a WebSocket client (its first legal move
    each turn) until the game ends; the last update. The bot must have moved in it."""
    c = Client(web, ch["room"], [{"seat": 0, "key": ch["key"]}])
    try:
        c.wait_ply(0)
        assert c.last is not None
        while c.last["room"]["status"] == "active":
            legal = c.legal(0)
            if legal:
                reply = c.request({"type": "move", "seat": 0, "move": legal[0],
                                   "ply": c.ply()})
                assert reply["type"] == "ack" or reply.get("code") == "stale", reply
            else:  # the bot's turn: its move comes in an update
                c.until(lambda m: m.get("type") == "update")
        assert c.last["room"]["status"] == "finished"
        assert any(m[0] == 1 for m in c.last["room"]["moves"])  # the bot played
        return c.last
    finally:
        c.close()


def test_a_bot_plays_the_server_cpu_to_the_end_through_asobiba_connect(
        web: Web, tmp_path: Path) -> None:
    _, token = bot_account(web, "tinybot1")
    log = tmp_path / "engine.log"
    out = finish(connect(web, token, tmp_path, "--ai", "reversi", "--level", "1", log=log))
    room = room_of(out)
    info = httpx2.get(f"{web.http}/api/rooms/{room}", timeout=WAIT).json()
    assert info["status"] == "finished" and info["result"] is not None
    assert info["casual"] is True
    assert info["seats"][0]["name"] == "BOT tinybot1" and info["seats"][1]["kind"] == "bot"
    ours = [m for m in info["moves"] if m[0] == 0]
    assert len(ours) >= 2  # the engine's moves were played for its seat
    lines = log.read_text().splitlines()
    assert lines[0].startswith(f"game {room} reversi 0 ")
    # every move the engine chose is the first legal move it was given, as played
    record = Record.loads(httpx2.get(f"{web.http}/api/rooms/{room}/record",
                                     timeout=WAIT).text)
    given = [json.loads(line[6:])[0] for line in lines if line.startswith("legal ")]
    assert [m.move for m in record.moves if m.seat == 0] == given


def test_a_person_plays_a_bot_it_challenged(web: Web, tmp_path: Path) -> None:
    account, token = bot_account(web, "tinybot2")
    proc = connect(web, token, tmp_path)
    try:
        person = httpx2.Client(base_url=web.http, timeout=WAIT)
        assert person.post("/api/account/register", json={
            "name": "hanako", "password": PASSWORD}).status_code == 201
        made = person.post("/api/challenge/tinybot2", json={"game": "reversi", "seat": 0})
        assert made.status_code == 201, made.text
        ch = made.json()
        eventually(lambda: person.get(f"/api/challenge/{ch['challenge']}/status").json()
                   ["status"] == "accepted", "the bot accepts the challenge")
        update = play_as_person(web, ch)
        names = [s["name"] for s in update["room"]["seats"]]
        assert names == ["hanako", "BOT tinybot2"]
        finish(proc)
        # the BOT account is marked on its player page
        me = account.get("/api/account").json()["player"]
        page = httpx2.get(f"{web.http}/api/players/{me['id']}", timeout=WAIT).json()
        assert page["title"] == "BOT"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_the_engine_is_shown_exactly_its_seats_view_in_algo(web: Web, tmp_path: Path
                                                           ) -> None:
    """Hidden information: every view the engine received equals ``view(seat)`` of a
    position of the game, and the legal moves given are that view's; the other seat's
    face-down numbers (in its own view) are never in what the engine got."""
    _, token = bot_account(web, "tinybot3")
    log = tmp_path / "engine.log"
    out = finish(connect(web, token, tmp_path, "--ai", "algo", "--level", "1", log=log))
    room = room_of(out)
    record = Record.loads(httpx2.get(f"{web.http}/api/rooms/{room}/record",
                                     timeout=WAIT).text)
    states = record.replay(get)
    mine = [s.view(0) for s in states]
    theirs = [s.view(1) for s in states]
    shown: list[dict[str, Any]] = []
    legal: list[list[str]] = []
    for line in log.read_text().splitlines():
        word, _, rest = line.partition(" ")
        if word == "view":
            shown.append(json.loads(rest))
        elif word == "legal":
            legal.append(json.loads(rest))
    assert shown and len(shown) == len(legal)
    for view, moves in zip(shown, legal, strict=True):
        assert view in mine, "the engine was shown something that is not its seat's view"
        assert moves == view["legal_moves"]
    # the check can tell: the other seat's views (its own hidden cards) differ from all shown
    assert not any(v in theirs for v in shown)


def test_a_person_at_one_process_plays_a_bot_at_another_with_redis(
        pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    """Scaled mode: the challenge is made at B, accepted and played by the bot at A (its
    event and game streams, its moves), the person plays at B; the moves cross by the bus."""
    with web_pair(pg_url, redis_server.url, tmp_path, {}) as (a, b):
        _, token = bot_account(a, "redisbot")
        proc = connect(a, token, tmp_path)
        try:
            made = httpx2.post(f"{b.http}/api/challenge/redisbot",
                               json={"game": "reversi", "seat": 0}, timeout=WAIT)
            assert made.status_code == 201, made.text
            ch = made.json()
            eventually(lambda: httpx2.get(f"{b.http}/api/challenge/{ch['challenge']}/status",
                                          timeout=WAIT).json()["status"] == "accepted",
                       "the bot accepts the challenge")
            update = play_as_person(b, ch)
            assert update["room"]["seats"][1]["name"] == "BOT redisbot"
            finish(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_the_event_stream_announces_challenges_game_starts_and_finishes(web: Web) -> None:
    """Read the NDJSON event stream itself (the stdlib client's reader): a person's
    challenge arrives as ``challenge``; a game against the CPU as ``gameStart`` and, once
    the bot resigns it, ``gameFinish``; a declined challenge is not announced again."""
    from asobiba.cli.connect import BotClient

    _, token = bot_account(web, "streambot")
    client = BotClient(web.http, token)
    events = client.stream("/api/bot/stream/event")
    made = httpx2.post(f"{web.http}/api/challenge/streambot", json={"game": "reversi"},
                       timeout=WAIT).json()
    first = next(events)
    assert first["type"] == "challenge" and first["challenge"]["id"] == made["challenge"]
    assert first["challenge"]["seat"] == 1 and first["challenge"]["game"] == "reversi"
    client.call("POST", f"/api/bot/challenge/{made['challenge']}/decline",
                {"reason": "later"})
    game = client.call("POST", "/api/bot/challenge/ai", {"game": "reversi", "level": "1"})
    start = next(events)
    assert start["type"] == "gameStart" and start["game"]["room"] == game["room"]
    client.call("POST", f"/api/bot/game/{game['room']}/resign")
    finish_event = next(events)
    assert finish_event == {"type": "gameFinish", "game": {"room": game["room"]}}
    events.close()  # the connection is closed; the server's stream ends with it
