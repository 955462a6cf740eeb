"""The ASGI app: JSON over HTTP for the lobby, records and replays; one WebSocket per
connection for play. Every game comes from the registry; nothing here names a game."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import starlette.websockets
from sqlalchemy.engine import Engine
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core import AsobibaError, MoveError, OptionError, RecordError
from ..core.jsontypes import JSONObject
from ..core.text import TextError
from ..games import available, get
from . import api_schema, chat, error_pages, explorer_routes, fairplay, shared
from . import ws_protocol as wsp
from .analysis_routes import Analysis, AnalysisWeb, shared_budget
from .bot_api import BotApi
from .bots import BotPool
from .db import Store
from .game_web import game_files_mount
from .limits import Limits
from .progress import COOKIE, ProgressionWeb, utc_today
from .puzzle_routes import puzzle_routes
from .social import People

if TYPE_CHECKING:
    from .lobby import Lobby
from .rooms import ClientError, Conn, Hub, Room
from .routes import table
from .routes.common import error, ip, limited
from .routes.context import AppContext, ctx
from .routes.pages import WEB_DIR
from .routes.replay import MAX_RECORD, REPLAY_BUDGET, REPLAY_CPU, REPLAY_PAGE_BYTES
from .security import BadJSON, Guard, json_text_error, parse_json
from .wire import dumps

log = logging.getLogger("asobiba.server")
# sending to a WebSocket the client has closed (Starlette ≥ 1.0 names it; before, it
# raised WebSocketDisconnect): the connection is over, not a server error
_CLOSED: type[Exception] = getattr(starlette.websockets, "WebSocketDisconnected",
                                     WebSocketDisconnect)

MAX_MESSAGE = 8_192
MAX_BODY = 64_000
RATE, BURST = 10, 30  # messages per second per connection, and the burst allowed
BACKGROUND_AFTER = 1.0  # seconds after the socket listens before the background start-up
__all__ = ["MAX_RECORD", "REPLAY_BUDGET", "REPLAY_CPU", "REPLAY_PAGE_BYTES", "create_app",
           "dispatch"]


_error = error  # the one error shape of the HTTP API (routes.common.error)


def create_app(data_dir: str = "data", db_url: str | None = None, bot_processes: int = 2,
               bot_time_limit: float = 10.0, bot_delay: float = 0.0,
               claim_after: float = fairplay.CLAIM_AFTER,
               today: Callable[[], date] | None = None,
               daily_key: bytes | None = None, trust_proxy: bool = False,
               limits: Limits | None = None, redis_url: str | None = None,
               abandon_after: float | None = None, sweep_every: float | None = None,
               proxy_ips: list[str] | None = None, allowed_hosts: list[str] | None = None
               ) -> Starlette:
    """The web app. ``db_url`` defaults to SQLite at ``<data_dir>/asobiba.db``;
    ``claim_after``: seconds a person must be gone before the others may claim the game.

    Without ``redis_url`` it is the whole platform in one process (bots in a local pool).
    With it, it is one of any number of identical web processes on a shared database:
    committed changes are announced on Redis and bot moves are queued there for
    ``asobiba worker`` processes (see docs/web.md, "Running at scale").
    ``abandon_after`` / ``sweep_every``: the retention sweep (:mod:`.retention`).
    ``trust_proxy`` / ``proxy_ips``: ``X-Forwarded-For`` from those proxies only (default
    loopback); ``allowed_hosts``: the ``Host`` names answered (default
    ``security.LOCAL_HOSTS``; docs/fair-play.md, "Transport and browser defences").

    The app's parts go into one :class:`~.routes.context.AppContext` (``app.state.ctx``);
    the route table is built from the route modules (:func:`.routes.table`), whose handlers
    are plain functions reading that context — nothing here is a closure over the app."""
    if limits is None and redis_url:  # one count for every web process (docs/fair-play.md)
        from .limits import RedisStore

        limits = Limits(store=RedisStore(redis_url))
    limits = limits or Limits()
    if db_url is None:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        db_url = f"sqlite:///{Path(data_dir) / 'asobiba.db'}"
    store = Store(db_url)
    app_ctx = AppContext(store=store, pool=BotPool(bot_processes, bot_time_limit),
                         limits=limits, policy=fairplay.Policy(claim_after),
                         bot_delay=bot_delay, bot_time_limit=bot_time_limit,
                         abandon_after=abandon_after, sweep_every=sweep_every)
    if redis_url:
        from .bus import RedisBus
        from .jobs import RedisJobs

        app_ctx.bus, app_ctx.jobs = RedisBus(redis_url), RedisJobs(redis_url)
    # the progression layer's part: its routes, hooks and exam watch (server.progress)
    app_ctx.progression = ProgressionWeb(store.engine, app_ctx.get_hub,
                                         today=today or utc_today,
                                         daily_key=daily_key, limits=limits)
    app_ctx.bot_api = BotApi(store.engine, app_ctx.get_hub, limits)  # docs/bot-api.md
    from .lobby import Lobby, RedisSeekBoard, who_from_accounts

    # an open game becomes a room when taken: the room-creation limit counts seeks too;
    # scaled: one board of open games for every web process (Redis)
    bus = app_ctx.bus
    app_ctx.lobby = Lobby(app_ctx.get_hub, get, who_from_accounts(store.engine),
                          limit=functools.partial(_room_limit, limits),
                          board=RedisSeekBoard(redis_url, bus.origin) if redis_url and bus
                          else None)
    # challenges, follows and blocks (server.social): the lobby asks it who blocks whom
    people = People(store.engine, app_ctx.get_hub, get,
                    functools.partial(_live_games, app_ctx.lobby),
                    limit=functools.partial(_room_limit, limits))
    app_ctx.lobby.blocked = people.blocked
    from .tournament_routes import tournament_routes  # docs/tournaments.md

    tournaments = tournament_routes(store.engine, app_ctx.get_hub, get, WEB_DIR)
    app_ctx.tournaments = tournaments  # its handlers read it there (tournament_routes.tweb)
    # the puzzle trainer's part (docs/puzzles.md): its handlers read it there (pweb)
    puzzles = app_ctx.puzzles = puzzle_routes(store.engine, today or utc_today)
    # the analysis board's part (docs/analysis.md): its handlers read it there (aweb)
    app_ctx.analysis = AnalysisWeb(Analysis(budget=shared_budget(store.engine, redis_url)),
                                   account=_account_of(store.engine))
    routes = table(app_ctx, WebSocketRoute("/ws/{room}", ws),
                   Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
                   before_socket=people.routes(),  # before the room socket: not rooms
                   before_static=[
                       *puzzles.routes,  # docs/puzzles.md
                       *explorer_routes.ROUTES,  # docs/explorer.md
                       *chat.chat_routes(),  # before the tournaments' routes
                       *tournaments.routes,  # docs/tournaments.md
                       game_files_mount(WEB_DIR),  # each game's renderer and words
                   ])
    # every HTTP route behind its request models (api_schema.OPS; one is missing: no start)
    routes = api_schema.bind(routes)
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, trust_proxy=trust_proxy,
                                           proxy_ips=proxy_ips, allowed_hosts=allowed_hosts,
                                           default_limit=MAX_BODY,
                                           body_limits={"/api/replay": MAX_RECORD,
                                                        "/api/review": MAX_RECORD})],
                    exception_handlers={ClientError: client_error, AsobibaError: asobiba_error,
                                        HTTPException: not_found, Exception: server_error})
    app.state.ctx = app_ctx
    app.state.store = store
    app.state.pool = app_ctx.pool
    app.state.holder = app_ctx.holder
    app.state.people = people
    app.state.tournaments = tournaments  # its pairing driver starts with the app (lifespan)
    app.state.limits = limits
    app.state.lobby = app_ctx.lobby
    app.state.progression = app_ctx.progression
    return app


def _account_of(engine: Engine) -> Callable[[str], int | None]:
    """Who a session cookie is, for the analysis budget: a registered account's id; None for
    a guest (guests are free to make: each would bring a fresh budget) or no session — they
    count by address (docs/fair-play.md, "The analysis budget")."""
    from ..progression.errors import AuthError
    from ..progression.service import Progression

    prog = Progression(engine)

    def account(token: str) -> int | None:
        try:
            me = prog.whoami(token)
        except AuthError:
            return None
        return None if me.get("kind") == "guest" else int(me["id"])

    return account


async def _room_limit(limits: Limits, request: Request) -> None:
    """The room-creation limit, which an open game (a room once taken) counts against."""
    await limited(limits, "room", ip(request))


async def _live_games(lobby: Lobby | None) -> list[JSONObject]:
    """Every process's live games (the lobby's list): whom a follower sees playing."""
    assert lobby is not None
    return list((await lobby.snapshot())["live"])


async def on_bus(app_ctx: AppContext, event: JSONObject) -> None:
    """Another process's news: a room's (the hub) or the lobby's."""
    if event.get("kind") == "lobby":
        assert app_ctx.lobby is not None
        await app_ctx.lobby.on_event(event)
    elif event.get("kind") == "presence":  # every room's seats there, renewed
        await shared.on_presence(app_ctx.hub, event)
    else:
        await app_ctx.hub.on_event(event)


