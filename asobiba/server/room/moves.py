"""Moves and acknowledgements: a connection's hello (the seats whose keys it proves), a move
(parse, apply, commit, then tell everyone), and the broadcast that carries each connection
only what it has not been sent (the mover's update first, with its acknowledgement)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ...core import MoveError
from ...core.jsontypes import JSONObject
from .. import eager
from ..db import Conflict, MoveData, Store, utcnow
from .conn import Ack, Conn
from .errors import ClientError

if TYPE_CHECKING:
    from ..bus import LocalBus, RedisBus
    from .notes import Note
    from .state import Room

log = logging.getLogger("asobiba.server")


class MoveHost(Protocol):
    """What a move needs from the rooms' hub: a late move's flag, a room changed elsewhere
    first reloaded, a finished game handed on, the clock and the bots after the move, and
    a joining connection's keys to the room's rematch or next game."""

    async def flag_fell(self, room: Room, seat: int) -> bool: ...

    async def reload(self, room: Room) -> None: ...

    def finished(self, room: Room) -> None: ...

    def arm_clock(self, room: Room) -> None: ...

    def schedule_bots(self, room: Room) -> None: ...

    async def send_rematch_keys(self, room: Room, conn: Conn) -> None: ...

    async def send_next_keys(self, room: Room, conn: Conn) -> None: ...


class Moves:
    """Hello, play, broadcast: the path of one move."""

    def __init__(self, host: MoveHost, store: Store, bus: LocalBus | RedisBus) -> None:
        self.host = host
        self.store = store
        self.bus = bus

    async def send_full(self, room: Room, conn: Conn) -> None:
        """The whole room to one connection (its ``sync`` request: it missed an update)."""
        conn.moves_sent, conn.history = len(room.moves), room.history
        try:
            await conn.send(room.message_for(conn))
        except Exception:  # noqa: BLE001 - a dead socket is cleaned up by its own handler
            room.conns.discard(conn)

    async def broadcast(self, room: Room, ack: Ack | None = None
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
            await self.host.send_rematch_keys(room, conn)
        if room.next_room() and conn.keys:
            await self.host.send_next_keys(room, conn)
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

    async def play(self, room: Room, seat: int, text: object, expect_ply: object = None,
                   notes: Sequence[Note] = (), ack: Ack | None = None
                   ) -> bool:
        """Parse, apply, commit, then tell everyone (this process's connections, then the
        other processes through the bus). Any refusal leaves the room unchanged; a move
        another process stored first for this ply makes this one ``stale``. ``ack``: the
        mover's connection and message id, acknowledged in its update if it asked for that
        (True is then returned: see :meth:`broadcast`); only a stored move is."""
        if not isinstance(text, str):
            raise ClientError("bad_message", "'move' must be text")
        if await self.host.flag_fell(room, seat):
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
                await self.host.reload(room)
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
                    self.host.finished(room)
                self.bus.publish({"kind": "move", "room": room.id, "ply": entry.ply,
                                  "seat": seat, "text": entry.text, "at": entry.at,
                                  "finished": bool(result), "notes": list(notes)})
        self.host.arm_clock(room)
        acked = await self.broadcast(room, None if stale else ack)
        self.host.schedule_bots(room)
        if stale:
            raise ClientError("stale", "another move was played here first; this one was "
                              "not played")
        return acked
