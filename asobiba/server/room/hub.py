"""The hub: every room of one server process, and a thin router to the flows that act on
them, one concern each — :mod:`.persistence` (create, load, resume, reload), :mod:`.moves`
(hello, play, broadcast, acknowledgements), :mod:`.clock` (flags), :mod:`.finish` (resign,
forfeit, end), :mod:`.offers` (undo, rematch, next game), :mod:`.bots`, :mod:`.events` (the
cross-process bus). Presence and claims are :mod:`asobiba.server.fairplay` and
:mod:`.presence`; abort, draw offers, hints and the history pages
:mod:`asobiba.server.table`.

No flow knows the Hub: each states what it needs from it as a narrow
:class:`typing.Protocol` of its own (``ClockHost``, ``FinishHost``, ``MoveHost``,
``OfferHost``, ``BotHost``, ``PersistenceHost``, ``EventHost``) and gets the store, the bus
and its settings as plain arguments. The Hub implements those protocols (mypy checks it
where each flow is built, below) by routing each method to the flow that owns it; the
callers (app.py, the table, fair play, the bus, the bot worker) keep one object to talk to.
tests/core/test_room_interfaces.py checks that no module of the package but this one names
the Hub."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING

from ...core import Game
from ...core.jsontypes import JSONObject
from ...play.runner import BotTurn
from ..bus import LocalBus
from ..db import RoomData, Store
from .bots import Bots
from .clock import Clocks
from .conn import Ack, Conn
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
        self._tasks: set[asyncio.Task[object]] = set()
        self.on_finish: Callable[[Room], object] | None = None
        """Called once when a game ends (the progression layer records and rates it)."""
        self.claim_after = claim_after
        """The fair-play policy's seconds before a gone seat may be claimed against."""
        # the flows, one concern each; the methods below route to them
        self.persistence = Persistence(self, store, get_game, claim_after)
        self.moves = Moves(self, store, self.bus)
        self.clock = Clocks(self, enabled=clocks)
        self.finisher = Finisher(self, store, self.bus)
        self.bots = Bots(self, store, self.bus, pool, jobs, bot_delay)
        self.events = BusEvents(self, store, self.bus)
        self.offers = Offers(self, store, self.bus)
        self.create = self.persistence.create
        """A new room and its seats' keys (:meth:`.persistence.Persistence.create`)."""

    def spawn(self, coro: Coroutine[object, object, object]) -> None:
        """Run ``coro`` in the background, held until done (the loop keeps only weak
        references to its tasks)."""
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- persistence -----------------------------------------------------------------------
    def cpu_key(self) -> bytes:
        return self.persistence.cpu_key()

    async def ensure_cpu_key(self) -> bytes:
        return await self.persistence.ensure_cpu_key()

    def build(self, data: RoomData) -> Room:
        return self.persistence.build(data)

    async def get(self, room_id: str) -> Room | None:
        return await self.persistence.get(room_id)

    async def reload(self, room: Room) -> None:
        await self.persistence.reload(room)

    def note_missed(self, room_id: str) -> None:
        self.persistence.note_missed(room_id)

    def forget_if_idle(self, room: Room) -> None:
        self.persistence.forget_if_idle(room)

    async def resume_all(self) -> int:
        return await self.persistence.resume_all()

    # ---- moves and acknowledgements --------------------------------------------------------
    async def send_full(self, room: Room, conn: Conn) -> None:
        await self.moves.send_full(room, conn)

    async def broadcast(self, room: Room, ack: Ack | None = None) -> bool:
        return await self.moves.broadcast(room, ack)

    async def hello(self, room: Room, conn: Conn, claims: Sequence[tuple[int, str]]
                    ) -> list[int]:
        return await self.moves.hello(room, conn, claims)

    def seat_for(self, room: Room, conn: Conn, seat: object) -> int:
        return self.moves.seat_for(room, conn, seat)

    async def play(self, room: Room, seat: int, text: object, expect_ply: object = None,
                   notes: Sequence[Note] = (), ack: Ack | None = None) -> bool:
        return await self.moves.play(room, seat, text, expect_ply, notes, ack)

    # ---- clock and finishing ---------------------------------------------------------------
    def arm_clock(self, room: Room) -> None:
        self.clock.arm_clock(room)

    async def flag_fell(self, room: Room, seat: int) -> bool:
        return await self.clock.flag_fell(room, seat)

    async def forfeit(self, room: Room, seat: int, how: str) -> None:
        """End the game against ``seat`` (caller holds the room lock)."""
        await self.finisher.forfeit(room, seat, how)

    async def end(self, room: Room, result: JSONObject, extra: JSONObject,
                  forfeit: int | None = None) -> None:
        await self.finisher.end(room, result, extra, forfeit)

    def finished(self, room: Room) -> None:
        self.finisher.finished(room)

    async def resign(self, room: Room, seat: int) -> None:
        await self.finisher.resign(room, seat)

    # ---- bots ------------------------------------------------------------------------------
    def schedule_bots(self, room: Room) -> None:
        self.bots.schedule_bots(room)

    def cancel_bots(self, room: Room) -> None:
        self.bots.cancel(room)

    def wake_queued(self) -> None:
        self.bots.wake_queued()

    async def sweep_bots(self, deadline: float, every: float = 2.0) -> None:
        await self.bots.sweep_bots(deadline, every)

    async def bot_choice(self, room: Room, seat: int, ply: int) -> BotTurn:
        return await self.bots.bot_choice(room, seat, ply)

    async def bot_job(self, room_id: str, seat: int, ply: int) -> bool:
        return await self.bots.bot_job(room_id, seat, ply)

    # ---- the bus ---------------------------------------------------------------------------
    async def on_event(self, event: JSONObject) -> None:
        await self.events.on_event(event)

    def publish_table(self, room: Room, **extra: object) -> None:
        self.events.publish_table(room, **extra)

    async def resync_all(self) -> None:
        await self.events.resync_all()

    async def poll_while_away(self, every: float = 1.0, batch: int = 500) -> None:
        await self.events.poll_while_away(every, batch)

    async def catch_up(self, room: Room) -> None:
        await self.events.catch_up(room)

    def ask_shared(self, room: Room) -> None:
        """Ask the other processes what they know of ``room``'s table (presence, offers)."""
        from ..shared import ask

        ask(self, room)

    async def on_shared_event(self, room: Room, event: JSONObject) -> None:
        """Presence, draw offers and hints another process shares (:mod:`..shared`)."""
        from .. import shared

        await shared.on_event(self, room, event)

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

    async def start_rematch(self, room: Room) -> None:
        await self.offers.start_rematch(room)

    async def start_next(self, room: Room) -> None:
        await self.offers.start_next(room)

    async def send_rematch_keys(self, room: Room, conn: Conn) -> None:
        await self.offers.send_rematch_keys(room, conn)

    async def send_next_keys(self, room: Room, conn: Conn) -> None:
        await self.offers.send_next_keys(room, conn)
