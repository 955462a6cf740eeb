"""Table manners the game page needs beyond moves: the history a seat has seen (to step
through the moves during play), abort before every seat has moved, and draw offers.

Kept apart from rooms.py (the room core, being made multi-process): each function takes the
hub and the room and uses only their public pieces, so it can move onto a bus unchanged."""

from __future__ import annotations

import json
import time
from weakref import WeakKeyDictionary

from asobiba.core.protocol import Outcome

from ..core.jsontypes import JSONMapping, JSONObject
from . import shared
from .limits import HISTORY_CONN_BURST, HISTORY_CONN_RATE, ByteBucket, Limits
from .room import notes
from .rooms import ClientError, Conn, Hub, Room
from .wire import dumps
from .ws_protocol import HistoryRequest

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
    room.notes.append(notes.hint_taken(seat, counts[seat]))
    room.version += 1
    shared.publish(hub, room)
    await hub.broadcast(room)


def draw_offers(room: Room) -> set[int]:
    ply, offers = _draws.get(room, (-1, set()))
    return offers if ply == len(room.moves) and room.status == "active" else set()


HISTORY_PAGE_PLIES = 64
"""Positions in one page of ``history`` at most."""
HISTORY_PAGE_BYTES = 64 * 1024
"""Bytes of views in one page of ``history`` at most (a page always holds one position, so a
page is at most this plus one position's views: a few KB in every game)."""
HISTORY_BUILD_CPU = 0.002
"""CPU seconds (the event loop's thread) one page may spend building views not yet cached:
past that the page ends early (it holds at least one position). A first pass over a long
room's history costs the room's other connections at most this much at a time."""
HISTORY_MIN_CHARGE = 16 * 1024
"""Bytes a page costs at least in the byte budgets, however small: the budget counts
requests too (a page cut short by HISTORY_BUILD_CPU is not cheaper to ask for)."""


class _HistoryCache:
    """A room's past views as JSON text, per seat kind (a seat number, None for spectators),
    built lazily — only the positions a page asks for — and kept: a position's view never
    changes once the position exists, so each is serialised once for all the connections of
    its kind. ``epoch`` is the room's ``history`` count: an undo or a reload that rewrote the
    moves makes a new cache."""

    def __init__(self, epoch: int) -> None:
        self.epoch = epoch
        self.views: dict[int | None, list[str | None]] = {}


# room → its history cache (dropped with the room)
_histories: WeakKeyDictionary[Room, _HistoryCache] = WeakKeyDictionary()


def _lean(view: JSONMapping) -> JSONObject:
    # a past position is looked at, never played from: its legal moves are dead weight
    return {k: v for k, v in view.items() if k != "legal_moves"}


def _fragments(room: Room, seat: int | None) -> list[str | None]:
    """The cached view texts of ``seat``'s kind, one slot per position (None: not built)."""
    cache = _histories.get(room)
    if cache is None or cache.epoch != room.history:
        cache = _histories[room] = _HistoryCache(room.history)
    frags = cache.views.setdefault(seat, [])
    n = len(room.states)
    if len(frags) > n:  # moves taken back without a new epoch: never show a stale view
        del frags[n:]
    frags.extend([None] * (n - len(frags)))
    return frags


def _view_text(room: Room, frags: list[str | None], seat: int | None, ply: int) -> str:
    text = frags[ply]
    if text is None:
        text = frags[ply] = dumps(_lean(room.states[ply].view(seat)))
    return text


def _ply_field(msg: JSONObject, name: str, default: int | None, positions: int) -> int | None:
    value = msg.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= positions:
        raise ClientError("bad_range", f"'{name}' must be a ply from 0 to {positions}, not "
                          f"{value!r}")
    return value


