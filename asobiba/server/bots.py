"""Bots run off the event loop, in a process pool, each move under a time limit.

A bot is rebuilt for every move from (game, level, seed) and fed every view its seat has
received, in order, exactly as the runner does — so a worker process needs no memory between
moves, any worker can serve any room, and a bot never sees a State. A bot that overruns its
time limit is abandoned: its process alone is killed and replaced, and the server plays a
seeded random legal move for it instead (said so in the room's log).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar, TypeVarTuple

from ..core.jsontypes import JSONMapping
from ..play.runner import Pick, pick

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


def bot_pick(game_id: str, level: str, seed: int, seat: int, options: JSONMapping,
             views: Sequence[JSONMapping]) -> Pick:
    """Bot process entry point: the bot's side of the one bot-turn step
    (:func:`asobiba.play.runner.pick`) — a fresh bot, shown ``views`` in order, picks from
    the last one; with the seconds it thought. The web process settles it against the room's
    state (:func:`asobiba.play.runner.settle`)."""
    from ..games import get

    bot = get(game_id).make_bot(level, seed)
    bot.reset(seat, options)
    for view in views:
        bot.observe(view)
    return pick(bot, seat, view=views[-1])


def choose_move(game_id: str, level: str, seed: int, seat: int, options: JSONMapping,
                views: Sequence[JSONMapping]) -> str:
    """The move a fresh bot picks after observing ``views`` (its text)."""
    return str(bot_pick(game_id, level, seed, seat, options, views).move)


def _warm(game_ids: Sequence[str]) -> int:
    """Import the games in a bot process ahead of its first move and build each game's
    per-process caches (its ``warm_caches`` hook, e.g. FlipFlop 3×3's solved table), so
    that no move ever waits on a table built for it."""
    from ..games import get

    for gid in game_ids:
        warm = getattr(get(gid), "warm_caches", None)
        if callable(warm):
            warm()
    return len(game_ids)


class BotTimeout(Exception):
    pass


class PoolReplaced(RuntimeError):
    """A bot move whose bot process died under it again and again (it was retried)."""


RETRIES = 2  # resubmissions after the bot process died under a move (not an overrun)


class _Slot:
    """One bot process (or thread) running one move at a time. It is warmed (games
    imported, per-process caches such as FlipFlop 3×3's solved table built) before it takes
    its first move, and replaced alone when a move in it overruns or its process dies."""

    def __init__(self, processes: bool, games: Sequence[str]) -> None:
        if processes:
            self.executor: Executor = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        else:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
        self.ready = asyncio.wrap_future(self.executor.submit(_warm, list(games)))

    def kill(self, wait: bool = False) -> None:
        """Kill the slot's process (a thread cannot be stopped: it is left to finish).
        ``wait``: also until the executor's manager thread has seen the process go and
        closed its pipes (:meth:`BotPool.shutdown`)."""
        executor = self.executor
        processes = isinstance(executor, ProcessPoolExecutor)
        if processes:
            for proc in list(getattr(executor, "_processes", {}).values()):
                proc.kill()
        executor.shutdown(wait=wait and processes, cancel_futures=True)


class BotPool:
    """``processes`` bot slots (``processes=0``: four threads, for tests and tiny machines).

    A move's time limit starts when a slot *starts* it, never while it waits for a free
    slot; a move that overruns kills and replaces only its own slot — the other moves
    running meanwhile are untouched. The same rules hold in a bot worker of the scaled mode,
    which runs one of these pools."""

    def __init__(self, processes: int = 2, time_limit: float = 10.0,
                 games: Sequence[str] = ()) -> None:
        self.processes = processes
        self.time_limit = time_limit
        self.games = list(games)
        self._slots: list[_Slot] = []
        self._free: asyncio.Queue[_Slot] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.replaced = 0
        """Slots replaced because a move overran or its process died."""

    @property
    def size(self) -> int:
        return self.processes if self.processes > 0 else 4

    def warm(self, game_ids: Sequence[str]) -> None:
        """Start (and warm) every slot now, so no first move waits on it."""
        self.games = list(game_ids)
        self._ensure()

    def _ensure(self) -> asyncio.Queue[_Slot]:
        loop = asyncio.get_running_loop()
        if self._free is None or self._loop is not loop:
            self.shutdown()
            self._loop, self._free = loop, asyncio.Queue()
            for _ in range(self.size):
                self._add_slot()
        return self._free

    def _add_slot(self) -> None:
        slot = _Slot(self.processes > 0, self.games)
        self._slots.append(slot)
        free = self._free
        assert free is not None

        def ready(fut: asyncio.Future[int]) -> None:  # warm (or not): it may take moves
            if not fut.cancelled():
                fut.exception()  # a failed warm-up shows up again in the moves themselves
            if slot in self._slots:
                free.put_nowait(slot)

        slot.ready.add_done_callback(ready)

    def _replace(self, slot: _Slot) -> None:
        if slot in self._slots:
            self._slots.remove(slot)
            slot.kill()
            self.replaced += 1
            self._add_slot()

    async def run(self, fn: Callable[[*Ts], T], *args: *Ts,
                  time_limit: float | None = None) -> T:
        """``fn(*args)`` in a free slot; :class:`BotTimeout` once it has run for the time
        limit (the time spent waiting for a slot does not count)."""
        limit = self.time_limit if time_limit is None else time_limit
        free = self._ensure()
        for attempt in range(RETRIES + 1):
            slot = await free.get()
            job = slot.executor.submit(fn, *args)
            try:
                result = await asyncio.wait_for(asyncio.wrap_future(job), limit)
            except TimeoutError:
                self._replace(slot)
                raise BotTimeout(f"no answer within {limit:g} s") from None
            except BrokenProcessPool:  # its process died (killed): a fresh slot, again
                self._replace(slot)
                if attempt == RETRIES:
                    raise PoolReplaced("the bot process died under this move again and "
                                       "again") from None
                continue
            except BaseException:
                if job.done() or job.cancel():
                    free.put_nowait(slot)
                else:  # cancelled while running: the slot is busy until it ends
                    def release(_done: Future[T], s: _Slot = slot) -> None:
                        self._release(s)

                    job.add_done_callback(release)
                raise
            free.put_nowait(slot)
            return result
        raise AssertionError("unreachable")

    def _release(self, slot: _Slot) -> None:
        if self._free is not None and slot in self._slots and self._loop is not None:
            self._loop.call_soon_threadsafe(self._free.put_nowait, slot)

    def shutdown(self, wait: bool = False) -> None:
        """Kill every slot. ``wait`` (a process about to exit: ``asobiba worker``, the web
        app's shutdown): also wait until each process slot's manager thread has ended. Left
        running, it races Python's exit: the interpreter's clean-up of ProcessPoolExecutor
        wakes every manager thread through its pipe, unlocked, while a thread whose process
        was just killed closes that pipe — ``OSError: [Errno 9] Bad file descriptor`` in
        the log of a worker stopped with SIGTERM (CPython 3.11's ``_python_exit``)."""
        slots, self._slots = self._slots, []
        for slot in slots:
            slot.kill(wait)
        self._free = None
