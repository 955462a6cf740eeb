"""What a player can observe at the table, the same through every web process of the scaled
mode (issue 13 item 1): who is online (the seats' presence dots, and the "gone since" the
fair-play claims count from), draw offers and hint markers.

The room core shares moves, clocks, undo and rematch offers already (``Hub.on_event``,
``table`` events). This module adds, on the same room bus, one more kind of event:

* ``shared`` — this process's part of a room's table: the seats connected *here*, the draw
  offers standing at the current ply (or that they were declined), the hint counts. A
  receiver keeps each process's presence apart (``origin``) and unions the rest (offers
  only grow until a move or a decline; hint counts only grow). A process not heard from
  for :data:`STALE` seconds is forgotten in a room (it died: its players reconnect
  elsewhere);
* ``presence`` — every :data:`REFRESH` seconds each process re-announces, in one event per
  :data:`BATCH` rooms (not one per room), the seats connected to it in every room it holds
  with a connection, plus the draw offers and hint counts of the few rooms that have any.
  A receiver only renews the time it heard a room's seats when they are what it already
  knew — no lock, no broadcast — and treats an entry that differs exactly like a ``shared``
  event. (One event per room made a burst of 1,000 publishes and, at every other process,
  1,000 full ``shared`` receptions every 10 s: 150–500 ms in which the event loop answered
  nobody — the p99 tail of the scaled mode at human pace, docs/benchmarks.md.)
* ``ask`` — a process that has just loaded a room asks the others what they know of its
  table; the processes holding it answer with their ``shared`` state and their rematch /
  next-game offers.

A draw is agreed at whichever process first sees every seat's offer — the one where the last
seat accepted, or the one that receives the last offer made elsewhere; if two processes end
it at once the database lets one finish it (``Hub.end`` takes the stored result otherwise).
In the embedded mode (``LocalBus``) nothing is published and all of this is the room's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from weakref import WeakKeyDictionary

from ..core.jsontypes import JSONObject
from .rooms import Hub, Room

log = logging.getLogger("asobiba.server.shared")

REFRESH = float(os.environ.get("ASOBIBA_PRESENCE_REFRESH") or 10.0)
"""Seconds between a process's ``presence`` events (the environment variable: tests)."""
STALE = 3 * REFRESH
"""A process's seats in a room not renewed for this long are forgotten (it died)."""
BATCH = 500
"""Rooms per ``presence`` event: bounds one event's size and the time one reception takes."""

# room → origin process → (the seats connected there, when it said so)
_remote: WeakKeyDictionary[Room, dict[str, tuple[frozenset[int], float]]] = \
    WeakKeyDictionary()


def local_online(room: Room) -> set[int]:
    """The seats with a connection to this process."""
    return set().union(*(c.seats for c in room.conns)) if room.conns else set()


def online(room: Room, now: float | None = None) -> set[int]:
    """The seats with a connection to any process (this one, or one heard from lately)."""
    now = time.monotonic() if now is None else now
    seats = local_online(room)
    for origin, (there, heard) in list(_remote.get(room, {}).items()):
        if now - heard > STALE:
            del _remote[room][origin]
        else:
            seats |= there
    return seats


def state(room: Room) -> JSONObject:
    from . import table

    return {"online": sorted(local_online(room)), **table.shared_state(room)}


def publish(hub: Hub, room: Room, **extra: object) -> None:
    """Tell the other processes this process's part of ``room``'s table."""
    if getattr(hub.bus, "scaled", False):
        hub.bus.publish({"kind": "shared", "room": room.id, **state(room), **extra})


def ask(hub: Hub, room: Room) -> None:
    """A room just loaded here: ask the processes holding it for its table."""
    if getattr(hub.bus, "scaled", False):
        hub.bus.publish({"kind": "ask", "room": room.id})


async def on_event(hub: Hub, room: Room, event: JSONObject) -> None:
    if event.get("kind") == "ask":
        publish(hub, room)
        hub.bus.publish({"kind": "table", "room": room.id,  # no "undo": not overwritten
                         "rematch_offers": sorted(room.rematch_offers),
                         "rematch_hashes": {str(k): v for k, v in room.rematch_hashes.items()},
                         "next_offers": sorted(room.next_offers)})
        return
    origin = str(event.get("origin") or "?")
    seats = frozenset(int(s) for s in event.get("online") or () if isinstance(s, int))
    await _settle(hub, room, _take(room, origin, seats, time.monotonic()), event)


