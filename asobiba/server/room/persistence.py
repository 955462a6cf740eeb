"""Persistence: creating a room (stored in one transaction before anyone sees it), loading
one (each room by one task every request awaits; resuming after a restart), and bringing a
held room up to what is stored (``reload``/``adopt``). The store is the truth; a Room is a
cache of it."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, MutableMapping, Sequence
from typing import Protocol

from ...core import AsobibaError, Game, MoveError
from ...core.jsontypes import JSONObject
from ...progression.matches import Match, MatchFormat
from ..db import MoveData, RoomData, SeatData, SetData, Store, utcnow
from .errors import ClientError
from .keys import CPU_SECRET, cpu_seed, hash_key, new_key
from .state import Room

log = logging.getLogger("asobiba.server")


class PersistenceHost(Protocol):
    """What persistence needs from the rooms' hub: the rooms held, and what a room newly
    held starts — its bots, its clock, the question to the other processes about its
    table — and what a room that ended stops (its bots)."""

    @property
    def rooms(self) -> MutableMapping[str, Room]: ...

    def schedule_bots(self, room: Room) -> None: ...

    def arm_clock(self, room: Room) -> None: ...

    def cancel_bots(self, room: Room) -> None: ...

    def ask_shared(self, room: Room) -> None: ...


class Persistence:
    """The rooms' store side: create, load, resume, reload. ``get_game`` is the registry;
    ``claim_after`` the fair-play policy's seconds each room is built with."""

    def __init__(self, host: PersistenceHost, store: Store, get_game: Callable[[str], Game],
                 claim_after: float = 60.0) -> None:
        self.host = host
        self.store = store
        self.get_game = get_game
        self.claim_after = claim_after
        self.sets: dict[str, SetData] = {}
        """One object per set, shared by its loaded rooms (so all see the same standing)."""
        self.loads: dict[str, asyncio.Task[Room | None]] = {}
        """The rooms being loaded from the store now, each by one task that every request
        for it awaits (different rooms load side by side)."""
        self.missed: set[str] = set()
        """Rooms another process sent an event for while they were loading here."""
        self._cpu_key: bytes | None = None

    def cpu_key(self) -> bytes:
        """The server's CPU secret (read from the store once per process; a small query)."""
        if self._cpu_key is None:
            self._cpu_key = self.store.secret(CPU_SECRET)
        return self._cpu_key

    async def ensure_cpu_key(self) -> bytes:
        """:meth:`cpu_key` without blocking the event loop on its first read."""
        if self._cpu_key is None:
            self._cpu_key = await asyncio.to_thread(self.store.secret, CPU_SECRET)
        return self._cpu_key

    def note_missed(self, room_id: str) -> None:
        """Another process changed room ``room_id``, not held here: if it is loading now,
        the load may have read the store before that change, so it reads it again."""
        if room_id in self.loads:
            self.missed.add(room_id)

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
        room = Room(data, game, cpu_seed(await self.ensure_cpu_key(), room_id))
        room.claim_after = self.claim_after
        if room.state.is_over:
            raise ClientError("bad_opening", "the opening ends the game; nothing is left "
                              "to play")
        await self.store.writer.run(self.store.create_room_in, data)
        if match_set is not None:  # stored: now every loaded room of the set sees this one
            shared = self.sets.setdefault(match_set.id, match_set)
            shared.rooms = match_set.rooms
            room.match_set = shared
        self.host.rooms[room_id] = room
        return_keys = {k: v for k, v in keys.items() if seat_rows[k].kind == "human"}
        self.host.schedule_bots(room)
        self.host.arm_clock(room)
        return room, return_keys

    async def get(self, room_id: str) -> Room | None:
        room = self.host.rooms.get(room_id)
        if room is not None:
            return room
        if len(room_id) > 32:
            return None
        load = self.loads.get(room_id)
        if load is None:
            load = asyncio.get_running_loop().create_task(self.load(room_id))
            self.loads[room_id] = load
            load.add_done_callback(lambda _t: self.loads.pop(room_id, None))
        # shielded: a request that goes away does not cancel the load the others await
        return await asyncio.shield(load)

    async def load(self, room_id: str) -> Room | None:
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
            await self.ensure_cpu_key()
            room = self.build(data)
            self.host.rooms[room_id] = room
            if room_id in self.missed:  # (forgotten in ``finally``)
                async with room.lock:
                    await self.reload(room)
        finally:
            self.missed.discard(room_id)
        self.host.schedule_bots(room)
        self.host.arm_clock(room)
        self.host.ask_shared(room)  # what the other processes know of its table (offers, presence)
        return room

    def forget_if_idle(self, room: Room) -> None:
        """Drop a finished room nobody watches from memory (the store still has it)."""
        if room.status == "finished" and not room.conns and not room.bot_tasks:
            self.host.rooms.pop(room.id, None)
            ms = room.match_set
            if ms is not None and not any(r.match_set is ms for r in self.host.rooms.values()):
                self.sets.pop(ms.id, None)  # reloaded from the store when next needed

    def build(self, data: RoomData) -> Room:
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
            room = Room(data, game, cpu_seed(self.cpu_key(), data.id))
        except AsobibaError as exc:
            raise ClientError("cannot_resume", f"this game cannot be resumed: {exc}") from None
        room.claim_after = self.claim_after
        return room

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

    async def reload(self, room: Room) -> None:
        """Bring a held room up to what is stored (caller holds the room lock)."""
        data = await asyncio.to_thread(self.store.load_room, room.id)
        if data is not None:
            self.adopt(room, data)

    def adopt(self, room: Room, data: RoomData) -> None:
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
            self.host.cancel_bots(room)
            if was == "active":
                room.undo = None
