"""The bot-job queue of the scaled mode when Redis fails (issue 25 item 8), against a real
``redis-server`` restarted under it (no persistence: a restart loses every key, as the
tester's did):

* a worker whose consumer group vanished (``NOGROUP``) makes it again and takes the jobs
  queued meanwhile (it used to fail every read until restarted: 6 of 6 bot rooms stuck);
* a bot job that could not be queued (Redis away) is queued once Redis is back (it used to
  be dropped with a warning: the room waited for its web process's restart);
* a bot turn whose job was lost (the marker says queued, the stream has no such entry) is
  queued again by the web process's sweeper, and only then: a job still in the stream is
  never doubled.

The whole processes under these faults: tests/web/test_scale_faults_live.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import redis

from asobiba.games import get
from asobiba.server.bots import BotPool
from asobiba.server.db import Store
from asobiba.server.jobs import STREAM, Consumer, RedisJobs
from asobiba.server.rooms import Hub
from asobiba.server.services import RedisServer

BOT_FIRST = [{"kind": "bot", "level": "2", "name": ""}, {"kind": "human", "level": None,
                                                          "name": "hana"}]
DEADLINE = 90.0  # seconds: generous, the machine may be loaded


async def until(check: Callable[[], object], what: str, timeout: float = DEADLINE) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(0.05)


def entries(url: str) -> list[dict[str, str]]:
    r = redis.Redis.from_url(url, decode_responses=True)
    try:
        return [fields for _id, fields in r.xrange(STREAM)]
    except redis.ConnectionError:
        return []
    finally:
        r.close()


def test_rule_a_worker_makes_its_job_group_again_after_redis_lost_its_data(
        redis_server: RedisServer) -> None:
    handled: list[tuple[str, int, int]] = []

    async def handle(room: str, seat: int, ply: int) -> bool:
        handled.append((room, seat, ply))
        return True

    async def scenario() -> int:
        consumer = Consumer(redis_server.url, handle, slots=1)
        running = asyncio.create_task(consumer.run())
        web = redis.asyncio.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            await web.xadd(STREAM, {"room": "before", "seat": 0, "ply": 3})
            await until(lambda: handled == [("before", 0, 3)], "the job before the restart")
            await asyncio.to_thread(redis_server.restart)  # the stream and group are gone
            # a web process queues the next job: XADD makes the stream again, alone
            for _ in range(100):
                try:
                    await web.xadd(STREAM, {"room": "after", "seat": 1, "ply": 4})
                    break
                except redis.ConnectionError:
                    await asyncio.sleep(0.1)
            await until(lambda: ("after", 1, 4) in handled, "the job queued after Redis "
                        "restarted (the worker's group was gone: NOGROUP)")
            return consumer.regrouped
        finally:
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
            await consumer.redis.aclose()
            await web.aclose()

    regrouped = asyncio.run(asyncio.wait_for(scenario(), 4 * DEADLINE))
    assert regrouped >= 1
    assert handled == [("before", 0, 3), ("after", 1, 4)], "each job handled once"


def test_rule_a_bot_job_that_could_not_be_queued_is_queued_once_redis_is_back(
        redis_server: RedisServer, tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    jobs = RedisJobs(redis_server.url)
    hub = Hub(store, BotPool(processes=0), get, jobs=jobs)

    async def scenario() -> str:
        await asyncio.to_thread(redis_server.kill)
        room, _keys = await hub.create(get("reversi"), {}, BOT_FIRST)  # the bot moves first
        await until(lambda: jobs.failed >= 1, "a failed attempt to queue the bot's job")
        await asyncio.to_thread(redis_server.start)
        await until(lambda: entries(redis_server.url), "the job in the stream")
        return room.id

    try:
        rid = asyncio.run(asyncio.wait_for(scenario(), 4 * DEADLINE))
    finally:
        asyncio.run(jobs.close())
        store.close()
    assert entries(redis_server.url) == [{"room": rid, "seat": "0", "ply": "0"}]


def test_rule_a_lost_bot_job_is_queued_again_by_the_sweeper_and_a_queued_one_never(
        redis_server: RedisServer, tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    jobs = RedisJobs(redis_server.url)
    hub = Hub(store, BotPool(processes=0), get, jobs=jobs)
    r = redis.Redis.from_url(redis_server.url, decode_responses=True)

    async def scenario() -> tuple[bool, bool, str]:
        room, _keys = await hub.create(get("reversi"), {}, BOT_FIRST)
        await until(lambda: r.xlen(STREAM) == 1, "the job queued")
        # the job is still there: queuing it again (by anyone, any number of times) is a no-op
        again = await jobs.enqueue(room.id, 0, 0)
        still = await jobs.requeue(room.id, 0, 0)
        assert r.xlen(STREAM) == 1
        # lost: the entry gone, its marker left (as after Redis restored an older snapshot)
        (entry_id, _fields), = r.xrange(STREAM)
        r.xdel(STREAM, entry_id)
        sweeper = asyncio.create_task(hub.sweep_bots(deadline=0.5, every=0.1))
        try:
            # the sweeper's own count, not the stream's length: the entry is in the stream
            # as soon as Redis ran the script, a moment before the sweeper reads its answer
            # and counts it (cancelled in between, under load, it never counted it)
            await until(lambda: jobs.requeued >= 1, "the lost job queued again")
        finally:
            sweeper.cancel()
            await asyncio.gather(sweeper, return_exceptions=True)
        return again, still, room.id

    try:
        again, still, rid = asyncio.run(asyncio.wait_for(scenario(), 4 * DEADLINE))
        assert (again, still) == (False, False), "a job still in the stream is not doubled"
        assert [f for _id, f in r.xrange(STREAM)] == [{"room": rid, "seat": "0", "ply": "0"}]
    finally:
        r.close()
        asyncio.run(jobs.close())
        store.close()


def test_rule_a_bot_turn_that_comes_again_after_an_undo_is_queued_again(
        redis_server: RedisServer, tmp_path: Path) -> None:
    """The same (room, seat, ply) in a new position: the person undid the move the bot had
    answered and played another. Its job must be queued again — the marker of the first
    turn (kept a day) once made this one a no-op, and the bot never moved."""
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    jobs = RedisJobs(redis_server.url)
    web = Hub(store, BotPool(processes=0), get, jobs=jobs)
    worker_pool = BotPool(processes=0)
    worker = Hub(Store(f"sqlite:///{tmp_path / 'a.db'}"), worker_pool, get, jobs=jobs,
                 clocks=False)
    r = redis.Redis.from_url(redis_server.url, decode_responses=True)
    person_first = [BOT_FIRST[1], BOT_FIRST[0]]

    async def run_jobs() -> None:  # what `asobiba worker` does with each queued job
        for entry_id, fields in r.xrange(STREAM):
            assert await worker.bot_job(fields["room"], int(fields["seat"]), int(fields["ply"]))
            r.xdel(STREAM, entry_id)

    async def scenario() -> list[dict[str, str]]:
        room, _keys = await web.create(get("reversi"), {}, person_first)
        first = room.state.legal_moves(0).texts()
        await web.play(room, 0, first[0])
        await until(lambda: r.xlen(STREAM) == 1, "the bot's job")
        await run_jobs()
        async with room.lock:  # the bus would have told this process; here it reads
            await web.persistence.reload(room)
        assert len(room.moves) == 2, "the bot answered"
        await web.offers.apply_undo(room, 0)  # the person takes back their move (and the answer)
        assert len(room.moves) == 0
        await web.play(room, 0, first[1])  # another move: the bot's turn at ply 1 again
        await until(lambda: r.xlen(STREAM) == 1, "the bot's job for the new position",
                    timeout=20)
        return [f for _id, f in r.xrange(STREAM)]

    try:
        queued = asyncio.run(asyncio.wait_for(scenario(), 4 * DEADLINE))
    finally:
        r.close()
        asyncio.run(jobs.close())
        worker_pool.shutdown()
        worker.store.close()
        store.close()
    assert len(queued) == 1 and (queued[0]["seat"], queued[0]["ply"]) == ("1", "1")
