"""Offers between the seats: undo (asked and answered), rematch and the set's next game.
Each refusal is told to the table as a note code (:mod:`.notes`); abort and draw offers are
in :mod:`asobiba.server.table`."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from ...core import Game
from ...core.jsontypes import JSONObject
from ...progression.matches import MatchFormat, replays_the_deal
from ..db import Conflict, SetData, Store
from . import notes
from .conn import Ack, Conn
from .errors import ClientError
from .keys import derive_key, hash_key, rematch_room_id

if TYPE_CHECKING:
    from ..bus import LocalBus, RedisBus
    from .state import Room

log = logging.getLogger("asobiba.server")


class OfferHost(Protocol):
    """What the offers need from the rooms' hub: a new room (the rematch, the set's next
    game: only the arguments they give), the table's offers told to the other processes,
    the table told, a room reloaded, its bots stopped or scheduled, its clock armed."""

    async def create(self, game: Game, options: JSONObject, seats: list[JSONObject], *,
                     casual: bool, hotseat: bool, clock: dict[str, int] | None,
                     rematch_of: str | None = ..., key_hashes: dict[int, str] | None = ...,
                     room_id: str | None = ..., seed: int | None = ...,
                     match: MatchFormat | None = ..., match_set: SetData | None = ...,
                     ) -> tuple[Room, dict[int, str]]: ...

    def publish_table(self, room: Room, **extra: object) -> None: ...

    async def broadcast(self, room: Room, ack: Ack | None = None) -> bool: ...

    async def reload(self, room: Room) -> None: ...

    def cancel_bots(self, room: Room) -> None: ...

    def schedule_bots(self, room: Room) -> None: ...

    def arm_clock(self, room: Room) -> None: ...


class Offers:
    """Undo, rematch and next-game offers."""

    def __init__(self, host: OfferHost, store: Store, bus: LocalBus | RedisBus) -> None:
        self.host = host
        self.store = store
        self.bus = bus

    async def request_undo(self, room: Room, conn: Conn, seat: int) -> None:
        if not room.can_undo:
            raise ClientError("undo_not_allowed",
                              "undo is only for casual games without hidden information "
                              "or chance")
        if room.status != "active":
            raise ClientError("game_over", "the game is over")
        mine = [m.ply for m in room.moves if m.seat == seat]
        if not mine:
            raise ClientError("nothing_to_undo", "this seat has not moved yet")
        target = mine[-1]
        waiting = [s for s in room.human_seats if s != seat and s not in conn.seats]
        if not waiting:
            await self.apply_undo(room, target)
            return
        room.undo = {"seat": seat, "to_ply": target, "waiting": waiting}
        self.host.publish_table(room)
        await self.host.broadcast(room)

    async def reply_undo(self, room: Room, seat: int, accept: bool) -> None:
        undo = room.undo
        if not undo or seat not in undo["waiting"]:
            raise ClientError("no_undo", "there is no undo request waiting for this seat")
        if not accept:
            room.undo = None
            note = notes.declined("undo", seat)
            room.notes.append(note)
            self.host.publish_table(room, table_notes=[note])
            await self.host.broadcast(room)
            return
        undo["waiting"].remove(seat)
        if undo["waiting"]:
            self.host.publish_table(room)
            await self.host.broadcast(room)
        else:
            await self.apply_undo(room, undo["to_ply"])

    async def apply_undo(self, room: Room, target: int) -> None:
        async with room.lock:
            self.host.cancel_bots(room)
            try:
                await self.store.writer.run(self.store.truncate_moves_in, room.id, target,
                                            len(room.moves))
            except Conflict:  # the game moved on at another process: nothing undone
                room.undo = None
                await self.host.reload(room)
                self.host.publish_table(room)
            else:
                del room.moves[target:]
                del room.states[target + 1:]
                room.history += 1
                room.version += 1
                room.undo = None
                self.bus.publish({"kind": "sync", "room": room.id})
        self.host.arm_clock(room)
        await self.host.broadcast(room)
        self.host.schedule_bots(room)

    async def offer_rematch(self, room: Room, conn: Conn, accept: bool | None = None
                            ) -> None:
        """Offer a rematch, or accept one (the same); ``accept=False`` declines the standing
        offer: it is withdrawn and the table is told who declined (:func:`.notes.declined`)."""
        if accept is False:
            await self.decline_rematch(room, conn)
            return
        if room.status != "finished":
            raise ClientError("not_over", "a rematch can be offered once the game is over")
        if room.match_set is not None and not room.set_over():
            raise ClientError("in_set", "this game is part of a set that is not decided yet; "
                              "play the set's next game instead")
        if room.rematch_id:
            await self.send_rematch_keys(room, conn)
            return
        new_id, where = rematch_room_id(room.id), self.rematch_seat(room)
        for seat, key in conn.keys.items():  # only a hash: the key is derived by its holder
            room.rematch_hashes[where[seat]] = hash_key(derive_key(key, new_id))
        room.rematch_offers |= conn.seats
        self.host.publish_table(room)
        if set(room.human_seats) - room.rematch_offers:
            await self.host.broadcast(room)
            return
        await self.start_rematch(room)

    async def decline_rematch(self, room: Room, conn: Conn) -> None:
        if not conn.keys:
            raise ClientError("not_your_seat", "spectators cannot decline a rematch")
        if room.status != "finished":
            raise ClientError("not_over", "there is no rematch before the game is over")
        if room.rematch_id or not room.rematch_offers - conn.seats:
            raise ClientError("no_offer", "there is no rematch offer to decline")
        seat = min(conn.seats - room.rematch_offers or conn.seats)
        room.rematch_offers.clear()
        room.rematch_hashes.clear()
        note = notes.declined("rematch", seat)
        room.notes.append(note)
        room.version += 1
        self.host.publish_table(room, rematch_reset=True, table_notes=[note])
        await self.host.broadcast(room)

    def rematch_seat(self, room: Room) -> list[int]:
        """Where each seat of this room sits in the rematch. A single game: every seat one
        place on. The last game of a decided set: a new set of the same format whose first
        game the other side starts, so colours alternate across sets as within them."""
        n = len(room.seats)
        match = room.set_match()
        if match is None:
            return [(s + 1) % n for s in range(n)]
        side_a = match.seat_of_a(room.set_index)  # side A of the old set moves to seat 1
        return [1 if s == side_a else 0 for s in range(n)]

    async def start_rematch(self, room: Room) -> None:
        """Same game and options, a fresh seed, seats moved on (``_rematch_seat``); after a
        set, a new set of the same format."""
        n = len(room.seats)
        where = self.rematch_seat(room)
        seats: list[JSONObject] = [{}] * n
        for s in room.seats:
            seats[where[s.seat]] = {"kind": s.kind, "level": s.level, "name": s.name}
        new_id = rematch_room_id(room.id)
        match = room.set_match()
        try:
            await self.host.create(room.game, dict(room.options), seats, casual=room.data.casual,
                                   hotseat=room.data.hotseat, rematch_of=room.id,
                                   key_hashes=dict(room.rematch_hashes),
                                   room_id=new_id, clock=room.data.clock,
                                   match=match.format if match else None)
            await self.store.writer.run(self.store.set_rematch_in, room.id, new_id)
        except Exception as exc:  # noqa: BLE001 - started at another process meanwhile?
            if await asyncio.to_thread(self.store.load_room, new_id) is None:
                raise
            log.info("rematch of %s was started elsewhere (%s)", room.id, type(exc).__name__)
        room.rematch_id = new_id
        self.host.publish_table(room, rematch_id=new_id)
        for conn in list(room.conns):
            await self.send_rematch_keys(room, conn)
        await self.host.broadcast(room)

    async def send_rematch_keys(self, room: Room, conn: Conn) -> None:
        if not room.rematch_id:
            return
        where = self.rematch_seat(room)
        keys = [{"seat": where[seat], "key": derive_key(key, room.rematch_id)}
                for seat, key in sorted(conn.keys.items())]
        try:
            await conn.send({"type": "rematch", "room": room.rematch_id, "keys": keys})
        except Exception:  # noqa: BLE001
            room.conns.discard(conn)

    async def offer_next(self, room: Room, conn: Conn) -> None:
        """A seat asks for the set's next game; it starts once every human seat has asked
        (so no clock runs for someone who is not there). Asking again once it exists gives
        this connection its seats there."""
        if not conn.keys:
            raise ClientError("not_your_seat", "spectators cannot start the next game")
        if room.match_set is None:
            raise ClientError("no_set", "this room is a single game, not a game of a set")
        if room.status != "finished":
            raise ClientError("not_over", "the next game of the set starts once this one "
                              "is over")
        async with room.lock:
            if room.next_room() is None:
                if room.set_over():
                    raise ClientError("set_over", "the set is decided; there is no next game")
                room.next_offers |= conn.seats
                self.host.publish_table(room)
                if not set(room.human_seats) - room.next_offers:
                    await self.start_next(room)
        if room.next_room() is not None:
            for c in list(room.conns):
                if c.keys:
                    await self.send_next_keys(room, c)
        await self.host.broadcast(room)

    def next_seat(self, room: Room) -> list[int]:
        """Where each seat of this room sits in the set's next game: the side that plays
        first in the next game is the match's ``seat_of_a`` there (colours swap)."""
        match = room.set_match()
        assert match is not None
        swap = match.seat_of_a(room.set_index) != match.seat_of_a(room.set_index + 1)
        return [1 - s if swap else s for s in range(len(room.seats))]

    async def start_next(self, room: Room) -> None:
        """The set's next room (caller holds the room lock): same game, options, clock and
        people; each seat's key hash moves with its holder, so every player keeps the key
        they already hold and nobody receives anyone else's."""
        ms = room.match_set
        assert ms is not None
        where = self.next_seat(room)
        seats: list[JSONObject] = [{} for _ in room.seats]
        hashes: dict[int, str] = {}
        for s in room.seats:
            seats[where[s.seat]] = {"kind": s.kind, "level": s.level, "name": s.name}
            if s.key_hash is not None:
                hashes[where[s.seat]] = s.key_hash
        match = room.set_match()
        assert match is not None
        # the deal may be replayed (it hides nothing there); the CPU's choices never are:
        # the new room has its own secret CPU seed (cpu_seed), whatever its dealing seed
        same = match.format.reverse and replays_the_deal(room.game)
        try:
            await self.host.create(room.game, dict(room.options), seats, casual=room.data.casual,
                                   hotseat=room.data.hotseat, clock=room.data.clock,
                                   seed=room.data.seed if same else None, key_hashes=hashes,
                                   match_set=ms)
        except Exception:
            # the set's game number is taken once: started at another process meanwhile?
            await self.host.reload(room)
            if room.next_room() is None:
                raise
        room.next_offers.clear()
        self.bus.publish({"kind": "sync", "room": room.id})

    async def send_next_keys(self, room: Room, conn: Conn) -> None:
        """The next game's room and where this connection's own keys sit there."""
        target = room.next_room()
        if not target:
            return
        where = self.next_seat(room)
        keys = [{"seat": where[seat], "key": key} for seat, key in sorted(conn.keys.items())]
        try:
            await conn.send({"type": "set_next", "room": target, "keys": keys})
        except Exception:  # noqa: BLE001
            room.conns.discard(conn)
