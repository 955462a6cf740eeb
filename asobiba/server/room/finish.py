"""Finishing a game the rules have not ended: a resignation, a fallen flag, a player who
left, an abort or an agreed draw — stored in one transaction, then the room is finished and
the progression layer told (``Hub.on_finish``)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Protocol

from ...core import Outcome
from ...core.jsontypes import JSONObject
from ..db import Conflict, Store
from .errors import ClientError

if TYPE_CHECKING:
    from ..bus import LocalBus, RedisBus
    from .conn import Ack
    from .state import Room

log = logging.getLogger("asobiba.server")


def forfeit_result(n: int, seat: int, how: str = "resigned") -> JSONObject:
    """A resignation or a fallen flag (``how`` = ``resigned`` / ``timeout``): that seat is
    last, every other seat shares first place."""
    ranks = tuple(2 if s == seat else 1 for s in range(n))
    scores = tuple(0.0 if s == seat else 1.0 for s in range(n))
    reason = {"resigned": f"seat {seat} resigned",
              "abandoned": f"seat {seat} left the game"}.get(how,
                                                             f"seat {seat} ran out of time")
    out = Outcome(scores, ranks, reason).to_json()
    out[how] = seat
    return out


class FinishHost(Protocol):
    """What finishing needs from the rooms' hub: the rooms held (a set's other games), the
    progression layer's hook, a background task, telling a table, reloading a room that
    ended elsewhere first, stopping its bots and its clock."""

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def on_finish(self) -> Callable[[Room], object] | None: ...

    def spawn(self, coro: Coroutine[object, object, object]) -> None: ...

    async def broadcast(self, room: Room, ack: Ack | None = None) -> bool: ...

    async def reload(self, room: Room) -> None: ...

    def cancel_bots(self, room: Room) -> None: ...

    def arm_clock(self, room: Room) -> None: ...


class Finisher:
    """Ends games: resign, forfeit, end."""

    def __init__(self, host: FinishHost, store: Store, bus: LocalBus | RedisBus) -> None:
        self.host = host
        self.store = store
        self.bus = bus

    def finished(self, room: Room) -> None:
        """A game just ended (caller holds the room lock): the progression layer records it;
        a set's other rooms held here show the new standing."""
        if self.host.on_finish is not None:
            self.host.on_finish(room)
        if room.match_set is not None:  # the set's earlier rooms show the new standing too
            others = [r for r in self.host.rooms.values()
                      if r is not room and r.match_set is room.match_set]
            if others:
                self.host.spawn(self.broadcast_all(others))

    async def broadcast_all(self, rooms: list[Room]) -> None:
        for other in rooms:
            await self.host.broadcast(other)

    async def forfeit(self, room: Room, seat: int, how: str) -> None:
        """End the game against ``seat`` (caller holds the room lock)."""
        await self.end(room, forfeit_result(len(room.seats), seat, how), {how: seat}, seat)

    async def end(self, room: Room, result: JSONObject, extra: JSONObject,
                  forfeit: int | None = None) -> None:
        """End the game with ``result`` though the rules have not (a forfeit, an abort;
        caller holds the room lock): stored in one transaction, then the room is finished."""
        record = room.record({**extra, "result": result}).dumps()
        standing = room.set_after(room.state, result, forfeit=forfeit)
        set_state = (room.match_set.id, standing) if room.match_set and standing else None
        try:
            await self.store.writer.run(self.store.finish_in, room.id, result, record,
                                        set_state, len(room.moves))
        except Conflict:  # ended (or moved) at another process first: take what is stored
            await self.host.reload(room)
            return
        self.bus.publish({"kind": "sync", "room": room.id})
        self.host.cancel_bots(room)
        room.status = "finished"
        room.result = result
        if room.match_set and standing:
            room.match_set.state = standing
        room.version += 1
        room.undo = None
        self.finished(room)

    async def resign(self, room: Room, seat: int) -> None:
        async with room.lock:
            if room.status != "active":
                raise ClientError("game_over", "the game is already over")
            await self.forfeit(room, seat, "resigned")
        self.host.arm_clock(room)
        await self.host.broadcast(room)
