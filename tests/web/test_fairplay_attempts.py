"""Issue 25 item 4: dailies and sets that cannot be replayed (docs/fair-play.md, "Daily
challenges" and "The CPU's seed").

The attacks, as an independent tester ran them on the old main:

* every room of a day shared the day's seed, which also seeded the CPU: the daily CPU
  replied identically on every attempt (3 of 3), and attempts were unlimited — retry until
  a winning line is known, then replay it; ``/api/daily/algo/answer`` took 120 answers;
* game 2 of a set (and of a ladder set, ``ladder_next``) reused game 1's seed, which game
  1's public record shows: every CPU move of game 2 was predicted (32 of 32 in Reversi).

Each test below fails on the old code and passes now (run against ``git stash``)."""

from __future__ import annotations

import hmac
import json
import math
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from asobiba.core.rng import derive_seed
from asobiba.games import get as get_game
from asobiba.progression import Progression
from asobiba.progression import daily as dailies
from asobiba.server import create_app
from asobiba.server.bots import choose_move

from .helpers import create_room, is_update, my_view, read_until, send_json
from .test_progression_api import climb_to, finish_by_resigning, register, wait_recorded

DAY = date(2026, 11, 30)  # a Monday: ReverStarGo's daily CPU is "beginner" (random moves)
KEY = bytes(range(32))  # a configured daily key: the same challenge on every run


class Calendar:
    """The server's date, moved by the test."""

    def __init__(self, day: date) -> None:
        self.day = day

    def __call__(self) -> date:
        return self.day


@pytest.fixture
def calendar() -> Calendar:
    return Calendar(DAY)


@pytest.fixture
def client(tmp_path: Any, calendar: Calendar) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0, today=calendar,
                               daily_key=KEY)) as c:
        yield c


def cpu_secret(client: TestClient) -> bytes:
    return client.app.state.store.secret("cpu")  # type: ignore[attr-defined,no-any-return]


def stored_record(client: TestClient, room_id: str) -> Any:
    return json.loads(client.app.state.store.record(room_id))  # type: ignore[attr-defined]


def play_then_resign(client: TestClient, room: dict[str, Any], moves: int,
                     seen: list[str] | None = None) -> None:
    """Hold the room's seat, play the first legal move ``moves`` times (whenever it is this
    seat's turn), then resign if the game still runs; every frame received is appended to
    ``seen`` (as text)."""
    seat = room["keys"][0]["seat"]
    frames: list[dict[str, Any]] = []

    def ready(m: dict[str, Any]) -> bool:
        return is_update(m) and (m["room"]["status"] != "active"
                                 or bool(my_view(m)["legal_moves"]))

    def latest() -> dict[str, Any]:
        return [m for m in frames if is_update(m)][-1]

    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        send_json(ws, {"type": "hello", "seats": room["keys"], "id": "h"})
        read_until(ws, lambda m: m.get("id") == "h", seen=frames)
        done = -1  # the ply of this seat's last move
        for n in range(moves):
            last = latest()
            if not (ready(last) and last["room"]["ply"] > done):
                last = read_until(ws, lambda m, d=done: ready(m) and m["room"]["ply"] > d,
                                  seen=frames)
            if last["room"]["status"] != "active":
                break
            done = last["room"]["ply"]
            send_json(ws, {"type": "move", "move": my_view(last)["legal_moves"][0],
                           "ply": done, "id": n})
            read_until(ws, lambda m, i=n: m.get("id") == i or m.get("type") == "error",
                       seen=frames)
            assert not [m for m in frames if m.get("type") == "error"], frames[-3:]
        if latest()["room"]["status"] == "active":
            send_json(ws, {"type": "resign", "seat": seat, "id": "r"})
            read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished",
                       seen=frames)
    if seen is not None:
        seen.extend(json.dumps(m) for m in frames)


# ---- each daily attempt has its own secret CPU seed -----------------------------------------

