"""Meet and watch (issue 15 item 5): open games ("seeks") anyone can take, quick pairing by
rating, and the list of live games to watch — all pushed to every lobby page over one
WebSocket (``/ws/lobby``) whenever they change.

Everything about seeks sits behind a board: :class:`SeekBoard` in this process's memory (the
embedded mode; a seek is an invitation, not a game, so losing it in a restart loses nothing
played), or :class:`RedisSeekBoard` in the scaled mode — one board in Redis for every web
process, so a seek opened through one process is listed and taken through any other, and
taken once. The opener hears "taken" (with their seat's key) on whichever process their
lobby page is connected to: the taking process says so on the room bus (a ``lobby`` event).
The live-games list joins every process's rooms the same way: each process writes its own
list to Redis every :data:`PUSH_EVERY` seconds when it changed (at least every third of
:data:`LIVE_STALE`), and a list not refreshed for :data:`LIVE_STALE` seconds (its process
died) is left out; the others' lists are read only by a process with a lobby page open.

A seek lives as long as its opener's lobby: a page that opened one says so (its ``hello``
names the seek's token) and the board notes, per seek, when a lobby page last held it. A
seek no page has held for :data:`SEEK_GRACE` seconds (10; ``ASOBIBA_SEEK_GRACE``) is
withdrawn by :meth:`Lobby.sweep` (every :data:`PUSH_EVERY` s; in the scaled mode any
process withdraws it, the note being shared in Redis). A seek taken while its opener was
away (within the grace) keeps the opener's seat key for :data:`TAKEN_KEEP` seconds: the
opener's next lobby page that names the token gets it (``seek_taken`` with ``late``) and
shows "your game" with its link. The token is the opener's proof (kept in the browser's
``localStorage``), so this works for a guest without an account too."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from pydantic_core import from_json, to_json
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core import Game
from ..core.jsontypes import JSONObject
from . import fairplay
from .api_schema import QuickPair, SeekOpen, SeekToken, parsed
from .db import reader
from .rooms import ClientError
from .security import BadJSON, parse_json
from .ws_protocol import parse_lobby

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from .rooms import Hub, Room

DEFAULT_RATING = 1500.0  # Glicko-2's start: a guest without an account pairs as a newcomer
MAX_SEEKS = 200  # the board is public: a flood of seeks cannot grow it without end
PUSH_EVERY = 1.0  # seconds between checks of the live-games list
LIVE_STALE = 10.0  # seconds after which another process's live-games list is dropped
SEEK_MAX_AGE = 6 * 3600.0  # a seek nobody took for this long is withdrawn (scaled mode)
SEEK_GRACE = float(os.environ.get("ASOBIBA_SEEK_GRACE", "10"))
"""Seconds a seek outlives its opener's last lobby page (then it is withdrawn)."""
TAKEN_KEEP = 3600.0
"""Seconds a seek taken while its opener was away keeps the opener's key for them."""
SEEKS_KEY, LIVE_KEY = "asobiba:seeks", "asobiba:live"
SEEN_KEY, TAKEN_KEY = "asobiba:seek_seen", "asobiba:seek_taken"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seek:
    id: str
    game: str
    options: JSONObject
    casual: bool
    clock: JSONObject | None
    name: str
    rating: float
    token_hash: str
    created: float = field(default_factory=time.time)

    def to_json(self) -> JSONObject:
        return {"id": self.id, "game": self.game, "options": self.options,
                "casual": self.casual, "clock": self.clock, "name": self.name,
                "rating": self.rating, "token_hash": self.token_hash, "created": self.created}

    @classmethod
    def from_json(cls, data: JSONObject) -> Seek:
        return cls(str(data["id"]), str(data["game"]), dict(data["options"]),
                   bool(data["casual"]), data.get("clock"), str(data["name"]),
                   float(data["rating"]), str(data["token_hash"]), float(data["created"]))

    def public(self) -> JSONObject:
        return {"id": self.id, "game": self.game, "options": self.options,
                "casual": self.casual, "clock": self.clock, "name": self.name,
                "rating": round(self.rating)}