def _take(room: Room, origin: str, seats: frozenset[int], now: float) -> set[int]:
    """Note ``origin``'s seats in ``room`` (and so who is gone since when); return who was
    online before. Synchronous: whatever the bus handles after this cannot come before it."""
    from . import fairplay

    before = online(room, now)
    _remote.setdefault(room, {})[origin] = (seats, now)
    fairplay.note_presence(room)
    return before


async def _settle(hub: Hub, room: Room, before: set[int], event: JSONObject) -> None:
    """Take in the draw offers and hints ``event`` carries; tell this process's connections
    if anything they see changed (a renewal that changes nothing sends nothing)."""
    from . import table

    changed = False
    if any(key in event for key in ("draw", "hints", "declined")):
        async with room.lock:
            changed = table.adopt_shared(room, event)
            if changed:
                await table.end_if_agreed(hub, room)
                room.version += 1
    if changed or online(room) != before:
        hub.arm_clock(room)
        await hub.broadcast(room)


def presence_events(hub: Hub) -> list[JSONObject]:
    """This process's part of every table it holds with a connection, as ``presence``
    events of at most :data:`BATCH` rooms each: ``rooms`` maps a room to the seats connected
    here, ``tables`` the rooms with draw offers or hint markers to those (as in ``shared``)."""
    from . import table

    events: list[JSONObject] = []
    rooms: dict[str, list[int]] = {}
    tables: dict[str, JSONObject] = {}
    for room in list(hub.rooms.values()):
        if not room.conns or room.status != "active":
            continue
        rooms[room.id] = sorted(local_online(room))
        extra = table.shared_extra(room)
        if extra is not None:
            tables[room.id] = extra
        if len(rooms) >= BATCH:
            events.append({"kind": "presence", "rooms": rooms, "tables": tables})
            rooms, tables = {}, {}
    if rooms:
        events.append({"kind": "presence", "rooms": rooms, "tables": tables})
    return events


async def on_presence(hub: Hub, event: JSONObject) -> None:
    """Another process's periodic ``presence``: renew what is unchanged, take in the rest."""
    origin = str(event.get("origin") or "?")
    rooms, tables = event.get("rooms"), event.get("tables")
    if not isinstance(rooms, dict):
        return
    if not isinstance(tables, dict):
        tables = {}
    now = time.monotonic()
    changed: list[tuple[Room, set[int], JSONObject]] = []
    for room_id, listed in rooms.items():
        room = hub.rooms.get(room_id)
        if room is None or not isinstance(listed, list):
            continue
        seats = frozenset(s for s in listed if isinstance(s, int))
        extra = tables.get(room_id)
        known = _remote.get(room, {}).get(origin)
        if extra is None and known is not None and known[0] == seats and now - known[1] <= STALE:
            _remote[room][origin] = (seats, now)  # as it was: nothing to tell anybody
            continue
        # every room's seats are taken in before the first wait: an event about one of
        # these rooms handled meanwhile (the bus handles rooms side by side) is newer
        changed.append((room, _take(room, origin, seats, now),
                        extra if isinstance(extra, dict) else {}))
    for room, before, table_event in changed:
        try:
            await _settle(hub, room, before, table_event)
        except Exception:  # noqa: BLE001 - one room must not stop the others
            log.exception("presence for room %s failed", room.id)


async def refresh(hub: Hub) -> None:
    """Re-announce presence for every room with a connection here (until cancelled)."""
    if not getattr(hub.bus, "scaled", False):
        return
    while True:
        await asyncio.sleep(REFRESH)
        with contextlib.suppress(Exception):
            for event in presence_events(hub):
                hub.bus.publish(event)


__all__ = ["BATCH", "REFRESH", "STALE", "ask", "local_online", "on_event", "on_presence",
           "online", "presence_events", "publish", "refresh", "state"]
