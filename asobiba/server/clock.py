"""Time control (Fischer: an initial budget per seat plus an increment per move).

Clocks are not stored as running counters: each seat's remaining time is recomputed from the
stored move timestamps, so a restarted server knows every clock exactly (the time the server
was down counts against the seat that was to move — the clock of a real board game would have
kept running too). Games where several seats act at once have no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..core.jsontypes import JSONObject
from .db import MoveData

MIN_INITIAL, MAX_INITIAL = 10, 3 * 3600
MAX_INCREMENT = 120


MIN_PER_MOVE, MAX_PER_MOVE = 3600, 14 * 86400


def check_clock(raw: object) -> dict[str, int] | None:
    """``{"initial": seconds, "increment": seconds}`` (Fischer), ``{"per_move": seconds}``
    (a correspondence deadline: each move within that time, 1 hour to 14 days) or ``None``;
    ValueError names the field."""
    if raw in (None, {}, ""):
        return None
    if not isinstance(raw, dict):
        raise ValueError("'clock' must be {\"initial\": seconds, \"increment\": seconds} "
                         "or {\"per_move\": seconds}")
    if "per_move" in raw:
        value = raw["per_move"]
        if set(raw) != {"per_move"} or isinstance(value, bool) or not isinstance(value, int) \
                or not MIN_PER_MOVE <= value <= MAX_PER_MOVE:
            raise ValueError(f"a correspondence clock is {{\"per_move\": seconds}} alone, "
                             f"{MIN_PER_MOVE}..{MAX_PER_MOVE}")
        return {"per_move": value}
    if set(raw) - {"initial", "increment"}:
        raise ValueError("'clock' takes 'initial' and 'increment' (or 'per_move' alone)")
    out = {}
    for name, lo, hi in (("initial", MIN_INITIAL, MAX_INITIAL), ("increment", 0, MAX_INCREMENT)):
        value = raw.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"clock {name!r} must be a whole number of seconds {lo}..{hi}")
        out[name] = value
    return out


def _t(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def remaining(clock: dict[str, int], seats: int, started: str, moves: Sequence[MoveData],
              running: int | None, now: float) -> list[float]:
    """Seconds left per seat at ``now``; ``running`` is the seat whose clock is ticking.
    A correspondence clock gives every move the full ``per_move`` afresh."""
    if "per_move" in clock:
        left = [float(clock["per_move"])] * seats
        last = _t(moves[-1].at) if moves else _t(started)
        if running is not None:
            left[running] -= now - last
        return left
    left = [float(clock["initial"])] * seats
    previous = _t(started)
    for m in moves:
        at = _t(m.at)
        left[m.seat] -= at - previous
        left[m.seat] += clock["increment"]
        previous = at
    if running is not None:
        left[running] -= now - previous
    return left


def view(clock: dict[str, int], seats: int, started: str, moves: Sequence[MoveData],
         running: int | None, now: float) -> JSONObject:
    left = remaining(clock, seats, started, moves, running, now)
    if "per_move" in clock:
        return {"per_move": clock["per_move"], "initial": clock["per_move"], "increment": 0,
                "remaining": [round(max(0.0, x), 2) for x in left], "running": running}
    return {"initial": clock["initial"], "increment": clock["increment"],
            "remaining": [round(max(0.0, x), 2) for x in left], "running": running}
