"""The bot-move job queue of the scaled mode: a Redis Stream read by a consumer group.

Why Streams and not arq: a bot move must not be lost when the worker holding it dies, and
must not be made twice. A Stream with a consumer group gives exactly the pieces needed and
nothing to configure around them: ``XREADGROUP`` hands each job to one worker, the job stays
*pending* (owned by that worker) until it is acknowledged after the move is stored, and a
pending job whose owner stopped touching it is taken over by another worker with
``XAUTOCLAIM``. A worker touches its running jobs every second (``XCLAIM … JUSTID``), so a
job is reclaimed ``CLAIM_IDLE`` seconds after its worker died — not after the longest time
limit a move may take, which arq's job timeout would have to be. Delivery is at-least-once;
a job names the room, seat and ply it is for, and the move is stored only if the room still
stands at that ply (the database's per-room check), so a repeated job changes nothing.

A job is enqueued at most once per (room, seat, ply): a ``SET NX`` marker guards ``XADD``, so
every process that sees a bot to move may enqueue without doubling it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, cast

from .tasks import cancel_and_wait, check_cancelled

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("asobiba.server.jobs")

STREAM = "asobiba:bot-jobs"
GROUP = "bot-workers"
CLAIM_IDLE = 5.0   # seconds without a heartbeat before a job is taken from its worker
HEARTBEAT = 1.0
MARKER_TTL = 24 * 3600


def _client(url: str) -> Redis:
    import redis.asyncio as aioredis

    return aioredis.Redis.from_url(url, socket_connect_timeout=2, health_check_interval=5,
                                   decode_responses=True)


class RedisJobs:
    """The web processes' side: put a bot move on the queue."""

    remote = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._redis: Redis | None = None
        self.failed = 0

    def _r(self) -> Redis:
        if self._redis is None:
            self._redis = _client(self.url)
        return self._redis

    async def enqueue(self, room_id: str, seat: int, ply: int) -> bool:
        """Queue the move of ``seat`` at ``ply``; False if it was queued already (or Redis
        is away: then the rooms are re-examined when it is back, see ``Hub.resync_all``)."""
        r = self._r()
        try:
            if not await r.set(f"asobiba:bot-job:{room_id}:{seat}:{ply}", 1, nx=True,
                               ex=MARKER_TTL):
                return False
            await r.xadd(STREAM, {"room": room_id, "seat": seat, "ply": ply})
            return True
        except Exception:  # noqa: BLE001 - Redis away: the resync after it returns requeues
            self.failed += 1
            log.warning("could not queue the bot move of room %s (Redis unavailable)",
                        room_id)
            return False

    async def close(self) -> None:
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


Job = Callable[[str, int, int], Awaitable[bool]]
"""Handles (room, seat, ply); True when done (stored, or no longer wanted), False to leave it
pending so that it is retried (e.g. the database refused to store it)."""


class Consumer:
    """A worker's side: ``slots`` jobs at a time, each acknowledged only once handled."""

    def __init__(self, url: str, handle: Job, slots: int, name: str | None = None) -> None:
        self.url = url
        self.handle = handle
        self.slots = slots
        self.name = name or consumer_name()
        self.redis = _client(url)
        self._running: set[str] = set()
        self.done = 0
        self.reclaimed = 0

    async def _ensure_group(self) -> None:
        try:
            await self.redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except Exception as exc:  # noqa: BLE001 - BUSYGROUP: it exists already
            if "BUSYGROUP" not in str(exc):
                raise

    async def run(self) -> None:
        """Take jobs until cancelled; then every slot's loop has ended when this returns
        (each loop also stops at its next turn if a Redis call swallowed its cancellation:
        :mod:`.tasks`)."""
        while True:
            check_cancelled()
            try:
                await self._ensure_group()
                break
            except Exception:  # noqa: BLE001 - Redis not up yet
                await asyncio.sleep(0.5)
        tasks = [asyncio.create_task(self._loop(i)) for i in range(self.slots)]
        tasks.append(asyncio.create_task(self._heartbeat()))
        try:
            await asyncio.gather(*tasks)
        finally:
            await cancel_and_wait(tasks)

    async def _next(self, index: int) -> tuple[str, dict[str, str]] | None:
        # first a job whose worker died (pending, untouched for CLAIM_IDLE), then a new one
        if index == 0:
            claimed = await self.redis.xautoclaim(STREAM, GROUP, self.name,
                                                  int(CLAIM_IDLE * 1000), "0-0", count=1)
            entries = claimed[1] if claimed else []
            for entry_id, fields in entries:
                if fields:
                    self.reclaimed += 1
                    print(f"took over job {entry_id} from a worker that stopped", flush=True)
                    return entry_id, fields
                await self.redis.xack(STREAM, GROUP, entry_id)  # deleted meanwhile
        got = cast("list[tuple[str, list[tuple[str, dict[str, str]]]]] | None",
                   await self.redis.xreadgroup(GROUP, self.name, {STREAM: ">"}, count=1,
                                               block=1000))  # decode_responses: str
        for _stream, entries in got or []:
            for entry_id, fields in entries:
                return entry_id, fields
        return None

    async def _loop(self, index: int) -> None:
        while True:
            check_cancelled()
            try:
                job = await self._next(index)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: wait for it
                await asyncio.sleep(0.5)
                continue
            if job is None:
                continue
            entry_id, fields = job
            self._running.add(entry_id)
            try:
                ok = await self.handle(fields["room"], int(fields["seat"]), int(fields["ply"]))
            except Exception:  # noqa: BLE001 - leave it pending: another try later
                log.exception("bot job %s failed; it will be retried", entry_id)
                ok = False
            finally:
                self._running.discard(entry_id)
            if ok:
                with contextlib.suppress(Exception):
                    await self.redis.xack(STREAM, GROUP, entry_id)
                    await self.redis.xdel(STREAM, entry_id)
                self.done += 1
            else:
                await asyncio.sleep(CLAIM_IDLE)  # it is reclaimed (by anyone) once idle

    async def _heartbeat(self) -> None:
        while True:
            check_cancelled()
            await asyncio.sleep(HEARTBEAT)
            if self._running:
                with contextlib.suppress(Exception):
                    await self.redis.xclaim(STREAM, GROUP, self.name, 0,
                                            list(self._running), justid=True)
