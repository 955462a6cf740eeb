"""Rank-up exams and their pages: an exam game is resumed on reload (the running exam room
is given back, never a second one), and failed as ``abandoned`` — the player's seat resigns
its game — once no page of the player's seat has been connected for :data:`EXAM_GRACE`
seconds (docs/progression.md, "Exams and reloads"). :class:`Exams` keeps which rooms are
exams; the app's :class:`.context.ProgressionWeb` owns one."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from ...progression.errors import ProgressionError
from ...tables import ROOM_CONTEXT, RoomRow
from ..db import reader
from ..rooms import ClientError
from .context import load_context

if TYPE_CHECKING:
    from ..rooms import Room
    from .context import ProgressionWeb

log = logging.getLogger("asobiba.server.progression")
EXAM_GRACE = float(os.environ.get("ASOBIBA_EXAM_GRACE", "60"))
"""Seconds an exam game may run with no page of the player's seat connected (a reload, a
dropped network) before the exam is failed as ``abandoned`` and the player's seat resigns
its game (docs/progression.md, "Exams and reloads")."""
EXAM_CHECK = float(os.environ.get("ASOBIBA_EXAM_CHECK", "2"))
"""Seconds between two looks at the running exam games."""


class Exams:
    """The exam rooms held by this process: room id → (player, game, seat). A room opened
    here is known at once (:meth:`started`); one resumed after a restart is looked up in
    ``ROOM_CONTEXT`` once (:attr:`checked`)."""

    def __init__(self, web: ProgressionWeb) -> None:
        self.web = web
        self.rooms: dict[str, tuple[int, str, int]] = {}
        self.checked: set[str] = set()
        """Rooms already looked up (an exam or not): each is read once."""

    def started(self, room: Room, player_id: int, game_id: str, seat: int) -> None:
        """An exam room was just opened: its grace counts from now until the player's page
        connects."""
        from .. import fairplay

        fairplay.note_presence(room)
        self.rooms[room.id] = (player_id, game_id, seat)

    async def running_room(self, player_id: int, game_id: str) -> str | None:
        """The player's exam game in progress, if any (the newest active exam room)."""
        engine = self.web.engine

        def load() -> list[str]:
            with reader(engine).connect() as conn:
                return list(conn.execute(
                    select(ROOM_CONTEXT.c.room_id)
                    .join(RoomRow, RoomRow.id == ROOM_CONTEXT.c.room_id)
                    .where(ROOM_CONTEXT.c.player_id == player_id,
                           ROOM_CONTEXT.c.game == game_id,
                           ROOM_CONTEXT.c.kind == "exam", RoomRow.status == "active")
                    .order_by(RoomRow.created.desc(), RoomRow.id.desc())).scalars())
        for room_id in await run_in_threadpool(load):
            room = await self.web.hub().get(room_id)
            if room is not None and room.status == "active":
                return room_id
        return None

    async def sweep(self, now: float) -> list[str]:
        """Fail the exams whose game's page is gone past EXAM_GRACE (``abandoned``) and
        resign the player's seat of that game; the rooms so ended."""
        hub = self.web.hub()
        ended = []
        for room in list(hub.rooms.values()):
            got = self.rooms.get(room.id)
            if got is None and room.id not in self.checked:
                self.checked.add(room.id)  # rooms resumed after a restart: looked up once
                ctx = await run_in_threadpool(load_context, self.web.engine, room.id)
                if ctx is not None and ctx["kind"] == "exam":
                    got = self.rooms[room.id] = (int(ctx["player_id"]), str(ctx["game"]),
                                                 int(ctx["seat"]))
                    if room.status == "active":
                        from .. import fairplay

                        fairplay.note_presence(room)
            if got is None:
                continue
            if room.status != "active":
                self.rooms.pop(room.id, None)
                continue
            pid, game_id, seat = got
            since = room.away_since.get(seat)
            if since is None or now - since < EXAM_GRACE:
                continue
            self.rooms.pop(room.id, None)
            try:
                await run_in_threadpool(self.web.prog.leave_exam, pid, game_id, "abandoned")
            except ProgressionError:  # left already (the Leave button): only the game ends
                pass
            try:
                await hub.resign(room, seat)
            except ClientError:  # ended meanwhile
                pass
            ended.append(room.id)
        return ended

    async def watch(self) -> None:
        """:meth:`sweep` every EXAM_CHECK seconds (run in the background)."""
        while True:
            await asyncio.sleep(EXAM_CHECK)
            try:
                await self.sweep(time.time())
            except Exception:  # the next look tries again
                log.exception("the exam watch failed")
