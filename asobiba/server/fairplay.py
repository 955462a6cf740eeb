"""The table's fair-play rules (docs/fair-play.md): rated games between people need a clock,
a player who leaves can be claimed against, and a game nobody finishes is adjudicated by one
function, :func:`adjudicate`, used by the "claim the win" message and by the retention sweep
for abandoned rooms. Which finished games may move ratings is decided in
``asobiba.progression.fairplay`` (the same rule for every path that records a game).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..core import Game, Outcome
from ..core.jsontypes import JSONObject
from .room import notes
from .room.presence import claimable, note_presence
from .rooms import ClientError, Conn, Hub, Room

CLAIM_AFTER = 60.0
"""Seconds a person's seat must have had no connection before the others may claim the
game (lichess offers "claim victory" after a similar countdown once the opponent left)."""


@dataclass(frozen=True)
class Policy:
    claim_after: float = CLAIM_AFTER


def check_rated_timing(game: Game, seats: list[JSONObject], casual: bool,
                       clock: dict[str, int] | None) -> None:
    """A rated game between people needs a clock (Fischer) or a correspondence deadline
    (``{"per_move": seconds}``); without one a losing player could simply never move."""
    people = sum(1 for s in seats if s["kind"] == "human")
    if casual or people < 2 or clock:
        return
    if game.simultaneous:
        raise ClientError("rated_needs_clock", f"{game.id} has simultaneous turns and so no "
                          "clock: games between people in it are casual only")
    raise ClientError("rated_needs_clock", "a rated game between people needs a clock "
                      "({\"initial\": s, \"increment\": s}) or a correspondence deadline "
                      "({\"per_move\": s}); or make it casual")


def aborted_result(n: int, why: str) -> JSONObject:
    """An aborted game: nobody wins, nobody loses, nothing is rated."""
    out = Outcome(tuple(0.0 for _ in range(n)), tuple(1 for _ in range(n)),
                  f"aborted: {why}").to_json()
    out["aborted"] = True
    return out


@dataclass(frozen=True)
class Verdict:
    kind: str  # "abort" | "abandoned"
    seat: int | None  # the seat that loses (abandoned) / that left (abort)
    reason: str


def adjudicate(room: Room, now: float | None = None, claim_after: float = CLAIM_AFTER,
               claimant: int | None = None) -> Verdict | None:
    """How an unfinished room ends because a person left it, or None if it may not yet.

    A person's seat counts as gone once it has had no connection for ``claim_after``
    seconds (``room.away_since``). If the game is waiting on a gone seat: when that seat
    has not moved yet the game is aborted (unrated, as lichess aborts a game whose player
    never moves); otherwise that seat loses ("abandoned"). ``claimant`` (a seat asking to
    claim the win) must itself be present and not be the gone seat. Used by the "claim"
    message and by the scale helper's retention sweep (``claimant=None``: nobody is asking,
    every seat may be gone; then the seat the game waits on is the one that left)."""
    if room.status != "active":
        return None
    now = time.time() if now is None else now
    # a claimant claims only against a seat that joined and left (.room.presence); the sweep
    # (nobody asking) ends a room whose seats never came too
    gone = ({s for s, t in room.away_since.items() if now - t >= claim_after}
            if claimant is None else claimable(room, now, claim_after))
    if claimant is not None and claimant in gone:
        return None
    waiting = [s for s in room.state.acting_seats if s in gone and s != claimant]
    if not waiting:
        return None
    seat = waiting[0]
    if not any(m.seat == seat for m in room.moves):
        return Verdict("abort", seat, f"seat {seat} left before making a move")
    return Verdict("abandoned", seat, f"seat {seat} left the game")


async def apply_verdict(hub: Hub, room: Room, verdict: Verdict,
                        claimant: int | None = None) -> None:
    """End ``room`` as ``verdict`` says (one transaction, like a resignation); the table is
    told who claimed it (a note) when a player did."""
    async with room.lock:
        if room.status != "active":
            return
        if claimant is not None and verdict.seat is not None:
            room.notes.append(notes.claimed(claimant, verdict.seat, verdict.kind))
        if verdict.kind == "abort":
            await hub.end(room, aborted_result(len(room.seats), verdict.reason),
                          {"aborted": verdict.seat})
        else:
            await hub.forfeit(room, int(verdict.seat or 0), "abandoned")
    hub.arm_clock(room)
    await hub.broadcast(room)


async def claim(hub: Hub, room: Room, conn: Conn, policy: Policy) -> None:
    """A present player claims the game against a seat that left (the ``claim`` message)."""
    if not conn.keys:
        raise ClientError("not_your_seat", "spectators cannot claim a game")
    if room.status != "active":
        raise ClientError("game_over", "the game is already over")
    note_presence(room)
    now = time.time()
    verdict, claimant = None, None
    for seat in sorted(conn.seats):
        verdict = adjudicate(room, now, policy.claim_after, claimant=seat)
        if verdict:
            claimant = seat
            break
    if verdict is None:
        away = {s: round(now - t) for s, t in room.away_since.items() if s not in conn.seats}
        raise ClientError("cannot_claim", "nobody the game waits on has been gone for "
                          f"{policy.claim_after:g} seconds (gone now, in seconds: "
                          f"{away or 'nobody'})")
    await apply_verdict(hub, room, verdict, claimant)


__all__ = ["CLAIM_AFTER", "Policy", "Verdict", "aborted_result", "adjudicate",
           "apply_verdict", "check_rated_timing", "claim", "note_presence"]
