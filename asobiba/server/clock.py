"""Time control: Fischer (an initial budget per seat plus an increment per move), byo-yomi
(main time, then N periods of S seconds: a move made within a period keeps it, a period used
up is lost, the flag falls when the last is gone) or a correspondence deadline per move.

Clocks are not stored as running counters: each seat's remaining time is recomputed from the
stored move timestamps, so a restarted server knows every clock exactly (the time the server
was down counts against the seat that was to move — the clock of a real board game would have
kept running too). Games where several seats act at once have no clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from ..core.jsontypes import JSONObject
from .db import MoveData

MIN_INITIAL, MAX_INITIAL = 10, 3 * 3600
MAX_INCREMENT = 120
# byo-yomi: main time may be 0 (every move within the period: "30 s per move")
MIN_PERIODS, MAX_PERIODS = 1, 10
MIN_BYOYOMI, MAX_BYOYOMI = 5, 300

MIN_PER_MOVE, MAX_PER_MOVE = 3600, 14 * 86400

FISCHER_KEYS = {"initial", "increment"}
BYOYOMI_KEYS = {"initial", "periods", "byoyomi"}


class ClockError(ValueError):
    """A refused time control; ``details`` are the code's arguments (the field and its
    range), so a page can say it in its own language."""

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.details = {k: str(v) for k, v in details.items()}


def _whole(raw: dict[str, object], name: str, lo: int, hi: int, default: int | None = None
           ) -> int:
    value = raw.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ClockError(f"clock {name!r} must be a whole number {lo}..{hi}, not {value!r}",
                         field=name, min=lo, max=hi)
    return value


def check_clock(raw: object) -> dict[str, int] | None:
    """``{"initial": s, "increment": s}`` (Fischer), ``{"initial": s, "periods": n,
    "byoyomi": s}`` (byo-yomi), ``{"per_move": s}`` (a correspondence deadline: each move
    within that time, 1 hour to 14 days) or ``None``; ClockError names the field and range."""
    if raw in (None, {}, ""):
        return None
    if not isinstance(raw, dict):
        raise ClockError("'clock' must be {\"initial\": seconds, \"increment\": seconds}, "
                         "{\"initial\": seconds, \"periods\": n, \"byoyomi\": seconds} "
                         "or {\"per_move\": seconds}", field="clock")
    if "per_move" in raw:
        if set(raw) != {"per_move"}:
            raise ClockError("a correspondence clock is {\"per_move\": seconds} alone",
                             field="per_move", min=MIN_PER_MOVE, max=MAX_PER_MOVE)
        return {"per_move": _whole(raw, "per_move", MIN_PER_MOVE, MAX_PER_MOVE)}
    if "periods" in raw or "byoyomi" in raw:
        extra = set(raw) - BYOYOMI_KEYS
        if extra:
            raise ClockError(f"a byo-yomi clock takes 'initial', 'periods' and 'byoyomi', "
                             f"not {sorted(extra)[0]!r}", field=sorted(extra)[0])
        return {"initial": _whole(raw, "initial", 0, MAX_INITIAL, 0),
                "periods": _whole(raw, "periods", MIN_PERIODS, MAX_PERIODS),
                "byoyomi": _whole(raw, "byoyomi", MIN_BYOYOMI, MAX_BYOYOMI)}
    extra = set(raw) - FISCHER_KEYS
    if extra:
        raise ClockError(f"'clock' takes 'initial' and 'increment' (Fischer), 'periods' and "
                         f"'byoyomi' (byo-yomi) or 'per_move' alone, not {sorted(extra)[0]!r}",
                         field=sorted(extra)[0])
    return {"initial": _whole(raw, "initial", MIN_INITIAL, MAX_INITIAL, 0),
            "increment": _whole(raw, "increment", 0, MAX_INCREMENT, 0)}


def _t(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def _byoyomi(clock: dict[str, int], seats: int, started: str, moves: Sequence[MoveData],
             running: int | None, now: float) -> tuple[list[float], list[int], float]:
    """Main time and periods left per seat at ``now``, and the seconds the running seat has
    used of its current period (a period is lost only once used up)."""
    period = clock["byoyomi"]
    main = [float(clock["initial"])] * seats
    periods = [clock["periods"]] * seats

    def spend(seat: int, used: float) -> float:
        if used <= main[seat]:
            main[seat] -= used
            return 0.0
        over = used - main[seat]
        main[seat] = 0.0
        lost = math.floor(over / period)
        periods[seat] = max(0, periods[seat] - lost)
        return over - lost * period

    previous = _t(started)
    for m in moves:
        at = _t(m.at)
        spend(m.seat, at - previous)  # a move within the period: the period starts afresh
        previous = at
    current = 0.0
    if running is not None:
        current = spend(running, now - previous)
        if not periods[running]:  # the last period is gone: the flag has fallen
            current = 0.0
    return main, periods, current


def remaining(clock: dict[str, int], seats: int, started: str, moves: Sequence[MoveData],
              running: int | None, now: float) -> list[float]:
    """Seconds left per seat at ``now`` before its flag falls; ``running`` is the seat whose
    clock is ticking. A correspondence clock gives every move the full ``per_move`` afresh;
    byo-yomi's is the main time left plus every period left (all usable in one turn)."""
    if "per_move" in clock:
        left = [float(clock["per_move"])] * seats
        last = _t(moves[-1].at) if moves else _t(started)
        if running is not None:
            left[running] -= now - last
        return left
    if "byoyomi" in clock:
        main, periods, current = _byoyomi(clock, seats, started, moves, running, now)
        left = [main[s] + periods[s] * clock["byoyomi"] for s in range(seats)]
        if running is not None:
            left[running] -= current
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
    shown = [round(max(0.0, x), 2) for x in left]
    if "per_move" in clock:
        return {"per_move": clock["per_move"], "initial": clock["per_move"], "increment": 0,
                "remaining": shown, "running": running}
    if "byoyomi" in clock:
        main, periods, _ = _byoyomi(clock, seats, started, moves, running, now)
        return {"initial": clock["initial"], "increment": 0, "periods": clock["periods"],
                "byoyomi": clock["byoyomi"], "remaining": shown,
                "main": [round(max(0.0, x), 2) for x in main], "periods_left": periods,
                "running": running}
    return {"initial": clock["initial"], "increment": clock["increment"],
            "remaining": shown, "running": running}
