"""Presence and claims: who is at the table, since when a person's seat has had no
connection, and whether it ever had one. A claim (docs/fair-play.md) is only against a
seat that *joined* — was connected at least once, or has moved — and has then been gone
``claim_after`` seconds: a friend who has not opened the invitation yet has not left
anything (then the game may be aborted instead). :func:`claims` is what the table shows:
each such seat and the seconds until it may be claimed against (the page counts down).

Functions of a :class:`PresenceRoom`: the few parts of a room presence reads and writes (the
room itself is one; tests/core/test_room_interfaces.py checks none of them takes it)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from ...core.jsontypes import JSONObject


class Seated(Protocol):
    """A stored move, as presence reads it: whose it was."""

    @property
    def seat(self) -> int: ...


class Acting(Protocol):
    """The position, as presence reads it: the seats it waits on."""

    @property
    def acting_seats(self) -> tuple[int, ...]: ...


class PresenceRoom(Protocol):
    """What presence reads and writes of a room (:class:`.state.Room` is one), and nothing
    else: the seats' absences and who joined (both changed here, in place), the moves'
    seats, the people's seats, the status, the claim delay, the seats the game waits on and
    the seats connected to any process."""

    @property
    def away_since(self) -> dict[int, float]: ...
    @property
    def joined(self) -> set[int]: ...
    @property
    def moves(self) -> Sequence[Seated]: ...
    @property
    def human_seats(self) -> list[int]: ...
    @property
    def status(self) -> str: ...
    @property
    def claim_after(self) -> float: ...
    @property
    def state(self) -> Acting: ...
    def online(self) -> set[int]:
        """The seats with a connection to any process (this one or another)."""
        ...


def joined(room: PresenceRoom, seat: int) -> bool:
    """``seat`` has been at this table: connected at least once (to any process since the
    room was loaded here), or it has made a move (so it was there before a restart)."""
    return seat in room.joined or any(m.seat == seat for m in room.moves)


def note_presence(room: PresenceRoom, now: float | None = None) -> None:
    """Remember since when each person's seat has had no connection, and which seats have
    joined (call on every connect, hello and disconnect). A room loaded after a restart
    starts everyone's countdown then."""
    now = time.time() if now is None else now
    online = room.online()  # a seat connected through another process is present
    away = room.away_since
    for seat in room.human_seats:
        if seat in online:
            away.pop(seat, None)
            room.joined.add(seat)
        else:
            away.setdefault(seat, now)


def claimable(room: PresenceRoom, now: float, claim_after: float) -> set[int]:
    """The seats a present player may claim against now: joined, then gone long enough."""
    return {s for s, t in room.away_since.items()
            if now - t >= claim_after and joined(room, s)}


def claims(room: PresenceRoom, now: float | None = None) -> list[JSONObject]:
    """What the table shows: each person's seat that joined, is gone now and is the one the
    game waits on (a claim is only against such a seat: fairplay.adjudicate), with the
    seconds left until a claim against it is possible (0: it is)."""
    if room.status != "active" or not room.away_since:
        return []
    now = time.time() if now is None else now
    acting = room.state.acting_seats
    return [{"seat": s, "in": round(max(0.0, room.claim_after - (now - t)), 1)}
            for s, t in sorted(room.away_since.items()) if s in acting and joined(room, s)]


__all__ = ["PresenceRoom", "claimable", "claims", "joined", "note_presence"]
