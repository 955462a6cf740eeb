"""Rooms: one game being played, its seats, its connections, and the rules of the table
(who may move, undo, resign, rematch). The server is authoritative: a move arrives as text,
the game parses and applies it, the move is committed to the store, and only then is anything
acknowledged or sent. Each connection receives only ``view(seat)`` for the seats it holds
(a spectator: ``view(None)``). Nothing here knows any particular game.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core import (
    AsobibaError,
    Game,
    MoveEntry,
    MoveError,
    Outcome,
    Record,
    Rng,
    SeatInfo,
    State,
)
from ..core.jsontypes import JSONObject
from ..core.rng import derive_seed
from ..play.runner import BotTurn
from ..progression.matches import A, B, Match, MatchFormat, replays_the_deal, tiebreak_for
from . import clock as clocks
from . import eager
from .bus import LocalBus
from .db import Conflict, MoveData, RoomData, SeatData, SetData, Store, utcnow
from .wire import dumps

if TYPE_CHECKING:
    from .bots import BotPool
    from .bus import RedisBus
    from .jobs import RedisJobs

log = logging.getLogger("asobiba.server")
BOT_RETRY = 2.0  # seconds before a bot turn that failed unexpectedly is tried again


class ClientError(Exception):
    """A request refused with a reason the person can read; nothing was changed."""

    def __init__(self, code: str, message: str, status: int | None = None,
                 args: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or (413 if code == "too_large" else 400)
        self.details = args  # the code's arguments, if it has any (e.g. bad_text)


def clock_now() -> float:
    """Now, for the clocks (one name, so a test can move time on without sleeping)."""
    return time.time()


def new_key() -> str:
    return secrets.token_urlsafe(18)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def derive_key(old_key: str, new_room: str) -> str:
    """A rematch seat key that only the holder of the old seat key can (re)obtain."""
    return hmac.new(old_key.encode(), f"rematch:{new_room}".encode(), "sha256").hexdigest()[:24]


def rematch_room_id(room_id: str) -> str:
    """The id of a room's rematch, fixed in advance: every server process holding one of its
    seats derives the same one, so each can hand its own players their rematch keys, and a
    rematch started at two processes at once is created once (the second create is refused
    by the room id's uniqueness). It is no secret: the room shows it to everyone anyway."""
    return hashlib.sha256(f"rematch:{room_id}".encode()).hexdigest()[:10]


CPU_SECRET = "cpu"
"""The name of the server secret (``prog_secrets``) that seeds every room's CPU."""


def cpu_seed(key: bytes, room_id: str) -> int:
    """The seed of the CPU's choices in room ``room_id``: an HMAC of the room's id under the
    server's CPU secret. Each room (each daily attempt, each game of a set) gets its own,
    unknown to anyone until the room's record shows it once the game is over — and one
    room's seed says nothing about another's. The room's own ``seed`` deals (it may be a
    daily challenge's or a set's earlier game's, both public in time); the CPU's choices
    were derived from it before, so anyone who knew it predicted them (issue 25 item 4;
    docs/fair-play.md, "The CPU's seed")."""
    mac = hmac.new(key, f"asobiba-cpu|{room_id}".encode(), "sha256")
    # 48 bits, as a room's own seed: exact in JavaScript, and within the API's bounded ints
    return int.from_bytes(mac.digest()[:6], "big")


@dataclass(eq=False)
class Conn:
    """One WebSocket connection: the seats it proved keys for, and how to send to it."""

    send: Callable[[JSONObject], Awaitable[None]]
    keys: dict[int, str] = field(default_factory=dict)
    send_text: Callable[[str], Awaitable[None]] | None = None
    """Sends an already serialised message (a broadcast serialises each message once)."""
    moves_sent: int = -1
    """How many of the room's moves this connection has been sent (-1: none yet); the next
    update carries only the moves after them (``moves_from``)."""
    history: int = -1
    """The room's ``history`` count when those were sent: an undo or a reload that rewrote
    the moves since makes the next update a full one."""
    ack_in_update: bool = False
    """Said in its hello: the update that shows this connection's move carries the move's
    acknowledgement (``"ack": id``) instead of a separate ``ack`` message after it."""
    address: str = "?"
    """The client's address (``limits.client_ip``): the per-address byte budget of
    ``history`` (server.table) is counted by it."""

    @property
    def seats(self) -> set[int]:
        return set(self.keys)


class Room:
    """A live room. States are rebuilt by replaying the stored moves, so the store is the
    truth and this object is a cache of it plus the connections."""

    def __init__(self, data: RoomData, game: Game, cpu_seed: int) -> None:
        self.id = data.id
        self.data = data
        self.cpu_seed = cpu_seed
        """What seeds the CPU's choices in this room (:func:`cpu_seed`): secret until the
        game is over, then in its record (``extra.cpu_seed``) so its moves can be checked."""
        self.game = game
        self.seats = data.seats
        self.moves: list[MoveData] = list(data.moves)
        start = game.new_game(data.options, data.seed)
        self.options = dict(start.options)
        self.states: list[State] = [start]
        for m in self.moves:
            self.states.append(self.states[-1].play(m.text, m.seat))
        self.status = data.status
        self.result = data.result
        self.rematch_id = data.rematch_id
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.version = 0
        self.history = 0
        """Counts the times moves were taken back or replaced (undo, a reload that differs):
        a connection sent moves before that gets the whole list again."""
        self.undo: JSONObject | None = None
        self.rematch_offers: set[int] = set()
        self.away_since: dict[int, float] = {}
        """Person's seat -> since when no connection holds it (server.fairplay)."""
        self.rematch_hashes: dict[int, str] = {}
        """Rematch seat -> hash of the key its offering holder will get there: fixed at the
        offer, so the rematch no longer depends on the offerer staying connected."""
        self.bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.notes: list[str] = []
        self.flag_task: asyncio.Task[None] | None = None
        self._views: dict[int, list[JSONObject]] = {}
        self._views_epoch = 0  # the ``history`` count ``_views`` was made at
        self.match_set: SetData | None = data.match_set
        self.set_index = data.set_index
        self.next_offers: set[int] = set()

    # ---- derived facts -------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    @property
    def can_undo(self) -> bool:
        """Undo only in casual games where taking a move back reveals nothing new."""
        return (self.data.casual and self.game.perfect_information and not self.game.chance)

    def check_key(self, seat: int, key: str) -> bool:
        if not (0 <= seat < len(self.seats)):
            return False
        stored = self.seats[seat].key_hash
        return stored is not None and hmac.compare_digest(stored, hash_key(key))

    def views_for(self, seat: int) -> list[JSONObject]:
        """Every view ``seat`` has received, in order (what a bot in it has observed)."""
        if self._views_epoch != self.history:  # moves taken back or replaced since
            self._views.clear()
            self._views_epoch = self.history
        cache = self._views.setdefault(seat, [])
        del cache[len(self.states):]
        for st in self.states[len(cache):]:
            cache.append(st.view(seat))
        return list(cache)

    def clock_running(self) -> int | None:
        acting = self.state.acting_seats
        return acting[0] if self.status == "active" and len(acting) == 1 else None

    def clock_view(self) -> JSONObject | None:
        if not self.data.clock:
            return None
        return clocks.view(self.data.clock, len(self.seats), self.data.created, self.moves,
                           self.clock_running(), clock_now())

    # ---- the set (reverse match / best-of-N) this room is a game of ---------------------------
    def set_match(self) -> Match | None:
        return Match.from_json(self.match_set.state["match"]) if self.match_set else None

    def set_over(self) -> bool:
        ms, match = self.match_set, self.set_match()
        return ms is not None and match is not None and (
            bool(ms.state.get("forfeit")) or match.is_over)

    def next_room(self) -> str | None:
        ms = self.match_set
        return ms.rooms[self.set_index + 1] if ms and len(ms.rooms) > self.set_index + 1 \
            else None

    def set_after(self, final: State, result: JSONObject, forfeit: int | None = None
                  ) -> JSONObject | None:
        """The set's standing once this game ends with ``result`` (None: not in a set).
        The tie-break comes from the final spectator view, so it holds nothing hidden.
        Resigning or losing on time in a reverse match loses the set: otherwise a player
        far behind on score could resign to lose the game by a single point."""
        match = self.set_match()
        if match is None or len(match.games) != self.set_index:
            return None
        hook = tiebreak_for(self.game)
        outcome = Outcome(tuple(result["scores"]), tuple(result["ranks"]),
                          str(result.get("reason", "")))
        match = match.add(outcome, hook(final.view(None)) if hook else None)
        lost = None
        if forfeit is not None and match.format.reverse:
            lost = A if forfeit == match.seat_of_a(self.set_index) else B
        return {"match": match.to_json(), "forfeit": lost}

    def set_view(self) -> JSONObject | None:
        """The set's public standing: finished games' results only (already public)."""
        ms, match = self.match_set, self.set_match()
        if ms is None or match is None:
            return None
        lost = ms.state.get("forfeit")
        over = self.set_over()
        winner = (B if lost == A else A) if lost else match.winner
        a_here = match.seat_of_a(self.set_index)
        units = match.units()
        return {
            "format": "reverse" if match.format.reverse else
            "best_of" if match.format.best_of > 1 else "single",
            "best_of": match.format.best_of,
            "index": self.set_index,
            "sides": {A: a_here, B: 1 - a_here},
            "games": [{"room": ms.rooms[i] if i < len(ms.rooms) else None,
                       "seat_of_a": g.seat_of_a, "score_a": g.score_a, "score_b": g.score_b,
                       "points_a": g.points_a, "tiebreak_a": g.tiebreak_a,
                       "tiebreak_b": g.tiebreak_b} for i, g in enumerate(match.games)],
            "wins": list(match.wins()),
            "totals": [sum(g.score_a for g in match.games),
                       sum(g.score_b for g in match.games)],
            "tiebreak": [sum(g.tiebreak_a for g in match.games),
                         sum(g.tiebreak_b for g in match.games)],
            "has_tiebreak": tiebreak_for(self.game) is not None,
            "units": len(units),
            "over": over,
            "winner": winner,
            "forfeit": lost,
            "next": {"room": self.next_room(), "offers": sorted(self.next_offers)},
        }

    def natural_result(self, state: State) -> JSONObject | None:
        outcome = state.outcome
        return outcome.to_json() if outcome else None

    def record(self, extra: JSONObject | None = None) -> Record:
        state = self.state
        # the seed the CPU actually used (rooms with a CPU seat), so its moves can be checked
        cpu: JSONObject = ({"cpu_seed": self.cpu_seed}
                           if any(s.kind == "bot" for s in self.seats) else {})
        return Record(
            game=self.game.id, options=dict(self.options), seed=self.data.seed,
            moves=tuple(MoveEntry(m.seat, m.text) for m in self.moves),
            seats=tuple(SeatInfo(s.kind, s.name, s.level) for s in self.seats),
            result=state.outcome, rules_version=self.game.rules_version,
            started=self.data.created, finished=utcnow(),
            # the time control the game was played under (the record keeps it)
            extra={"room": self.id, **cpu,
                   **({"clock": dict(self.data.clock)} if self.data.clock else {}),
                   **(extra or {})},
        )

    def public_moves(self, start: int = 0) -> list[list[int | str | None]]:
        """The move list everyone may see, from ply ``start`` on: each move's seat, and its
        text only in games of perfect information."""
        if self.game.perfect_information:
            return [[m.seat, m.text] for m in self.moves[start:]]
        return [[m.seat, None] for m in self.moves[start:]]

    def public(self, with_moves: bool = True) -> JSONObject:
        """What everyone at the table may know about the room (never the seed or keys).
        ``with_moves=False``: without the move list (an update adds the part it needs)."""
        from .shared import online as online_anywhere

        online = online_anywhere(self)  # connected here or at another process
        perfect = self.game.perfect_information
        out: JSONObject = {
            "id": self.id,
            "game": self.game.id,
            "title": {"en": self.game.title_en, "ja": self.game.title_ja},
            "options": self.options,
            "perfect_information": perfect,
            "simultaneous": self.game.simultaneous,
            "casual": self.data.casual,
            "hotseat": self.data.hotseat,
            "status": self.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name,
                       "online": s.kind == "bot" or s.seat in online} for s in self.seats],
            "ply": len(self.moves),
            "moves": None,
            "result": self.result,
            "can_undo": self.can_undo and self.status == "active",
            "undo": self.undo,
            "rematch": {"offers": sorted(self.rematch_offers), "room": self.rematch_id},
            "thinking": sorted(self.bot_tasks),
            "notes": self.notes[-5:],
            "clock": self.clock_view(),
            "spectators": sum(1 for c in self.conns if not c.keys),
            "set": self.set_view(),
            "table": self.table_view(),
        }
        if with_moves:
            out["moves"] = self.public_moves()
        return out

    def table_view(self) -> JSONObject:
        """Abort and draw offers (asobiba.server.table, kept out of the room core)."""
        from .table import public

        return public(self)

    def seat_views(self, seats: list[int]) -> list[JSONObject]:
        """The current view of each of ``seats`` (a spectator's, ``view(None)``, if none):
        all an update may show of the position."""
        return [{"seat": s, "view": self.state.view(s)} for s in seats] or [
            {"seat": None, "view": self.state.view(None)}]

    def message_for(self, conn: Conn, public: JSONObject | None = None,
                    moves_from: int | None = None) -> JSONObject:
        """The update for ``conn``: the room and the views of the seats it holds. With
        ``moves_from``, ``room.moves`` holds only the moves from that ply on (the client
        has the ones before; ``room.moves_from`` says where they start)."""
        seats = sorted(conn.seats)
        views = self.seat_views(seats)
        room = public if public is not None else self.public(with_moves=False)
        if moves_from is None:
            room = {**room, "moves": self.public_moves()}
        else:
            room = {**room, "moves": self.public_moves(moves_from), "moves_from": moves_from}
        return {"type": "update", "room": room, "you": seats, "views": views}

    def update_text(self, conn: Conn, public: JSONObject, moves_from: int | None,
                    room_texts: dict[int | None, str], ack: int | str | None = None) -> str:
        """:meth:`message_for` as JSON text (with ``"ack"`` when given), the room part
        serialised once per broadcast for every connection with the same ``moves_from``
        (``room_texts`` keeps them): in a room of two players, that part — most of an
        update — was serialised twice per move."""
        room = room_texts.get(moves_from)
        if room is None:
            part = {**public, "moves": self.public_moves(moves_from or 0)}
            if moves_from is not None:
                part["moves_from"] = moves_from
            room = room_texts[moves_from] = dumps(part)
        seats = sorted(conn.seats)
        views = self.seat_views(seats)
        tail = "" if ack is None else f',"ack":{dumps(ack)}'
        return (f'{{"type":"update","room":{room},"you":{dumps(seats)},'
                f'"views":{dumps(views)}{tail}}}')

    def delta_start(self, conn: Conn) -> int | None:
        """Where ``conn``'s next update may start its move list (None: send it whole), and
        note that it will have every move after that update."""
        start = conn.moves_sent if (conn.history == self.history
                                    and 0 <= conn.moves_sent <= len(self.moves)) else None
        conn.moves_sent, conn.history = len(self.moves), self.history
        return start


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


