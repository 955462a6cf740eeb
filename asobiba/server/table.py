"""Table manners the game page needs beyond moves: the history a seat has seen (to step
through the moves during play), abort before every seat has moved, and draw offers.

Kept apart from rooms.py (the room core, being made multi-process): each function takes the
hub and the room and uses only their public pieces, so it can move onto a bus unchanged."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from asobiba.core.protocol import Outcome

from ..core.jsontypes import JSONObject
from . import shared
from .rooms import ClientError, Conn, Hub, Room

# room → (the ply the offers were made at, the seats offering): a move withdraws every offer
_draws: WeakKeyDictionary[Room, tuple[int, set[int]]] = WeakKeyDictionary()


# room → hints taken per seat: a hint costs a visible marker (everyone at the table sees it)
_hints: WeakKeyDictionary[Room, dict[int, int]] = WeakKeyDictionary()


async def take_hint(hub: Hub, room: Room, seat: int) -> None:
    """Count a hint for ``seat`` and say so at the table. The hint itself is drawn by the
    page from the seat's own view; what the server keeps is the marker."""
    if room.status != "active":
        raise ClientError("game_over", "the game is already over")
    counts = _hints.setdefault(room, {})
    counts[seat] = counts.get(seat, 0) + 1
    room.notes.append(f"seat {seat + 1} took a hint ({counts[seat]} so far)")
    room.version += 1
    shared.publish(hub, room)
    await hub.broadcast(room)


def draw_offers(room: Room) -> set[int]:
    ply, offers = _draws.get(room, (-1, set()))
    return offers if ply == len(room.moves) and room.status == "active" else set()


def history(room: Room, conn: Conn) -> JSONObject:
    """Every view the connection's seats have received, in order — only what each seat has
    already seen (``views_for``); a spectator gets the public view of every position."""
    seats = sorted(conn.seats)

    def lean(view: JSONObject) -> JSONObject:
        # a past position is looked at, never played from: its legal moves are dead weight
        return {k: v for k, v in view.items() if k != "legal_moves"}

    if seats:
        views = [{"seat": s, "views": [lean(v) for v in room.views_for(s)]} for s in seats]
    else:
        views = [{"seat": None, "views": [lean(st.view(None)) for st in room.states]}]
    return {"type": "history", "views": views}


def can_abort(room: Room) -> bool:
    """Abort is open until every seat has made a move (lichess's rule): before that nobody
    has committed to the game, so ending it rates nobody and ranks nobody."""
    if room.status != "active":
        return False
    moved: set[int] = set()
    for m in room.moves:  # stops at the move that completes the set (early in any game)
        moved.add(m.seat)
        if len(moved) == len(room.seats):
            return False
    return True


def can_offer_draw(room: Room) -> bool:
    """Draw offers exist in two-seat turn-based games between people (a bot cannot answer
    one), only while the game runs, and only in games that can end drawn (a game class says
    ``draws = False`` when it cannot: Algo always has a last player standing)."""
    return (room.status == "active" and len(room.seats) == 2 and not room.game.simultaneous
            and getattr(room.game, "draws", True)
            and all(s.kind == "human" for s in room.seats))


def _ended(n: int, reason: str, draw: bool) -> JSONObject:
    scores = tuple((0.5 if draw else 0.0) for _ in range(n))
    return Outcome(scores, tuple(1 for _ in range(n)), reason).to_json()


async def _end(hub: Hub, room: Room, result: JSONObject, extra: JSONObject) -> None:
    """Finish ``room`` with ``result`` in one transaction, as a resignation does (the caller
    holds the room lock): the room core's one way to end a game the rules have not ended."""
    await hub.end(room, result, extra)
    _draws.pop(room, None)


async def abort(hub: Hub, room: Room, seat: int) -> None:
    async with room.lock:
        if room.status != "active":
            raise ClientError("game_over", "the game is already over")
        if not can_abort(room):
            raise ClientError("cannot_abort", "a game can be aborted only until every seat "
                              "has made a move; resign instead")
        if room.match_set is not None:
            raise ClientError("cannot_abort", "a game of a set cannot be aborted; resign "
                              "instead")
        result = _ended(len(room.seats), f"aborted by seat {seat}", draw=False)
        result["aborted"] = True
        await _end(hub, room, result, {"aborted": seat})
    hub.arm_clock(room)
    await hub.broadcast(room)


async def offer_draw(hub: Hub, room: Room, seat: int, accept: bool | None = None) -> None:
    """Offer a draw, or answer one (``accept``). It is agreed when every seat has offered or
    accepted; a decline (or any move) withdraws the offer."""
    async with room.lock:
        if not can_offer_draw(room):
            raise ClientError("cannot_draw", "draw offers exist only in running two-player "
                              "games between people")
        if accept is False:
            _draws.pop(room, None)
            shared.publish(hub, room, declined=len(room.moves))
        else:
            offers = draw_offers(room) | {seat}
            _draws[room] = (len(room.moves), offers)
            shared.publish(hub, room)
            await end_if_agreed(hub, room)
        room.version += 1
    hub.arm_clock(room)
    await hub.broadcast(room)


async def end_if_agreed(hub: Hub, room: Room) -> None:
    """End the game drawn once every seat has offered or accepted — counting the offers made
    through other processes (caller holds the room lock)."""
    if can_offer_draw(room) and draw_offers(room) >= {s.seat for s in room.seats}:
        result = _ended(len(room.seats), "draw by agreement", draw=True)
        result["agreed_draw"] = True
        await _end(hub, room, result, {"agreed_draw": True})


# ---- shared with the other processes of the scaled mode (asobiba.server.shared) -----------
def shared_state(room: Room) -> JSONObject:
    """The draw offers standing now and the hint counts, as another process adopts them."""
    offers = draw_offers(room)
    return {"draw": [len(room.moves), sorted(offers)] if offers else None,
            "hints": {str(s): n for s, n in _hints.get(room, {}).items()}}


def shared_extra(room: Room) -> JSONObject | None:
    """:func:`shared_state` when the room has draw offers or hint markers, else None (the
    periodic ``presence`` event carries only these; most rooms have neither)."""
    if room not in _draws and not _hints.get(room):
        return None
    got = shared_state(room)
    return got if got["draw"] is not None or got["hints"] else None


def adopt_shared(room: Room, event: JSONObject) -> bool:
    """Take in another process's draw offers (a union, at the current ply only; a decline
    withdraws them) and hint counts (the larger count); True if anything changed."""
    changed = False
    ply = len(room.moves)
    if event.get("declined") == ply and room in _draws:
        _draws.pop(room, None)
        changed = True
    draw = event.get("draw")
    if isinstance(draw, list) and len(draw) == 2 and draw[0] == ply:
        mine = draw_offers(room)
        offers = mine | {int(s) for s in draw[1] if isinstance(s, int)}
        if offers != mine:
            _draws[room] = (ply, offers)
            changed = True
    hints = event.get("hints")
    if isinstance(hints, dict):
        counts = _hints.setdefault(room, {})
        for key, n in hints.items():
            if str(key).isdigit() and isinstance(n, int) and n > counts.get(int(key), 0):
                counts[int(key)] = n
                changed = True
    return changed


def public(room: Room) -> JSONObject:
    """What the page shows of these: which actions are open and who offered a draw."""
    return {"can_abort": can_abort(room) and room.match_set is None,
            "can_draw": can_offer_draw(room), "draw_offers": sorted(draw_offers(room)),
            "hints": {str(s): n for s, n in sorted(_hints.get(room, {}).items())}}