class SeekBoard:
    """The open seeks of this process. ``take`` is atomic (one event loop): two people
    clicking the same seek cannot both get it."""

    def __init__(self) -> None:
        self.seeks: dict[str, Seek] = {}
        self.seen: dict[str, float] = {}  # token hash → when a lobby page last held it
        self.taken: dict[str, tuple[float, JSONObject]] = {}  # token hash → its key message

    async def add(self, seek: Seek) -> None:
        if len(self.seeks) >= MAX_SEEKS:
            raise ClientError("too_many_seeks", "the open-games list is full; try again soon")
        self.seeks[seek.id] = seek

    async def cancel(self, seek_id: str, token: str) -> Seek:
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise ClientError("no_seek", "that open game is gone (taken or cancelled)")
        if not secrets.compare_digest(seek.token_hash, _hash(token)):
            raise ClientError("not_your_seek", "only whoever opened a game may cancel it")
        return self.seeks.pop(seek_id)

    async def take(self, seek_id: str, token: str | None) -> Seek:
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise ClientError("no_seek", "that open game is gone (taken or cancelled)")
        if token and secrets.compare_digest(seek.token_hash, _hash(token)):
            raise ClientError("own_seek", "this is your own open game; wait for someone else")
        return self.seeks.pop(seek_id)

    async def all(self) -> list[Seek]:
        return sorted(self.seeks.values(), key=lambda s: s.created)

    async def closest(self, game: str, rating: float, token: str | None) -> Seek | None:
        """Take the open game of ``game`` (default options) whose rating is nearest
        ``rating`` (None if there is none to take)."""
        mine = _hash(token) if token else None
        while True:
            fits = [s for s in await self.all()
                    if s.game == game and not s.options and s.token_hash != mine]
            best = min(fits, key=lambda s: (abs(s.rating - rating), s.created), default=None)
            if best is None:
                return None
            try:
                return await self.take(best.id, None)
            except ClientError:  # taken by someone else meanwhile: the next nearest
                continue

    async def public(self) -> list[JSONObject]:
        return [s.public() for s in await self.all()]

    async def live_elsewhere(self, mine: list[JSONObject]) -> list[JSONObject]:
        """The live games of the other processes (none: this is the only one)."""
        return []

    # ---- the opener's presence, and their key when they were away ---------------------------
    async def mark_seen(self, hashes: set[str], now: float) -> None:
        """Lobby pages hold the seeks of these token hashes at ``now``."""
        for h in hashes:
            self.seen[h] = now

    async def withdraw_stale(self, grace: float, now: float) -> list[Seek]:
        """Withdraw every seek no lobby page has held for ``grace`` seconds (one opened
        without a page counts from its opening); the withdrawn, for the pushes."""
        gone = []
        for seek in await self.all():
            if now - max(seek.created, self.seen.get(seek.token_hash, 0.0)) > grace:
                if self.seeks.pop(seek.id, None) is not None:
                    gone.append(seek)
                self.seen.pop(seek.token_hash, None)
        return gone

    async def keep_taken(self, token_hash: str, message: JSONObject, now: float) -> None:
        """Keep the opener's key message of a taken seek for their return."""
        self.seen.pop(token_hash, None)
        self.taken = {h: v for h, v in self.taken.items() if now - v[0] <= TAKEN_KEEP}
        self.taken[token_hash] = (now, message)

    async def collect_taken(self, hashes: set[str], now: float) -> list[JSONObject]:
        """The kept key messages of these token hashes (given once)."""
        out = []
        for h in hashes:
            got = self.taken.pop(h, None)
            if got is not None and now - got[0] <= TAKEN_KEEP:
                out.append(got[1])
        return out


