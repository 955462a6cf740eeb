"""Issue 14 item 2: daily challenges from a server secret.

The attack: the daily seed was ``derive_seed("daily", game, date)``, so anyone computed any
day's deal offline, future days included (the Algo daily cleared with answers computed
offline: puzzle rating 1500 → 1742). Rules checked (docs/fair-play.md, "Daily challenges"):
the seed is an HMAC under a secret created on first start and kept in the database; a coming
day's challenge is given by no endpoint; today's comes without its seed but with a
commitment to it; a finished day's seed is published and checks against that commitment
and against the challenge shown that day."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from asobiba.progression import Progression
from asobiba.progression import daily as dailies
from asobiba.server import create_app

from .helpers import is_update, read_until, send_json

DAY = date(2026, 11, 30)


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
    with TestClient(create_app(str(tmp_path), bot_processes=0, today=calendar)) as c:
        yield c


def server_secret(tmp_path: Any) -> bytes:
    return Progression(create_engine(f"sqlite:///{tmp_path / 'asobiba.db'}")).daily_secret


def login(client: TestClient) -> None:
    res = client.post("/api/account/register", json={"name": "solver",
                                                     "password": "a long password 9"})
    assert res.status_code == 201, res.text


def test_rule_the_daily_seed_needs_the_server_secret(client: TestClient, tmp_path: Any) -> None:
    client.get("/api/daily/algo")  # first use creates the secret
    secret = server_secret(tmp_path)
    assert len(secret) == 32
    offline = dailies.daily_seed("algo", DAY)
    assert dailies.daily_seed("algo", DAY, secret) != offline
    # the secret persists: a second app on the same database uses the same one
    with TestClient(create_app(str(tmp_path), bot_processes=0, today=lambda: DAY)) as again:
        a = client.get("/api/daily/algo").json()["challenge"]["commitment"]
        b = again.get("/api/daily/algo").json()["challenge"]["commitment"]
        assert a == b
    # and the offline (public) derivation's puzzle is not today's puzzle
    shown = client.get("/api/daily/algo").json()["challenge"]["puzzle"]
    assert dailies.challenge("algo", DAY).puzzle != shown


@pytest.mark.parametrize("game", ["algo", "reversi", "patapata", "memory_matrix"])
def test_attack_tomorrows_deal_is_given_by_no_endpoint(client: TestClient, tmp_path: Any,
                                                       game: str) -> None:
    login(client)
    tomorrow = DAY + timedelta(days=1)
    res = client.get(f"/api/daily/{game}?date={tomorrow.isoformat()}")
    assert res.status_code == 404 and res.json()["error"]["code"] == "not_yet"
    far = client.get(f"/api/daily/{game}?date=2027-06-01")
    assert far.status_code == 404
    secret = server_secret(tmp_path)
    future = dailies.challenge(game, tomorrow, secret)
    texts = [res.text, far.text]
    # every daily endpoint, asked for today (and with tomorrow's date where one is taken)
    texts.append(client.get(f"/api/daily/{game}").text)
    texts.append(client.post(f"/api/daily/{game}/play", json={"date": tomorrow.isoformat()}
                             ).text)
    texts.append(client.post(f"/api/daily/{game}/answer", json={"answers": ["w1"]}).text)
    secrets_of_tomorrow = [str(future.seed), dailies.commitment(future.seed)]
    if future.puzzle is not None:
        secrets_of_tomorrow.append(json.dumps(future.puzzle["questions"]))
    for text in texts:
        for secret_text in secrets_of_tomorrow:
            assert secret_text not in text
    # today's challenge: no seed, but a commitment to it
    today = client.get(f"/api/daily/{game}").json()["challenge"]
    assert "seed" not in today and today["revealed"] is False
    assert today["commitment"] == dailies.commitment(dailies.challenge(game, DAY, secret).seed)


@pytest.mark.parametrize("game", ["algo", "reversi"])
def test_rule_a_finished_days_seed_is_published_and_verifies(
        client: TestClient, calendar: Calendar, game: str) -> None:
    shown = client.get(f"/api/daily/{game}").json()["challenge"]
    calendar.day = DAY + timedelta(days=1)
    past = client.get(f"/api/daily/{game}?date={DAY.isoformat()}").json()["challenge"]
    assert past["revealed"] is True
    seed = past["seed"]
    # the commitment shown during the day matches the seed published after it ...
    assert dailies.commitment(seed) == shown["commitment"]
    # ... and the seed rebuilds exactly the challenge that was shown (no secret needed)
    rebuilt = dailies.build(game, DAY, seed).public_json()
    for key in ("puzzle", "view", "opening", "options", "player_seat", "bot_level", "target"):
        assert rebuilt.get(key) == shown.get(key), key


def test_attack_a_daily_rooms_record_waits_for_the_day_to_end(
        client: TestClient, calendar: Calendar) -> None:
    """A finished daily room's record holds the day's seed: it must not be downloadable
    while the day runs (it would give the CPU's seeded choices and the deal)."""
    login(client)
    room = client.post("/api/daily/reversi/play", json={}).json()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        send_json(ws, {"type": "hello", "seats": room["keys"], "id": "h"})
        send_json(ws, {"type": "resign", "id": "r"})
        read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
    res = client.get(f"/api/rooms/{room['room']}/record")
    assert res.status_code == 409 and res.json()["error"]["code"] == "not_yet"
    calendar.day = DAY + timedelta(days=1)
    res = client.get(f"/api/rooms/{room['room']}/record")
    assert res.status_code == 200
    past = client.get(f"/api/daily/reversi?date={DAY.isoformat()}").json()["challenge"]
    assert json.loads(res.text)["seed"] == past["seed"]
    # once published, the record replays like any other: its seed is exact in a browser
    # (JavaScript numbers) and within the API's bounded integers (63-bit daily seeds had 19
    # digits, which /api/replay refused with 400)
    assert 0 <= past["seed"] < 2**53
    replay = client.post("/api/replay", content=res.text,
                         headers={"content-type": "application/json"})
    assert replay.status_code == 200, replay.text
