"""The HTTP rate limits never stop the event loop (issue 13 items 3 and 5).

With ``--redis`` the limits are counted in Redis. Asked on the event loop, a slow Redis
stopped every WebSocket and request of the process for as long as it took (measured:
38–101 ms stalls of every room during bursts of room creation). Every HTTP route now awaits
:meth:`Limits.ahit`, which asks a shared store in the store's own threads.

The test makes a REAL redis-server hold back every write (``CLIENT PAUSE … WRITE``: the
limit's script waits, reads and ``CLIENT LIST`` still answer), sends a rate-limited request
(``POST /api/rooms``) to the app served by uvicorn on a real socket, sees in Redis that the
app's limit call is now waiting, and then asks ``GET /api/games`` (no Redis needed). The
order of events is the assertion — no clock threshold: the GET is answered while Redis is
still paused and before the POST returns. On the old code (the limit asked on the loop) the
GET could only be answered after Redis was let go, which the test does itself after
:data:`PATIENCE` seconds so that it fails instead of hanging.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import httpx2
import pytest
import redis
import uvicorn

from asobiba.server.app import create_app
from asobiba.server.limits import Limits, RedisStore
from asobiba.server.services import RedisServer

from .scale_helpers import free_port

PATIENCE = 60.0
"""How long Redis stays paused at most: far beyond any answer of a working server, even on a
loaded 2-core machine; the old code's GET waited for the whole of it."""


def _limit_call_waiting(r: redis.Redis) -> bool:
    """Whether the limits' connection (named ``asobiba-limits``) is held by the pause in its
    ``EVALSHA`` (the sliding-window script) right now."""
    return any(c.get("name") == "asobiba-limits" and c.get("cmd") == "evalsha"
               and "b" in c.get("flags", "") for c in r.client_list())


def test_rule_a_slow_redis_delays_only_the_limited_request(
        redis_server: RedisServer, tmp_path: Path) -> None:
    events: list[str] = []  # list.append is atomic: the order things happened in
    admin = redis.Redis.from_url(redis_server.url, socket_timeout=30)
    release = threading.Event()

    def let_go() -> None:
        release.wait(PATIENCE)
        # noted before the UNPAUSE is sent: once it is, the POST may finish before this
        # thread runs again
        events.append("redis let go")
        admin.execute_command("CLIENT", "UNPAUSE")

    # a Redis store that waits as long as Redis is paused (the default gives up after 0.5 s
    # and counts in the process): the call stays pending for the whole observation
    limits = Limits(store=RedisStore(redis_server.url, timeout=PATIENCE + 30))
    app = create_app(str(tmp_path), db_url=f"sqlite:///{tmp_path / 'a.db'}",
                     redis_url=redis_server.url, limits=limits, bot_processes=0)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))

    async def scenario() -> None:
        serving = asyncio.create_task(server.serve())
        try:
            while not server.started:
                assert not serving.done(), "the server did not start"
                await asyncio.sleep(0.05)
            async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{port}",
                                         timeout=PATIENCE + 60) as http:
                assert (await http.get("/api/games")).status_code == 200  # warm, unpaused
                await asyncio.to_thread(admin.execute_command, "CLIENT", "PAUSE",
                                        int(PATIENCE * 1000), "WRITE")
                threading.Thread(target=let_go, daemon=True).start()

                async def create() -> httpx2.Response:
                    res = await http.post("/api/rooms", json={
                        "game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]})
                    events.append("room created")
                    return res

                creating = asyncio.create_task(create())
                # until the app's limit call for that POST waits on Redis (the old code:
                # until the POST is done — its loop stood still while Redis was paused)
                while not (await asyncio.to_thread(_limit_call_waiting, admin)
                           or creating.done()):
                    await asyncio.sleep(0.02)
                games = await http.get("/api/games")
                events.append("games answered")
                release.set()
                created = await creating
            assert games.status_code == 200 and games.json()["games"]
            assert created.status_code == 201, created.text
        finally:
            release.set()
            server.should_exit = True
            await serving

    try:
        asyncio.run(scenario())
    finally:
        release.set()
        admin.execute_command("CLIENT", "UNPAUSE")
    # the old code: ["redis let go", "room created", "games answered"]
    assert events == ["games answered", "redis let go", "room created"], (
        "a request that needs no Redis waited for the rate limit's Redis call")


def test_rule_the_limit_refuses_the_same_way_through_redis(
        redis_server: RedisServer, tmp_path: Path) -> None:
    """Same refusals, same error body: the room-creation limit counted in Redis and awaited
    refuses the request over it with 429 ``too_many``, and counts a second process too."""
    from asobiba.server.limits import Rule

    def app() -> object:
        return create_app(str(tmp_path), db_url=f"sqlite:///{tmp_path / 'b.db'}",
                          limits=Limits(store=RedisStore(redis_server.url),
                                        rules={"room": Rule(2, 60.0)}), bot_processes=0)

    from starlette.testclient import TestClient

    body = {"game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]}
    with TestClient(app()) as a, TestClient(app()) as b:  # type: ignore[arg-type]
        assert a.post("/api/rooms", json=body).status_code == 201
        assert b.post("/api/rooms", json=body).status_code == 201
        refused = a.post("/api/rooms", json=body)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many"
    assert "2 per 60 s" in refused.json()["error"]["message"]


@pytest.mark.parametrize("shared", [False, True])
def test_ahit_asks_a_shared_store_in_its_own_threads_and_the_memory_store_directly(
        shared: bool, redis_server: RedisServer) -> None:
    """The embedded store is called on the loop's own thread (no thread hop); the Redis
    store in its executor's threads (named ``asobiba-limits``), not the loop's default
    threads, which also load rooms."""
    from asobiba.server.limits import MemoryStore

    seen: list[str] = []

    class Spy:
        def __init__(self, inner: object) -> None:
            self.inner = inner
            self.blocking = getattr(inner, "blocking", False)
            self.executor = getattr(inner, "executor", None)

        def hit(self, key: str, window: float, tries: int, now: float) -> bool:
            seen.append(threading.current_thread().name)
            return bool(self.inner.hit(key, window, tries, now))  # type: ignore[attr-defined]

    inner = RedisStore(redis_server.url) if shared else MemoryStore()
    limits = Limits(store=Spy(inner))

    loop_thread: list[str] = []

    async def go() -> list[bool]:
        loop_thread.append(threading.current_thread().name)
        return [await limits.ahit("room", "10.1.1.1") for _ in range(3)]

    assert asyncio.run(go()) == [True, True, True]
    if shared:
        assert all(name.startswith("asobiba-limits") for name in seen), seen
    else:
        assert seen == loop_thread * 3
