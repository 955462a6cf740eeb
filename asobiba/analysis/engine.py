"""Iterative deepening, one depth per :func:`step`: the best ``COUNT`` moves with their
values and principal variations, for a game whose hooks bring an ``analyst``.

A step is what the server's worker process runs and streams: it is given a deadline, and
answers with the depth finished, or that the deadline came first (nothing half-searched is
shown). The analyst of a position is kept between steps (:data:`_ANALYSTS`), so each depth
reuses the transposition table the previous one filled.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field

from ..core import Analyst
from ..core.jsontypes import JSONObject
from .position import AnalysisError, Position

COUNT = 3
"""Lines shown (multi-PV): the best three moves."""
KEEP = 8
"""Analysts (with their tables) a process keeps, most recent first."""

_ANALYSTS: OrderedDict[str, Analyst] = OrderedDict()


@dataclass
class Step:
    depth: int
    lines: list[JSONObject] = field(default_factory=list)
    done: bool = False
    """Deeper steps change nothing: the position is solved or the depth reached its end."""
    timeout: bool = False
    """The deadline came before this depth was finished (``lines`` is empty)."""
    cpu: float = 0.0

    def to_json(self) -> JSONObject:
        return {"depth": self.depth, "lines": list(self.lines), "done": self.done,
                "timeout": self.timeout, "cpu": round(self.cpu, 4)}


def analyst_for(position: Position) -> Analyst:
    factory = position.game.progression().analyst
    if factory is None or not position.game.perfect_information:
        raise AnalysisError("analysis_no_engine", game=position.game.id)
    key = position.key or f"{position.game.id}:{id(position)}"
    found = _ANALYSTS.get(key)
    if found is None:
        found = factory(position.options)
        _ANALYSTS[key] = found
        while len(_ANALYSTS) > KEEP:
            _ANALYSTS.popitem(last=False)
    _ANALYSTS.move_to_end(key)
    return found


def step(position: Position, depth: int, seconds: float, count: int = COUNT) -> Step:
    """Search ``position`` to ``depth`` within ``seconds`` (wall clock, from now)."""
    state = position.state
    if state.is_over:
        raise AnalysisError("analysis_over")
    analyst = analyst_for(position)
    began = time.process_time()
    deadline = time.perf_counter() + seconds
    ceiling = analyst.max_depth(state)
    depth = min(depth, ceiling)
    found = analyst.lines(state, depth, count, deadline)
    cpu = time.process_time() - began
    if found is None:
        return Step(depth, timeout=True, cpu=cpu)
    lines: list[JSONObject] = [
        {"move": ln.move, "value": ln.value, "pv": list(ln.pv), "verdict": ln.verdict,
         "margin": ln.margin} for ln in found]
    # solved: every line has its verdict and (won or lost) its margin
    solved = bool(found) and all(
        ln.verdict is not None and (ln.margin is not None or ln.verdict == "draw")
        for ln in found)
    return Step(depth, lines, done=depth >= ceiling or solved or not found, cpu=cpu)