_ADD = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class RedisSeekBoard(SeekBoard):
    """The open seeks of every web process, in one Redis hash (seek id → JSON). Adding is
    one script (the :data:`MAX_SEEKS` cap holds across processes); taking and cancelling
    end with ``HDEL``, which only one caller can win — two people taking the same seek
    through two processes cannot both get it."""

    def __init__(self, url: str, origin: str) -> None:
        super().__init__()
        import redis.asyncio as aioredis

        self.redis = aioredis.Redis.from_url(url, socket_connect_timeout=2,
                                             decode_responses=True)
        self.origin = origin
        self._add = self.redis.register_script(_ADD)
        self._live_written, self._live_at = b"", 0.0

    async def add(self, seek: Seek) -> None:
        if not await self._add(keys=[SEEKS_KEY],
                               args=[seek.id, json.dumps(seek.to_json()), MAX_SEEKS]):
            raise ClientError("too_many_seeks", "the open-games list is full; try again soon")

    async def _get(self, seek_id: str) -> Seek:
        raw = await self.redis.hget(SEEKS_KEY, seek_id)
        if raw is None:
            raise ClientError("no_seek", "that open game is gone (taken or cancelled)")
        return Seek.from_json(json.loads(raw))

    async def _pop(self, seek_id: str) -> None:
        if not await self.redis.hdel(SEEKS_KEY, seek_id):  # another process won it
            raise ClientError("no_seek", "that open game is gone (taken or cancelled)")

    async def cancel(self, seek_id: str, token: str) -> Seek:
        seek = await self._get(seek_id)
        if not secrets.compare_digest(seek.token_hash, _hash(token)):
            raise ClientError("not_your_seek", "only whoever opened a game may cancel it")
        await self._pop(seek_id)
        return seek

    async def take(self, seek_id: str, token: str | None) -> Seek:
        seek = await self._get(seek_id)
        if token and secrets.compare_digest(seek.token_hash, _hash(token)):
            raise ClientError("own_seek", "this is your own open game; wait for someone else")
        await self._pop(seek_id)
        return seek

    async def all(self) -> list[Seek]:
        now = time.time()
        seeks = []
        for seek_id, raw in (await self.redis.hgetall(SEEKS_KEY)).items():
            seek = Seek.from_json(json.loads(raw))
            if now - seek.created > SEEK_MAX_AGE:  # its opener is long gone
                await self.redis.hdel(SEEKS_KEY, seek_id)
                continue
            seeks.append(seek)
        return sorted(seeks, key=lambda s: s.created)

    async def mark_seen(self, hashes: set[str], now: float) -> None:
        if hashes:
            await self.redis.hset(SEEN_KEY, mapping=dict.fromkeys(hashes, repr(now)))

    async def withdraw_stale(self, grace: float, now: float) -> list[Seek]:
        """As :meth:`SeekBoard.withdraw_stale`, with every process's note of the opener's
        pages (``HDEL``: one process withdraws a seek, the others find it gone)."""
        seen = await self.redis.hgetall(SEEN_KEY)
        gone = []
        for seek in await self.all():
            if now - max(seek.created, float(seen.get(seek.token_hash, 0.0))) > grace:
                if await self.redis.hdel(SEEKS_KEY, seek.id):
                    gone.append(seek)
                await self.redis.hdel(SEEN_KEY, seek.token_hash)
        return gone

    async def keep_taken(self, token_hash: str, message: JSONObject, now: float) -> None:
        await self.redis.hdel(SEEN_KEY, token_hash)
        await self.redis.hset(TAKEN_KEY, token_hash, json.dumps({"at": now, "message": message}))
        for h, raw in (await self.redis.hgetall(TAKEN_KEY)).items():  # the forgotten ones
            if now - float(json.loads(raw)["at"]) > TAKEN_KEEP:
                await self.redis.hdel(TAKEN_KEY, h)

    async def collect_taken(self, hashes: set[str], now: float) -> list[JSONObject]:
        out = []
        for h in hashes:
            raw = await self.redis.hget(TAKEN_KEY, h)
            if raw is None or not await self.redis.hdel(TAKEN_KEY, h):
                continue  # none, or given to another page of the same opener just now
            got = json.loads(raw)
            if now - float(got["at"]) <= TAKEN_KEEP:
                out.append(got["message"])
        return out

    async def write_live(self, mine: list[JSONObject]) -> None:
        """Write this process's live games for the others' lobbies: when the list changed,
        else only often enough to stay fresh (a third of :data:`LIVE_STALE`)."""
        now = time.time()
        rooms = to_json(mine)
        if rooms == self._live_written and now - self._live_at < LIVE_STALE / 3:
            return
        await self.redis.hset(LIVE_KEY, self.origin,
                              b'{"at":%s,"rooms":%s}' % (repr(now).encode(), rooms))
        self._live_written, self._live_at = rooms, now

    async def live_elsewhere(self, mine: list[JSONObject]) -> list[JSONObject]:
        """Write this process's live games; read the other processes' fresh lists."""
        await self.write_live(mine)
        now = time.time()
        out: list[JSONObject] = []
        for origin, raw in (await self.redis.hgetall(LIVE_KEY)).items():
            if origin == self.origin:
                continue
            got = from_json(raw)
            if now - float(got.get("at", 0)) > LIVE_STALE:
                await self.redis.hdel(LIVE_KEY, origin)
                continue
            out.extend(got.get("rooms") or [])
        return out

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.hdel(LIVE_KEY, self.origin)
            await self.redis.aclose()