async def background(app: Starlette, app_ctx: AppContext, tasks: list[asyncio.Task[object]]
                     ) -> None:
    """What can wait until the socket listens (``run`` sets ``app.state.listening``
    once it does; without it, e.g. under a test client, at once): the bot processes
    are started and warmed, unfinished games are loaded and the retention sweep
    begins — none of it delays the first answer (docs/web.md, "Start-up")."""
    from . import retention

    listening = getattr(app.state, "listening", None)
    if listening is not None:
        await listening.wait()
        # a moment for the first requests: they load what they need themselves
        await asyncio.sleep(BACKGROUND_AFTER)
    if app_ctx.jobs is None:
        app_ctx.pool.warm(available())
    hub = app_ctx.hub
    loop = asyncio.get_running_loop()
    # a request for a room not loaded yet loads that room first (lazily)
    resuming = loop.create_task(hub.resume_all())
    tasks.append(resuming)
    resuming.add_done_callback(functools.partial(_resumed, time.monotonic()))
    tasks.append(loop.create_task(app_ctx.prog.warm()))
    tasks.append(loop.create_task(app_ctx.prog.watch_exams()))
    tasks.append(loop.create_task(retention.run(
        hub, retention.ABANDON_AFTER if app_ctx.abandon_after is None else app_ctx.abandon_after,
        retention.SWEEP_EVERY if app_ctx.sweep_every is None else app_ctx.sweep_every)))
    if app_ctx.bus is not None and app_ctx.lobby is not None:
        app_ctx.lobby.start()  # this process's live games, for the other processes' lobby


