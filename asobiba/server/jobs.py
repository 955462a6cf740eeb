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
every process that sees a bot to move may enqueue without doubling it. The marker and the
entry are written by one Lua script (atomically: a marker set by a call whose ``XADD`` then
failed left the turn marked as queued with no job, for a day), and the marker holds the
entry's id, so that :meth:`RedisJobs.requeue` can tell a job still in the stream from one that
was lost (Redis restarted, a stream cut short) and add it again.

Faults (docs/web.md, "Faults"): a call that fails raises :class:`QueueUnavailable` and the
caller retries until the job is queued (:meth:`.rooms.Hub.schedule_bots`); a worker whose
group vanished (Redis restarted without its data: ``NOGROUP``) creates it again and goes on,
and backs off (0.25 s doubling to 5 s) while Redis is away.
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
    from redis.commands.core import AsyncScript

log = logging.getLogger("asobiba.server.jobs")

STREAM = "asobiba:bot-jobs"
GROUP = "bot-workers"
CLAIM_IDLE = 5.0   # seconds without a heartbeat before a job is taken from its worker
HEARTBEAT = 1.0
MARKER_TTL = 24 * 3600
BACKOFF_FIRST = 0.25  # seconds before the first new try after a failed Redis call
BACKOFF_MAX = 5.0
WORKER_BACKOFF_MAX = 2.0
"""A worker waits at most this between its tries while Redis is away (there are few workers;
the web processes' queuing retries are woken when Redis is back instead)."""
IN_PLACE_RETRIES = (0.0, 0.5, 1.0)
"""Waits before each try of a job by the worker holding it, before it is left pending."""
SWEEP_SLACK = 20.0
"""A bot turn waiting longer than the bot time limit plus this is looked at by the web
processes' sweeper (:meth:`.rooms.Hub.sweep_bots`): is its job still queued?"""

# KEYS: marker, stream; ARGV: room, seat, ply, ttl. 1: queued now, 0: queued before
_ENQUEUE = """
if redis.call('SET', KEYS[1], '-', 'NX', 'EX', ARGV[4]) then
  local id = redis.call('XADD', KEYS[2], '*', 'room', ARGV[1], 'seat', ARGV[2], 'ply', ARGV[3])
  redis.call('SET', KEYS[1], id, 'EX', ARGV[4])
  return 1
end
return 0
"""
# the same, but queued again unless the entry the marker names is still in the stream
# (waiting, or held by a worker: a dead worker's job is taken over by XAUTOCLAIM instead)
_REQUEUE = """
local id = redis.call('GET', KEYS[1])
if id and id ~= '-' and #redis.call('XRANGE', KEYS[2], id, id) > 0 then
  return 0
end
local new = redis.call('XADD', KEYS[2], '*', 'room', ARGV[1], 'seat', ARGV[2], 'ply', ARGV[3])
redis.call('SET', KEYS[1], new, 'EX', ARGV[4])
return 1
"""


class QueueUnavailable(Exception):
    """The job could not be queued (Redis away): try again later."""


def marker(room_id: str, seat: int, ply: int, after: str = "") -> str:
    """The key saying the job of (room, seat, ply) is queued. ``after`` names the position
    (the time stamp of the move before ``ply``, the same at every process): after an undo the
    same ply comes again in a new position, and its job must be queued again (keyed by the
    ply alone, the marker of the undone turn said "queued" for a day: the bot never moved)."""
    key = f"asobiba:bot-job:{room_id}:{seat}:{ply}"
    return f"{key}:{after}" if after else key


def backoff(delay: float, most: float = BACKOFF_MAX) -> float:
    """The next wait after ``delay`` (doubling, at most ``most``)."""
    return min(most, delay * 2)


def _client(url: str) -> Redis:
    import redis.asyncio as aioredis

    return aioredis.Redis.from_url(url, socket_connect_timeout=2, health_check_interval=5,
                                   decode_responses=True)


