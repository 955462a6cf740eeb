"""The ASGI app: JSON over HTTP for the lobby, records and replays; one WebSocket per
connection for play. Every game comes from the registry; nothing here names a game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import starlette.websockets
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core import AsobibaError, Game, MoveError, OptionError, Record, RecordError
from ..core.jsontypes import JSONDecoded, JSONObject
from ..core.text import TextError, display_name
from ..games import available, get
from ..progression.matches import MatchFormat
from ..search.budget import WorkBudget
from . import api_schema, error_pages, fairplay, shared
from . import ws_protocol as wsp
from .bot_api import bot_routes
from .bots import BotPool
from .clock import ClockError, check_clock
from .db import Store
from .limits import MAX_RECORD_BYTES, MAX_RECORD_PLIES, Limits
from .print_routes import print_routes
from .progression_routes import _utc_today, progression_routes
from .rooms import ClientError, Conn, Hub, Room
from .security import BadJSON, Guard, json_text_error, parse_json
from .wire import dumps

if TYPE_CHECKING:
    from .bus import RedisBus
    from .jobs import RedisJobs

T = TypeVar("T")

log = logging.getLogger("asobiba.server")
# sending to a WebSocket the client has closed (Starlette ≥ 1.0 names it; before, it
# raised WebSocketDisconnect): the connection is over, not a server error
_CLOSED: type[Exception] = getattr(starlette.websockets, "WebSocketDisconnected",
                                     WebSocketDisconnect)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 8_192
MAX_BODY = 64_000
MAX_RECORD = MAX_RECORD_BYTES
MAX_NAME = 40
RATE, BURST = 10, 30  # messages per second per connection, and the burst allowed
BACKGROUND_AFTER = 1.0  # seconds after the socket listens before the background start-up
# seconds of work a replay may take before it is refused (503); ASOBIBA_REPLAY_BUDGET sets it
REPLAY_BUDGET = float(os.environ.get("ASOBIBA_REPLAY_BUDGET", "20"))
REPLAY_CPU = float(os.environ.get("ASOBIBA_REPLAY_CPU", "2"))
"""CPU seconds (the worker thread's) a replay page may spend on views: it then ends early."""
REPLAY_PAGE_BYTES = 512 * 1024
"""A replay answer's steps weigh about this at most (one step more at worst)."""


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None,
           args: dict[str, str] | None = None) -> JSONResponse:
    """The one error shape of the HTTP API: ``{"error": {"code", "message"}}`` (and
    ``"args"`` where a refusal has them, e.g. ``bad_text``'s ``where`` and ``char``)."""
    error: JSONObject = {"code": code, "message": message}
    if args:
        error["args"] = dict(args)
    return JSONResponse({"error": error}, status_code=status, headers=headers)


async def _json_body(request: Request, limit: int = MAX_BODY) -> JSONDecoded:
    body = await request.body()  # the Guard has already refused bodies over the path's limit
    if len(body) > limit:
        raise ClientError("too_large", f"the request is larger than {limit} bytes")
    try:
        return parse_json(body, empty={})
    except BadJSON as exc:
        raise ClientError("bad_json", str(exc)) from None


def _ip(request: Request) -> str:
    return str(request.scope.get("state", {}).get("client_ip") or "?")


async def limited(limits: Limits, rule: str, *key: str) -> None:
    """Refuse (429, ``too_many``) when ``rule`` is over its limit for ``key`` (awaited: with
    Redis the count is asked off the event loop, :meth:`Limits.ahit`)."""
    if not await limits.ahit(rule, *key):
        r = limits.rules[rule]
        raise ClientError("too_many", f"too many requests of this kind ({r.tries} per "
                          f"{r.window:g} s); wait and try again", status=429)


def _flag(data: JSONObject, name: str, default: bool) -> bool:
    """A yes/no field: a JSON boolean, nothing else (``"false"`` is not false)."""
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ClientError("bad_field", f"'{name}' must be true or false (a JSON boolean), "
                          f"not {value!r}")
    return value