class Hub:
    """All rooms of one server: creating, loading (resuming after a restart), playing."""

    def __init__(self, store: Store, pool: BotPool, get_game: Callable[[str], Game],
                 bot_delay: float = 0.0, bus: LocalBus | RedisBus | None = None,
                 jobs: RedisJobs | None = None,
                 clocks: bool = True) -> None:
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

    def cpu_key(self) -> bytes:
        """The server's CPU secret (read from the store once per process; a small query)."""
        if self._cpu_key is None:
            self._cpu_key = self.store.secret(CPU_SECRET)
        return self._cpu_key

    async def _ensure_cpu_key(self) -> bytes:
        """:meth:`cpu_key` without blocking the event loop on its first read."""
        if self._cpu_key is None:
            self._cpu_key = await asyncio.to_thread(self.store.secret, CPU_SECRET)
        return self._cpu_key

    def _finished(self, room: Room) -> None:
        if self.on_finish is not None:
            self.on_finish(room)
        if room.match_set is not None:  # the set's earlier rooms show the new standing too
            others = [r for r in self.rooms.values()
                      if r is not room and r.match_set is room.match_set]
            if others:
                task = asyncio.get_running_loop().create_task(self._broadcast_all(others))
                self._tasks.add(task)  # held until done: the loop keeps only weak references
                task.add_done_callback(self._tasks.discard)

    async def _broadcast_all(self, rooms: list[Room]) -> None:
        for other in rooms:
            await self.broadcast(other)

    # ---- creating and loading --------------------------------------------------------------
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
        """A new room; returns it and the plaintext key of each human seat (shown once).
        ``seed`` fixes the deal (a daily challenge, both games of a reverse-match set);
        ``opening`` moves are replayed to check them and stored as the room's first moves,
        so a restart resumes after them. A bad opening is refused and creates nothing.
        ``match`` (reverse / best-of-N) makes this room the first game of a new set, stored
        with it in the same transaction; ``match_set`` with ``key_hashes`` (the seats' keys,
        kept by their holders) makes it the set's next game."""
        seed = secrets.randbits(48) if seed is None else seed
        moves: list[MoveData] = []
        if opening:
            try:
                game.replay(list(opening), options, seed)
            except MoveError as exc:
                raise ClientError("bad_opening", f"the opening cannot be played: {exc}"
                                  ) from None
            now = utcnow()
            moves = [MoveData(ply, seat, text, now) for ply, (seat, text) in enumerate(opening)]
        room_id = room_id or secrets.token_urlsafe(6)
        keys = dict(keys or {})
        hashes = dict(key_hashes or {})
        seat_rows = []
        for i, spec in enumerate(seats):
            if spec["kind"] == "human" and i not in hashes:
                keys.setdefault(i, new_key())
                hashes[i] = hash_key(keys[i])
            seat_rows.append(SeatData(i, spec["kind"], spec.get("level"), spec.get("name", ""),
                                      hashes[i] if spec["kind"] == "human" else None))
        set_index = 0
        if match is not None and match.kind != "single":
            match_set = SetData(secrets.token_urlsafe(9),
                                {"match": Match(match).to_json(), "forfeit": None}, [room_id])
        elif match_set is not None:
            set_index = len(match_set.rooms)
            match_set = SetData(match_set.id, match_set.state, [*match_set.rooms, room_id])
        data = RoomData(
            id=room_id, game=game.id, rules_version=game.rules_version, options=options,
            seed=seed, casual=casual, hotseat=hotseat, clock=clock,
            status="active", result=None, rematch_of=rematch_of, rematch_id=None,
            created=utcnow(), seats=seat_rows, moves=moves,
            match_set=match_set, set_index=set_index,
        )
        room = Room(data, game, cpu_seed(await self._ensure_cpu_key(), room_id))
        if room.state.is_over:
            raise ClientError("bad_opening", "the opening ends the game; nothing is left "
                              "to play")
        await self.store.writer.run(self.store.create_room_in, data)
        if match_set is not None:  # stored: now every loaded room of the set sees this one
            shared = self.sets.setdefault(match_set.id, match_set)
            shared.rooms = match_set.rooms
            room.match_set = shared
        self.rooms[room_id] = room
        return_keys = {k: v for k, v in keys.items() if seat_rows[k].kind == "human"}
        self.schedule_bots(room)
        self.arm_clock(room)
        return room, return_keys

    async def get(self, room_id: str) -> Room | None:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if len(room_id) > 32:
            return None
        load = self._loads.get(room_id)
        if load is None:
            load = asyncio.get_running_loop().create_task(self._load(room_id))
            self._loads[room_id] = load
            load.add_done_callback(lambda _t: self._loads.pop(room_id, None))
        # shielded: a request that goes away does not cancel the load the others await
        return await asyncio.shield(load)

    async def _load(self, room_id: str) -> Room | None:
        """Load one room from the store. An event another process published for it while it
        was loading was not applied (the room was not held yet), and the load may have read
        the store before that change was committed: then the room is read again, now that it
        is held and later events reach it. (Loading one room at a time for the whole process,
        a burst of new rooms queued for seconds; and the missed move left the room one move
        behind for good.)"""
        try:
            data = await asyncio.to_thread(self.store.load_room, room_id)
            if data is None:
                return None
            await self._ensure_cpu_key()
            room = self._build(data)
            self.rooms[room_id] = room
            if room_id in self._missed:  # (forgotten in ``finally``)
                async with room.lock:
                    await self._reload(room)
        finally:
            self._missed.discard(room_id)
        self.schedule_bots(room)
        self.arm_clock(room)
        from .shared import ask

        ask(self, room)  # what the other processes know of its table (offers, presence)
        return room

    def forget_if_idle(self, room: Room) -> None:
        """Drop a finished room nobody watches from memory (the store still has it)."""
        if room.status == "finished" and not room.conns and not room.bot_tasks:
            self.rooms.pop(room.id, None)
            ms = room.match_set
            if ms is not None and not any(r.match_set is ms for r in self.rooms.values()):
                self.sets.pop(ms.id, None)  # reloaded from the store when next needed

    def _build(self, data: RoomData) -> Room:
        if data.match_set is not None:  # share the set with its rooms already loaded
            shared = self.sets.setdefault(data.match_set.id, data.match_set)
            if len(data.match_set.rooms) > len(shared.rooms):
                shared.rooms = data.match_set.rooms
            data.match_set = shared
        game = self.get_game(data.game)
        if game.rules_version != data.rules_version:
            raise ClientError("rules_changed",
                              f"this game was started under {game.id} rules version "
                              f"{data.rules_version}; the server now plays version "
                              f"{game.rules_version}")
        try:
            return Room(data, game, cpu_seed(self.cpu_key(), data.id))
        except AsobibaError as exc:
            raise ClientError("cannot_resume", f"this game cannot be resumed: {exc}") from None

    async def resume_all(self) -> int:
        """After a restart: load every unfinished game and let its bots move again. Runs
        in the background, one room at a time, yielding between rooms: requests are answered
        meanwhile (a room asked for first is loaded first, by the request itself)."""
        ids = await asyncio.to_thread(self.store.active_room_ids)
        count = 0
        for room_id in ids:
            await asyncio.sleep(0)
            try:
                if await self.get(room_id) is not None:
                    count += 1
            except Exception:  # noqa: BLE001 - one broken room must not stop the server
                log.exception("could not resume room %s", room_id)
        return count

    # ---- connections ---------------------------------------------------------------------
    async def send_full(self, room: Room, conn: Conn) -> None:
        """The whole room to one connection (its ``sync`` request: it missed an update)."""
        conn.moves_sent, conn.history = len(room.moves), room.history
        try:
            await conn.send(room.message_for(conn))
        except Exception:  # noqa: BLE001 - a dead socket is cleaned up by its own handler
            room.conns.discard(conn)

    async def broadcast(self, room: Room, ack: tuple[Conn, int | str] | None = None
                        ) -> bool:
        """Every connection gets the room and its seats' views. The public part is built
        once, and each distinct message serialised once (connections holding the same seats
        — e.g. every spectator — share one text). A connection gets only the moves it has
        not been sent yet (``Room.delta_start``); the rest of the room is always whole.

        Every message is built here, before the first send: a send may wait (a full socket
        buffer), and a message built after that wait could mix this broadcast's room (its
        ply) with the views of a move committed meanwhile — a client then saw its turn at
        a ply already played and its move was refused as ``stale``.

        ``ack``: the connection whose move this update shows, and the id of that move's
        message. If it asked for acknowledgements in updates (``Conn.ack_in_update``), its
        update carries ``"ack": id``, is sent first, and True is returned (the caller sends
        no separate ``ack``): one frame and one send fewer per move, and the mover learns
        its move was stored without waiting for the other connections' sends."""
        conns = list(room.conns)
        if not conns:
            return False
        acking = ack[0] if ack is not None and ack[0].ack_in_update \
            and ack[0].send_text is not None and ack[0] in room.conns else None
        if acking is not None:  # first: the ack goes out before anything else
            conns.remove(acking)
            conns.insert(0, acking)
        public = room.public(with_moves=False)
        texts: dict[tuple[tuple[int, ...], int | None], str] = {}
        room_texts: dict[int | None, str] = {}
        out: list[tuple[Conn, str | JSONObject]] = []
        for conn in conns:
            start = room.delta_start(conn)
            if conn is acking:
                assert ack is not None
                out.append((conn, room.update_text(conn, public, start, room_texts, ack[1])))
                continue
            if conn.send_text is None:
                out.append((conn, room.message_for(conn, public, start)))
                continue
            key = (tuple(sorted(conn.seats)), start)
            text = texts.get(key)
            if text is None:
                text = texts[key] = room.update_text(conn, public, start, room_texts)
            out.append((conn, text))

        async def one(conn: Conn, message: str | JSONObject) -> None:
            try:
                if isinstance(message, str):
                    assert conn.send_text is not None
                    await conn.send_text(message)
                else:
                    await conn.send(message)
            except Exception:  # noqa: BLE001 - a dead socket is cleaned up by its own handler
                room.conns.discard(conn)

        # each send runs now, in this turn of the loop (the mover's first); one that must
        # wait (a full socket buffer) goes on in a task of its own and holds up nobody
        waiting = [task for task in (eager.start(one(c, m)) for c, m in out) if task]
        for task in waiting:
            await task
        return acking is not None

    async def hello(self, room: Room, conn: Conn, claims: Sequence[tuple[int, str]]
                    ) -> list[int]:
        """Take the seats whose keys match (``claims``: (seat, key) pairs, already checked
        for shape by ws_protocol.Hello); return the seats whose key did not match."""
        problems = []
        for seat, key in claims:
            if room.check_key(seat, key):
                conn.keys[seat] = key
            else:
                problems.append(seat)
        room.conns.add(conn)
        if room.rematch_id and conn.keys:
            await self._send_rematch_keys(room, conn)
        if room.next_room() and conn.keys:
            await self._send_next_keys(room, conn)
        return problems

    def seat_for(self, room: Room, conn: Conn, seat: object) -> int:
        if seat is None:
            acting = [s for s in room.state.acting_seats if s in conn.seats]
            if len(conn.seats) == 1:
                return next(iter(conn.seats))
            if len(acting) == 1:
                return acting[0]
            raise ClientError("no_seat", "say which seat this is for")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ClientError("bad_message", "'seat' must be a number")
        if seat not in conn.seats:
            raise ClientError("not_your_seat",
                              f"you do not hold seat {seat}; only its key holder may act for it")
        return seat

    # ---- playing -------------------------------------------------------------------------
    async def play(self, room: Room, seat: int, text: object, expect_ply: object = None,
                   notes: Sequence[str] = (), ack: tuple[Conn, int | str] | None = None
                   ) -> bool:
        """Parse, apply, commit, then tell everyone (this process's connections, then the
        other processes through the bus). Any refusal leaves the room unchanged; a move
        another process stored first for this ply makes this one ``stale``. ``ack``: the
        mover's connection and message id, acknowledged in its update if it asked for that
        (True is then returned: see :meth:`broadcast`); only a stored move is."""
        if not isinstance(text, str):
            raise ClientError("bad_message", "'move' must be text")
        if await self._flag_fell(room, seat):
            await self.broadcast(room)
            raise ClientError("time_out", "your time ran out before this move arrived")
        async with room.lock:
            if room.status != "active":
                raise ClientError("game_over", "the game is over; no more moves can be played")
            if expect_ply is not None and expect_ply != len(room.moves):
                raise ClientError("stale", "the position changed before this move arrived; "
                                  "it was not played")
            state = room.state
            try:
                move = state.parse(text, seat)
                new = state.play(move, seat)
            except MoveError as exc:  # the code, the move as given, the rule's code + args
                raise ClientError(exc.code, str(exc),
                                  args={"move": text[:40], **exc.detail()}) from None
            entry = MoveData(len(room.moves), seat, state.move_text(move, seat), utcnow())
            result = room.natural_result(new)
            standing = room.set_after(new, result) if result else None
            room.moves.append(entry)
            room.states.append(new)
            record = room.record().dumps() if result else None
            set_state = (room.match_set.id, standing) if room.match_set and standing else None
            try:
                await self.store.writer.run(self.store.add_move_in, room.id, entry, result,
                                            record, set_state)
            except Conflict:  # another process moved, undid or ended the game first
                room.moves.pop()
                room.states.pop()
                room.history += 1  # in case an update showed it meanwhile
                await self._reload(room)
                stale = True
            except BaseException as exc:
                room.moves.pop()
                room.states.pop()
                room.history += 1
                if isinstance(exc, Exception):  # not stored, so not played: say so
                    log.exception("could not store a move in room %s", room.id)
                    raise ClientError("not_stored", "the move could not be stored, so it "
                                      "was not played; try again") from None
                raise
            else:
                stale = False
                room.version += 1
                room.undo = None
                room.notes.extend(notes)
                if result:
                    room.status = "finished"
                    room.result = result
                    if room.match_set and standing:
                        room.match_set.state = standing
                    self._finished(room)
                self.bus.publish({"kind": "move", "room": room.id, "ply": entry.ply,
                                  "seat": seat, "text": entry.text, "at": entry.at,
                                  "finished": bool(result), "notes": list(notes)})
        self.arm_clock(room)
        acked = await self.broadcast(room, None if stale else ack)
        self.schedule_bots(room)
        if stale:
            raise ClientError("stale", "another move was played here first; this one was "
                              "not played")
        return acked

    # ---- clocks ----------------------------------------------------------------------------
    def arm_clock(self, room: Room) -> None:
        """(Re)start the timer that ends the game when the running seat's flag falls."""
        if room.flag_task is not None:
            room.flag_task.cancel()
            room.flag_task = None
        if not self.clocks:
            return
        view = room.clock_view()
        if not view or view["running"] is None:
            return
        seat = view["running"]
        room.flag_task = asyncio.get_running_loop().create_task(
            self._flag(room, seat, room.version, view["remaining"][seat]))

    async def _flag(self, room: Room, seat: int, version: int, delay: float) -> None:
        await asyncio.sleep(max(0.0, delay) + 0.05)
        async with room.lock:
            view = room.clock_view()
            if (room.version != version or room.status != "active" or not view
                    or view["running"] != seat or view["remaining"][seat] > 0):
                return
            room.flag_task = None
            await self._forfeit(room, seat, "timeout")
        await self.broadcast(room)

    async def _flag_fell(self, room: Room, seat: int) -> bool:
        async with room.lock:
            view = room.clock_view()
            if (room.status == "active" and view and view["running"] == seat
                    and view["remaining"][seat] <= 0):
                await self._forfeit(room, seat, "timeout")
                return True
        return False

    async def _forfeit(self, room: Room, seat: int, how: str) -> None:
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
            await self._reload(room)
            return
        self.bus.publish({"kind": "sync", "room": room.id})
        self._cancel_bots(room)
        room.status = "finished"
        room.result = result
        if room.match_set and standing:
            room.match_set.state = standing
        room.version += 1
        room.undo = None
        self._finished(room)

    def schedule_bots(self, room: Room) -> None:
        if room.status != "active":
            return
        if self.jobs is not None:  # scaled: a bot worker makes the move (queued once)
            for seat in room.state.acting_seats:
                key = (room.id, seat, len(room.moves))
                if room.seats[seat].kind == "bot" and key not in self._queueing:
                    self._queueing.add(key)
                    self._spawn(self._queue_bot(room, seat, len(room.moves)))
            return
        for seat in room.state.acting_seats:
            if room.seats[seat].kind == "bot" and seat not in room.bot_tasks:
                room.bot_tasks[seat] = asyncio.get_running_loop().create_task(
                    self._bot_turn(room, seat, room.version, len(room.moves)))

    async def _queue_bot(self, room: Room, seat: int, ply: int) -> None:
        """Queue the bot job of ``seat`` at ``ply``, trying again (0.25 s doubling to 5 s)
        while Redis is away, until it is queued or the room no longer waits for it. (Once,
        a failed call was only logged: the turn waited for a web process's restart.)"""
        from .jobs import BACKOFF_FIRST, QueueUnavailable, backoff
        from .tasks import check_cancelled

        assert self.jobs is not None
        after = room.moves[ply - 1].at if ply else ""  # the position (undo: .jobs.marker)
        delay = BACKOFF_FIRST
        try:
            while room.status == "active" and len(room.moves) == ply:
                check_cancelled()  # a Redis call that swallowed the stop (.tasks)
                try:
                    await self.jobs.enqueue(room.id, seat, ply, after)
                    return
                except QueueUnavailable as exc:
                    if delay == BACKOFF_FIRST:
                        log.warning("%s; trying again", exc)
                back = self._redis_back
                with contextlib.suppress(TimeoutError):  # Redis back: at once
                    await asyncio.wait_for(back.wait(), delay)
                delay = backoff(delay)
        finally:
            self._queueing.discard((room.id, seat, ply))

    async def sweep_bots(self, deadline: float, every: float = 2.0) -> None:
        """Scaled mode, in each web process: a bot turn of a held room still waiting
        ``deadline`` seconds after this process first saw it is queued again if its job is
        no longer in the stream (lost with Redis's data; :meth:`.jobs.RedisJobs.requeue`),
        then again each further ``deadline``. A job for a ply played meanwhile (this copy of
        the room was behind) is a no-op at the worker, which tells the processes to reload."""
        from .jobs import QueueUnavailable
        from .tasks import check_cancelled

        assert self.jobs is not None
        waiting: dict[tuple[str, int, int], float] = {}
        while True:
            check_cancelled()
            await asyncio.sleep(every)
            now = time.monotonic()
            seen: dict[tuple[str, int, int], float] = {}
            for room in list(self.rooms.values()):
                if room.status != "active":
                    continue
                for seat in room.state.acting_seats:
                    if room.seats[seat].kind != "bot":
                        continue
                    key = (room.id, seat, len(room.moves))
                    seen[key] = since = waiting.get(key, now)
                    if now - since < deadline:
                        continue
                    seen[key] = now  # the next look a deadline later
                    try:
                        after = room.moves[-1].at if room.moves else ""
                        if await self.jobs.requeue(*key, after):
                            log.warning("bot turn %s waited %.0f s and its job was gone: "
                                        "queued again", key, now - since)
                    except QueueUnavailable:
                        pass  # Redis away: the resync when it is back queues it
            waiting = seen

    async def _bot_turn(self, room: Room, seat: int, version: int, ply: int) -> None:

        me = asyncio.current_task()
        try:
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            turn = await self.bot_choice(room, seat, ply)
            if room.version != version:
                return
            try:
                await self.play(room, seat, turn.text, expect_ply=ply,
                                notes=[n for n in [turn.note(seat)] if n])
            except ClientError as exc:
                if exc.code == "not_stored":
                    raise
                if exc.code not in ("stale", "game_over"):
                    log.warning("bot move refused in room %s: %s", room.id, exc)
        except Exception:  # noqa: BLE001 - e.g. the store failed: try this turn again later
            log.exception("bot turn failed in room %s; retrying in %g s", room.id, BOT_RETRY)
            asyncio.get_running_loop().call_later(BOT_RETRY, self.schedule_bots, room)
        finally:
            if room.bot_tasks.get(seat) is me:
                del room.bot_tasks[seat]
            if room.version != version:
                self.schedule_bots(room)

    async def bot_choice(self, room: Room, seat: int, ply: int) -> BotTurn:
        """The bot turn of ``seat`` at ``ply``, through the one bot-turn step of
        :mod:`asobiba.play.runner`: the bot picks from its seat's views alone, in the pool,
        under its time limit (:func:`.bots.bot_pick`); the pick is settled against the
        room's state — a seeded random legal move instead if the bot overran, crashed or
        chose an illegal move (``turn.fallback``, and ``turn.note`` for the room's log)."""
        from ..play.runner import Fallback, Pick, settle
        from .bots import BotTimeout, bot_pick

        views = room.views_for(seat)
        level = room.seats[seat].level or ""
        seed = derive_seed(room.cpu_seed, "bot", seat, ply) >> 1  # never the dealing seed
        picked: Pick | None = None
        failure: Fallback | None = None
        detail = ""
        try:
            picked = await self.pool.run(bot_pick, room.game.id, level, seed, seat,
                                         dict(room.options), views)
        except BotTimeout as exc:
            failure, detail = "timeout", str(exc)
        except Exception as exc:  # noqa: BLE001 - a crashing bot must not stop the game
            log.exception("bot crashed in room %s", room.id)
            failure, detail = "crash", type(exc).__name__
        return settle(room.state, seat, picked, failure=failure, detail=detail,
                      fallback=Rng(room.cpu_seed, "fallback", seat, ply))

    async def bot_job(self, room_id: str, seat: int, ply: int) -> bool:
        """A bot worker's job: make the move of ``seat`` at ``ply`` if the room still waits
        for it. True once done or no longer wanted (acknowledge the job); False if the move
        could not be stored (leave the job to be retried)."""
        room = self.rooms.pop(room_id, None)  # a worker holds a room only for one job
        data = await asyncio.to_thread(self.store.load_room, room_id)
        if data is None:
            return True
        await self._ensure_cpu_key()
        room = self._build(data)
        if (room.status != "active" or len(room.moves) != ply
                or seat not in room.state.acting_seats or room.seats[seat].kind != "bot"):
            if len(room.moves) > ply:
                # made already: perhaps by a worker killed after its commit and before it
                # published the move, so the web processes may not know: they reload it
                self.bus.publish({"kind": "sync", "room": room_id})
            return True  # made already (a repeated job) or no longer wanted
        self.rooms[room_id] = room
        try:
            turn = await self.bot_choice(room, seat, ply)
            await self.play(room, seat, turn.text, expect_ply=ply,
                            notes=[n for n in [turn.note(seat)] if n])
        except ClientError as exc:
            return exc.code != "not_stored"
        finally:
            self.rooms.pop(room_id, None)
        return True

    def _spawn(self, coro: Coroutine[object, object, object]) -> None:
        task: asyncio.Task[object] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._tasks.discard)

    # ---- other processes' changes (the bus) ------------------------------------------------
    async def _reload(self, room: Room) -> None:
        """Bring a held room up to what is stored (caller holds the room lock)."""
        data = await asyncio.to_thread(self.store.load_room, room.id)
        if data is not None:
            self._adopt(room, data)

    def _adopt(self, room: Room, data: RoomData) -> None:
        same = 0
        for mine, stored in zip(room.moves, data.moves):
            if (mine.seat, mine.text) != (stored.seat, stored.text):
                break
            same += 1
        if same < len(room.moves):  # moves taken back or replaced: clients get them anew
            room.history += 1
        del room.states[same + 1:]
        for m in data.moves[same:]:
            room.states.append(room.states[-1].play(m.text, m.seat))
        room.moves[:] = data.moves
        was = room.status
        room.status, room.result = data.status, data.result
        room.rematch_id = room.rematch_id or data.rematch_id
        if room.match_set is not None and data.match_set is not None:
            room.match_set.state = data.match_set.state
            if len(data.match_set.rooms) > len(room.match_set.rooms):
                room.match_set.rooms = data.match_set.rooms
        room.version += 1
        if room.status != "active":
            self._cancel_bots(room)
            if was == "active":
                room.undo = None

    async def on_event(self, event: JSONObject) -> None:
        """Another process changed a room: bring this process's copy (if it holds one) and
        its connections up to date."""
        room = self.rooms.get(str(event.get("room")))
        if room is None:
            if str(event.get("room")) in self._loads:  # loading here: read it again after
                self._missed.add(str(event.get("room")))
            return
        kind = event.get("kind")
        if kind in ("ask", "shared"):  # presence, draw offers, hints (asobiba.server.shared)
            from . import shared

            await shared.on_event(self, room, event)
            return
        had_rematch, had_next = room.rematch_id, room.next_room()
        async with room.lock:
            if kind == "table":
                self._adopt_table(room, event)
            elif (kind == "move" and event.get("ply") == len(room.moves)
                  and room.status == "active" and not event.get("finished")):
                seat, text = int(event["seat"]), str(event["text"])
                room.states.append(room.state.play(text, seat))
                room.moves.append(MoveData(len(room.moves), seat, text, str(event["at"])))
                room.version += 1
                room.undo = None
            else:
                await self._reload(room)
            room.notes.extend(str(n) for n in event.get("notes") or ())
            # every seat has now asked, counting the asks made at other processes
            if (room.status == "finished" and room.match_set is not None
                    and room.next_room() is None and not room.set_over()
                    and not set(room.human_seats) - room.next_offers):
                await self._start_next(room)
        if (room.status == "finished" and not room.rematch_id and room.rematch_offers
                and not set(room.human_seats) - room.rematch_offers
                and (room.match_set is None or room.set_over())):
            await self._start_rematch(room)
        elif room.rematch_id and room.rematch_id != had_rematch:
            for conn in list(room.conns):
                if conn.keys:
                    await self._send_rematch_keys(room, conn)
        if room.next_room() and room.next_room() != had_next:
            for conn in list(room.conns):
                if conn.keys:
                    await self._send_next_keys(room, conn)
        self.arm_clock(room)
        await self.broadcast(room)
        if room.status == "active":
            self.schedule_bots(room)

    def _adopt_table(self, room: Room, event: JSONObject) -> None:
        """Offers made at another process: offers only grow (a union), an undo request is
        the latest one made."""
        if "undo" in event:
            room.undo = event["undo"]
        room.rematch_offers |= set(event.get("rematch_offers") or ())
        room.rematch_hashes.update({int(k): v for k, v in
                                    (event.get("rematch_hashes") or {}).items()})
        room.next_offers |= set(event.get("next_offers") or ())
        if event.get("rematch_id"):
            room.rematch_id = str(event["rematch_id"])
        room.notes.extend(str(n) for n in event.get("table_notes") or ())

    def _publish_table(self, room: Room, **extra: object) -> None:
        self.bus.publish({"kind": "table", "room": room.id, "undo": room.undo,
                          "rematch_offers": sorted(room.rematch_offers),
                          "rematch_hashes": {str(k): v for k, v in room.rematch_hashes.items()},
                          "next_offers": sorted(room.next_offers), **extra})

    async def resync_all(self) -> None:
        """After a gap in the bus (Redis restarted): reload every held room from the store,
        tell its connections, and queue any bot move that may have been lost."""
        self._redis_back.set()  # the bot jobs waiting to be queued try again now
        self._redis_back = asyncio.Event()
        for room in list(self.rooms.values()):
            try:
                async with room.lock:
                    await self._reload(room)
                self.arm_clock(room)
                await self.broadcast(room)
                self.schedule_bots(room)
            except Exception:  # noqa: BLE001 - one room must not stop the others
                log.exception("could not resync room %s", room.id)

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
            rooms = [r for r in self.rooms.values() if r.status == "active" and r.conns]
            for start in range(0, len(rooms), batch):
                part = {r.id: r for r in rooms[start:start + batch]}
                try:
                    heads = await asyncio.to_thread(self.store.room_heads, list(part))
                except Exception:  # noqa: BLE001 - the database away too: next time
                    log.warning("could not poll the rooms while Redis is away")
                    break
                for rid, (status, plies) in heads.items():
                    room = part[rid]
                    if (status, plies) == (room.status, len(room.moves)):
                        continue
                    try:
                        async with room.lock:
                            await self._reload(room)
                        self.arm_clock(room)
                        await self.broadcast(room)
                        self.schedule_bots(room)
                    except Exception:  # noqa: BLE001 - one room must not stop the others
                        log.exception("could not poll room %s", rid)

    def _cancel_bots(self, room: Room) -> None:
        for task in room.bot_tasks.values():
            task.cancel()
        room.bot_tasks.clear()

    # ---- the table: resign, undo, rematch ------------------------------------------------------
    async def resign(self, room: Room, seat: int) -> None:
        async with room.lock:
            if room.status != "active":
                raise ClientError("game_over", "the game is already over")
            await self._forfeit(room, seat, "resigned")
        self.arm_clock(room)
        await self.broadcast(room)

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
            await self._apply_undo(room, target)
            return
        room.undo = {"seat": seat, "to_ply": target, "waiting": waiting}
        self._publish_table(room)
        await self.broadcast(room)

    async def reply_undo(self, room: Room, seat: int, accept: bool) -> None:
        undo = room.undo
        if not undo or seat not in undo["waiting"]:
            raise ClientError("no_undo", "there is no undo request waiting for this seat")
        if not accept:
            room.undo = None
            note = f"seat {seat} declined the undo"
            room.notes.append(note)
            self._publish_table(room, table_notes=[note])
            await self.broadcast(room)
            return
        undo["waiting"].remove(seat)
        if undo["waiting"]:
            self._publish_table(room)
            await self.broadcast(room)
        else:
            await self._apply_undo(room, undo["to_ply"])

    async def _apply_undo(self, room: Room, target: int) -> None:
        async with room.lock:
            self._cancel_bots(room)
            try:
                await self.store.writer.run(self.store.truncate_moves_in, room.id, target,
                                            len(room.moves))
            except Conflict:  # the game moved on at another process: nothing undone
                room.undo = None
                await self._reload(room)
                self._publish_table(room)
            else:
                del room.moves[target:]
                del room.states[target + 1:]
                room.history += 1
                room.version += 1
                room.undo = None
                self.bus.publish({"kind": "sync", "room": room.id})
        self.arm_clock(room)
        await self.broadcast(room)
        self.schedule_bots(room)

    async def offer_rematch(self, room: Room, conn: Conn) -> None:
        if room.status != "finished":
            raise ClientError("not_over", "a rematch can be offered once the game is over")
        if room.match_set is not None and not room.set_over():
            raise ClientError("in_set", "this game is part of a set that is not decided yet; "
                              "play the set's next game instead")
        if room.rematch_id:
            await self._send_rematch_keys(room, conn)
            return
        new_id, where = rematch_room_id(room.id), self._rematch_seat(room)
        for seat, key in conn.keys.items():  # only a hash: the key is derived by its holder
            room.rematch_hashes[where[seat]] = hash_key(derive_key(key, new_id))
        room.rematch_offers |= conn.seats
        self._publish_table(room)
        if set(room.human_seats) - room.rematch_offers:
            await self.broadcast(room)
            return
        await self._start_rematch(room)

    def _rematch_seat(self, room: Room) -> list[int]:
        """Where each seat of this room sits in the rematch. A single game: every seat one
        place on. The last game of a decided set: a new set of the same format whose first
        game the other side starts, so colours alternate across sets as within them."""
        n = len(room.seats)
        match = room.set_match()
        if match is None:
            return [(s + 1) % n for s in range(n)]
        side_a = match.seat_of_a(room.set_index)  # side A of the old set moves to seat 1
        return [1 if s == side_a else 0 for s in range(n)]

    async def _start_rematch(self, room: Room) -> None:
        """Same game and options, a fresh seed, seats moved on (``_rematch_seat``); after a
        set, a new set of the same format."""
        n = len(room.seats)
        where = self._rematch_seat(room)
        seats: list[JSONObject] = [{}] * n
        for s in room.seats:
            seats[where[s.seat]] = {"kind": s.kind, "level": s.level, "name": s.name}
        new_id = rematch_room_id(room.id)
        match = room.set_match()
        try:
            await self.create(room.game, dict(room.options), seats, casual=room.data.casual,
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
        self._publish_table(room, rematch_id=new_id)
        for conn in list(room.conns):
            await self._send_rematch_keys(room, conn)
        await self.broadcast(room)

    async def _send_rematch_keys(self, room: Room, conn: Conn) -> None:
        if not room.rematch_id:
            return
        where = self._rematch_seat(room)
        keys = [{"seat": where[seat], "key": derive_key(key, room.rematch_id)}
                for seat, key in sorted(conn.keys.items())]
        try:
            await conn.send({"type": "rematch", "room": room.rematch_id, "keys": keys})
        except Exception:  # noqa: BLE001
            room.conns.discard(conn)

    # ---- sets: the next game of a reverse match or best-of-N series ------------------------------
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
                self._publish_table(room)
                if not set(room.human_seats) - room.next_offers:
                    await self._start_next(room)
        if room.next_room() is not None:
            for c in list(room.conns):
                if c.keys:
                    await self._send_next_keys(room, c)
        await self.broadcast(room)

    def _next_seat(self, room: Room) -> list[int]:
        """Where each seat of this room sits in the set's next game: the side that plays
        first in the next game is the match's ``seat_of_a`` there (colours swap)."""
        match = room.set_match()
        assert match is not None
        swap = match.seat_of_a(room.set_index) != match.seat_of_a(room.set_index + 1)
        return [1 - s if swap else s for s in range(len(room.seats))]

    async def _start_next(self, room: Room) -> None:
        """The set's next room (caller holds the room lock): same game, options, clock and
        people; each seat's key hash moves with its holder, so every player keeps the key
        they already hold and nobody receives anyone else's."""
        ms = room.match_set
        assert ms is not None
        where = self._next_seat(room)
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
            await self.create(room.game, dict(room.options), seats, casual=room.data.casual,
                              hotseat=room.data.hotseat, clock=room.data.clock,
                              seed=room.data.seed if same else None, key_hashes=hashes,
                              match_set=ms)
        except Exception:
            # the set's game number is taken once: started at another process meanwhile?
            await self._reload(room)
            if room.next_room() is None:
                raise
        room.next_offers.clear()
        self.bus.publish({"kind": "sync", "room": room.id})

    async def _send_next_keys(self, room: Room, conn: Conn) -> None:
        """The next game's room and where this connection's own keys sit there."""
        target = room.next_room()
        if not target:
            return
        where = self._next_seat(room)
        keys = [{"seat": where[seat], "key": key} for seat, key in sorted(conn.keys.items())]
        try:
            await conn.send({"type": "set_next", "room": target, "keys": keys})
        except Exception:  # noqa: BLE001
            room.conns.discard(conn)