class RedisJobs:
    """The web processes' side: put a bot move on the queue."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._redis: Redis | None = None
        self._scripts: dict[str, AsyncScript] = {}
        self.failed = 0
        """Calls that failed (Redis away); each is tried again by its caller."""
        self.requeued = 0
        """Jobs queued again by the sweeper because theirs was no longer in the stream."""

    def _r(self) -> Redis:
        if self._redis is None:
            self._redis = _client(self.url)
        return self._redis

    async def enqueue(self, room_id: str, seat: int, ply: int, after: str = "") -> bool:
        """Queue the move of ``seat`` at ``ply``; False if it was queued already.
        :class:`QueueUnavailable` if Redis is away (nothing was queued: try again)."""
        return await self._script(_ENQUEUE, room_id, seat, ply, after)

    async def requeue(self, room_id: str, seat: int, ply: int, after: str = "") -> bool:
        """Queue the move again unless its job is still in the stream (the sweeper of turns
        waiting past their deadline: a job lost with Redis's data). True if queued now. A
        job for a ply already played is a no-op at the worker (:meth:`.rooms.Hub.bot_job`)."""
        queued = await self._script(_REQUEUE, room_id, seat, ply, after)
        if queued:
            self.requeued += 1
        return queued

    async def _script(self, source: str, room_id: str, seat: int, ply: int,
                      after: str) -> bool:
        r = self._r()
        try:
            # EVALSHA, loading the script again after a restart emptied Redis's cache
            script = self._scripts.get(source)
            if script is None:
                script = self._scripts[source] = r.register_script(source)
            return bool(await script(keys=[marker(room_id, seat, ply, after), STREAM],
                                     args=[room_id, seat, ply, MARKER_TTL]))
        except Exception as exc:  # noqa: BLE001 - Redis away: the caller tries again
            self.failed += 1
            raise QueueUnavailable(f"could not queue the bot move of room {room_id} "
                                   f"(Redis unavailable: {exc})") from None

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
        self.regrouped = 0
        """Times the consumer group was found gone (NOGROUP: Redis lost its data) and made
        again."""

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
                await asyncio.sleep(BACKOFF_FIRST)
        tasks = [asyncio.create_task(self._loop(i)) for i in range(self.slots)]
        tasks.append(asyncio.create_task(self._heartbeat()))
        try:
            await asyncio.gather(*tasks)
        finally:
            await cancel_and_wait(tasks)

    async def _next(self, index: int) -> tuple[str, dict[str, str]] | None:
        try:
            return await self._take(index)
        except Exception as exc:
            if "NOGROUP" not in str(exc):
                raise
        # Redis restarted without its data: the stream and its group are gone, and the web
        # processes' next XADD makes the stream alone. Made again from id 0, the group is
        # handed every job queued meanwhile (before this, every read failed for good)
        await self._ensure_group()
        self.regrouped += 1
        print("the job group was gone (Redis lost its data); made it again", flush=True)
        return None

    async def _take(self, index: int) -> tuple[str, dict[str, str]] | None:
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
        delay = BACKOFF_FIRST
        while True:
            check_cancelled()
            try:
                job = await self._next(index)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: wait for it, a little longer
                await asyncio.sleep(delay)  # each time (the client reconnects by itself)
                delay = backoff(delay, WORKER_BACKOFF_MAX)
                continue
            delay = BACKOFF_FIRST
            if job is None:
                continue
            entry_id, fields = job
            self._running.add(entry_id)
            ok = False
            try:
                # a job whose move could not be stored (the database restarting: the first
                # write on a connection it dropped fails) is tried again here at once, then
                # after 0.5 s and 1 s (held: the heartbeat goes on); then left pending for
                # whoever takes it next. (Left pending at once, it waited CLAIM_IDLE.)
                for wait in IN_PLACE_RETRIES:
                    if wait:
                        await asyncio.sleep(wait)
                    try:
                        ok = await self.handle(fields["room"], int(fields["seat"]),
                                               int(fields["ply"]))
                    except Exception:  # noqa: BLE001 - leave it pending: another try later
                        log.exception("bot job %s failed; it will be retried", entry_id)
                        ok = False
                    if ok:
                        break
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