def _resumed(started: float, task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is None and task.result():
        log.warning("resumed %d unfinished game(s) in %.1f s", task.result(),
                    time.monotonic() - started)


async def keep_alive(fn: Callable[[], object]) -> None:
    """The per-address WebSocket counts shared in Redis, kept alive."""
    from .limits import ALIVE_EVERY

    while True:
        await asyncio.to_thread(fn)
        await asyncio.sleep(ALIVE_EVERY)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    app_ctx = app.state.ctx
    assert isinstance(app_ctx, AppContext)
    from .lobby import RedisSeekBoard

    hub = app_ctx.holder["hub"] = Hub(app_ctx.store, app_ctx.pool, get, app_ctx.bot_delay,
                                      bus=app_ctx.bus, jobs=app_ctx.jobs,
                                      claim_after=app_ctx.policy.claim_after)
    hub.on_finish = app_ctx.prog.on_finish
    lobby = app_ctx.lobby
    assert lobby is not None
    for game_id in available():  # a game that fails to import stops the start, loudly
        get(game_id)
    await hub.bus.start(functools.partial(on_bus, app_ctx), hub.resync_all)
    tasks: list[asyncio.Task[object]] = []
    loop = asyncio.get_running_loop()
    tasks.append(loop.create_task(background(app, app_ctx, tasks)))
    tasks.append(loop.create_task(shared.refresh(hub)))
    tasks.append(loop.create_task(app.state.tournaments.driver()))
    if app_ctx.bus is not None:  # Redis away: rooms read from the database instead (docs/web.md)
        tasks.append(loop.create_task(hub.poll_while_away()))
    if app_ctx.jobs is not None:  # a bot turn whose job was lost is queued again (docs/web.md)
        from .jobs import SWEEP_SLACK

        tasks.append(loop.create_task(hub.sweep_bots(app_ctx.bot_time_limit + SWEEP_SLACK)))
    alive = getattr(app_ctx.limits.store, "keep_alive", None)
    if alive is not None:  # the per-address WebSocket counts shared in Redis
        tasks.append(loop.create_task(keep_alive(alive)))
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        if lobby.task is not None:
            lobby.task.cancel()
        if isinstance(lobby.board, RedisSeekBoard):
            await lobby.board.close()
        await hub.bus.close()
        if app_ctx.jobs is not None:
            await app_ctx.jobs.close()
        for room in hub.rooms.values():
            for bot_task in room.bot_tasks.values():
                bot_task.cancel()
            if room.flag_task:
                room.flag_task.cancel()
        app_ctx.pool.shutdown(wait=True)  # gone before Python's exit clean-up (bots.py)
        app_ctx.store.close()


# ---- the room WebSocket -----------------------------------------------------------------------
async def ws(websocket: WebSocket) -> None:
    limits = ctx(websocket).limits
    ip = str(websocket.scope.get("state", {}).get("client_ip") or "?")
    if not await limits.ws_admit(ip):
        await websocket.close(4429, "too many connections from this address")
        return
    try:
        await ws_session(websocket)
    finally:
        await limits.ws_release(ip)

async def ws_session(websocket: WebSocket) -> None:
    app_ctx = ctx(websocket)
    hub = app_ctx.hub
    await websocket.accept()
    room_id = websocket.path_params["room"]
    try:
        room = await app_ctx.open_room(room_id)
    except ClientError as exc:
        await websocket.send_json({"type": "error", "code": exc.code, "message": exc.message})
        await websocket.close(4409)
        return
    if room is None:
        await websocket.send_json({"type": "error", "code": "no_room",
                                   "message": "there is no such room"})
        await websocket.close(4404)
        return
    async def send(message: JSONObject) -> None:
        await websocket.send_text(dumps(message))

    if app_ctx.bus is not None:  # many processes: one may have died before publishing
        await hub.catch_up(room)
    conn = Conn(send, send_text=websocket.send_text,
                address=str(websocket.scope.get("state", {}).get("client_ip") or "?"))
    chat.remember(conn, websocket.cookies.get(COOKIE))  # who chats (server.chat)
    room.conns.add(conn)
    fairplay.note_presence(room)
    await hub.broadcast(room)
    shared.publish(hub, room)  # presence, for the other processes (scaled mode)
    budget, refilled = float(BURST), time.monotonic()
    try:
        while True:
            message = await websocket.receive()
            now = time.monotonic()
            budget = min(BURST, budget + (now - refilled) * RATE)
            refilled = now
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = (message.get("bytes") or b"").decode("utf-8", "replace")
            ref = None
            throttled = budget < 1  # every message spends budget, valid or not
            if not throttled:
                budget -= 1
            try:
                if len(raw) > MAX_MESSAGE:
                    raise ClientError("too_large",
                                      f"a message may be at most {MAX_MESSAGE} characters")
                bad = json_text_error(raw, "message")
                if bad is not None:  # before anything reads it (docs/fair-play.md)
                    raise ClientError(bad.code, str(bad), args=bad.args_json)
                try:
                    msg = parse_json(raw)
                except BadJSON as exc:
                    raise ClientError("bad_json", str(exc)) from None
                if not isinstance(msg, dict):
                    raise ClientError("bad_message", "a message must be a JSON object")
                # read the id first, so that even a throttled message is answered by name
                ref = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
                if throttled:
                    raise ClientError("too_fast", f"at most {RATE} messages a second, "
                                      "please; this one was ignored")
                # shielded: a message taken in is carried out whole — a socket closed (or a
                # server stopping) while a resign is half-stored must not leave the room
                # finished in the database and active in memory
                with anyio.CancelScope(shield=True):
                    acked = await dispatch(app_ctx, room, conn, msg, ref)
                if ref is not None and not acked:
                    await websocket.send_text(dumps({"type": "ack", "id": ref}))
            except ClientError as exc:
                error: JSONObject = {"type": "error", "code": exc.code,
                                     "message": exc.message, "id": ref,
                                     **getattr(exc, "params", {})}
                if exc.details:
                    error["args"] = dict(exc.details)
                await websocket.send_text(dumps(error))
    except (WebSocketDisconnect, _CLOSED):  # gone, or gone while its ack was on the way
        pass
    finally:
        room.conns.discard(conn)
        fairplay.note_presence(room)
        # shielded: a server shutting down (or a test client closing) cancels this task,
        # and the table must still be told the seat left — else its claim never counts down
        with anyio.CancelScope(shield=True):
            await hub.broadcast(room)
        shared.publish(hub, room)
        hub.forget_if_idle(room)

async def dispatch(app_ctx: AppContext, room: Room, conn: Conn, msg: JSONObject,
                   ref: int | str | None
                   ) -> bool:
    """Carry out one client message, parsed first into its model (ws_protocol: anything
    else is refused with a code before a handler runs); True when its acknowledgement
    went out already (a move's, in the mover's update: ``Conn.ack_in_update``)."""
    parsed = wsp.parse_room(msg)
    h = app_ctx.hub
    match parsed:
        case wsp.Hello():
            conn.ack_in_update = parsed.ack_in_update
            problems = await h.hello(room, conn, [(c.seat, c.key) for c in parsed.seats])
            fairplay.note_presence(room)
            shared.publish(h, room)
            await h.broadcast(room)
            if problems:
                raise ClientError("bad_key", "the key for seat(s) "
                                  f"{', '.join(map(str, problems))} does not match; they "
                                  "were not given to this connection",
                                  args={"seats": ",".join(map(str, problems))})
        case wsp.Move():
            seat = h.seat_for(room, conn, parsed.seat)
            return await h.play(room, seat, parsed.move, parsed.ply,
                                ack=None if ref is None else (conn, ref))
        case wsp.Resign():
            await h.resign(room, h.seat_for(room, conn, parsed.seat))
        case wsp.Undo():
            await h.request_undo(room, conn, h.seat_for(room, conn, parsed.seat))
        case wsp.UndoReply():
            await h.reply_undo(room, h.seat_for(room, conn, parsed.seat), parsed.accept)
        case wsp.Rematch():
            if not conn.keys:
                raise ClientError("not_your_seat", "spectators cannot offer a rematch")
            await h.offer_rematch(room, conn, parsed.accept)
        case wsp.Next():
            await h.offer_next(room, conn)
        case wsp.Claim():
            await fairplay.claim(h, room, conn, app_ctx.policy)
        case wsp.Ping():
            await conn.send({"type": "pong"})
        case wsp.Sync():  # the client missed an update (a gap in moves_from): all anew
            await h.send_full(room, conn)
        case wsp.HistoryRequest() | wsp.Abort() | wsp.Draw() | wsp.Hint():
            await table_message(app_ctx, room, conn, parsed)
        case wsp.Chat():  # chat with moderation (server.chat, docs/web.md "Chat")
            await chat.send(h, app_ctx.store.engine, room, conn, parsed.channel, parsed.text)
        case wsp.ChatJoin():
            await chat.join(app_ctx.store.engine, room, conn)
    return False


async def table_message(app_ctx: AppContext, room: Room, conn: Conn,
                        msg: wsp.HistoryRequest | wsp.Abort | wsp.Draw | wsp.Hint
                        ) -> None:
    from . import table

    h = app_ctx.hub
    match msg:
        case wsp.HistoryRequest():  # a page of it, within the byte budgets
            await table.send_history(room, conn, msg, app_ctx.limits, conn.address)
        case wsp.Abort():
            await table.abort(h, room, h.seat_for(room, conn, msg.seat))
        case wsp.Hint():
            await table.take_hint(h, room, h.seat_for(room, conn, msg.seat))
        case wsp.Draw():
            await table.offer_draw(h, room, h.seat_for(room, conn, msg.seat), msg.accept)


# ---- errors ---------------------------------------------------------------------------------------
async def client_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ClientError)
    return _error(exc.status, exc.code, exc.message, args=exc.details)

async def asobiba_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AsobibaError)
    args: dict[str, str] | None = None
    if isinstance(exc, TextError):
        args = exc.args_json
    elif isinstance(exc, MoveError) and exc.move is not None:
        args = {"move": exc.move}
    elif isinstance(exc, (OptionError, RecordError)):
        # the specific code and its arguments ({"why": "option.bad_value", "option": …})
        args = {**({"option": exc.option} if isinstance(exc, OptionError) and exc.option
                   is not None else {}), **exc.detail()}
    return _error(exc.status, exc.code, str(exc), args=args)

async def server_error(request: Request, exc: Exception) -> Response:
    """Our fault, said as ours (never blamed on the request); logged with its trace."""
    log.error("server error on %s %s", request.method, request.url.path, exc_info=exc)
    if error_pages.wants_page(request):  # a person's page: said in HTML, in their language
        return error_pages.error_page(request, 500)
    return _error(500, "server_error", "the server failed on this request; it is not "
                  "your input's fault — try again later")

async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return _error(405, "method_not_allowed", f"{request.method} is not allowed here")
    if status == 404 and error_pages.wants_page(request):  # a person's browser: a page
        return error_pages.error_page(request, 404)
    return _error(status, "not_found", f"nothing at {request.url.path}")

