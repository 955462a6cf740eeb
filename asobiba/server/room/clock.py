"""The room's clock: the timer that ends the game when the running seat's flag falls, and
the check a late move meets. The clock arithmetic itself is :mod:`asobiba.server.clock`."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .conn import Ack
    from .state import Room

log = logging.getLogger("asobiba.server")


def clock_now() -> float:
    """Now, for the clocks (one name, so a test can move time on without sleeping)."""
    return time.time()


class ClockHost(Protocol):
    """What the clock needs from the rooms' hub: end a game on time, tell the table."""

    async def forfeit(self, room: Room, seat: int, how: str) -> None: ...

    async def broadcast(self, room: Room, ack: Ack | None = None) -> bool: ...


class Clocks:
    """The flag timer of every room of a hub (``enabled``: False, no flag ever falls by
    itself — a late move still meets :meth:`flag_fell`)."""

    def __init__(self, host: ClockHost, enabled: bool = True) -> None:
        self.host = host
        self.enabled = enabled

    def arm_clock(self, room: Room) -> None:
        """(Re)start the timer that ends the game when the running seat's flag falls."""
        if room.flag_task is not None:
            room.flag_task.cancel()
            room.flag_task = None
        if not self.enabled:
            return
        view = room.clock_view()
        if not view or view["running"] is None:
            return
        seat = view["running"]
        room.flag_task = asyncio.get_running_loop().create_task(
            self.flag(room, seat, room.version, view["remaining"][seat]))

    async def flag(self, room: Room, seat: int, version: int, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay) + 0.05)
        async with room.lock:
            view = room.clock_view()
            if (room.version != version or room.status != "active" or not view
                    or view["running"] != seat or view["remaining"][seat] > 0):
                return
            room.flag_task = None
            await self.host.forfeit(room, seat, "timeout")
        await self.host.broadcast(room)

    async def flag_fell(self, room: Room, seat: int) -> bool:
        async with room.lock:
            view = room.clock_view()
            if (room.status == "active" and view and view["running"] == seat
                    and view["remaining"][seat] <= 0):
                await self.host.forfeit(room, seat, "timeout")
                return True
        return False