def history_page(room: Room, conn: Conn, msg: JSONObject) -> str:
    """One page of the views the connection's seats have seen, as the message text.

    ``from`` (default 0) is the first position (0 = the start, k = after the k-th move),
    ``to`` (default: as far as a page goes) one past the last wanted. A page stops at
    :data:`HISTORY_PAGE_PLIES` positions, :data:`HISTORY_PAGE_BYTES` bytes of views or
    :data:`HISTORY_BUILD_CPU` seconds of building, whichever comes first; ``next`` says where the following page starts (null: this page
    reaches the current position). Each seat gets only what it has already seen
    (``view(seat)`` of every position so far); a spectator the public view."""
    positions = len(room.states)
    start = _ply_field(msg, "from", 0, positions)
    stop = _ply_field(msg, "to", None, positions)
    assert start is not None
    stop = positions if stop is None else max(stop, start)
    seats: list[int | None] = list(sorted(conn.seats)) or [None]
    frags = [_fragments(room, s) for s in seats]
    pages: list[list[str]] = [[] for _ in seats]
    size, end, began = 0, start, time.thread_time()
    while end < stop and end - start < HISTORY_PAGE_PLIES:
        if end > start and time.thread_time() - began >= HISTORY_BUILD_CPU:
            break
        texts = [_view_text(room, f, s, end) for f, s in zip(frags, seats, strict=True)]
        grown = size + sum(len(t) + 1 for t in texts)
        if end > start and grown > HISTORY_PAGE_BYTES:
            break
        for page, text in zip(pages, texts, strict=True):
            page.append(text)
        size, end = grown, end + 1
    head = dumps({"type": "history", "from": start, "to": end,
                  "next": end if end < positions else None, "positions": positions})
    body = ",".join(f'{{"seat":{dumps(s)},"views":[{",".join(page)}]}}'
                    for s, page in zip(seats, pages, strict=True))
    return f'{head[:-1]},"views":[{body}]}}'


def history(room: Room, conn: Conn, msg: JSONObject | None = None) -> JSONObject:
    """:func:`history_page` as a message object (tests, callers that want the data)."""
    page = json.loads(history_page(room, conn, msg or {}))
    assert isinstance(page, dict)
    return page


async def send_history(room: Room, conn: Conn, req: HistoryRequest, limits: Limits,
                       address: str) -> None:
    """Answer a ``history`` message within the byte budgets (limits.ByteBucket): the
    connection's and its address's. A page is sent only while both are out of debt; its
    bytes are then spent (so one page may overdraw, by at most a page). Over budget, the
    request is refused with ``too_fast`` and ``retry_after`` (seconds) — nothing built."""
    now = time.monotonic()
    mine = _conn_buckets.get(conn)
    if mine is None:
        mine = _conn_buckets[conn] = ByteBucket(HISTORY_CONN_RATE, HISTORY_CONN_BURST, now)
    wait = max(mine.wait(now), limits.history_bytes.wait(address, now))
    if wait > 0:
        raise TooFast(f"history is sent at most {HISTORY_CONN_RATE // 1024} KiB a second "
                      f"per connection and {limits.history_bytes.rate // 1024} KiB a second "
                      "per address; ask again later", retry_after=round(wait + 0.05, 2))
    msg: JSONObject = {"from": req.from_, "to": req.to}
    text = history_page(room, conn, msg)
    size = max(len(text.encode()), HISTORY_MIN_CHARGE)
    mine.spend(size)
    limits.history_bytes.spend(address, size)
    if conn.send_text is not None:
        await conn.send_text(text)
    else:
        await conn.send(history(room, conn, msg))


class TooFast(ClientError):
    """``too_fast`` with the seconds after which the same request will be served."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("too_fast", message, status=429)
        self.params: JSONObject = {"retry_after": retry_after}


# connection → its history byte bucket (dropped with the connection)
_conn_buckets: WeakKeyDictionary[Conn, ByteBucket] = WeakKeyDictionary()


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
        room.notes.append(notes.aborted(seat))
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
            if not draw_offers(room) - {seat}:
                raise ClientError("no_offer", "there is no draw offer to decline")
            _draws.pop(room, None)
            note = notes.declined("draw", seat)
            room.notes.append(note)
            shared.publish(hub, room, declined=len(room.moves), declined_by=seat)
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
        by = event.get("declined_by")
        if isinstance(by, int) and not isinstance(by, bool):
            room.notes.append(notes.declined("draw", by))  # the offerer may be held here
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
