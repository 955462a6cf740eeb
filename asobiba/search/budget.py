"""How much of a move's time limit a bot may give its search.

A search stops at its deadline within a few hundred microseconds of work, but the move
is not over then: the bot still unwinds, writes its move, and — on a busy machine — waits
for the scheduler, which may leave a process that gets a few per cent of a core idle for
hundreds of milliseconds. :class:`MoveClock` keeps a reserve for that: a fixed share of
the limit at first, then as much as the latest moves actually needed between their search
deadline and their answer (twice that) and 6% per process waiting for each core (the load
average), never more than three quarters of the limit. A quiet machine keeps most of the
limit for search; a loaded one stops earlier.

:class:`WorkBudget` is the other kind of budget: what a request's work (a review) may cost in
CPU seconds, cut cooperatively wherever the work calls :func:`checkpoint`.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

BASE_RESERVE = 0.2
"""Share of the limit kept back before anything has been measured."""
MAX_RESERVE = 0.75
SAFETY = 2.0
LOAD_RESERVE = 0.06
"""Share of the limit kept back per waiting process per core: learning from late answers
needs late answers first, the run queue warns before."""
MEMORY = 64
"""Moves whose lateness is remembered."""


PROCESS_LATENESS: deque[float] = deque(maxlen=MEMORY)


class MoveClock:
    """One per bot: ``budget(started)`` before a search, ``done(deadline)`` after the
    move's answer is ready."""

    def __init__(self, limit: float, clock: Callable[[], float] | None = None,
                 late: deque[float] | None = None) -> None:
        if limit <= 0:
            raise ValueError(f"a move's time limit must be positive, not {limit}")
        self.limit = limit
        self.clock = clock if clock is not None else time.perf_counter
        self.late = PROCESS_LATENESS if late is None else late
        """Recent lateness in seconds: by default shared by every bot of the process (it
        measures the machine, and a bot made for a new game should not start naive)."""

    def reserve(self) -> float:
        """Seconds kept back from the search."""
        worst = max(self.late, default=0.0)
        crowd = LOAD_RESERVE * self.load() * self.limit
        return min(max(BASE_RESERVE * self.limit, SAFETY * worst, crowd),
                   MAX_RESERVE * self.limit)

    @staticmethod
    def load() -> float:
        """Processes waiting per core (the 1-minute load average over the cores): the
        longer the queue, the longer a process may wait for its next turn."""
        try:
            return os.getloadavg()[0] / (os.cpu_count() or 1)
        except OSError:  # not every platform has a load average
            return 0.0

    def budget(self) -> float:
        """Seconds the search may use, counted from the start of the move."""
        return self.limit - self.reserve()

    def done(self, started: float) -> None:
        """The answer is ready: remember how long after the search's deadline it was."""
        deadline = started + self.budget()
        self.late.append(max(0.0, self.clock() - deadline))


# ---- a budget of work: CPU seconds of the running thread (and a wall-clock deadline) -------
class OutOfBudget(Exception):
    """Raised by :func:`checkpoint` inside work whose :class:`WorkBudget` ran out; the work's
    owner catches it and answers with what it has (``reason``: ``"cpu"`` or ``"wall"``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"out of {reason} budget")
        self.reason = reason


_CURRENT: ContextVar[WorkBudget | None] = ContextVar("asobiba_work_budget", default=None)


class WorkBudget:
    """How much one request's work may cost: ``cpu`` seconds of the thread running it
    (``time.thread_time``: what the work itself burns, not the time it waited for a core on
    a loaded machine, nor other threads' work) and optionally a ``deadline`` on the wall
    clock (``time.monotonic``: when the person must have an answer). Made in the thread that
    does the work. Loops of the work ask :meth:`exhausted` between steps; code deep inside a
    search calls :func:`checkpoint`, which raises :class:`OutOfBudget` while the budget is
    :meth:`active` — so a single step that would run for seconds is cut too."""

    def __init__(self, cpu: float | None, deadline: float | None = None,
                 cpu_clock: Callable[[], float] = time.thread_time,
                 wall_clock: Callable[[], float] = time.monotonic) -> None:
        self.cpu, self.deadline = cpu, deadline
        self.cpu_clock, self.wall_clock = cpu_clock, wall_clock
        self.started = cpu_clock()
        self.cut: str | None = None
        """Why the work was cut (``"cpu"``, ``"wall"``), once it was."""

    def spent(self) -> float:
        """CPU seconds of this thread since the budget was made."""
        return self.cpu_clock() - self.started

    def exhausted(self) -> str | None:
        """``"cpu"`` or ``"wall"`` when that budget is used up (remembered in :attr:`cut`),
        else None."""
        if self.cut is None:
            if self.cpu is not None and self.spent() >= self.cpu:
                self.cut = "cpu"
            elif self.deadline is not None and self.wall_clock() >= self.deadline:
                self.cut = "wall"
        return self.cut

    def check(self) -> None:
        """What :func:`checkpoint` asks, inside a step: like :meth:`exhausted`, except that
        the deadline is read here only on the real clock — a test's injected wall clock
        counts the readings between steps, and searches read the time at their own pace."""
        if self.cut is None:
            if self.cpu is not None and self.spent() >= self.cpu:
                self.cut = "cpu"
            elif (self.deadline is not None and self.wall_clock is time.monotonic
                  and time.monotonic() >= self.deadline):
                self.cut = "wall"
        if self.cut is not None:
            raise OutOfBudget(self.cut)

    @contextmanager
    def active(self) -> Iterator[WorkBudget]:
        """Make this the budget :func:`checkpoint` checks, in this thread, for the block."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


def checkpoint() -> None:
    """Raise :class:`OutOfBudget` if the work running here has an active budget that ran
    out; nothing otherwise (a bot's search, a test: no budget, no cost beyond one lookup)."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.check()
