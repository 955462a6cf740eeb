"""Multi-PV: the best ``count`` root moves of a position, each with its value and line.

Built on :class:`~asobiba.search.alphabeta.AlphaBeta` by exclusion, the way chess engines
do it: search the root over all its moves, take the best; search again over the moves left,
take that one; and so on. Each pass is a full-window pass at the root over the moves it is
given, so the value of the move it returns is exact at that depth (the others only bounded),
and the ``k``-th line is exactly the ``k``-th best move at that depth. The transposition
table is shared by the passes (and kept by the caller between depths), so the second and
third passes re-search little.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .alphabeta import AlphaBeta

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)


@dataclass
class PVLine(Generic[M]):
    move: M
    value: float
    pv: list[M] = field(default_factory=list)
    complete: bool = False
    """The value is exact (the line's search reached only finished positions)."""


class OutOfTime(Exception):
    """The deadline passed before the depth asked for was finished."""


def multipv(engine: AlphaBeta[P, M], pos: P, moves: Sequence[M], depth: int, count: int,
            deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
            history: Mapping[Hashable, int] | None = None) -> list[PVLine[M]]:
    """The best ``min(count, len(moves))`` of ``moves`` at ``pos`` searched ``depth`` plies,
    best first. Raises :class:`OutOfTime` when ``deadline`` (a ``clock`` reading) passes
    before every line reached ``depth`` — no partial answer, so a caller never shows a line
    at a depth it was not searched to. ``history``: earlier occurrences of positions (the
    engine's ``draw_repeats``)."""
    left = list(moves)
    if not left:
        raise ValueError("multipv called on a position with no move")
    lines: list[PVLine[M]] = []
    while left and len(lines) < count:
        hard = None if deadline is None else deadline - clock()
        if hard is not None and hard <= 0:
            raise OutOfTime
        res = engine.search(pos, depth, root_moves=left, hard_limit=hard, min_depth=depth,
                            decided_depth=depth, stop_when_complete=False,
                            history=history)
        if res.depth < depth:
            raise OutOfTime
        lines.append(PVLine(res.move, res.value, list(res.pv), res.complete))
        left.remove(res.move)
    return lines


S = TypeVar("S")


def line_texts(state: S, pv: Sequence[M], text: Callable[[S, M], str],
               play: Callable[[S, str], S]) -> tuple[str, ...]:
    """A line of search moves as notation, walked on the rules' own states from ``state``
    (``text`` names a search move in a state, ``play`` plays a move text). The line stops
    at the first move the rules refuse (a transposition-table line may run into a
    repetition the search ignored)."""
    out: list[str] = []
    for move in pv:
        try:
            name = text(state, move)
            state = play(state, name)
        except Exception:  # noqa: BLE001 - a stale table entry ends the line, nothing more
            break
        out.append(name)
    return tuple(out)
