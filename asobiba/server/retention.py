"""Retention: abandoned rooms are closed (docs/web.md, "Abandoned rooms").

A room is *abandoned* when it is unfinished and has had neither a move nor a connection for
``abandon_after`` seconds (default a week; ``ASOBIBA_ABANDON_AFTER``). The sweep runs in
every web process every ``every`` seconds:

1. it marks the unfinished rooms this process holds connections to as seen now (one
   ``UPDATE`` for all of them), so ``rooms.updated`` is the last move *or* the last time
   anyone was connected, at any process;
2. it asks the database for unfinished rooms not seen since ``abandon_after`` (a few at a
   time), loads each (lazily, like any request) and ends it by the fair-play rule every
   other path uses — :func:`asobiba.server.fairplay.adjudicate` with every seat counted as
   gone since the room was last seen: a game waiting on a seat that never moved is aborted
   (unrated), otherwise the seat it waits on loses ("abandoned"). A room waiting only on bots
   is not abandoned (its bots are set moving again). Ending goes through ``Hub.end`` — one
   transaction that checks the room is still active at the ply seen — so two processes
   sweeping at once end a room once.

A room whose clock still runs is never abandoned: its clock decides. And every sweep loads
the unfinished correspondence rooms (``{"per_move": s}``, issue 28 item 2) that this process
does not hold, so a deadline that passes while nobody has the game open ends it within one
sweep (``every``): the seat that did not move loses on time, rated like any flag.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from typing import NoReturn

from .rooms import Hub, Room

log = logging.getLogger("asobiba.server.retention")

ABANDON_AFTER = 7 * 24 * 3600.0
SWEEP_EVERY = 300.0
BATCH = 50


def _ts(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


async def close_if_abandoned(hub: Hub, room: Room, last_seen: float, abandon_after: float,
                             now: float | None = None) -> bool:
    """End ``room`` if it is abandoned (see the module docstring); True if it was ended."""
    from . import fairplay

    now = time.time() if now is None else now
    if room.status != "active" or room.conns or now - last_seen < abandon_after:
        return False
    clock = room.clock_view()
    if clock and clock["running"] is not None and clock["remaining"][clock["running"]] > 0:
        # a clock still running decides (a correspondence move may take 14 days, longer
        # than a week away): loading the room armed its flag
        return False
    for seat in room.human_seats:  # nobody has been here since it was last seen
        room.away_since[seat] = min(room.away_since.get(seat, last_seen), last_seen)
    verdict = fairplay.adjudicate(room, now, claim_after=abandon_after)
    if verdict is None:  # waiting on a bot (or nobody gone): let the bots move again
        hub.schedule_bots(room)
        return False
    await fairplay.apply_verdict(hub, room, verdict)
    log.info("closed abandoned room %s: %s", room.id, verdict.reason)
    hub.forget_if_idle(room)
    return room.status == "finished"


async def sweep(hub: Hub, abandon_after: float) -> int:
    """One pass; the number of rooms closed."""
    held = [r.id for r in hub.rooms.values() if r.conns and r.status == "active"]
    if held:
        await hub.store.writer.run(hub.store.touch_rooms_in, held)
    cutoff = time.time() - abandon_after
    stale = await asyncio.to_thread(hub.store.unseen_since, cutoff, BATCH)
    closed = 0
    # correspondence games (a deadline per move) nobody has open: loading one arms its flag,
    # which falls at once if the deadline has passed (the other clocks have people watching)
    for room_id in await asyncio.to_thread(hub.store.correspondence_active, BATCH):
        try:
            await hub.get(room_id)
        except Exception:  # noqa: BLE001 - one broken room must not stop the sweep
            log.exception("retention: could not load room %s", room_id)
    for room_id, updated in stale:
        try:
            room = await hub.get(room_id)
            if room is not None and await close_if_abandoned(hub, room, _ts(updated),
                                                             abandon_after):
                closed += 1
        except Exception:  # noqa: BLE001 - one broken room must not stop the sweep
            log.exception("retention: could not close room %s", room_id)
    return closed


async def run(hub: Hub, abandon_after: float = ABANDON_AFTER, every: float = SWEEP_EVERY
              ) -> NoReturn:
    while True:
        await asyncio.sleep(every)
        try:
            await sweep(hub, abandon_after)
        except Exception:  # noqa: BLE001 - e.g. the database is briefly away: next time
            log.exception("retention sweep failed")
