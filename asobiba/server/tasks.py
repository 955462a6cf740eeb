"""Stopping long-running asyncio tasks reliably on Python 3.11.

3.11's ``asyncio.wait_for`` returns its inner call's result when that call completes at the
moment the task is cancelled: the ``CancelledError`` is swallowed (fixed in 3.12, where
``wait_for`` is built on ``asyncio.timeout``). redis-py wraps its reads and writes in
``wait_for``, so a loop around Redis calls — the bot worker's job consumer, the room bus —
can lose the one cancellation meant to stop it and run on for ever: about one SIGTERM'd
worker in a hundred on a loaded machine never exited (tests/web/test_worker_stop.py), its
job loops still polling Redis after ``asyncio.run`` had cancelled them once at exit.

The request is not lost everywhere, though: ``Task.cancelling()`` still counts it, since
nothing called ``uncancel()``. A loop asks :func:`cancel_requested` at each turn and stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable


def cancel_requested() -> bool:
    """True when the running task was asked to stop, even if a library call swallowed the
    ``CancelledError`` it was sent."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def check_cancelled() -> None:
    """Raise ``CancelledError`` if :func:`cancel_requested` (at the top of a loop's turn)."""
    if cancel_requested():
        raise asyncio.CancelledError


async def cancel_and_wait(tasks: Iterable[asyncio.Future[None]], every: float = 1.0) -> None:
    """Cancel ``tasks`` and wait until each has ended, cancelling again every ``every``
    seconds those still running (a cancellation lost on the way is sent again)."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=every)