def test_rule_each_daily_attempt_has_its_own_secret_cpu_seed(
        client: TestClient, calendar: Calendar) -> None:
    """Three attempts at the same day's ReverStarGo challenge with the same moves by the
    player (the first legal move, eight times): the CPU's replies differ between attempts.
    Its level this Monday picks uniformly among the legal moves, so two later attempts
    repeating the first one's replies — seven or more of them with a choice of at least
    two moves (checked) — has a probability below (1/2)^14 — and was certain on
    the old code, where the day's seed seeded the CPU. The day's deal and opening stay the
    same for everyone; each room's CPU seed is in its record once the day is over (and
    replays the CPU's moves), and was in no answer before."""
    register(client, "tryer")
    ch = dailies.challenge("reverstargo", DAY, KEY)
    assert ch.kind == "opponent" and ch.bot_level == "beginner"
    replies: list[tuple[str, ...]] = []
    choices: list[int] = []
    rooms: list[str] = []
    public: list[str] = []
    for _ in range(3):
        res = client.post("/api/daily/reverstargo/play")
        assert res.status_code == 201, res.text
        room = res.json()
        public.append(res.text)
        public.append(client.get(f"/api/rooms/{room['room']}").text)
        play_then_resign(client, room, 8, public)
        record = stored_record(client, room["room"])
        assert record["seed"] == ch.seed  # the day's deal, shared
        moves = [(m["seat"], m["move"]) for m in record["moves"]]
        assert moves[:len(ch.opening)] == list(ch.opening)
        replies.append(tuple(m for s, m in moves[len(ch.opening):] if s != ch.player_seat))
        if not choices:  # how many legal moves the CPU had at each reply of the first attempt
            states = get_game("reverstargo").replay(moves, record["options"], record["seed"])
            choices = [len(states[ply].legal_moves(s).texts())
                       for ply, (s, _) in enumerate(moves)
                       if ply >= len(ch.opening) and s != ch.player_seat]
        rooms.append(room["room"])
    assert all(len(r) >= 7 for r in replies), replies
    assert sum(k >= 2 for k in choices) >= 7, choices  # the bound above holds
    assert len(set(replies)) > 1, f"the CPU replied the same on every attempt: {replies}"
    # the CPU's seeds: secret during the day, different per room, then published and checked
    secret = cpu_secret(client)
    calendar.day = DAY + timedelta(days=1)
    game = get_game("reverstargo")
    seeds = set()
    for room_id in rooms:
        record = json.loads(client.get(f"/api/rooms/{room_id}/record").text)
        cpu = record["extra"]["cpu_seed"]
        mac = hmac.new(secret, f"asobiba-cpu|{room_id}".encode(), "sha256").digest()
        assert cpu == int.from_bytes(mac[:6], "big") and cpu != record["seed"]
        assert not any(str(cpu) in text for text in public)
        seeds.add(cpu)
        moves = [(m["seat"], m["move"]) for m in record["moves"]]
        states = game.replay(moves, record["options"], record["seed"])
        for ply in range(len(ch.opening), len(moves)):  # the record replays the CPU
            seat, text = moves[ply]
            if seat == ch.player_seat:
                continue
            views = [st.view(seat) for st in states[:ply + 1]]
            assert choose_move("reverstargo", "beginner", derive_seed(cpu, "bot", seat, ply)
                               >> 1, seat, record["options"], views) == text
    assert len(seeds) == 3


# ---- a daily counts once per account per day ------------------------------------------------