Who = Callable[[Request, str], Awaitable[tuple[str, float]]]


async def _no_limit(request: Request) -> None:
    return None


async def _nobody_blocked(a: str, b: str) -> bool:
    return False


class Lobby:
    """The routes and the live pushes. ``hub`` gives the rooms; ``who`` names the asking
    person and their rating in a game (an account's, else a guest at 1500)."""

    def __init__(self, hub: Callable[[], Hub], get_game: Callable[[str], Game],
                 who: Who, limit: Callable[[Request], Awaitable[None]] | None = None,
                 board: SeekBoard | None = None, clock: Callable[[], float] = time.time,
                 grace: float | None = None) -> None:
        self.board = board or SeekBoard()
        self.clock = clock  # wall time: the scaled mode compares it across processes
        self.grace = SEEK_GRACE if grace is None else grace
        self.limit = limit or _no_limit  # awaited: the room-creation limit (Redis: off the loop)
        self.hub = hub
        self.get_game = get_game
        self.who = who
        # whether either of two players (by name) blocks the other: set by the app
        # (server.social); a blocked pair is never paired by an open game
        self.blocked: Callable[[str, str], Awaitable[bool]] = _nobody_blocked
        self.sockets: dict[WebSocket, set[str]] = {}  # lobby page → its seek tokens' hashes
        self.last: str = ""
        self.task: asyncio.Task[None] | None = None
        self._live_entries: WeakKeyDictionary[Room, tuple[tuple[int, int], JSONObject]] = \
            WeakKeyDictionary()

    # ---- what every lobby page sees ----------------------------------------------------------
    def live(self) -> list[JSONObject]:
        """Running games with someone at the table (this process's rooms)."""
        out = []
        cache = self._live_entries
        for room in list(self.hub().rooms.values()):
            if room.status != "active" or not room.conns:
                continue
            # built anew only when its ply or watchers changed (a room's seats are fixed):
            # with 1,000 rooms this list is made every second
            key = (len(room.moves), sum(1 for c in room.conns if not c.keys))
            got = cache.get(room)
            if got is None or got[0] != key:
                got = cache[room] = (key, {
                    "room": room.id, "game": room.game.id, "ply": key[0],
                    "seats": [{"kind": s.kind, "level": s.level, "name": s.name}
                              for s in room.seats],
                    "spectators": key[1]})
            out.append(got[1])
        return sorted(out, key=lambda r: str(r["room"]))

    async def snapshot(self) -> JSONObject:
        mine = self.live()
        try:
            live = sorted(mine + await self.board.live_elsewhere(mine), key=lambda r: r["room"])
            seeks = await self.board.public()
        except ClientError:
            raise
        except Exception:  # noqa: BLE001 - Redis away: what this process knows
            live, seeks = mine, []
        return {"type": "lobby", "seeks": seeks, "live": live}

    async def push(self, force: bool = False) -> None:
        snap = await self.snapshot()
        text = repr(snap)
        if text == self.last and not force:
            return
        self.last = text
        for ws in list(self.sockets):
            with contextlib.suppress(Exception):  # a closed page is dropped by its handler
                await ws.send_json(snap)

    def held(self) -> set[str]:
        """The token hashes of the seeks this process's lobby pages hold."""
        return set().union(*self.sockets.values())

    async def sweep(self) -> list[Seek]:
        """Note the seeks this process's pages hold; withdraw those no page anywhere has
        held for :attr:`grace` seconds (and tell the lobby pages)."""
        now = self.clock()
        await self.board.mark_seen(self.held(), now)
        gone = await self.board.withdraw_stale(self.grace, now)
        if gone:
            await self.push(force=True)
        return gone

    async def watch(self) -> None:
        """Every :data:`PUSH_EVERY` seconds: seeks whose opener left are withdrawn, the
        lobby pages get any change (seeks and live games of every process), and in the
        scaled mode this process's live games are written for the others even while no
        lobby page is connected here."""
        while True:
            await asyncio.sleep(PUSH_EVERY)
            with contextlib.suppress(Exception):
                await self.sweep()
                if self.sockets:
                    await self.push()
                elif isinstance(self.board, RedisSeekBoard):  # nobody here reads the others'
                    await self.board.write_live(self.live())

    def start(self) -> None:
        """Start the pushes (the app's start-up; else with the first lobby page)."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.watch())

    async def on_event(self, event: JSONObject) -> None:
        """A seek opened here was taken through another process: tell its opener's pages."""
        if event.get("what") == "seek_taken":
            await self._tell_opener(str(event["token_hash"]), dict(event["message"]))

    async def _tell_opener(self, token_hash: str, message: JSONObject) -> bool:
        """Send ``message`` to the opener's lobby pages here; whether one got it."""
        told = False
        for ws, hashes in list(self.sockets.items()):
            if token_hash in hashes:
                with contextlib.suppress(Exception):
                    await ws.send_json(message)
                    told = True
        return told

    # ---- HTTP ---------------------------------------------------------------------------------
    def _two_player(self, game: Game, options: JSONObject) -> None:
        if game.num_seats(options) != 2 or game.simultaneous:
            raise ClientError("bad_seek", f"open games are for two players taking turns; "
                              f"{game.id} with these options is not")

    def _game(self, name: object) -> Game:
        try:
            return self.get_game(str(name))
        except Exception:
            raise ClientError("unknown_game", f"unknown game {name!r}") from None

    async def create(self, request: Request) -> Response:
        from .routes.rooms import clock_of, valid_options

        await self.limit(request)
        body = await parsed(request, SeekOpen)  # "false" is not false: a StrictBool
        game = self._game(body.game)
        options = dict(body.options)
        valid_options(game, options)
        self._two_player(game, options)
        clock = clock_of(body.clock)
        casual = body.casual
        # a rated game between two people needs a clock (docs/fair-play.md)
        fairplay.check_rated_timing(game, [{"kind": "human"}] * 2, casual, clock)
        name, rating = await self.who(request, game.id)
        token = secrets.token_urlsafe(24)
        seek = Seek(secrets.token_urlsafe(8), game.id, dict(options),
                    casual, clock, name, rating, _hash(token), self.clock())
        await self.board.add(seek)
        self.start()  # the sweep withdraws it if no lobby page ever holds it
        await self.push(force=True)
        return JSONResponse({"seek": seek.public(), "token": token}, status_code=201)

    async def cancel(self, request: Request) -> Response:
        body = await parsed(request, SeekToken)
        await self.board.cancel(request.path_params["seek"], body.token or "")
        await self.push(force=True)
        return JSONResponse({"cancelled": True})

    async def _start(self, seek: Seek) -> JSONObject:
        """The room of a taken seek: its opener at seat 0 or 1 by a coin, the taker at the
        other; the opener's key goes only to the opener's lobby pages."""
        game = self.get_game(seek.game)
        opener = secrets.randbelow(2)
        seats = [{"kind": "human", "level": None, "name": ""} for _ in range(2)]
        room, keys = await self.hub().create(game, game.validate_options(seek.options), seats,
                                             casual=seek.casual, clock=seek.clock)
        message = {"type": "seek_taken", "seek": seek.id, "room": room.id,
                   "url": f"/r/{room.id}", "keys": [{"seat": opener, "key": keys[opener]}]}
        # kept for the opener's return first (their page may be gone, or connected to
        # another process): a page that gets the message live drops the token, so the kept
        # copy is only ever read by a page that missed it
        await self.board.keep_taken(seek.token_hash, {**message, "late": True}, self.clock())
        await self._tell_opener(seek.token_hash, message)
        # the opener's page may be connected to another process: say it on the bus too
        self.hub().bus.publish({"kind": "lobby", "what": "seek_taken",
                                "token_hash": seek.token_hash, "message": message})
        taker = 1 - opener
        return {"room": room.id, "url": f"/r/{room.id}",
                "keys": [{"seat": taker, "key": keys[taker]}]}

    async def accept(self, request: Request) -> Response:
        await self.limit(request)
        body = await parsed(request, SeekToken)
        seek = await self.board.take(request.path_params["seek"], body.token)
        name, _rating = await self.who(request, seek.game)
        if await self.blocked(seek.name, name):
            await self.board.add(seek)  # still open for everyone else
            raise ClientError("cannot_pair", "this open game cannot be taken by you",
                              status=403)
        out = await self._start(seek)
        await self.push(force=True)
        return JSONResponse(out, status_code=201)

    async def quick(self, request: Request) -> Response:
        """Quick pairing: take the open game of this game nearest the asker's rating, or
        open one (default options) and wait for someone."""
        await self.limit(request)
        body = await parsed(request, QuickPair)
        game = self._game(body.game)
        self._two_player(game, {})
        name, rating = await self.who(request, game.id)
        seek = await self.board.closest(game.id, rating, body.token)
        if seek is not None and await self.blocked(seek.name, name):
            await self.board.add(seek)  # a blocked pair: open a game of one's own instead
            seek = None
        if seek is not None:  # taken already (by closest)
            out = await self._start(seek)
            await self.push(force=True)
            return JSONResponse({"paired": True, **out}, status_code=201)
        token = secrets.token_urlsafe(24)
        mine = Seek(secrets.token_urlsafe(8), game.id, {}, True, None, name, rating,
                    _hash(token), self.clock())
        await self.board.add(mine)
        self.start()
        await self.push(force=True)
        return JSONResponse({"paired": False, "seek": mine.public(), "token": token},
                            status_code=201)

    async def seeks(self, request: Request) -> Response:
        return JSONResponse(await self.snapshot())

    # ---- the lobby WebSocket ------------------------------------------------------------------
    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        self.sockets[websocket] = set()
        self.start()
        try:
            await websocket.send_json(await self.snapshot())
            while True:
                raw = await websocket.receive_text()
                # {"type": "hello", "tokens": [...]}: the seeks this page opened, so it
                # hears when one is taken (and gets its key); anything else is refused
                # with a code (ws_protocol), the socket stays open
                try:
                    if len(raw) > 4096:
                        raise ClientError("too_large", "a lobby message may be at most 4096 "
                                          "characters")
                    try:
                        decoded = parse_json(raw)
                    except BadJSON as exc:
                        raise ClientError("bad_json", str(exc)) from None
                    hello = parse_lobby(decoded)
                except ClientError as exc:
                    error: JSONObject = {"type": "error", "code": exc.code,
                                         "message": exc.message}
                    if exc.details:
                        error["args"] = dict(exc.details)
                    await websocket.send_json(error)
                    continue
                hashes = {_hash(t) for t in hello.tokens}
                self.sockets[websocket] = hashes
                now = self.clock()
                await self.board.mark_seen(hashes, now)
                # a seek of this opener taken while they were away: their seat's key
                for late in await self.board.collect_taken(hashes, now):
                    await websocket.send_json(late)
        except (WebSocketDisconnect, ValueError, KeyError, RuntimeError):
            pass
        finally:
            held = self.sockets.pop(websocket, None)
            if held:  # the grace counts from the moment the page went
                with contextlib.suppress(Exception):
                    await self.board.mark_seen(held, self.clock())

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/seeks", self.seeks, methods=["GET"]),
            Route("/api/seeks", self.create, methods=["POST"]),
            Route("/api/seeks/quick", self.quick, methods=["POST"]),
            Route("/api/seeks/{seek}/accept", self.accept, methods=["POST"]),
            Route("/api/seeks/{seek}/cancel", self.cancel, methods=["POST"]),
            WebSocketRoute("/ws/lobby", self.socket),
        ]


def who_from_accounts(engine: Engine) -> Who:
    """A signed-in player's name and rating in a game's two-player pool; a guest is
    ("", 1500)."""
    from sqlalchemy.orm import Session

    from ..progression import accounts, ratings
    from ..progression.errors import AuthError
    from .progression_routes import COOKIE

    def look(token: str, game_id: str) -> tuple[str, float]:
        with Session(reader(engine)) as s:
            try:
                player = accounts.player_for_token(s, token)
            except AuthError:
                return "", DEFAULT_RATING
            pool, _system = ratings.pool_for(game_id, 2)
            got = ratings.current_rating(s, player.id, pool)
            return player.name, float(got["rating"]) if got else DEFAULT_RATING

    async def who(request: Request, game_id: str) -> tuple[str, float]:
        token = request.cookies.get(COOKIE)
        if not token:
            return "", DEFAULT_RATING
        return await asyncio.to_thread(look, token, game_id)

    return who
