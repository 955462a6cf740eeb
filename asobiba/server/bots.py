"""Bots run off the event loop, in a process pool, each move under a time limit.

A bot is rebuilt for every move from (game, level, seed) and fed every view its seat has
received, in order, exactly as the runner does — so a worker process needs no memory between
moves, any worker can serve any room, and a bot never sees a State. A bot that overruns its
time limit is abandoned: its worker processes are killed and the pool is replaced, and the
server plays a seeded random legal move for it instead (said so in the room's log).
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any


def choose_move(game_id: str, level: str, seed: int, seat: int, options: Mapping[str, Any],
                views: Sequence[Mapping[str, Any]]) -> str:
    """Worker entry point: the move a fresh bot picks after observing ``views``."""
    from ..games import get

    bot = get(game_id).make_bot(level, seed)
    bot.reset(seat, options)
    for view in views:
        bot.observe(view)
    return str(bot.choose(views[-1]))


def _warm(game_ids: Sequence[str]) -> int:
    """Import the games in a worker ahead of the first move (keeps first moves fast)."""
    from ..games import get

    for gid in game_ids:
        get(gid)
    return len(game_ids)


class BotTimeout(Exception):
    pass


class PoolReplaced(RuntimeError):
    """A queued bot move was dropped by pool replacements more often than it was retried."""


RETRIES = 2  # resubmissions after another room's runaway bot broke or replaced the pool


class BotPool:
    """A replaceable executor. ``processes=0`` runs bots in threads (tests, tiny machines)."""

    def __init__(self, processes: int = 2, time_limit: float = 10.0) -> None:
        self.processes = processes
        self.time_limit = time_limit
        self._executor: Executor | None = None

    def _make(self) -> Executor:
        if self.processes <= 0:
            return ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")
        return ProcessPoolExecutor(max_workers=self.processes,
                                   mp_context=multiprocessing.get_context("spawn"))

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self._make()
        return self._executor

    def warm(self, game_ids: Sequence[str]) -> None:
        for _ in range(max(1, self.processes)):
            self.executor.submit(_warm, list(game_ids))

    async def run(self, fn: Callable[..., Any], *args: Any,
                  time_limit: float | None = None) -> Any:
        """``fn(*args)`` in the pool; :class:`BotTimeout` after the time limit.

        Another room's runaway bot replaces the shared pool, which breaks the jobs running
        in it (``BrokenProcessPool``) and cancels the jobs still queued. Neither is this
        job's fault, so it is submitted again to the new pool; only a cancellation of the
        awaiting task itself (the room no longer wants the move) is passed on.
        """
        limit = self.time_limit if time_limit is None else time_limit
        for attempt in range(RETRIES + 1):
            executor = self.executor
            job = executor.submit(fn, *args)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(job), limit)
            except TimeoutError:
                self._replace(executor)
                raise BotTimeout(f"no answer within {limit:g} s") from None
            except BrokenProcessPool:
                self._replace(executor)
                if attempt == RETRIES:
                    raise
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not job.cancelled() or (task is not None and task.cancelling()):
                    raise
                if attempt == RETRIES:
                    raise PoolReplaced("the bot pool was replaced again and again while this "
                                       "move waited") from None
        raise AssertionError("unreachable")

    def _replace(self, executor: Executor) -> None:
        if self._executor is not executor:
            return
        self._executor = None
        if isinstance(executor, ProcessPoolExecutor):
            for proc in list(getattr(executor, "_processes", {}).values()):
                proc.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        if self._executor is not None:
            executor, self._executor = self._executor, None
            if isinstance(executor, ProcessPoolExecutor):
                for proc in list(getattr(executor, "_processes", {}).values()):
                    proc.terminate()
            executor.shutdown(wait=False, cancel_futures=True)