def test_rule_a_daily_counts_once_per_account_per_day_answers(client: TestClient) -> None:
    """Algo's daily puzzle: wrong answers first, then the right ones. The right ones are
    practice (said so) and clear nothing; on the old code the retry cleared the day."""
    register(client, "retrier")
    ch = dailies.challenge("algo", DAY, KEY)
    pz = dailies._tsume("algo", ch.seed, DAY)
    right = [pz.answer(q) for q in pz.questions]
    before = client.get("/api/daily/algo").json().get("practice")
    first = client.post("/api/daily/algo/answer", json={"answers": ["x9"] * len(right)})
    assert first.status_code == 200
    assert [e["type"] for e in first.json()["events"]] == ["rating"]
    again = client.post("/api/daily/algo/answer", json={"answers": right}).json()
    assert client.get("/api/daily/algo").json()["calendar"]["cleared"] == [], \
        "the retry cleared the day"
    assert [(e["type"], e["cleared"], e["attempt"]) for e in again["events"]] == [
        ("practice", True, 2)]
    assert before is False
    assert first.json()["practice"] is False and again["practice"] is True
    assert client.get("/api/daily/algo").json()["practice"] is True


def test_rule_a_daily_counts_once_per_account_per_day_rooms(client: TestClient) -> None:
    """Rooms: the first daily room opened that day is the one that counts, even when a
    later one is finished first (opening a second room to look for a winning line and
    leaving the first unfinished gains nothing). The second room says it is practice when
    opened; won, it clears nothing and says so; the first, lost, does not clear the day."""
    register(client, "opener")
    first = client.post("/api/daily/reversi/play").json()
    second = client.post("/api/daily/reversi/play").json()
    ch = dailies.challenge("reversi", DAY, KEY)
    # the second room won (the CPU's seat forfeits, as a fallen flag would end it)
    from asobiba.server.rooms import forfeit_result

    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    room = client.portal.call(hub.get, second["room"])  # type: ignore[union-attr]

    async def cpu_forfeits() -> None:
        async with room.lock:
            await hub.end(room, forfeit_result(2, 1 - ch.player_seat, "timeout"),
                          {"timeout": 1 - ch.player_seat}, 1 - ch.player_seat)
    client.portal.call(cpu_forfeits)  # type: ignore[union-attr]
    events = wait_recorded(client, second["room"])["daily"]
    assert client.get("/api/daily/reversi").json()["calendar"]["cleared"] == [], \
        "a second room cleared the day"
    assert [(e["type"], e["cleared"]) for e in events] == [("practice", True)], events
    assert first["practice"] is False and first["attempt"] == 1
    assert second["practice"] is True and second["attempt"] == 2
    assert client.get("/api/daily/reversi").json()["practice"] is True
    finish_by_resigning(client, first, ch.player_seat)
    assert wait_recorded(client, first["room"])["daily"] == []  # counted: a loss
    assert client.get("/api/daily/reversi").json()["calendar"]["cleared"] == []


# ---- daily answers and rooms are rate-limited -----------------------------------------------

def test_rule_daily_answers_and_rooms_are_rate_limited(client: TestClient) -> None:
    """10 answers per 10 minutes and 20 daily rooms per 10 minutes from one address; the
    old code graded 120 answers in a row."""
    register(client, "hammer")
    codes = [client.post("/api/daily/algo/answer", json={"answers": ["w1"]}).status_code
             for _ in range(11)]
    assert codes[:10] == [400] * 10  # counted (a wrong number of answers) ...
    assert codes[10] == 429  # ... and the 11th refused
    refused = client.post("/api/daily/algo/answer", json={"answers": ["w1"]}).json()
    assert refused["error"]["code"] == "too_many"
    opened = [client.post("/api/daily/patapata/play").status_code for _ in range(21)]
    assert opened[:20] == [201] * 20 and opened[20] == 429


# ---- the next game of a set: its CPU seed is nobody's to compute ----------------------------

