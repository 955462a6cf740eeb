"""The cross-process bus, the room side: another process's change to a room held here
(a move, a sync, table offers) brought into this process's copy; a resync after a gap in the
bus; polling the store while the bus is away."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from ...core.jsontypes import JSONObject
from ..db import MoveData, Store
from . import notes

if TYPE_CHECKING:
    from ..bus import LocalBus, RedisBus
    from .conn import Ack, Conn
    from .state import Room

log = logging.getLogger("asobiba.server")


class EventHost(Protocol):
    """What the bus's side needs from the rooms' hub: the rooms held (and whether one is
    loading), the presence and offers shared between processes, a room reloaded, the set's
    next game or a rematch started, keys handed to a room's connections, the table told,
    its clock and bots, and the bot jobs woken when the bus is back."""

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    def note_missed(self, room_id: str) -> None: ...

    async def on_shared_event(self, room: Room, event: JSONObject) -> None: ...

    async def reload(self, room: Room) -> None: ...

    async def start_next(self, room: Room) -> None: ...

    async def start_rematch(self, room: Room) -> None: ...

    async def send_rematch_keys(self, room: Room, conn: Conn) -> None: ...

    async def send_next_keys(self, room: Room, conn: Conn) -> None: ...

    async def broadcast(self, room: Room, ack: Ack | None = None) -> bool: ...

    def arm_clock(self, room: Room) -> None: ...

    def schedule_bots(self, room: Room) -> None: ...

    def wake_queued(self) -> None: ...


class BusEvents:
    """Other processes' changes to the rooms held here."""

    def __init__(self, host: EventHost, store: Store, bus: LocalBus | RedisBus) -> None:
        self.host = host
        self.store = store
        self.bus = bus

    async def on_event(self, event: JSONObject) -> None:
        """Another process changed a room: bring this process's copy (if it holds one) and
        its connections up to date."""
        room = self.host.rooms.get(str(event.get("room")))
        if room is None:
            self.host.note_missed(str(event.get("room")))  # loading here: read it again after
            return
        kind = event.get("kind")
        if kind in ("ask", "shared"):  # presence, draw offers, hints (asobiba.server.shared)
            await self.host.on_shared_event(room, event)
            return
        if kind == "chat":  # a chat line sent at another process (asobiba.server.chat)
            from .. import chat

            await chat.on_event(room, event)
            return
        had_rematch, had_next = room.rematch_id, room.next_room()
        async with room.lock:
            if kind == "table":
                self.adopt_table(room, event)
            elif (kind == "move" and event.get("ply") == len(room.moves)
                  and room.status == "active" and not event.get("finished")):
                seat, text = int(event["seat"]), str(event["text"])
                room.states.append(room.state.play(text, seat))
                room.moves.append(MoveData(len(room.moves), seat, text, str(event["at"])))
                room.version += 1
                room.undo = None
            else:
                await self.host.reload(room)
            room.notes.extend(notes.from_event(event.get("notes")))
            # every seat has now asked, counting the asks made at other processes
            if (room.status == "finished" and room.match_set is not None
                    and room.next_room() is None and not room.set_over()
                    and not set(room.human_seats) - room.next_offers):
                await self.host.start_next(room)
        if (room.status == "finished" and not room.rematch_id and room.rematch_offers
                and not set(room.human_seats) - room.rematch_offers
                and (room.match_set is None or room.set_over())):
            await self.host.start_rematch(room)
        elif room.rematch_id and room.rematch_id != had_rematch:
            for conn in list(room.conns):
                if conn.keys:
                    await self.host.send_rematch_keys(room, conn)
        if room.next_room() and room.next_room() != had_next:
            for conn in list(room.conns):
                if conn.keys:
                    await self.host.send_next_keys(room, conn)
        self.host.arm_clock(room)
        await self.host.broadcast(room)
        if room.status == "active":
            self.host.schedule_bots(room)

    def adopt_table(self, room: Room, event: JSONObject) -> None:
        """Offers made at another process: offers only grow (a union), an undo request is
        the latest one made."""
        if "undo" in event:
            room.undo = event["undo"]
        if event.get("rematch_reset"):  # declined there: the standing offers are withdrawn
            room.rematch_offers.clear()
            room.rematch_hashes.clear()
        room.rematch_offers |= set(event.get("rematch_offers") or ())
        room.rematch_hashes.update({int(k): v for k, v in
                                    (event.get("rematch_hashes") or {}).items()})
        room.next_offers |= set(event.get("next_offers") or ())
        if event.get("rematch_id"):
            room.rematch_id = str(event["rematch_id"])
        room.notes.extend(notes.from_event(event.get("table_notes")))

    def publish_table(self, room: Room, **extra: object) -> None:
        self.bus.publish({"kind": "table", "room": room.id, "undo": room.undo,
                          "rematch_offers": sorted(room.rematch_offers),
                          "rematch_hashes": {str(k): v for k, v in room.rematch_hashes.items()},
                          "next_offers": sorted(room.next_offers), **extra})

    async def resync_all(self) -> None:
        """After a gap in the bus (Redis restarted): reload every held room from the store,
        tell its connections, and queue any bot move that may have been lost."""
        self.host.wake_queued()  # the bot jobs waiting to be queued try again now
        for room in list(self.host.rooms.values()):
            await self.refresh(room)

    async def poll_while_away(self, every: float = 1.0, batch: int = 500) -> None:
        """While the bus is away (Redis down), read from the store, every ``every`` seconds,
        the head (status, moves stored) of each active room held here with a connection,
        and bring those that changed elsewhere up to date: a room whose players sit at two
        processes goes on during the outage (each move committed to the database as
        always) instead of freezing until Redis is back. Nothing is read while the bus is
        up; when it comes back, :meth:`resync_all` reloads everything as before."""
        connected = getattr(self.bus, "connected", None)
        if connected is None:
            return
        while True:
            await asyncio.sleep(every)
            if connected.is_set():
                continue
            rooms = [r for r in self.host.rooms.values() if r.status == "active" and r.conns]
            for start in range(0, len(rooms), batch):
                part = {r.id: r for r in rooms[start:start + batch]}
                try:
                    heads = await asyncio.to_thread(self.store.room_heads, list(part))
                except Exception:  # noqa: BLE001 - the database away too: next time
                    log.warning("could not poll the rooms while Redis is away")
                    break
                for rid, head in heads.items():
                    await self.bring_up(part[rid], head)

    async def catch_up(self, room: Room) -> None:
        """A connection arrives (a client reconnecting after a process died): read the
        room's head from the store and bring the room up to date if it is behind. A process
        killed between a move's commit and its publication left the other processes' copies
        one move behind with no event to come (the fault test met it under CI load)."""
        if room.status != "active":
            return
        try:
            heads = await asyncio.to_thread(self.store.room_heads, [room.id])
        except Exception:  # noqa: BLE001 - the database away: the room as held here
            log.warning("could not read room %s's head", room.id)
            return
        if room.id in heads:
            await self.bring_up(room, heads[room.id])

    async def bring_up(self, room: Room, head: tuple[str, int]) -> None:
        """Reload ``room`` if the store's (status, plies) differ from what is held here."""
        if head != (room.status, len(room.moves)):
            await self.refresh(room)

    async def refresh(self, room: Room) -> None:
        """Reload ``room`` from the store, tell its connections, re-arm its clock and queue
        any bot move due (a failure is logged: one room must not stop the others)."""
        try:
            async with room.lock:
                await self.host.reload(room)
            self.host.arm_clock(room)
            await self.host.broadcast(room)
            self.host.schedule_bots(room)
        except Exception:  # noqa: BLE001 - one room must not stop the others
            log.exception("could not bring room %s up to date", room.id)
