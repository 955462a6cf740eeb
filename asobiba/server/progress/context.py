"""What every progression handler needs, typed: one :class:`ProgressionWeb` per app — the
progression layer on the rooms' database, the rooms' Hub, the server's date, the limits, the
engine thread, the recordings in flight and the running exams (:class:`.exams.Exams`) — kept
at ``AppContext.progression`` and read by each handler with :func:`web`. Plus the helpers the
feature modules share: the error shape, who is asking (the session cookie), the per-address
limits, and the rows that link a room to the progression layer (``ROOM_CONTEXT``,
``DAILY_ROOMS``)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

import anyio
import anyio.to_thread
from sqlalchemy import select
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from ...core.jsontypes import JSONObject
from ...games import available
from ...progression import Progression
from ...progression.errors import AuthError, ProgressionError
from ...tables import DAILY_ROOMS, ROOM_CONTEXT, RoomRow, now
from ..db import reader
from ..limits import Limits

if TYPE_CHECKING:
    from ..rooms import Hub, Room
    from .exams import Exams

T = TypeVar("T")
Ts = TypeVarTuple("Ts")
Endpoint = Callable[[Request], Awaitable[Response]]

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
COOKIE = "asobiba_session"
COOKIE_AGE = 30 * 24 * 3600  # the progression layer's session lifetime
MAX_BODY = 16_000


def utc_today() -> date:
    return now().date()  # daily challenges change at midnight UTC


class ProgressionWeb:
    """The progression layer's part of the app: its parts (read by the handlers of
    :mod:`.tutorials`, :mod:`.accounts`, :mod:`.daily`, :mod:`.ladder`, :mod:`.recording`,
    :mod:`.review`), its route table (:attr:`routes`) and the hooks the app runs —
    :meth:`on_finish` (``Hub.on_finish``), :meth:`record_embargo`, :meth:`warm`,
    :meth:`sweep_exams` / :meth:`watch_exams`. ``hub`` gives the rooms' Hub (made at
    start-up); ``prog`` lets tests pass a cheap password hasher; ``today`` is the server's
    date (tests move it); ``daily_key`` replaces the database's daily secret."""

    def __init__(self, engine: Engine, hub: Callable[[], Hub],
                 prog: Progression | None = None, today: Callable[[], date] = utc_today,
                 daily_key: bytes | None = None, limits: Limits | None = None) -> None:
        from ...tables import LADDER_SETS, ROOM_RATINGS, SEAT_PLAYERS
        from .exams import Exams
        from .routes import route_table

        self.engine = engine
        self.hub = hub
        self.prog = prog or Progression(engine, daily_key=daily_key)
        self.today = today
        self.limits = limits or Limits()
        # the web's tables (asobiba.tables): made by the migrations already when the engine
        # is the store's; created here for an engine of its own (tests)
        SEAT_PLAYERS.metadata.create_all(engine, tables=[SEAT_PLAYERS, ROOM_RATINGS,
                                                         ROOM_CONTEXT, LADDER_SETS,
                                                         DAILY_ROOMS])
        self.pending: set[asyncio.Task[None]] = set()
        """Recordings of finished rooms running in the background (held until done)."""
        # move feedback and reviews run engine searches in this process's threads: one at a
        # time, so however many players ask at once the event loop keeps its share of the
        # interpreter (a pile of CPU-bound threads slowed moves and WebSocket answers for
        # every room)
        self.engine_work = anyio.CapacityLimiter(1)
        self.exams: Exams = Exams(self)
        self.routes = route_table(self)

    async def in_engine_thread(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in the one engine thread. abandon_on_cancel: a time budget
        (fail_after) answers at once; the thread then finishes on its own, its result
        dropped."""
        return await anyio.to_thread.run_sync(functools.partial(fn, *args),
                                              limiter=self.engine_work,
                                              abandon_on_cancel=True)

    # ---- the app's hooks ---------------------------------------------------------------------
    def on_finish(self, room: Room) -> None:
        """For ``Hub.on_finish``: record (and rate) a finished room in the background."""
        from .recording import on_finish

        on_finish(self, room)

    async def record_embargo(self, room_id: str) -> str | None:
        """Why a finished room's record (which holds its seed) may not be given out yet."""
        from .recording import record_embargo

        return await record_embargo(self, room_id)

    async def warm(self) -> None:
        """Run in the background after start-up: warms the review up (imports,
        evaluators)."""
        from .review import warm

        await warm(self)

    async def sweep_exams(self, at: float) -> list[str]:
        """Fail every running exam whose game's page has been gone for EXAM_GRACE seconds
        at the wall time ``at`` (``time.time``); the rooms ended (:meth:`.exams.Exams.sweep`)."""
        return await self.exams.sweep(at)

    async def watch_exams(self) -> None:
        """Run in the background: :meth:`sweep_exams` every EXAM_CHECK seconds."""
        await self.exams.watch()


def web(conn: HTTPConnection) -> ProgressionWeb:
    """The app's progression part, from a request."""
    from ..routes.context import ctx

    return ctx(conn).prog


# ---- refusals ---------------------------------------------------------------------------------
def error(status: int, code: str, message: str,
          args: dict[str, str] | None = None) -> JSONResponse:
    """The one error shape of the HTTP API: ``{"error": {"code", "message"}}`` (and
    ``"args"`` where the refusal has them: a record's specific ``why``)."""
    body: JSONObject = {"code": code, "message": message}
    if args:
        body["args"] = dict(args)
    return JSONResponse({"error": body}, status_code=status)


class Refused(Exception):
    """A request refused with a status, a code and a message (:func:`handled` answers it)."""

    def __init__(self, status: int, code: str, message: str,
                 args: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.response = error(status, code, message, args)


def handled(fn: Endpoint) -> Endpoint:
    """``fn`` with its refusals (and the progression layer's errors) as answers."""
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except Refused as exc:
            return exc.response
        except ProgressionError as exc:  # each class states its code and status
            return error(exc.status, exc.code, str(exc))
    return endpoint


def game_id(request: Request) -> str:
    game = request.path_params["game"]
    if game not in available():
        raise Refused(404, "unknown_game",
                      f"unknown game {game!r}; games here: {', '.join(available())}")
    return str(game)


async def limited(request: Request, rule: str, *key: str) -> None:
    limits = web(request).limits
    ip = str(request.scope.get("state", {}).get("client_ip") or "?")
    if not await limits.ahit(rule, ip, *key):  # Redis: asked off the event loop
        r = limits.rules[rule]
        raise Refused(429, "too_many", f"too many requests of this kind ({r.tries} per "
                      f"{r.window:g} s from your address); wait and try again")


# ---- who is asking ----------------------------------------------------------------------------
def set_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")


async def current(request: Request) -> JSONObject | None:
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    try:
        return await run_in_threadpool(web(request).prog.whoami, token)
    except AuthError:
        return None


async def need_player(request: Request) -> JSONObject:
    me = await current(request)
    if me is None:
        raise Refused(401, "not_signed_in", "sign in (or play as a guest) first")
    return me


def public(player: JSONObject) -> JSONObject:
    return {k: player.get(k) for k in ("id", "name", "kind")}


# ---- a room's link to the progression layer -----------------------------------------------------
def load_context(engine: Engine, room_id: str) -> JSONObject | None:
    """The room's ``ROOM_CONTEXT`` row (a ladder, exam or daily room), or None."""
    with reader(engine).connect() as conn:
        row = conn.execute(select(ROOM_CONTEXT).where(ROOM_CONTEXT.c.room_id == room_id)
                           ).mappings().first()
    return dict(row) if row else None


def daily_rooms(engine: Engine, player_id: int, game: str, day: str) -> list[str]:
    """The daily rooms ``player_id`` opened for ``game``'s challenge of ``day``, first
    opened first (creation time, then id): the first is the day's scoring attempt."""
    with reader(engine).connect() as conn:
        return list(conn.execute(
            select(DAILY_ROOMS.c.room_id)
            .join(ROOM_CONTEXT, ROOM_CONTEXT.c.room_id == DAILY_ROOMS.c.room_id)
            .join(RoomRow, RoomRow.id == DAILY_ROOMS.c.room_id)
            .where(ROOM_CONTEXT.c.player_id == player_id, ROOM_CONTEXT.c.game == game,
                   ROOM_CONTEXT.c.kind == "daily", DAILY_ROOMS.c.day == day)
            .order_by(RoomRow.created, RoomRow.id)).scalars())
