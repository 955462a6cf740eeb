"""The room bus: how one server process tells the others that a room changed.

The database is the truth; the bus only says "room R changed, here is what happened" so that
every process holding R can update its connections at once. Two buses, one interface:

* :class:`LocalBus` — the embedded mode (one process): there is nobody else to tell, so
  publishing does nothing and nothing is ever received;
* :class:`RedisBus` — the scaled mode: Redis pub/sub on one channel. A process publishes
  each committed change after its commit; every other process receives it and updates the
  rooms it holds. Publishing never waits on Redis (a move's acknowledgement follows its
  commit, not the fan-out): events go out in order from one background task. If Redis goes
  away, events are dropped while it is down — nothing is lost, because on reconnecting
  every process reloads every room it holds from the database (``on_reconnect``) and
  clients that reconnect are sent the stored position.

Pub/sub, not Streams, for the fan-out: a process that was not listening has nothing to catch
up on that the database does not already hold, so delivery to whoever is connected now is
exactly what is needed (the bot queue, where a job must not be lost, uses Streams).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from pydantic_core import from_json

from ..core.jsontypes import JSONObject
from . import eager
from .tasks import check_cancelled
from .wire import dumps

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("asobiba.server.bus")

Handler = Callable[[JSONObject], Awaitable[None]]
CHANNEL = "asobiba:rooms"


def process_id() -> str:
    """A name for this process on the bus, unique across machines and restarts."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


async def _nothing() -> None:
    return None


class LocalBus:
    """One process: nothing to fan out."""

    scaled = False

    def __init__(self) -> None:
        self.origin = process_id()

    async def start(self, on_event: Handler, on_reconnect: Callable[[], Awaitable[None]]
                    ) -> None:
        return None

    def publish(self, event: JSONObject) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    """Redis pub/sub between the web processes (and the bot workers, which publish)."""

    scaled = True
    RETRY = 0.5  # seconds between reconnection attempts while Redis is away

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = process_id()
        self._out: asyncio.Queue[JSONObject] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._rooms: dict[str, asyncio.Task[None]] = {}
        """Per room, the task handling the newest event received for it."""
        self.connected = asyncio.Event()
        self.dropped = 0
        """Events not published because Redis was away (the receivers resync instead)."""

    def _client(self) -> Redis:
        import redis.asyncio as aioredis

        return aioredis.Redis.from_url(self.url, socket_connect_timeout=2,
                                       health_check_interval=5)

    async def start(self, on_event: Handler | None,
                    on_reconnect: Callable[[], Awaitable[None]] | None = None) -> None:
        """Publish, and (with ``on_event``) receive the other processes' events. A bot
        worker holds no room between jobs and only publishes: it does not subscribe, so it
        does not parse every event of every room of the cluster."""
        self._out = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._publisher())]
        if on_event is None:
            return
        self._tasks.append(loop.create_task(self._listen(on_event, on_reconnect or _nothing)))
        with contextlib.suppress(TimeoutError):  # serve anyway; fan-out starts when it can
            await asyncio.wait_for(self.connected.wait(), 10)

    def publish(self, event: JSONObject) -> None:
        if self._out is not None:
            self._out.put_nowait({**event, "origin": self.origin})

    async def _publisher(self) -> None:
        assert self._out is not None
        client = self._client()
        try:
            while True:
                check_cancelled()  # a publish that swallowed the stop (.tasks)
                # everything queued now goes out in one pipeline: one write to Redis for a
                # burst of moves instead of one round trip each (the order is kept)
                events = [await self._out.get()]
                while not self._out.empty() and len(events) < 500:
                    events.append(self._out.get_nowait())
                datas = [dumps(event) for event in events]
                for attempt in range(4):
                    try:
                        if len(datas) == 1:
                            await client.publish(CHANNEL, datas[0])
                        else:
                            pipe = client.pipeline(transaction=False)
                            for data in datas:
                                pipe.publish(CHANNEL, data)
                            await pipe.execute()
                        break
                    except Exception:  # noqa: BLE001 - a dropped connection: a new one
                        with contextlib.suppress(Exception):
                            await client.aclose()
                        client = self._client()
                        if attempt == 3 or not self._out.empty():
                            # Redis away: the database has the change, and every process
                            # reloads what it holds once Redis is back
                            self.dropped += len(datas)
                            log.warning("room event not published (Redis unavailable)")
                            break
                        await asyncio.sleep(0.2)
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _listen(self, on_event: Handler,
                      on_reconnect: Callable[[], Awaitable[None]]) -> None:
        ever = False  # subscribed before: a later subscription follows a gap
        while True:
            check_cancelled()
            client = self._client()
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(CHANNEL)
                self.connected.set()
                if ever:  # events were missed while away: reload what we hold
                    log.info("Redis is back; resyncing rooms")
                    await on_reconnect()
                ever = True
                async for message in pubsub.listen():
                    check_cancelled()  # a read that swallowed the stop (.tasks)
                    if message.get("type") != "message":
                        continue
                    try:
                        event = from_json(message["data"])
                    except (TypeError, ValueError):
                        continue
                    if event.get("origin") == self.origin:
                        continue
                    self._dispatch(on_event, event)
                # listen() ends when the connection drops: fall through and reconnect
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: keep trying
                if self.connected.is_set():
                    log.warning("lost Redis (%s); reconnecting", exc)
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(self.RETRY)

    def _dispatch(self, on_event: Handler, event: JSONObject) -> None:
        """Handle ``event`` after the events received before it for the same room (a room's
        changes apply in order), but without waiting for other rooms' events. Handled one
        after another, an event waiting for its room's lock (a move of that room being
        committed here) held up every room's events behind it: with a hundred busy rooms
        per process that queue was seconds long (docs/benchmarks.md, "The room bus")."""
        key = str(event.get("room"))  # lobby events (no room) keep their own order
        before = self._rooms.get(key)
        # handled now, in the listener's turn of the loop (asobiba.server.eager), unless it
        # must wait (for the room's earlier event, or its lock): then a task carries it on.
        # A task per event ran only on a later turn of the loop, after everything already
        # ready: under load, one more wait before the move reached the connections here
        task = eager.start(self._handle(on_event, event, before))
        if task is None:
            return
        self._rooms[key] = task

        def done(t: asyncio.Task[None], key: str = key) -> None:
            if self._rooms.get(key) is t:
                del self._rooms[key]

        task.add_done_callback(done)

    @staticmethod
    async def _handle(on_event: Handler, event: JSONObject,
                      before: asyncio.Task[None] | None) -> None:
        if before is not None:
            with contextlib.suppress(BaseException):  # its failure is logged by itself
                await asyncio.shield(before)  # cancelling this one must not cancel that
        try:
            await on_event(event)
        except Exception:  # noqa: BLE001 - one bad room must not stop the bus
            log.exception("room event failed: %r", event)

    async def close(self) -> None:
        for task in list(self._rooms.values()):
            task.cancel()
        self._rooms.clear()
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded: a Redis call stuck in a dead socket must not hang a stop
            await asyncio.wait(self._tasks, timeout=5)
        self._tasks = []
