"""Challenges across web processes (issue 28 items 3 and 5): two real ``asobiba serve
--redis`` processes on a throwaway PostgreSQL and Redis. A challenge made at A is seen at B;
accepts sent at the same moment through A and through B give exactly one room (the
compare-and-set on the challenge row holds between processes, not only between threads of
one), and the challenger learns it through either process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from asobiba.server.progress import COOKIE
from asobiba.server.services import RedisServer

from .scale_helpers import WAIT, Web, web_pair

PASSWORD = "a long password 9"


@pytest.fixture
def pair(pg_url: str, redis_server: RedisServer, tmp_path: Path
         ) -> Iterator[tuple[Web, Web]]:
    with web_pair(pg_url, redis_server.url, tmp_path, {"ASOBIBA_LIMIT_SCALE": "100"}) as pair:
        yield pair


def account(web: Web, name: str) -> dict[str, str]:
    res = httpx2.post(f"{web.http}/api/account/register",
                      json={"name": name, "password": PASSWORD}, timeout=WAIT)
    assert res.status_code == 201, res.text
    return {COOKIE: str(res.cookies[COOKIE])}


def accept(web: Web, cid: int, cookies: dict[str, str], start: threading.Barrier,
           answers: list[httpx2.Response]) -> None:
    start.wait()
    answers.append(httpx2.post(f"{web.http}/api/challenges/{cid}/accept", cookies=cookies,
                               timeout=WAIT))


def test_accepts_raced_through_two_processes_make_one_room(pair: tuple[Web, Web]) -> None:
    a, b = pair
    for round_ in range(3):
        ann, ben = account(a, f"sann{round_}"), account(b, f"sben{round_}")
        made = httpx2.post(f"{a.http}/api/challenges", cookies=ann, timeout=WAIT,
                           json={"to": f"sben{round_}", "game": "reversi"})
        assert made.status_code == 201, made.text
        cid = made.json()["challenge"]["id"]
        seen = httpx2.get(f"{b.http}/api/challenges", cookies=ben, timeout=WAIT).json()
        assert [c["id"] for c in seen["incoming"]] == [cid]
        start = threading.Barrier(4)
        answers: list[httpx2.Response] = []

        threads = [threading.Thread(target=accept, args=(w, cid, ben, start, answers))
                   for w in (a, b, a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in answers)
        assert codes.count(201) == 1, [(r.status_code, r.text) for r in answers]
        refused = [r.json()["error"]["code"] for r in answers if r.status_code != 201]
        assert refused and set(refused) == {"challenge_settled"}, refused
        room = next(r.json() for r in answers if r.status_code == 201)["room"]
        # the challenger learns the one room through either process, and both serve it
        for web in (a, b):
            out = httpx2.get(f"{web.http}/api/challenges", cookies=ann, timeout=WAIT
                             ).json()["outgoing"][0]
            assert out["status"] == "accepted" and out["url"] == f"/r/{room}", out
            assert httpx2.get(f"{web.http}/api/rooms/{room}", timeout=WAIT).status_code == 200
