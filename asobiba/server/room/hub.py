"""The hub: every room of one server process, and a thin router to the flows that act on
them, one concern each — :mod:`.persistence` (create, load, resume, reload), :mod:`.moves`
(hello, play, broadcast, acknowledgements), :mod:`.clock` (flags), :mod:`.finish` (resign,
forfeit, end), :mod:`.offers` (undo, rematch, next game), :mod:`.bots`, :mod:`.events` (the
cross-process bus). Presence and claims are :mod:`asobiba.server.fairplay` and
:mod:`.presence`; abort, draw offers, hints and the history pages
:mod:`asobiba.server.table`. Each method here only routes: the callers (app.py, the
table, fair play, the bus, the bot worker) keep one object to talk to."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING

from ...core import Game
from ...core.jsontypes import JSONObject
from ...play.runner import BotTurn
from ...progression.matches import MatchFormat
from ..bus import LocalBus
from ..db import SetData, Store
from .bots import Bots
from .clock import Clocks
from .conn import Conn
from .events import BusEvents
from .finish import Finisher
from .moves import Moves
from .notes import Note
from .offers import Offers
from .persistence import Persistence
from .state import Room

if TYPE_CHECKING:
    from ..bots import BotPool
    from ..bus import RedisBus
    from ..jobs import RedisJobs


class Hub:
    """All rooms of one server: creating, loading (resuming after a restart), playing."""

    def __init__(self, store: Store, pool: BotPool, get_game: Callable[[str], Game],
                 bot_delay: float = 0.0, bus: LocalBus | RedisBus | None = None,
                 jobs: RedisJobs | None = None,
                 clocks: bool = True, claim_after: float = 60.0) -> None:
        self.store = store
        self.pool = pool
        self.bus: LocalBus | RedisBus = bus if bus is not None else LocalBus()
        """Where committed changes are announced to the other processes (LocalBus: none)."""
        self.jobs = jobs
        """The bot-move queue of the scaled mode; None: bots run here, in ``pool``."""
        self.clocks = clocks
        self.get_game = get_game
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.sets: dict[str, SetData] = {}
        """One object per set, shared by its loaded rooms (so all see the same standing)."""
        self._tasks: set[asyncio.Task[object]] = set()
        self._loads: dict[str, asyncio.Task[Room | None]] = {}
        """The rooms being loaded from the store now, each by one task that every request
        for it awaits (different rooms load side by side)."""
        self._missed: set[str] = set()
        self._queueing: set[tuple[str, int, int]] = set()
        """Bot turns (room, seat, ply) whose job this process is queuing (or retrying)."""
        self._redis_back = asyncio.Event()
        """Set (and replaced) when the bus is back after a gap: the queuing retries wake."""
        """Rooms another process sent an event for while they were loading here."""
        self.on_finish: Callable[[Room], object] | None = None
        """Called once when a game ends (the progression layer records and rates it)."""
        self._cpu_key: bytes | None = None
        self.claim_after = claim_after
        """The fair-play policy's seconds before a gone seat may be claimed against."""
        # the flows, one concern each; the methods below route to them
        self.persistence = Persistence(self)
        self.moves = Moves(self)
        self.clock = Clocks(self)
        self.finisher = Finisher(self)
        self.bots = Bots(self)
        self.events = BusEvents(self)
        self.offers = Offers(self)

    def _spawn(self, coro: Coroutine[object, object, object]) -> None:
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._tasks.discard)

    # ---- persistence -----------------------------------------------------------------------
    def cpu_key(self) -> bytes:
        return self.persistence.cpu_key()

    async def create(self, game: Game, options: JSONObject, seats: list[JSONObject],
                     casual: bool = True, hotseat: bool = False,
                     rematch_of: str | None = None,
                     keys: dict[int, str] | None = None,
                     room_id: str | None = None,
                     clock: dict[str, int] | None = None,
                     seed: int | None = None,
                     opening: Sequence[tuple[int, str]] | None = None,
                     match: MatchFormat | None = None,
                     key_hashes: dict[int, str] | None = None,
                     match_set: SetData | None = None,
                     ) -> tuple[Room, dict[int, str]]:
        return await self.persistence.create(
            game, options, seats, casual=casual, hotseat=hotseat, rematch_of=rematch_of,
            keys=keys, room_id=room_id, clock=clock, seed=seed, opening=opening, match=match,
            key_hashes=key_hashes, match_set=match_set)

    async def get(self, room_id: str) -> Room | None:
        return await self.persistence.get(room_id)

    def forget_if_idle(self, room: Room) -> None:
        self.persistence.forget_if_idle(room)

    async def resume_all(self) -> int:
        return await self.persistence.resume_all()

    # ---- moves and acknowledgements --------------------------------------------------------
    async def send_full(self, room: Room, conn: Conn) -> None:
        await self.moves.send_full(room, conn)

    async def broadcast(self, room: Room, ack: tuple[Conn, int | str] | None = None
                        ) -> bool:
        return await self.moves.broadcast(room, ack)

    async def hello(self, room: Room, conn: Conn, claims: Sequence[tuple[int, str]]
                    ) -> list[int]:
        return await self.moves.hello(room, conn, claims)

    def seat_for(self, room: Room, conn: Conn, seat: object) -> int:
        return self.moves.seat_for(room, conn, seat)

    async def play(self, room: Room, seat: int, text: object, expect_ply: object = None,
                   notes: Sequence[Note] = (), ack: tuple[Conn, int | str] | None = None
                   ) -> bool:
        return await self.moves.play(room, seat, text, expect_ply, notes, ack)

    # ---- clock and finishing ---------------------------------------------------------------
    def arm_clock(self, room: Room) -> None:
        self.clock.arm_clock(room)

    async def _forfeit(self, room: Room, seat: int, how: str) -> None:
        await self.finisher.forfeit(room, seat, how)

    async def end(self, room: Room, result: JSONObject, extra: JSONObject,
                  forfeit: int | None = None) -> None:
        await self.finisher.end(room, result, extra, forfeit)

    async def resign(self, room: Room, seat: int) -> None:
        await self.finisher.resign(room, seat)

    # ---- bots ------------------------------------------------------------------------------
    def schedule_bots(self, room: Room) -> None:
        self.bots.schedule_bots(room)

    async def sweep_bots(self, deadline: float, every: float = 2.0) -> None:
        await self.bots.sweep_bots(deadline, every)

    async def bot_choice(self, room: Room, seat: int, ply: int) -> BotTurn:
        return await self.bots.bot_choice(room, seat, ply)

    async def bot_job(self, room_id: str, seat: int, ply: int) -> bool:
        return await self.bots.bot_job(room_id, seat, ply)

    # ---- the bus ---------------------------------------------------------------------------
    async def on_event(self, event: JSONObject) -> None:
        await self.events.on_event(event)

    async def resync_all(self) -> None:
        await self.events.resync_all()

    async def poll_while_away(self, every: float = 1.0, batch: int = 500) -> None:
        await self.events.poll_while_away(every, batch)

    # ---- offers ----------------------------------------------------------------------------
    async def request_undo(self, room: Room, conn: Conn, seat: int) -> None:
        await self.offers.request_undo(room, conn, seat)

    async def reply_undo(self, room: Room, seat: int, accept: bool) -> None:
        await self.offers.reply_undo(room, seat, accept)

    async def offer_rematch(self, room: Room, conn: Conn, accept: bool | None = None
                            ) -> None:
        await self.offers.offer_rematch(room, conn, accept)

    async def offer_next(self, room: Room, conn: Conn) -> None:
        await self.offers.offer_next(room, conn)
