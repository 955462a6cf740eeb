"""Bots: scheduling a bot's turn (here, in the bot pool; or queued for a bot worker in the
scaled mode), retrying a turn that failed, and the worker's side of a job."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, MutableMapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ...core import Rng
from ...core.rng import derive_seed
from ...play.runner import BotTurn
from ..db import RoomData, Store
from . import notes
from .errors import ClientError
from .notes import Note

if TYPE_CHECKING:
    from ..bots import BotPool
    from ..bus import LocalBus, RedisBus
    from ..jobs import RedisJobs
    from .conn import Ack
    from .state import Room

log = logging.getLogger("asobiba.server")
BOT_RETRY = 2.0  # seconds before a bot turn that failed unexpectedly is tried again


def fallback_notes(turn: BotTurn, seat: int) -> list[Note]:
    """The note of a bot turn that fell back to a random legal move (none otherwise)."""
    if turn.fallback is None:
        return []
    return [notes.bot_fallback(seat, turn.fallback, turn.detail)]


class BotHost(Protocol):
    """What the bots need from the rooms' hub: the rooms held (a worker holds one for the
    time of a job), a background task, the move itself, and a room built from the store."""

    @property
    def rooms(self) -> MutableMapping[str, Room]: ...

    def spawn(self, coro: Coroutine[object, object, object]) -> None: ...

    async def play(self, room: Room, seat: int, text: object, expect_ply: object = None,
                   notes: Sequence[Note] = (), ack: Ack | None = None) -> bool: ...

    async def ensure_cpu_key(self) -> bytes: ...

    def build(self, data: RoomData) -> Room: ...


class Bots:
    """The bot turns of every room of a hub: in ``pool`` here, or queued on ``jobs`` for a
    bot worker (the scaled mode); ``delay`` seconds before each (a person can follow)."""

    def __init__(self, host: BotHost, store: Store, bus: LocalBus | RedisBus, pool: BotPool,
                 jobs: RedisJobs | None = None, delay: float = 0.0) -> None:
        self.host = host
        self.store = store
        self.bus = bus
        self.pool = pool
        self.jobs = jobs
        self.delay = delay
        self.queueing: set[tuple[str, int, int]] = set()
        """Bot turns (room, seat, ply) whose job this process is queuing (or retrying)."""
        self.redis_back = asyncio.Event()
        """Set (and replaced) when the bus is back after a gap: the queuing retries wake."""

    def wake_queued(self) -> None:
        """The bus is back after a gap: the bot jobs waiting to be queued try again now."""
        self.redis_back.set()
        self.redis_back = asyncio.Event()

    def schedule_bots(self, room: Room) -> None:
        if room.status != "active":
            return
        if self.jobs is not None:  # scaled: a bot worker makes the move (queued once)
            for seat in room.state.acting_seats:
                key = (room.id, seat, len(room.moves))
                if room.seats[seat].kind == "bot" and key not in self.queueing:
                    self.queueing.add(key)
                    self.host.spawn(self.queue(room, seat, len(room.moves)))
            return
        for seat in room.state.acting_seats:
            if room.seats[seat].kind == "bot" and seat not in room.bot_tasks:
                room.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                    self.turn(room, seat, room.version, len(room.moves)))

    async def queue(self, room: Room, seat: int, ply: int) -> None:
        """Queue the bot job of ``seat`` at ``ply``, trying again (0.25 s doubling to 5 s)
        while Redis is away, until it is queued or the room no longer waits for it. (Once,
        a failed call was only logged: the turn waited for a web process's restart.)"""
        from ..jobs import BACKOFF_FIRST, QueueUnavailable, backoff
        from ..tasks import check_cancelled

        jobs = self.jobs
        assert jobs is not None
        after = room.moves[ply - 1].at if ply else ""  # the position (undo: .jobs.marker)
        delay = BACKOFF_FIRST
        try:
            while room.status == "active" and len(room.moves) == ply:
                check_cancelled()  # a Redis call that swallowed the stop (.tasks)
                try:
                    await jobs.enqueue(room.id, seat, ply, after)
                    return
                except QueueUnavailable as exc:
                    if delay == BACKOFF_FIRST:
                        log.warning("%s; trying again", exc)
                back = self.redis_back
                with contextlib.suppress(TimeoutError):  # Redis back: at once
                    await asyncio.wait_for(back.wait(), delay)
                delay = backoff(delay)
        finally:
            self.queueing.discard((room.id, seat, ply))

    async def sweep_bots(self, deadline: float, every: float = 2.0) -> None:
        """Scaled mode, in each web process: a bot turn of a held room still waiting
        ``deadline`` seconds after this process first saw it is queued again if its job is
        no longer in the stream (lost with Redis's data; :meth:`.jobs.RedisJobs.requeue`),
        then again each further ``deadline``. A job for a ply played meanwhile (this copy of
        the room was behind) is a no-op at the worker, which tells the processes to reload."""
        from ..jobs import QueueUnavailable
        from ..tasks import check_cancelled

        jobs = self.jobs
        assert jobs is not None
        waiting: dict[tuple[str, int, int], float] = {}
        while True:
            check_cancelled()
            await asyncio.sleep(every)
            now = time.monotonic()
            seen: dict[tuple[str, int, int], float] = {}
            for room in list(self.host.rooms.values()):
                if room.status != "active":
                    continue
                for seat in room.state.acting_seats:
                    if room.seats[seat].kind != "bot":
                        continue
                    key = (room.id, seat, len(room.moves))
                    seen[key] = since = waiting.get(key, now)
                    if now - since < deadline:
                        continue
                    seen[key] = now  # the next look a deadline later
                    try:
                        after = room.moves[-1].at if room.moves else ""
                        if await jobs.requeue(*key, after):
                            log.warning("bot turn %s waited %.0f s and its job was gone: "
                                        "queued again", key, now - since)
                    except QueueUnavailable:
                        pass  # Redis away: the resync when it is back queues it
            waiting = seen

    async def turn(self, room: Room, seat: int, version: int, ply: int) -> None:

        me = asyncio.current_task()
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            turn = await self.bot_choice(room, seat, ply)
            if room.version != version:
                return
            try:
                await self.host.play(room, seat, turn.text, expect_ply=ply,
                                 notes=fallback_notes(turn, seat))
            except ClientError as exc:
                if exc.code == "not_stored":
                    raise
                if exc.code not in ("stale", "game_over"):
                    log.warning("bot move refused in room %s: %s", room.id, exc)
        except Exception:  # noqa: BLE001 - e.g. the store failed: try this turn again later
            log.exception("bot turn failed in room %s; retrying in %g s", room.id, BOT_RETRY)
            asyncio.get_running_loop().call_later(BOT_RETRY, self.schedule_bots, room)
        finally:
            if room.bot_tasks.get(seat) is me:
                del room.bot_tasks[seat]
            if room.version != version:
                self.schedule_bots(room)

    async def bot_choice(self, room: Room, seat: int, ply: int) -> BotTurn:
        """The bot turn of ``seat`` at ``ply``, through the one bot-turn step of
        :mod:`asobiba.play.runner`: the bot picks from its seat's views alone, in the pool,
        under its time limit (:func:`.bots.bot_pick`); the pick is settled against the
        room's state — a seeded random legal move instead if the bot overran, crashed or
        chose an illegal move (``turn.fallback``, and ``turn.note`` for the room's log)."""
        from ...play.runner import Fallback, Pick, settle
        from ..bots import BotTimeout, bot_pick

        views = room.views_for(seat)
        level = room.seats[seat].level or ""
        seed = derive_seed(room.cpu_seed, "bot", seat, ply) >> 1  # never the dealing seed
        picked: Pick | None = None
        failure: Fallback | None = None
        detail = ""
        try:
            picked = await self.pool.run(bot_pick, room.game.id, level, seed, seat,
                                         dict(room.options), views)
        except BotTimeout as exc:
            failure, detail = "timeout", str(exc)
        except Exception as exc:  # noqa: BLE001 - a crashing bot must not stop the game
            log.exception("bot crashed in room %s", room.id)
            failure, detail = "crash", type(exc).__name__
        return settle(room.state, seat, picked, failure=failure, detail=detail,
                      fallback=Rng(room.cpu_seed, "fallback", seat, ply))

    async def bot_job(self, room_id: str, seat: int, ply: int) -> bool:
        """A bot worker's job: make the move of ``seat`` at ``ply`` if the room still waits
        for it. True once done or no longer wanted (acknowledge the job); False if the move
        could not be stored (leave the job to be retried)."""
        room = self.host.rooms.pop(room_id, None)  # a worker holds a room only for one job
        data = await asyncio.to_thread(self.store.load_room, room_id)
        if data is None:
            return True
        await self.host.ensure_cpu_key()
        room = self.host.build(data)
        if (room.status != "active" or len(room.moves) != ply
                or seat not in room.state.acting_seats or room.seats[seat].kind != "bot"):
            if len(room.moves) > ply:
                # made already: perhaps by a worker killed after its commit and before it
                # published the move, so the web processes may not know: they reload it
                self.bus.publish({"kind": "sync", "room": room_id})
            return True  # made already (a repeated job) or no longer wanted
        self.host.rooms[room_id] = room
        try:
            turn = await self.bot_choice(room, seat, ply)
            await self.host.play(room, seat, turn.text, expect_ply=ply,
                             notes=fallback_notes(turn, seat))
        except ClientError as exc:
            return exc.code != "not_stored"
        finally:
            self.host.rooms.pop(room_id, None)
        return True

    def cancel(self, room: Room) -> None:
        for task in room.bot_tasks.values():
            task.cancel()
        room.bot_tasks.clear()
