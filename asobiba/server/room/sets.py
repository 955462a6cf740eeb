"""The set (reverse match / best-of-N) a room is a game of: its standing, what a finished
game adds to it, and what the table shows of it. Functions of a :class:`SetRoom` — the few
parts of a room they read (the room itself is one; tests/core/test_room_interfaces.py checks
none of them takes it); nothing here changes the room."""

from __future__ import annotations

from collections.abc import Set
from typing import Protocol

from ...core import Game, Outcome, State
from ...core.jsontypes import JSONObject
from ...progression.matches import A, B, Match, tiebreak_for
from ..db import SetData


class SetRoom(Protocol):
    """What the set's functions read of a room (:class:`.state.Room` is one), and nothing
    else: the set as stored (shared by its rooms), which game of it this room is, the game
    (its tie-break) and the seats offering the next game."""

    @property
    def match_set(self) -> SetData | None: ...
    @property
    def set_index(self) -> int: ...
    @property
    def game(self) -> Game: ...
    @property
    def next_offers(self) -> Set[int]: ...


def set_match(room: SetRoom) -> Match | None:
    return Match.from_json(room.match_set.state["match"]) if room.match_set else None

def set_over(room: SetRoom) -> bool:
    ms, match = room.match_set, set_match(room)
    return ms is not None and match is not None and (
        bool(ms.state.get("forfeit")) or match.is_over)

def next_room(room: SetRoom) -> str | None:
    ms = room.match_set
    return ms.rooms[room.set_index + 1] if ms and len(ms.rooms) > room.set_index + 1 \
        else None

def set_after(room: SetRoom, final: State, result: JSONObject, forfeit: int | None = None
              ) -> JSONObject | None:
    """The set's standing once this game ends with ``result`` (None: not in a set).
    The tie-break comes from the final spectator view, so it holds nothing hidden.
    Resigning or losing on time in a reverse match loses the set: otherwise a player
    far behind on score could resign to lose the game by a single point."""
    match = set_match(room)
    if match is None or len(match.games) != room.set_index:
        return None
    hook = tiebreak_for(room.game)
    outcome = Outcome(tuple(result["scores"]), tuple(result["ranks"]),
                      str(result.get("reason", "")))
    match = match.add(outcome, hook(final.view(None)) if hook else None)
    lost = None
    if forfeit is not None and match.format.reverse:
        lost = A if forfeit == match.seat_of_a(room.set_index) else B
    return {"match": match.to_json(), "forfeit": lost}

def set_view(room: SetRoom) -> JSONObject | None:
    """The set's public standing: finished games' results only (already public)."""
    ms, match = room.match_set, set_match(room)
    if ms is None or match is None:
        return None
    lost = ms.state.get("forfeit")
    over = set_over(room)
    winner = (B if lost == A else A) if lost else match.winner
    a_here = match.seat_of_a(room.set_index)
    units = match.units()
    return {
        "format": "reverse" if match.format.reverse else
        "best_of" if match.format.best_of > 1 else "single",
        "best_of": match.format.best_of,
        "index": room.set_index,
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
        "has_tiebreak": tiebreak_for(room.game) is not None,
        "units": len(units),
        "over": over,
        "winner": winner,
        "forfeit": lost,
        "next": {"room": next_room(room), "offers": sorted(room.next_offers)},
    }
