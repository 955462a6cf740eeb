"""The bot pool's rules (issue 13 item 2, issue 15 item 8), the same in the embedded server
and in every ``asobiba worker``: a move's time limit starts when a slot starts it (not while
it waits for one), an overrunning move replaces only its own slot, and a slot builds its
per-process caches (FlipFlop 3×3's solved table) before it takes its first move."""

from __future__ import annotations

import asyncio

import pytest

from asobiba.server.bots import BotPool, BotTimeout

from .helpers import quick, slow


def table_was_built() -> bool:
    from asobiba.games.flipflop import solver3

    return "full" in solver3._CACHE


def test_rule_waiting_for_a_slot_does_not_count_against_the_time_limit() -> None:
    """Eight 2 s moves on four slots with a 3 s limit: the second four wait ~2 s for a slot,
    then run 2 s; measured from submission they would be over the limit, from their start
    they are not."""
    pool = BotPool(processes=0, time_limit=3.0)  # four thread slots

    async def scenario() -> list[str]:
        return list(await asyncio.gather(*(pool.run(slow, 2.0) for _ in range(8))))

    try:
        assert asyncio.run(scenario()) == ["done"] * 8
    finally:
        pool.shutdown()


def test_rule_an_overrunning_move_replaces_only_its_own_bot_process() -> None:
    """Two bot processes: one move overruns its limit while the other is mid-move. The
    overrunning process is killed and replaced; the other move finishes normally in its
    own, untouched process, and the pool answers afterwards."""
    pool = BotPool(processes=2, time_limit=60)

    async def scenario() -> None:
        pool.warm([])
        # both slots ready first (spawned processes start slowly on a loaded machine)
        await asyncio.gather(*(pool.run(quick, 1) for _ in range(2)))
        survivors = list(pool._slots)
        runaway = asyncio.create_task(pool.run(slow, 60, time_limit=2.0))
        steady = asyncio.create_task(pool.run(slow, 4.0, time_limit=120))
        with pytest.raises(BotTimeout):
            await runaway
        assert await steady == "done", "the other move was not broken by the replacement"
        assert pool.replaced == 1
        assert len([s for s in pool._slots if s in survivors]) == 1, "one slot replaced"
        assert await pool.run(quick, 21, time_limit=120) == 42

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()


def test_rule_a_bot_slot_builds_the_flipflop_table_before_its_first_move() -> None:
    """Issue 15 item 8: no CPU's first move waits on a table built for it — a slot runs the
    games' ``warm_caches`` hooks when it starts and takes moves only after them."""
    from asobiba.games.flipflop import solver3

    solver3._CACHE.pop("full", None)
    pool = BotPool(processes=0, time_limit=60)  # threads: the test can see the cache

    async def scenario() -> bool:
        pool.warm(["flipflop"])
        return bool(await pool.run(table_was_built))

    try:
        assert asyncio.run(scenario()), "the first move ran before the table was built"
    finally:
        pool.shutdown()


def test_a_pool_shut_down_waiting_leaves_nothing_for_pythons_exit_to_race() -> None:
    """A worker stopped with SIGTERM logged ``OSError: [Errno 9] Bad file descriptor``:
    Python's exit clean-up of ProcessPoolExecutor writes to every manager thread's wake-up
    pipe without a lock, while a manager thread whose bot process was just killed closes
    that pipe. ``shutdown(wait=True)`` — what ``asobiba worker`` and the web app call when
    they stop — returns only once every process slot's manager thread has ended and closed
    its pipe, so the exit clean-up finds nothing running (its wake-up of a closed pipe is a
    no-op). Without the wait the threads are still running when it returns."""
    pool = BotPool(processes=2, time_limit=60)

    async def start() -> None:
        pool.warm([])
        await asyncio.gather(*(pool.run(quick, 1) for _ in range(2)))

    try:
        asyncio.run(start())
        executors = [slot.executor for slot in pool._slots]
        threads = [getattr(ex, "_executor_manager_thread", None) for ex in executors]
        wakeups = [getattr(ex, "_executor_manager_thread_wakeup", None) for ex in executors]
        assert len(threads) == 2 and all(t is not None and t.is_alive() for t in threads)
    finally:
        pool.shutdown(wait=True)
    assert not any(t.is_alive() for t in threads if t is not None)
    assert all(w is not None and w._closed for w in wakeups)