def predict(record: dict[str, Any], seed_of: Any, level: str
            ) -> list[tuple[int, str, str, int]]:
    """Each CPU move of ``record`` beside what the bot would have played with
    ``seed_of(seat, ply)``: (ply, played, predicted, number of legal moves)."""
    game = get_game(record["game"])
    moves = [(m["seat"], m["move"]) for m in record["moves"]]
    states = game.replay(moves, record["options"], record["seed"])
    bots = {i for i, s in enumerate(record["seats"]) if s["kind"] == "bot"}
    out = []
    for ply, (seat, text) in enumerate(moves):
        if seat in bots:
            views = [st.view(seat) for st in states[:ply + 1]]
            out.append((ply, text, choose_move(record["game"], level, seed_of(seat, ply), seat,
                                               record["options"], views),
                        len(states[ply].legal_moves(seat).texts())))
    return out


def test_rule_the_next_game_of_a_set_has_a_cpu_seed_nobody_can_compute(tmp_path: Any) -> None:
    """A reverse-match set against the random CPU level (Reversi): game 1's record is
    public once it ends and holds its seed; from it, the old derivation
    (``derive_seed(seed, "bot", seat, ply)``) predicted every CPU move of game 2. Now game
    2's CPU seed comes from the server's secret: the prediction fails (each move of the
    random level matches by chance with probability 1/k for k legal moves, so all of them
    matching has probability prod(1/k), required below 2^-20), the seed is in no answer
    before game 2 ends, and game 2's record holds it and replays every CPU move."""
    bot = {"kind": "bot", "level": "random"}
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as client:
        room = create_room(client, "reversi", [{"kind": "human"}, bot], match="reverse")
        play_then_resign(client, room, 200)  # to the end (the set continues)
        record1 = json.loads(client.get(f"/api/rooms/{room['room']}/record").text)
        assert record1["result"] is not None
        public = [json.dumps(record1)]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            send_json(ws, {"type": "hello", "seats": room["keys"]})
            send_json(ws, {"type": "next", "id": "next"})
            nxt = read_until(ws, lambda m: m.get("type") == "set_next")
        public.append(client.get(f"/api/rooms/{nxt['room']}").text)
        play_then_resign(client, {"room": nxt["room"], "keys": nxt["keys"]}, 200, public)
        record2 = json.loads(client.get(f"/api/rooms/{nxt['room']}/record").text)
    assert record2["extra"]["room"] == nxt["room"] and record2["result"] is not None
    old = predict(record2, lambda seat, ply: derive_seed(record1["seed"], "bot", seat, ply)
                  >> 1, "random")
    # the random level's moves all matching by chance has probability prod(1/k) over the
    # moves with k choices: the game must give that below 2^-20 (a game ended early by a
    # wipe-out can have few CPU moves; counting 20 of them was stricter than the argument)
    assert math.prod(k for *_, k in old if k >= 2) > 2**20, old
    assert any(played != guess for _, played, guess, _ in old), \
        "game 2's CPU moves follow from game 1's public record"
    cpu = record2["extra"]["cpu_seed"]
    assert cpu != record1["extra"]["cpu_seed"]
    assert not any(str(cpu) in text for text in public)
    checked = predict(record2, lambda seat, ply: derive_seed(cpu, "bot", seat, ply) >> 1,
                      "random")
    assert all(played == guess for _, played, guess, _ in checked), "the record replays the CPU"