async def budgeted(fn: Callable[[], T], budget: float, what: str) -> T:
    """Run blocking ``fn`` in a worker thread; answer 503 if it takes over ``budget``
    seconds (the thread finishes on its own; its answer is dropped)."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn), budget)
    except TimeoutError:
        raise ClientError("busy", f"{what} took over {budget:g} s; the server is busy or the "
                          "input too big — try again later", status=503) from None


def _game(game_id: object) -> Game:
    if not isinstance(game_id, str) or game_id not in available():
        raise ClientError("unknown_game",
                          f"unknown game {game_id!r}; games here: {', '.join(available())}")
    return get(game_id)


def _seat_specs(game: Game, n: int, raw: object) -> list[JSONObject]:
    if not isinstance(raw, list) or len(raw) != n:
        raise ClientError("bad_seats", f"this game with these options has {n} seats; "
                          "give one entry per seat")
    levels = game.level_names()
    out = []
    for i, spec in enumerate(raw):
        if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
            raise ClientError("bad_seats", f"seat {i}: kind must be 'human' or 'bot'")
        name = spec.get("name") or ""
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise ClientError("bad_seats", f"seat {i}: name must be text of at most "
                              f"{MAX_NAME} characters")
        # shown to everyone in the room: no line breaks, control or bidi characters
        name = display_name(name, MAX_NAME)
        level = None
        if spec["kind"] == "bot":
            level = str(spec.get("level") or (levels[0] if levels else ""))
            if level not in levels:
                raise ClientError("bad_level", f"seat {i}: bot level {level!r} does not exist; "
                                  f"levels: {', '.join(levels) or 'none'}")
        out.append({"kind": spec["kind"], "level": level, "name": name})
    return out


def set_games(game: Game, options: JSONObject) -> bool:
    """Whether a game with these options may be played as a reverse match or series: two
    seats taking turns (a set swaps the two players' colours between its games)."""
    return game.num_seats(options) == 2 and not game.simultaneous


def _match_format(game: Game, options: JSONObject, raw: JSONDecoded
                  ) -> MatchFormat | None:
    """``match``: absent / ``"single"``, ``"reverse"``, or ``{"format": "best_of",
    "games": N}``; its shape is checked by the request model (api_schema.CreateRoom), what
    this game allows here."""
    if raw is None:
        return None
    spec: JSONObject = {"format": raw} if isinstance(raw, str) else raw
    kind, games = spec.get("format"), spec.get("games")
    if kind == "single":
        return None
    if not set_games(game, options):
        why = ("has simultaneous turns" if game.simultaneous
               else f"has {game.num_seats(options)} seats with these options")
        raise ClientError("bad_match", f"{game.id} {why}; reverse matches and series are for "
                          "two seats taking turns")
    if kind == "reverse":
        return MatchFormat(1, True)
    return MatchFormat(int(games or 0))


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
    ``security.LOCAL_HOSTS``; docs/fair-play.md, "Transport and browser defences")."""
    from . import retention
    policy = fairplay.Policy(claim_after)
    if limits is None and redis_url:  # one count for every web process (docs/fair-play.md)
        from .limits import RedisStore

        limits = Limits(store=RedisStore(redis_url))
    limits = limits or Limits()
    if db_url is None:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        db_url = f"sqlite:///{Path(data_dir) / 'asobiba.db'}"
    store = Store(db_url)
    pool = BotPool(bot_processes, bot_time_limit)
    bus: RedisBus | None = None
    jobs: RedisJobs | None = None
    if redis_url:
        from .bus import RedisBus
        from .jobs import RedisJobs

        bus, jobs = RedisBus(redis_url), RedisJobs(redis_url)
    holder: dict[str, Hub] = {}

    def hub() -> Hub:
        return holder["hub"]

    progression = progression_routes(store.engine, hub, today=today or _utc_today,
                                     daily_key=daily_key, limits=limits)
    from .lobby import Lobby, RedisSeekBoard, who_from_accounts
    from .tournament_routes import tournament_routes  # docs/tournaments.md
    tournaments = tournament_routes(store.engine, hub, get, WEB_DIR)

    # an open game becomes a room when taken: the room-creation limit counts seeks too;
    # scaled: one board of open games for every web process (Redis)
    lobby = Lobby(hub, get, who_from_accounts(store.engine),
                  limit=lambda request: limited(limits, "room", _ip(request)),
                  board=RedisSeekBoard(redis_url, bus.origin) if redis_url and bus else None)

    async def on_bus(event: JSONObject) -> None:
        """Another process's news: a room's (the hub) or the lobby's."""
        if event.get("kind") == "lobby":
            await lobby.on_event(event)
        elif event.get("kind") == "presence":  # every room's seats there, renewed
            await shared.on_presence(hub(), event)
        else:
            await hub().on_event(event)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        holder["hub"] = Hub(store, pool, get, bot_delay, bus=bus, jobs=jobs)
        holder["hub"].on_finish = progression.on_finish
        for game_id in available():  # a game that fails to import stops the start, loudly
            get(game_id)
        await hub().bus.start(on_bus, hub().resync_all)
        tasks: list[asyncio.Task[object]] = []

        async def background() -> None:
            """What can wait until the socket listens (``run`` sets ``app.state.listening``
            once it does; without it, e.g. under a test client, at once): the bot processes
            are started and warmed, unfinished games are loaded and the retention sweep
            begins — none of it delays the first answer (docs/web.md, "Start-up")."""
            listening = getattr(app.state, "listening", None)
            if listening is not None:
                await listening.wait()
                # a moment for the first requests: they load what they need themselves
                await asyncio.sleep(BACKGROUND_AFTER)
            if jobs is None:
                pool.warm(available())
            # a request for a room not loaded yet loads that room first (lazily)
            resuming = asyncio.get_running_loop().create_task(hub().resume_all())
            tasks.append(resuming)
            started = time.monotonic()

            def resumed(task: asyncio.Task[int]) -> None:
                if not task.cancelled() and task.exception() is None and task.result():
                    log.warning("resumed %d unfinished game(s) in %.1f s", task.result(),
                                time.monotonic() - started)

            resuming.add_done_callback(resumed)
            tasks.append(asyncio.get_running_loop().create_task(progression.warm()))
            tasks.append(asyncio.get_running_loop().create_task(retention.run(
                hub(), retention.ABANDON_AFTER if abandon_after is None else abandon_after,
                retention.SWEEP_EVERY if sweep_every is None else sweep_every)))
            if bus is not None:  # this process's live games, for the other processes' lobby
                lobby.start()

        tasks.append(asyncio.get_running_loop().create_task(background()))
        tasks.append(asyncio.get_running_loop().create_task(shared.refresh(hub())))
        tasks.append(asyncio.get_running_loop().create_task(tournaments.driver()))
        if bus is not None:  # Redis away: rooms read from the database instead (docs/web.md)
            tasks.append(asyncio.get_running_loop().create_task(hub().poll_while_away()))
        if jobs is not None:  # a bot turn whose job was lost is queued again (docs/web.md)
            from .jobs import SWEEP_SLACK

            tasks.append(asyncio.get_running_loop().create_task(
                hub().sweep_bots(bot_time_limit + SWEEP_SLACK)))
        keep_alive = getattr(limits.store, "keep_alive", None)
        if keep_alive is not None:  # the per-address WebSocket counts shared in Redis

            async def alive() -> None:
                from .limits import ALIVE_EVERY

                while True:
                    await asyncio.to_thread(keep_alive)
                    await asyncio.sleep(ALIVE_EVERY)

            tasks.append(asyncio.get_running_loop().create_task(alive()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if lobby.task is not None:
                lobby.task.cancel()
            if isinstance(lobby.board, RedisSeekBoard):
                await lobby.board.close()
            await hub().bus.close()
            if jobs is not None:
                await jobs.close()
            for room in hub().rooms.values():
                for task in room.bot_tasks.values():
                    task.cancel()
                if room.flag_task:
                    room.flag_task.cancel()
            pool.shutdown(wait=True)  # gone before Python's exit clean-up (bots.py)
            store.close()

    async def games(request: Request) -> Response:
        return JSONResponse({"games": [get(g).describe() for g in available()]})

    async def create_room(request: Request) -> Response:
        await limited(limits, "room", _ip(request))
        data = await _json_body(request)
        if not isinstance(data, dict):
            raise ClientError("bad_json", "the request must be a JSON object")
        game = _game(data.get("game"))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ClientError("bad_options", "'options' must be an object")
        try:
            options = game.validate_options(options)
        except OptionError as exc:
            raise ClientError("bad_options", str(exc)) from None
        seats = _seat_specs(game, game.num_seats(options), data.get("seats"))
        try:
            clock = check_clock(data.get("clock"))
        except ClockError as exc:
            raise ClientError("bad_clock", str(exc), args=exc.details) from None
        if clock and game.simultaneous:
            raise ClientError("bad_clock", f"{game.id} has simultaneous turns, so it has no "
                              "clock")
        match = _match_format(game, options, data.get("match"))
        casual = _flag(data, "casual", True)
        fairplay.check_rated_timing(game, seats, casual, clock)
        room, keys = await hub().create(game, options, seats, casual=casual,
                                        hotseat=_flag(data, "hotseat", False), clock=clock,
                                        match=match)
        return JSONResponse({"room": room.id, "url": f"/r/{room.id}",
                             "keys": [{"seat": s, "key": k} for s, k in sorted(keys.items())]},
                            status_code=201)

    async def seat_count(request: Request) -> Response:
        """How many seats a game has with these options (the lobby's seat list)."""
        data = await _json_body(request)
        if not isinstance(data, dict):
            raise ClientError("bad_json", "the request must be a JSON object")
        game = _game(data.get("game"))
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ClientError("bad_options", "'options' must be an object")
        try:
            options = game.validate_options(options)
        except OptionError as exc:
            raise ClientError("bad_options", str(exc)) from None
        return JSONResponse({"seats": game.num_seats(options), "options": options,
                             "sets": set_games(game, options)})

    async def room_info(request: Request) -> Response:
        room = await hub().get(request.path_params["room"])
        if room is None:
            return _error(404, "no_room", "there is no such room")
        return JSONResponse(room.public())

    async def room_record(request: Request) -> Response:
        room_id = request.path_params["room"]
        room = await hub().get(room_id)
        if room is None:
            return _error(404, "no_room", "there is no such room")
        if room.status != "finished":
            return _error(409, "not_over", "the record is available once the game is over "
                          "(it holds the seed, which would reveal hidden information)")
        embargo = await progression.record_embargo(room_id)
        if embargo:
            return _error(409, "not_yet", embargo)
        text = await asyncio.to_thread(hub().store.record, room_id)
        fmt = request.query_params.get("format", "json")
        if fmt != "json":
            # the game's own notations (asobiba.formats: text for every game, Reversi's
            # transcript and GGF, …), the same code as `asobiba export`
            from ..formats import export_record, formats_for

            if fmt not in formats_for(room.game.id):
                return _error(400, "bad_format", f"{room.game.id} has no record format "
                              f"{fmt!r}; formats: {', '.join(formats_for(room.game.id))}")
            out = await asyncio.to_thread(export_record, Record.loads(text or ""), fmt)
            suffix = formats_for(room.game.id)[fmt].suffix.lstrip(".") or "txt"
            return Response(out, media_type="text/plain; charset=utf-8", headers={
                "content-disposition":
                    f'attachment; filename="asobiba-{room.game.id}-{room_id}.{suffix}"'})
        return Response(text or "", media_type="application/json", headers={
            "content-disposition": f'attachment; filename="asobiba-{room.game.id}-{room_id}.json"'})

    async def record_formats(request: Request) -> Response:
        """A game's record formats (``asobiba export --list``) for the game page's links."""
        from ..formats import formats_for

        game = _game(request.path_params["game"])
        return JSONResponse({"formats": [
            {"name": f.name, "description": f.description, "suffix": f.suffix}
            for f in formats_for(game.id).values()]})

    async def replay(request: Request) -> Response:
        """Replay a record (uploaded or stored) into every seat's view after each move, a
        page at a time (``?start=``; at most REPLAY_PAGE_BYTES of steps). The work runs in a
        worker thread within a CPU budget (REPLAY_CPU) and a time budget, so a big record
        never holds up the event loop (moves and WebSockets of every room)."""
        start = int(request.query_params.get("start") or 0)  # checked: api_schema
        # a record's first page, or a next one (a long record is read in several)
        await limited(limits, "replay" if start == 0 else "replay_page", _ip(request))
        body = await request.body()
        if len(body) > MAX_RECORD:
            raise ClientError("too_large", f"a record may be at most {MAX_RECORD} bytes")
        try:
            parse_json(body)  # depth and number limits before the record parser sees it
        except BadJSON as exc:
            raise ClientError("bad_record", str(exc)) from None

        def work() -> str:
            budget = WorkBudget(REPLAY_CPU)
            try:
                record = Record.loads(body)
            except (RecordError, ValueError, KeyError, TypeError) as exc:
                raise ClientError("bad_record", str(exc)[:500]) from None
            if len(record.moves) > MAX_RECORD_PLIES:
                raise ClientError("too_long", f"a record may have at most {MAX_RECORD_PLIES} "
                                  f"moves, not {len(record.moves)}", status=413)
            if start > len(record.moves):
                raise ClientError("bad_range", f"'start' must be a step from 0 to "
                                  f"{len(record.moves)}, not {start}")
            try:
                states = record.replay(lambda gid: _game(gid))
            except ClientError as exc:
                raise ClientError("bad_record", exc.message) from None
            except (RecordError, ValueError, KeyError, TypeError) as exc:
                raise ClientError("bad_record", str(exc)[:500]) from None
            n = states[0].num_seats
            steps: list[str] = []  # each step's JSON text, made once
            size, end = 0, start
            while end < len(states):
                if end > start and (size >= REPLAY_PAGE_BYTES or budget.exhausted()):
                    break  # the page ends here; ``next`` says where the following one starts
                state, move = states[end], record.moves[end - 1] if end else None
                step: JSONObject = {"move": move.to_json() if move else None,
                                    "views": [state.view(None)] +
                                             [state.view(s) for s in range(n)]}
                steps.append(dumps(step))
                size += len(steps[-1])
                end += 1
            head = dumps({"record": record.to_json(), "game": get(record.game).describe(),
                          "plies": len(record.moves), "start": start, "end": end,
                          "next": end if end < len(states) else None})
            return f'{head[:-1]},"steps":[{",".join(steps)}]}}'
        text = await budgeted(work, REPLAY_BUDGET, "replaying this record")
        return Response(text, media_type="application/json")

    document: JSONObject = {}

    async def ws_schema(request: Request) -> Response:
        """The WebSocket protocol (ws_protocol): JSON Schema of every message each way."""
        return JSONResponse(wsp.schema())

    async def openapi(request: Request) -> Response:
        """The OpenAPI document of every HTTP route (built once from the route table)."""
        if not document:
            document.update(api_schema.openapi(list(request.app.routes), list(available())))
        return JSONResponse(document)

    def page_route(path: str, filename: str) -> Route:
        async def endpoint(request: Request) -> Response:
            return FileResponse(WEB_DIR / filename, headers={"cache-control": "no-cache"})
        return Route(path, endpoint)

    async def ws(websocket: WebSocket) -> None:
        ip = str(websocket.scope.get("state", {}).get("client_ip") or "?")
        if not await limits.ws_admit(ip):
            await websocket.close(4429, "too many connections from this address")
            return
        try:
            await ws_session(websocket)
        finally:
            await limits.ws_release(ip)

    async def ws_session(websocket: WebSocket) -> None:
        await websocket.accept()
        room_id = websocket.path_params["room"]
        try:
            room = await hub().get(room_id)
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

        conn = Conn(send, send_text=websocket.send_text,
                    address=str(websocket.scope.get("state", {}).get("client_ip") or "?"))
        room.conns.add(conn)
        fairplay.note_presence(room)
        await hub().broadcast(room)
        shared.publish(hub(), room)  # presence, for the other processes (scaled mode)
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
                    acked = await dispatch(room, conn, msg, ref)
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
            await hub().broadcast(room)
            shared.publish(hub(), room)
            hub().forget_if_idle(room)

    async def dispatch(room: Room, conn: Conn, msg: JSONObject, ref: int | str | None
                       ) -> bool:
        """Carry out one client message, parsed first into its model (ws_protocol: anything
        else is refused with a code before a handler runs); True when its acknowledgement
        went out already (a move's, in the mover's update: ``Conn.ack_in_update``)."""
        parsed = wsp.parse_room(msg)
        h = hub()
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
                await h.offer_rematch(room, conn)
            case wsp.Next():
                await h.offer_next(room, conn)
            case wsp.Claim():
                await fairplay.claim(h, room, conn, policy)
            case wsp.Ping():
                await conn.send({"type": "pong"})
            case wsp.Sync():  # the client missed an update (a gap in moves_from): all anew
                await h.send_full(room, conn)
            case wsp.HistoryRequest() | wsp.Abort() | wsp.Draw() | wsp.Hint():
                await table_message(h, room, conn, parsed)
        return False

    async def table_message(h: Hub, room: Room, conn: Conn,
                            msg: wsp.HistoryRequest | wsp.Abort | wsp.Draw | wsp.Hint
                            ) -> None:
        from . import table

        match msg:
            case wsp.HistoryRequest():  # a page of it, within the byte budgets
                await table.send_history(room, conn, msg, limits, conn.address)
            case wsp.Abort():
                await table.abort(h, room, h.seat_for(room, conn, msg.seat))
            case wsp.Hint():
                await table.take_hint(h, room, h.seat_for(room, conn, msg.seat))
            case wsp.Draw():
                await table.offer_draw(h, room, h.seat_for(room, conn, msg.seat), msg.accept)

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
        elif isinstance(exc, OptionError) and exc.option is not None:
            args = {"option": exc.option}
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

    routes = [
        page_route("/", "index.html"),
        page_route("/r/{room}", "room.html"),
        page_route("/replay", "replay.html"),
        page_route("/settings", "settings.html"),
        Route("/api/openapi.json", openapi),
        Route("/api/ws-schema.json", ws_schema),
        Route("/api/games", games),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/seats", seat_count, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/record", room_record),
        Route("/api/formats/{game}", record_formats),
        Route("/api/replay", replay, methods=["POST"]),
        *lobby.routes(),  # before /ws/{room}: "/ws/lobby" is not a room
        WebSocketRoute("/ws/{room}", ws),
        *progression.routes,
        *bot_routes(store.engine, hub, limits),  # the Bot API (docs/bot-api.md)
        *print_routes(),
        *tournaments.routes,
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
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
    app.state.store = store
    app.state.pool = pool
    app.state.holder = holder
    app.state.limits = limits
    return app
