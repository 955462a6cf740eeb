"""How much of a move's time limit a bot may give its search.

A search stops at its deadline within a few hundred microseconds of work, but the move
is not over then: the bot still unwinds, writes its move, and — on a busy machine — waits
for the scheduler, which may leave a process that gets a few per cent of a core idle for
hundreds of milliseconds. :class:`MoveClock` keeps a reserve for that: a fixed share of
the limit at first, then as much as the latest moves actually needed between their search
deadline and their answer (twice that) and 6% per process waiting for each core (the load
average), never more than three quarters of the limit. A quiet machine keeps most of the
limit for search; a loaded one stops earlier.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable

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
