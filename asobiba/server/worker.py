"""``asobiba worker``: a bot worker of the scaled mode.

One worker process is one consumer of the Redis bot-job queue (:mod:`.jobs`) with
``processes`` bot slots (:class:`.bots.BotPool`): it takes a job only when a slot is free,
so a move's time limit starts when the move starts. For each job it loads the room from the
database, computes the bot's move from that seat's views alone, and stores it through the
same room code as a web process (:meth:`.rooms.Hub.bot_job`): the per-room ply check makes a
repeated job a no-op, and the committed move is announced on the room bus, so every web
process tells its connections. Run as many workers, on as many machines, as the bots need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Coroutine

from ..games import available, get
from .bots import BotPool
from .bus import RedisBus
from .db import Store
from .jobs import Consumer, RedisJobs
from .rooms import Hub
from .tasks import cancel_and_wait

log = logging.getLogger("asobiba.server.worker")


async def work(db_url: str, redis_url: str, processes: int = 2, time_limit: float = 10.0,
               ready: Callable[[], object] | None = None) -> None:
    store = Store(db_url)
    pool = BotPool(processes, time_limit, games=available())
    bus, jobs = RedisBus(redis_url), RedisJobs(redis_url)
    hub = Hub(store, pool, get, bus=bus, jobs=jobs, clocks=False)
    try:  # a game a bot finishes is recorded and rated here, as a web process would
        from .progress import ProgressionWeb

        hub.on_finish = ProgressionWeb(store.engine, lambda: hub).on_finish
    except Exception:  # noqa: BLE001 - the bots still play; say so
        log.exception("progression is not available in this worker")

    await bus.start(None)  # it publishes only: it holds no room between jobs
    pool.warm(available())
    # every slot warmed (games imported, caches built) before the first job is taken
    for slot in list(pool._slots):
        with contextlib.suppress(Exception):
            await slot.ready
    consumer = Consumer(redis_url, hub.bot_job, max(1, pool.size))
    print(f"asobiba worker {consumer.name}: {pool.size} bot slot(s), taking jobs",
          flush=True)
    if ready is not None:
        ready()
    try:
        await consumer.run()
    finally:
        await bus.close()
        await jobs.close()
        pool.shutdown(wait=True)  # the bot processes gone before Python's exit clean-up
        store.close()


RECANCEL = 1.0
"""Seconds between the cancellations of a stopping worker's work (see :func:`until_stopped`)."""


async def until_stopped(job: Coroutine[object, object, None], stop: asyncio.Event) -> None:
    """Run ``job`` until it ends or ``stop`` is set; then cancel it, and cancel it again
    every :data:`RECANCEL` seconds until it has ended. Once was not always enough: about
    one SIGTERM in a hundred left the worker idle on its event loop for ever (a
    faulthandler dump showed only ``select``): the one cancellation had been lost on the
    way, most likely inside a library call completing at that moment (where exactly was not
    pinned down: the job consumer's Redis calls, cancelled at 350 random moments, never lost
    one). Its ``finally`` blocks run as usual."""
    working = asyncio.ensure_future(job)
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({working, stopping}, return_when=asyncio.FIRST_COMPLETED)
        await cancel_and_wait([working], every=RECANCEL)
    finally:
        stopping.cancel()
    if not working.cancelled():
        working.result()  # its error, if it failed


def run(db_url: str, redis_url: str, processes: int = 2, time_limit: float = 10.0) -> None:
    """Work until SIGTERM / SIGINT."""
    logging.basicConfig(level=logging.WARNING)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        def stopping(sig: signal.Signals) -> None:
            if not stop.is_set():
                print(f"asobiba worker: stopping ({sig.name})", flush=True)
            stop.set()

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping, sig)
        await until_stopped(work(db_url, redis_url, processes, time_limit), stop)

    asyncio.run(main())