def test_rule_ladder_sets_give_the_cpu_a_seed_nobody_can_compute(
        client: TestClient, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder's reverse-match sets (``ladder_next``): the seeds the CPU is given in game
    2 are none that game 1's public record yields by the old derivation, and game 2's record
    names the one they came from (its ``cpu_seed``), published once it ends."""
    from asobiba.server import bots

    given: list[tuple[int, int]] = []  # (seat, seed) of every bot turn
    real = bots.bot_pick

    def spy(game_id: str, level: str, seed: int, seat: int, *rest: Any) -> Any:
        given.append((seat, seed))
        return real(game_id, level, seed, seat, *rest)
    monkeypatch.setattr(bots, "bot_pick", spy)
    me = register(client, "climber").json()["player"]
    climb_to(Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}")), me["id"],
             "reversi", "topaz")
    first = client.post("/api/ladder/reversi/play", json={"tier": "lv5"}).json()
    play_then_resign(client, first, 3)
    assert wait_recorded(client, first["room"])["ladder"][0]["type"] == "set_continues"
    record1 = json.loads(client.get(f"/api/rooms/{first['room']}/record").text)
    given.clear()
    res = client.post("/api/ladder/reversi/next", json={
        "room": first["room"], "seat": first["keys"][0]["seat"],
        "key": first["keys"][0]["key"]})
    assert res.status_code == 201, res.text
    second = res.json()
    public = [json.dumps(record1), res.text]
    play_then_resign(client, second, 3, public)
    record2 = json.loads(client.get(f"/api/rooms/{second['room']}/record").text)
    cpu_plies = [(ply, m["seat"]) for ply, m in enumerate(record2["moves"])
                 if record2["seats"][m["seat"]]["kind"] == "bot"]
    assert cpu_plies and given
    old = {derive_seed(record1["seed"], "bot", seat, ply) >> 1 for ply in range(200)
           for seat in (0, 1)}
    assert not {seed for _, seed in given} & old, "game 2's CPU seeds follow from game 1"
    cpu = record2["extra"]["cpu_seed"]
    assert not any(str(cpu) in text for text in public)
    # every CPU move's seed, and a turn cut short by the resignation (the next ply)
    cpu_seat = cpu_plies[0][1]
    assert {seed for _, seed in given} <= {derive_seed(cpu, "bot", cpu_seat, ply) >> 1
                                          for ply in range(len(record2["moves"]) + 1)}
    assert {derive_seed(cpu, "bot", seat, ply) >> 1 for ply, seat in cpu_plies} <= {
        seed for _, seed in given}
    assert cpu != record1["extra"]["cpu_seed"]


@pytest.mark.browser
def test_rule_the_daily_page_says_later_attempts_are_practice_in_both_languages(
        tmp_path: Any) -> None:
    """In Chromium: the first answers to today's Algo puzzle count (graded as usual); the
    page then says the day's attempt is used, and answers given again come back as practice
    — in English, and in Japanese (a second browser with the same session)."""
    from playwright import sync_api

    from .browser import Server, launch, open_context

    srv = Server(tmp_path).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = launch(p)
            en = open_context(browser, locale="en-US")
            page = en.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{srv.url}/daily/algo")
            page.wait_for_selector("body[data-ready=true]")
            page.evaluate("fetch('/api/account/guest', {method: 'POST'})")
            page.reload()
            page.wait_for_selector("body[data-ready=true] #answers")
            assert page.locator("#practice").count() == 0

            def answer() -> None:
                for box in page.locator("#answers input").all():
                    box.fill("x9")
                page.click("#answers button[type=submit]")

            answer()
            page.wait_for_selector("#verdict[data-verdict='daily.not_cleared']")
            assert "a day counts once" in page.inner_text("#practice")
            answer()
            page.wait_for_selector("#verdict[data-verdict='daily.practice_answers']")
            assert page.inner_text("#verdict").startswith("Practice: 0 of ")
            ja = open_context(browser, locale="ja-JP")
            ja.add_cookies(en.cookies())
            jpage = ja.new_page()
            jpage.on("pageerror", lambda e: errors.append(str(e)))
            jpage.goto(f"{srv.url}/daily/algo")
            jpage.wait_for_selector("body[data-ready=true] #practice")
            assert "練習" in jpage.inner_text("#practice")
            for box in jpage.locator("#answers input").all():
                box.fill("x9")
            jpage.click("#answers button[type=submit]")
            jpage.wait_for_selector("#verdict[data-verdict='daily.practice_answers']")
            assert jpage.inner_text("#verdict").startswith("練習：")
            for ctx in (en, ja):
                ctx.close()
            browser.close()
            assert not errors, errors
    finally:
        srv.stop()
