"""Run a coroutine now, in the caller's turn of the event loop, up to its first wait.

A broadcast sends one message to each connection of a room. A send waits only while its
socket's buffer is full (uvicorn pauses the connection), which a healthy client never
makes it do; but a stuck client must not hold up the others, so each send may not simply
be awaited in turn. A task per send keeps them apart, but a new task runs only on the
event loop's *next* turn, after everything already ready: under load that turn was the
longest wait of a move (the other player's update, and so the room's next move, came a
loop turn later — docs/benchmarks.md, "Sends without a loop turn").

:func:`start` is Python 3.12's eager task start (``asyncio.eager_task_factory``) for this
one use, on Python 3.11: the coroutine runs at once; if it finishes without waiting
(nearly always) no task is made at all, and if it waits, a task carries it on from there.

Unlike 3.12's eager tasks, the coroutine's first part runs in the *caller's* task: code that
binds to the current task across a wait (``asyncio.timeout``, ``asyncio.current_task()``)
would bind to the wrong one. So only a coroutine whose every path is known not to do that
may be started here — a send through Starlette and uvicorn (``Hub.broadcast``), nothing
wider (a room event's handling reaches redis-py, which uses ``asyncio.timeout``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator


def start(coro: Coroutine[object, None, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` until it finishes or first waits. Finished: None (an exception it
    raised propagates here). Waiting: the task that finishes it (await or cancel it like
    any task; cancelling it cancels what the coroutine waits for, as a task's would)."""
    try:
        waited = coro.send(None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_carry_on(coro, waited))


async def _carry_on(coro: Coroutine[object, None, None], waited: object) -> None:
    """Drive ``coro`` on from a wait, as a task would: it yields what it waits for (a
    future, or nothing for one loop turn); wait for that here, then resume it. The future's
    outcome is what the coroutine sees when resumed; a cancellation of this task is thrown
    into the coroutine where it waits (its ``finally`` blocks run, as in a task)."""
    try:
        while True:
            try:
                if isinstance(waited, asyncio.Future):
                    # what a task's step does with a future its coroutine yields: take the
                    # "awaited by a task" mark the coroutine's await set (a future refuses
                    # a second await while it is set)
                    waited._asyncio_future_blocking = False
                    await waited
                else:
                    await _Turn()
            except asyncio.CancelledError as exc:  # this task, or what it waited for
                waited = coro.throw(exc)
                continue
            except BaseException:  # noqa: BLE001,S110 - the future failed: resumed next,
                pass  # the coroutine gets that failure from the future itself
            waited = coro.send(None)
    except StopIteration:
        return
    finally:
        coro.close()  # a no-op once it has finished


class _Turn:
    """Awaiting this yields once: one turn of the event loop (``asyncio.sleep(0)``)."""

    def __await__(self) -> Generator[None, None, None]:
        yield
