"""The progression layer over HTTP: tutorials, accounts (session cookie), player pages,
leaderboards, daily challenges and the ladder. Every call goes to
:class:`asobiba.progression.Progression` on the rooms' own database engine; argon2 and other
blocking work runs in the thread pool so the event loop keeps serving moves."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple, cast

import anyio
import anyio.to_thread
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine, RowMapping
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import Outcome, Record, RecordError
from ..core.jsontypes import JSONObject
from ..games import available
from ..games import get as get_game
from ..progression import Progression
from ..progression.accounts import password_weakness
from ..progression.errors import AuthError, ProgressionError
from ..progression.ladder_data import ladder_options
from ..progression.matches import Match, format_vs_cpu, replays_the_deal, tiebreak_for
from ..progression.names import normal as normal_name
from ..tables import (
    DAILY_ROOMS,
    LADDER_SETS,
    ROOM_CONTEXT,
    ROOM_RATINGS,
    SEAT_PLAYERS,
    RoomRow,
    now,
)
from .account_settings import settings_routes
from .api_schema import (
    Claim,
    Credentials,
    DailyAnswers,
    FeedbackRequest,
    LadderNext,
    LadderPlay,
    TutorialMove,
    parsed,
)
from .history_routes import history_routes
from .limits import MAX_RECORD_BYTES, MAX_RECORD_PLIES, Limits
from .rooms import ClientError
from .routes.pages import page_route
from .security import BadJSON, parse_json

if TYPE_CHECKING:
    from .rooms import Hub, Room

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

log = logging.getLogger("asobiba.server.progression")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
COOKIE = "asobiba_session"
COOKIE_AGE = 30 * 24 * 3600  # the progression layer's session lifetime
MAX_BODY = 16_000
# seconds a review may take (queueing included) before 503 ``busy``; ASOBIBA_REVIEW_BUDGET
REVIEW_BUDGET = float(os.environ.get("ASOBIBA_REVIEW_BUDGET", "30"))
REVIEW_WALL = 4.0
"""Seconds from a review request's arrival to its answer: the review deepens move by move
until then and answers with the depth each verdict reached (REVIEW_BUDGET is the backstop
for a single search that overruns)."""
REVIEW_CPU = float(os.environ.get("ASOBIBA_REVIEW_CPU", "4"))
"""CPU seconds (the review thread's ``time.thread_time``) one review may spend: it then
answers with the verdicts it has, ``"partial": true`` and the plies analysed. Cut inside a
move's search too (``asobiba.search.budget.checkpoint``); ASOBIBA_REVIEW_CPU sets it."""
WARM_AFTER = 1.0  # seconds after start-up before the review's imports are warmed up
EXAM_GRACE = float(os.environ.get("ASOBIBA_EXAM_GRACE", "60"))
"""Seconds an exam game may run with no page of the player's seat connected (a reload, a
dropped network) before the exam is failed as ``abandoned`` and the player's seat resigns
its game (docs/progression.md, "Exams and reloads")."""
EXAM_CHECK = float(os.environ.get("ASOBIBA_EXAM_CHECK", "2"))
"""Seconds between two looks at the running exam games."""


def _error(status: int, code: str, message: str,
           args: dict[str, str] | None = None) -> JSONResponse:
    """The one error shape of the HTTP API: ``{"error": {"code", "message"}}`` (and
    ``"args"`` where the refusal has them: a record's specific ``why``)."""
    body: JSONObject = {"code": code, "message": message}
    if args:
        body["args"] = dict(args)
    return JSONResponse({"error": body}, status_code=status)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str,
                 args: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.response = _error(status, code, message, args)


def _game_id(request: Request) -> str:
    game = request.path_params["game"]
    if game not in available():
        raise _Refused(404, "unknown_game",
                       f"unknown game {game!r}; games here: {', '.join(available())}")
    return str(game)


def _handled(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except _Refused as exc:
            return exc.response
        except ProgressionError as exc:  # each class states its code and status
            return _error(exc.status, exc.code, str(exc))
    return endpoint


@dataclasses.dataclass
class ProgressionWeb:
    routes: list[Route]
    on_finish: Callable[[Room], None]
    """For ``Hub.on_finish``: record (and rate) a finished room in the background."""
    record_embargo: Callable[[str], Awaitable[str | None]]
    """Why a finished room's record (which holds its seed) may not be given out yet."""
    warm: Callable[[], Coroutine[object, object, None]]
    """Run in the background after start-up: warms the review up (imports, evaluators)."""
    sweep_exams: Callable[[float], Awaitable[list[str]]]
    """Fail every running exam whose game's page has been gone for EXAM_GRACE seconds at
    the given wall time (``time.time``); the rooms ended. Run by :attr:`watch_exams`."""
    watch_exams: Callable[[], Coroutine[object, object, None]]
    """Run in the background: :attr:`sweep_exams` every EXAM_CHECK seconds."""


def _outcome(room: Room) -> Outcome:
    """The room's result as an Outcome (a resignation or fallen flag has no natural one)."""
    r = cast("JSONObject", room.result)  # called for finished rooms only: never None
    return Outcome(tuple(r["scores"]), tuple(r["ranks"]), str(r.get("reason", "")))


def _utc_today() -> date:
    return now().date()  # daily challenges change at midnight UTC


def progression_routes(engine: Engine, hub: Callable[[], Hub],
                       prog: Progression | None = None,
                       today: Callable[[], date] = _utc_today,
                       daily_key: bytes | None = None,
                       limits: Limits | None = None) -> ProgressionWeb:
    """Routes to mount in the app and the hook for finished rooms; ``hub`` gives the rooms'
    Hub; ``prog`` lets tests pass a cheap password hasher; ``today`` is the server's date
    (tests move it); ``daily_key`` replaces the database's daily secret."""
    prog = prog or Progression(engine, daily_key=daily_key)
    # the web's tables (asobiba.tables): made by the migrations already when the engine
    # is the store's; created here for an engine of its own (tests)
    SEAT_PLAYERS.metadata.create_all(engine, tables=[SEAT_PLAYERS, ROOM_RATINGS, ROOM_CONTEXT,
                                                     LADDER_SETS, DAILY_ROOMS])
    limits = limits or Limits()

    async def limited(request: Request, rule: str, *key: str) -> None:
        ip = str(request.scope.get("state", {}).get("client_ip") or "?")
        if not await limits.ahit(rule, ip, *key):  # Redis: asked off the event loop
            r = limits.rules[rule]
            raise _Refused(429, "too_many", f"too many requests of this kind ({r.tries} per "
                           f"{r.window:g} s from your address); wait and try again")
    pending: set[asyncio.Task[None]] = set()
    # move feedback and reviews run engine searches in this process's threads: one at a time,
    # so however many players ask at once the event loop keeps its share of the interpreter
    # (a pile of CPU-bound threads slowed moves and WebSocket answers for every room)
    engine_work = anyio.CapacityLimiter(1)

    async def in_engine_thread(fn: Callable[[*Ts], T], *args: *Ts) -> T:
        # abandon_on_cancel: a time budget (fail_after) answers at once; the thread then
        # finishes on its own and its result is dropped
        return await anyio.to_thread.run_sync(functools.partial(fn, *args),
                                              limiter=engine_work, abandon_on_cancel=True)

    def set_cookie(response: Response, request: Request, token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")

    async def current(request: Request) -> JSONObject | None:
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        try:
            return await run_in_threadpool(prog.whoami, token)
        except AuthError:
            return None

    async def need_player(request: Request) -> JSONObject:
        me = await current(request)
        if me is None:
            raise _Refused(401, "not_signed_in", "sign in (or play as a guest) first")
        return me

    def public(player: JSONObject) -> JSONObject:
        return {k: player.get(k) for k in ("id", "name", "kind")}

    # ---- tutorials ---------------------------------------------------------------------------
    async def tutorial(request: Request) -> Response:
        game = _game_id(request)
        try:
            data = await run_in_threadpool(prog.tutorial, game)
        except KeyError:
            raise _Refused(404, "no_tutorial", f"{game} has no tutorial yet") from None
        return JSONResponse(data)

    async def tutorial_attempt(request: Request) -> Response:
        game = _game_id(request)
        move = (await parsed(request, TutorialMove, MAX_BODY)).move
        step = request.path_params["step"]
        try:
            data = await run_in_threadpool(prog.tutorial_attempt, game, step, move)
        except KeyError:
            raise _Refused(404, "no_step", f"the {game} tutorial has no step {step!r}") from None
        return JSONResponse(data)

    # ---- accounts ----------------------------------------------------------------------------
    async def me(request: Request) -> Response:
        player = await current(request)
        return JSONResponse({"player": public(player) if player else None})

    async def register(request: Request) -> Response:
        creds = await parsed(request, Credentials, MAX_BODY)
        name, password = creds.name, creds.password
        # a weak password is refused before the limit counts (no argon2 spent on it), so a
        # person trying a few passwords is not locked out
        weak = await run_in_threadpool(password_weakness, password, name)
        if weak:
            raise _Refused(400, "bad_account", weak)
        await limited(request, "register")
        token = request.cookies.get(COOKIE) or ""
        guest = await current(request)
        if guest and guest.get("kind") == "guest":
            # a guest who registers keeps their history, ratings and ladder — under a new
            # session: the guest's token (which someone may have planted) stops working
            player, token = await run_in_threadpool(prog.claim_guest, token, name, password)
        else:
            player, token = await run_in_threadpool(prog.register, name, password)
        response = JSONResponse({"player": public(player)}, status_code=201)
        set_cookie(response, request, token)
        return response

    async def login(request: Request) -> Response:
        creds = await parsed(request, Credentials, MAX_BODY)
        name, password = creds.name, creds.password
        # per (address, name) — someone elsewhere cannot lock the owner out — and per
        # address over all names
        await limited(request, "login_ip")
        # the name as it is looked up (NFKC): "ｖｉｃｔｉｍ" is "victim"'s count, not a new one
        await limited(request, "login", normal_name(name).casefold())
        player, token = await run_in_threadpool(prog.login, name, password)
        old = request.cookies.get(COOKIE)
        if old:  # a new session id at login: whatever session the browser had ends
            await run_in_threadpool(prog.logout, old)
        response = JSONResponse({"player": public(player)})
        set_cookie(response, request, token)
        return response

    async def guest(request: Request) -> Response:
        await limited(request, "guest")
        player, token = await run_in_threadpool(prog.guest)
        response = JSONResponse({"player": public(player)}, status_code=201)
        set_cookie(response, request, token)
        return response

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        if token:
            try:
                await run_in_threadpool(prog.logout, token)
            except AuthError:
                pass
        response = JSONResponse({"player": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    # ---- rooms: who holds which seat, and recording finished games ---------------------------
    async def claim_seats(request: Request) -> Response:
        """A signed-in player proves seats of a room with their keys; the first claim of a
        seat stands (a later one by someone else is refused)."""
        player = await need_player(request)
        room = await hub().get(request.path_params["room"])
        if room is None:
            raise _Refused(404, "no_room", "there is no such room")
        guest_in_rated = player.get("kind") == "guest" and not room.data.casual
        claims = (await parsed(request, Claim, MAX_BODY)).seats
        proven = [c.seat for c in claims
                  if c.seat < len(room.seats) and room.check_key(c.seat, c.key)]
        pid = int(player["id"])

        def store() -> list[int]:
            with engine.begin() as conn:
                held = dict(conn.execute(
                    select(SEAT_PLAYERS.c.seat, SEAT_PLAYERS.c.player_id)
                    .where(SEAT_PLAYERS.c.room_id == room.id)).all())
                if guest_in_rated and any(seat not in held for seat in proven):
                    # a ladder or daily room (its seat given to the guest when it was
                    # opened) is fine; taking a seat of a rated game is not
                    raise _Refused(403, "guest_casual", "guest accounts play casual games "
                                   "only; register (your history is kept) to play rated "
                                   "games")
                for seat in proven:
                    if seat not in held:
                        conn.execute(insert(SEAT_PLAYERS).values(
                            room_id=room.id, seat=seat, player_id=pid))
                        held[seat] = pid
            return sorted(s for s, p in held.items() if p == pid)
        return JSONResponse({"seats": await run_in_threadpool(store)})

    async def room_rating(request: Request) -> Response:
        room_id = request.path_params["room"]

        def load() -> str | None:
            with engine.connect() as conn:
                return conn.execute(select(ROOM_RATINGS.c.result)
                                    .where(ROOM_RATINGS.c.room_id == room_id)).scalar()
        def claimed() -> set[int]:
            with engine.connect() as conn:
                return set(conn.execute(select(SEAT_PLAYERS.c.seat)
                                        .where(SEAT_PLAYERS.c.room_id == room_id)).scalars())
        raw = await run_in_threadpool(load)
        ctx = await run_in_threadpool(load_context, room_id)
        room = await hub().get(room_id)
        # recorded once it ends only if every person's seat is held by an account
        held = await run_in_threadpool(claimed)
        expected = room is not None and all(s.seat in held
                                            for s in room.seats if s.kind != "bot")
        return JSONResponse({"recorded": raw is not None, "expected": expected,
                             "result": json.loads(raw) if raw else None,
                             "context": {k: ctx[k] for k in ("kind", "game", "level", "tier")}
                             if ctx else None})

    def record_room(room: Room) -> None:
        """Record a finished room when every person's seat is claimed by an account."""
        with engine.connect() as conn:
            held = dict(conn.execute(
                select(SEAT_PLAYERS.c.seat, SEAT_PLAYERS.c.player_id)
                .where(SEAT_PLAYERS.c.room_id == room.id)).all())
        players = []
        for s in room.seats:
            if s.kind == "bot":
                players.append(prog.bot_id(room.game.id, str(s.level)))
            elif s.seat in held:
                players.append(held[s.seat])
            else:
                return  # someone played without an account: nothing to rate
        record = room.record({"result": room.result} if room.state.outcome is None else None)
        outcome = record.result
        if outcome is None:
            outcome = _outcome(room)
            record = dataclasses.replace(record, result=outcome)
        casual = bool(room.data.casual)
        ctx = load_context(room.id)
        is_daily = ctx is not None and ctx["kind"] == "daily"
        # a daily challenge starts from a set position: its result clears (or not) the day
        # and is kept in the history, but it is not a rated game
        from .bot_api import bot_accounts  # a BOT account's games are never rated

        res = prog.record_game(players, record, rated=not casual and not is_daily
                               and not bot_accounts(engine, players),
                               context=ctx["kind"] if ctx else "casual" if casual else "rated")
        if ctx and is_daily:
            res["daily"] = report_daily(ctx, room, outcome)
        elif ctx:
            res["ladder"] = report_ladder(ctx, room, outcome)
        with engine.begin() as conn:
            conn.execute(insert(ROOM_RATINGS).values(room_id=room.id, result=json.dumps(res)))

    def load_context(room_id: str) -> JSONObject | None:
        with engine.connect() as conn:
            row = conn.execute(select(ROOM_CONTEXT).where(ROOM_CONTEXT.c.room_id == room_id)
                               ).mappings().first()
        return dict(row) if row else None

    def report_daily(ctx: JSONObject, room: Room, outcome: Outcome) -> list[JSONObject]:
        """A daily-challenge room: the outcome goes to that day's calendar."""
        with engine.connect() as conn:
            day = conn.execute(select(DAILY_ROOMS.c.day)
                               .where(DAILY_ROOMS.c.room_id == room.id)).scalar()
        pid, game = int(ctx["player_id"]), str(ctx["game"])
        # the day counts once: the first daily room the player opened that day scores
        first = daily_rooms(pid, game, str(day))[:1] == [room.id]
        try:
            return prog.daily_result(pid, game, date.fromisoformat(str(day)), outcome, today(),
                                     scoring=first)
        except ProgressionError as exc:  # e.g. finished after midnight: another day now
            return [{"type": "not_counted", "reason": str(exc)}]

    def daily_rooms(player_id: int, game: str, day: str) -> list[str]:
        """The daily rooms ``player_id`` opened for ``game``'s challenge of ``day``, first
        opened first (creation time, then id): the first is the day's scoring attempt."""
        with engine.connect() as conn:
            return list(conn.execute(
                select(DAILY_ROOMS.c.room_id)
                .join(ROOM_CONTEXT, ROOM_CONTEXT.c.room_id == DAILY_ROOMS.c.room_id)
                .join(RoomRow, RoomRow.id == DAILY_ROOMS.c.room_id)
                .where(ROOM_CONTEXT.c.player_id == player_id, ROOM_CONTEXT.c.game == game,
                       ROOM_CONTEXT.c.kind == "daily", DAILY_ROOMS.c.day == day)
                .order_by(RoomRow.created, RoomRow.id)).scalars())

    def daily_used(player_id: int, game: str, day: date) -> bool:
        """Whether the player's attempt that counts for ``day`` is taken (a daily room
        opened, or answers given): every later one is practice."""
        return bool(daily_rooms(player_id, game, day.isoformat())
                    or prog.daily_attempts(player_id, game, day))

    def report_ladder(ctx: JSONObject, room: Room, outcome: Outcome) -> list[JSONObject]:
        """A ladder game counts for the player's ladder; an exam game goes to the exam."""
        pid, game = int(ctx["player_id"]), str(ctx["game"])
        try:
            if ctx["kind"] == "exam":
                hook = tiebreak_for(room.game)
                tb = hook(room.state.view(None)) if hook else None
                return prog.exam_game(pid, game, outcome, tb)
            with engine.connect() as conn:
                before = conn.execute(select(LADDER_SETS.c.before)
                                      .where(LADDER_SETS.c.room_id == room.id)).scalar()
            if before is not None:
                return report_set_game(ctx, room, outcome, Match.from_json(json.loads(before)))
            seat = int(ctx["seat"])
            mine, best = outcome.ranks[seat], min(outcome.ranks)
            alone = sum(1 for r in outcome.ranks if r == best) == 1
            won = True if mine == best and alone else None if mine == best else False
            return prog.ladder_result(pid, game, str(ctx["level"]), won, ctx["tier"])
        except ProgressionError as exc:  # e.g. the exam was left before the game ended
            return [{"type": "not_counted", "reason": str(exc)}]

    def report_set_game(ctx: JSONObject, room: Room, outcome: Outcome,
                        match: Match) -> list[JSONObject]:
        """A game of a reverse-match set: the set counts once, when it is decided."""
        hook = tiebreak_for(room.game)
        match = match.add(outcome, hook(room.state.view(None)) if hook else None)
        with engine.begin() as conn:
            conn.execute(LADDER_SETS.update().where(LADDER_SETS.c.room_id == room.id)
                         .values(after=json.dumps(match.to_json())))
        if not match.is_over:
            return [{"type": "set_continues", "wins": list(match.wins())}]
        return prog.ladder_match(int(ctx["player_id"]), str(ctx["game"]), str(ctx["level"]),
                                 match.to_json(), ctx["tier"])

    async def open_room(game_id: str, player: JSONObject, kind: str, level: str,
                        seat: int, tier: str | None, match: Match | None,
                        seed: int | None = None, options: JSONObject | None = None,
                        opening: list[tuple[int, str]] | None = None,
                        day: date | None = None) -> Response:
        """A room against the CPU for the ladder or a daily challenge, the player's seat
        claimed. ``seed`` fixes the deal (both games of a set; the day's challenge)."""
        game = get_game(game_id)
        if options is None:
            options = game.validate_options(dict(ladder_options(game)))
        seats: list[JSONObject] = [{"kind": "bot", "level": level, "name": ""}
                                       for _ in range(game.num_seats(options))]
        seats[seat] = {"kind": "human", "level": None, "name": str(player["name"])}
        try:
            room, keys = await hub().create(game, options, seats, casual=False, seed=seed,
                                            opening=opening)
        except ClientError as exc:
            raise _Refused(400, exc.code, exc.message) from None
        pid = int(player["id"])

        def store() -> None:
            with engine.begin() as conn:
                conn.execute(insert(SEAT_PLAYERS).values(room_id=room.id, seat=seat,
                                                         player_id=pid))
                conn.execute(insert(ROOM_CONTEXT).values(
                    room_id=room.id, player_id=pid, kind=kind, game=game_id, level=level,
                    tier=tier, seat=seat))
                if match is not None:
                    conn.execute(insert(LADDER_SETS).values(
                        room_id=room.id, before=json.dumps(match.to_json())))
                if day is not None:
                    conn.execute(insert(DAILY_ROOMS).values(room_id=room.id,
                                                            day=day.isoformat()))
        await run_in_threadpool(store)
        if kind == "exam":  # its grace counts from now until the player's page connects
            from . import fairplay

            fairplay.note_presence(room)
            exam_rooms[room.id] = (pid, game_id, seat)
        return JSONResponse({"room": room.id, "url": f"/r/{room.id}",
                             "keys": [{"seat": s, "key": k} for s, k in sorted(keys.items())]},
                            status_code=201)

    def on_finish(room: Room) -> None:
        async def go() -> None:
            try:
                await run_in_threadpool(record_room, room)
            except Exception:  # a failed recording must never break the room
                log.exception("could not record room %s", room.id)
        task = asyncio.get_running_loop().create_task(go())
        pending.add(task)
        task.add_done_callback(pending.discard)

    # ---- move quality ------------------------------------------------------------------------
    async def room_feedback(request: Request) -> Response:
        """The quality of the move at ``ply`` of a casual game (None for games without an
        evaluator). Casual only: in a rated game it would be help from the engine. While
        the game runs only the seat that made the move may ask, proving it with its seat
        key (``seat``, ``key``), and the move is judged from that seat's views alone (hidden
        colours, cards and dice stay hidden); once the game is over anyone may ask."""
        await limited(request, "feedback")
        room = await hub().get(request.path_params["room"])
        if room is None:
            raise _Refused(404, "no_room", "there is no such room")
        body = await parsed(request, FeedbackRequest, MAX_BODY)
        ply = body.ply
        if not 0 <= ply < len(room.moves):
            raise _Refused(400, "bad_field", f"'ply' must be a played move, 0 to "
                           f"{len(room.moves) - 1}")
        if not room.data.casual:
            raise _Refused(409, "no_feedback", "move feedback is for casual games only")
        mover = room.moves[ply].seat
        if room.status != "finished":
            seat, key = body.seat, body.key
            if seat is None or key is None:
                raise _Refused(403, "need_key", "while the game runs, feedback is only for "
                               "the player who made the move: send its 'seat' and 'key'")
            if seat != mover:
                raise _Refused(403, "not_your_move", f"move {ply} was played by seat "
                               f"{mover}, not seat {seat}; while the game runs you get "
                               "feedback on your own moves only")
            if not room.check_key(seat, key):
                raise _Refused(403, "bad_key", "that key does not hold this seat")
        before = [(m.seat, m.text) for m in room.moves[:ply]]
        data = await in_engine_thread(prog.move_feedback, room.game.id, before,
                                      room.moves[ply].text, room.options, room.data.seed,
                                      mover)
        return JSONResponse({"feedback": data})

    async def review(request: Request) -> Response:
        """A finished game's review with its turning points, from its record. A bad record
        is the sender's fault (400 ``bad_record``); running out of the time budget is the
        server's (503 ``busy``), and says so — never blamed on the record."""
        arrived = time.monotonic()  # the wall budget counts from here, queueing included
        await limited(request, "review")
        raw = await request.body()
        if len(raw) > MAX_RECORD_BYTES:
            raise _Refused(413, "too_large", f"a record may be at most {MAX_RECORD_BYTES} bytes")

        def check() -> Record:
            try:
                parse_json(raw)
                record = Record.loads(raw)
            except RecordError as exc:
                raise _Refused(400, "bad_record", str(exc)[:500], exc.detail()) from None
            except (BadJSON, ValueError, KeyError, TypeError) as exc:
                raise _Refused(400, "bad_record", str(exc)[:500]) from None
            if len(record.moves) > MAX_RECORD_PLIES:  # before any replaying
                raise _Refused(413, "too_long", f"a record may have at most "
                               f"{MAX_RECORD_PLIES} moves, not {len(record.moves)}")
            try:
                record.replay(get_game)
            except RecordError as exc:
                raise _Refused(400, "bad_record", str(exc)[:500], exc.detail()) from None
            except (ValueError, KeyError, TypeError) as exc:
                raise _Refused(400, "bad_record", str(exc)[:500]) from None
            return record
        record = await run_in_threadpool(check)
        try:
            with anyio.fail_after(REVIEW_BUDGET):
                data = await in_engine_thread(prog.review, record, arrived + REVIEW_WALL,
                                              REVIEW_CPU)
        except TimeoutError:
            raise _Refused(503, "busy", f"the review took over {REVIEW_BUDGET:g} s: the "
                           "server is busy; try again later (your record is fine)") from None
        return JSONResponse({"review": data})

    # ---- pages of players and games ----------------------------------------------------------
    async def player_page(request: Request) -> Response:
        raw = request.path_params["player"]
        if raw == "me":
            pid = int((await need_player(request))["id"])
        elif raw.isdigit() and len(raw) <= 12:
            pid = int(raw)
        else:
            raise _Refused(404, "no_player", "there is no such player")
        try:
            page = await run_in_threadpool(prog.player_page, pid)
        except ProgressionError:
            raise _Refused(404, "no_player", "there is no such player") from None
        from .bot_api import BOT_MARK, bot_accounts  # a BOT account is marked (bot-api.md)

        page["title"] = BOT_MARK if await run_in_threadpool(bot_accounts, engine, [pid]) \
            else None
        return JSONResponse(page)

    async def history_player(request: Request) -> int:
        """The ``{player}`` of a history route: a number or ``me``; 404 when none."""
        raw = request.path_params["player"]
        if raw == "me":
            return int((await need_player(request))["id"])
        from ..progression.models import PlayerRow

        def known() -> bool:
            with prog.session() as s:
                return s.get(PlayerRow, int(raw)) is not None
        if not (raw.isdigit() and int(raw) < 2**31 and await run_in_threadpool(known)):
            raise _Refused(404, "no_player", "there is no such player")
        return int(raw)

    async def leaderboards(request: Request) -> Response:
        """Every rated pool of a game: its established people (ratings.leaderboard: no
        bot, no provisional rating, enough games against enough established opponents)."""
        game = _game_id(request)

        def load() -> JSONObject:
            return {pool: prog.leaderboard(pool, 50)
                    for pool in prog.leaderboards(game, 1)}
        return JSONResponse({"game": game, "pools": await run_in_threadpool(load)})

    # ---- daily challenge ---------------------------------------------------------------------
    def _day(request: Request) -> date:
        raw = request.query_params.get("date")
        if raw is None:
            return today()
        try:
            return date.fromisoformat(raw)
        except ValueError:
            raise _Refused(400, "bad_date", "date must look like 2026-11-29") from None

    async def daily(request: Request) -> Response:
        """A day's challenge: a coming day's is refused; today's comes without its seed (the
        seed gives the deal and the CPU's choices) but with the seed's commitment; a past
        day's comes with its seed, which anyone can check against the commitment."""
        game = _game_id(request)
        day = _day(request)
        if day > today():
            raise _Refused(404, "not_yet", f"the {day.isoformat()} challenge is not out yet "
                           f"(today is {today().isoformat()}, UTC)")
        try:
            challenge = await run_in_threadpool(prog.daily_public, game, day, today())
        except (KeyError, ValueError) as exc:
            raise _Refused(404, "no_daily", str(exc)) from None
        player = await current(request)
        calendar = None
        practice = None
        if player:
            calendar = await run_in_threadpool(prog.daily_calendar, int(player["id"]), game,
                                               day.year, day.month)
            if day == today():  # whether a new attempt today would only be practice
                practice = await run_in_threadpool(daily_used, int(player["id"]), game, day)
        return JSONResponse({"date": day.isoformat(), "challenge": challenge,
                             "calendar": calendar, "practice": practice})

    async def daily_answer(request: Request) -> Response:
        """Graded answers to today's puzzle. The day counts once per account: the first
        answers score; later ones are practice (said so: ``practice`` and the event)."""
        game = _game_id(request)
        await limited(request, "daily_answer")
        player = await need_player(request)
        answers = (await parsed(request, DailyAnswers, MAX_BODY)).answers
        if not all(len(a) < 16 for a in answers):
            raise _Refused(400, "bad_field", "'answers' must be a list of short texts")
        day = today()
        events = await run_in_threadpool(prog.daily_answer, int(player["id"]), game, day,
                                         answers, day)
        return JSONResponse({"events": events,
                             "practice": any(e.get("type") == "practice" for e in events)})

    async def daily_play(request: Request) -> Response:
        """Play today's challenge in a room: an opponent challenge with the day's seed,
        options and opening, the player in the challenge's seat and its CPU level in the
        other; a puzzle course (Patapata) alone on the day's dice. Not rated; the finished
        game goes to the day's calendar (a puzzle clears it at the target score)."""
        game = _game_id(request)
        await limited(request, "daily_play")
        player = await need_player(request)
        day = today()  # the day record_attempt counts as today
        try:
            ch = await run_in_threadpool(prog.daily_full, game, day)
        except (KeyError, ValueError) as exc:
            raise _Refused(404, "no_daily", str(exc)) from None
        if ch.kind == "puzzle":  # a solo course (Patapata): the day's dice, no CPU seat
            res = await open_room(game, player, "daily", "", ch.player_seat, None, None,
                                  seed=ch.seed, options=dict(ch.options), opening=[],
                                  day=day)
        elif ch.kind != "opponent" or ch.bot_level is None:
            raise _Refused(400, "not_playable", f"the {game} challenge is a {ch.kind}, "
                           "not a game")
        else:
            # the day's deal and opening (ch.seed: the same for everyone); the CPU's choices
            # come from the room's own secret seed (Hub: cpu_seed), new for every attempt
            res = await open_room(game, player, "daily", ch.bot_level, ch.player_seat, None,
                                  None, seed=ch.seed, options=dict(ch.options),
                                  opening=list(ch.opening), day=day)
        out = json.loads(bytes(res.body))
        mine = await run_in_threadpool(daily_rooms, int(player["id"]), game, day.isoformat())
        out["practice"] = mine[:1] != [out["room"]]  # the day's first room alone scores
        out["attempt"] = mine.index(out["room"]) + 1 if out["room"] in mine else len(mine)
        return JSONResponse(out, status_code=res.status_code)

    # ---- ladder ------------------------------------------------------------------------------
    async def ladder(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        try:
            status = await run_in_threadpool(prog.ladder, int(player["id"]), game)
        except KeyError as exc:
            raise _Refused(404, "no_ladder", str(exc)) from None
        return JSONResponse(status)

    async def ladder_exam(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        return JSONResponse(await run_in_threadpool(prog.start_exam, int(player["id"]), game))

    async def ladder_play(request: Request) -> Response:
        """Start a ladder game (an open tier without reverse matches) or the running exam's
        next game in a room: the player's seat is claimed, the CPU sits in the other."""
        game_id = _game_id(request)
        player = await need_player(request)
        pid = int(player["id"])
        status = await run_in_threadpool(prog.ladder, pid, game_id)
        exam = status.get("exam")
        tier = (await parsed(request, LadderPlay, MAX_BODY)).tier
        if exam:
            running = await running_exam_room(pid, game_id)
            if running is not None:  # the exam game in progress is resumed, never doubled
                return JSONResponse({"room": running, "url": f"/r/{running}", "keys": [],
                                     "resumed": True})
            return await open_room(game_id, player, "exam", str(exam["level"]),
                                   int(exam["player_seat"]), None, None)
        open_tier = next((u for u in status["unlocked"] if u["tier"] == tier), None)
        if open_tier is None:
            raise _Refused(400, "locked", f"tier {tier!r} is not open at this rank; open: "
                           + ", ".join(u["tier"] for u in status["unlocked"]))
        level = str(open_tier["level"])
        if not open_tier["reverse"]:
            return await open_room(game_id, player, "ladder", level, 0, tier, None)
        match = Match(format_vs_cpu(get_game(game_id), level, tier=tier))
        slot = match.next_game()
        assert slot is not None
        # a set's games share one seed where the seed hides nothing; ladder_next decides
        return await open_room(game_id, player, "ladder", level, slot.seat_of_a, tier, match,
                               seed=secrets.randbits(48))

    async def ladder_next(request: Request) -> Response:
        """The next game of a reverse-match set, asked from the finished room's page with
        that room's seat key (created once; asking again gives nothing new)."""
        game_id = _game_id(request)
        player = await need_player(request)
        body = await parsed(request, LadderNext, MAX_BODY)
        seat, key = body.seat, body.key
        room = await hub().get(body.room)
        if room is None or not seat < len(room.seats) or not room.check_key(seat, key):
            raise _Refused(403, "bad_key", "that is not your seat of a ladder room")
        ctx = await run_in_threadpool(load_context, room.id)

        def load_set() -> RowMapping | None:
            with engine.connect() as conn:
                return conn.execute(select(LADDER_SETS).where(LADDER_SETS.c.room_id == room.id)
                                    ).mappings().first()
        row = await run_in_threadpool(load_set)
        if ctx is None or row is None or int(ctx["player_id"]) != int(player["id"]):
            raise _Refused(404, "no_set", "this room is not a game of your reverse-match set")
        if row["after"] is None:
            raise _Refused(409, "not_over", "this game of the set has not been counted yet")
        if row["next_room"] is not None:
            raise _Refused(409, "started", f"the next game is room {row['next_room']}")
        match = Match.from_json(json.loads(row["after"]))
        slot = match.next_game()
        if slot is None:
            raise _Refused(409, "set_over", "the set is over")
        res = await open_room(game_id, player, "ladder", str(ctx["level"]), slot.seat_of_a,
                              ctx["tier"], match,
                              # the deal, where it hides nothing; the CPU gets the new
                              # room's own secret seed (rooms.cpu_seed), never game 1's
                              seed=room.data.seed if replays_the_deal(room.game) else None)
        new_room = json.loads(bytes(res.body))["room"]

        def link() -> None:
            with engine.begin() as conn:
                conn.execute(LADDER_SETS.update().where(LADDER_SETS.c.room_id == room.id)
                             .values(next_room=new_room))
        await run_in_threadpool(link)
        return res

    async def ladder_leave(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        events = await run_in_threadpool(prog.leave_exam, int(player["id"]), game)
        return JSONResponse({"events": events})

    async def record_embargo(room_id: str) -> str | None:
        """A daily room's seed is the day's seed: its record waits until the day is over."""
        def load() -> str | None:
            with engine.connect() as conn:
                return conn.execute(select(DAILY_ROOMS.c.day)
                                    .where(DAILY_ROOMS.c.room_id == room_id)).scalar()
        day = await run_in_threadpool(load)
        if day is not None and date.fromisoformat(day) >= today():
            return (f"this game played the {day} daily challenge; its record (with the "
                    "day's seed) is published once that day is over (UTC)")
        return None

    async def warm() -> None:
        """After start-up, in the engine thread: import and run each game's review on a few
        moves, so the first review a person asks for does not pay for imports, evaluator
        set-up and first-call caches (a cold first review took 15 s on a loaded machine)."""
        await asyncio.sleep(WARM_AFTER)
        for game_id in available():  # one game at a time: a review asked meanwhile waits
            try:                     # for one short step at most, not the whole warm-up
                await in_engine_thread(_warm_review, game_id)
            except Exception:  # warming is an optimisation: never a failure of the server
                log.exception("warming up the %s review failed", game_id)

    # ---- exams: resumed on reload, failed when their page stays away ---------------------------
    exam_rooms: dict[str, tuple[int, str, int]] = {}  # room id → (player, game, seat)

    async def running_exam_room(pid: int, game_id: str) -> str | None:
        """The player's exam game in progress, if any (the newest active exam room)."""
        def load() -> list[str]:
            with engine.connect() as conn:
                return list(conn.execute(
                    select(ROOM_CONTEXT.c.room_id)
                    .join(RoomRow, RoomRow.id == ROOM_CONTEXT.c.room_id)
                    .where(ROOM_CONTEXT.c.player_id == pid, ROOM_CONTEXT.c.game == game_id,
                           ROOM_CONTEXT.c.kind == "exam", RoomRow.status == "active")
                    .order_by(RoomRow.created.desc(), RoomRow.id.desc())).scalars())
        for room_id in await run_in_threadpool(load):
            room = await hub().get(room_id)
            if room is not None and room.status == "active":
                return room_id
        return None

    async def sweep_exams(now: float) -> list[str]:
        """Fail the exams whose game's page is gone past EXAM_GRACE (``abandoned``) and
        resign the player's seat of that game; the rooms so ended."""
        ended = []
        for room in list(hub().rooms.values()):
            got = exam_rooms.get(room.id)
            if got is None and room.id not in exam_checked:
                exam_checked.add(room.id)  # rooms resumed after a restart: looked up once
                ctx = await run_in_threadpool(load_context, room.id)
                if ctx is not None and ctx["kind"] == "exam":
                    got = exam_rooms[room.id] = (int(ctx["player_id"]), str(ctx["game"]),
                                                 int(ctx["seat"]))
                    if room.status == "active":
                        from . import fairplay

                        fairplay.note_presence(room)
            if got is None:
                continue
            if room.status != "active":
                exam_rooms.pop(room.id, None)
                continue
            pid, game_id, seat = got
            since = room.away_since.get(seat)
            if since is None or now - since < EXAM_GRACE:
                continue
            exam_rooms.pop(room.id, None)
            try:
                await run_in_threadpool(prog.leave_exam, pid, game_id, "abandoned")
            except ProgressionError:  # left already (the Leave button): only the game ends
                pass
            try:
                await hub().resign(room, seat)
            except ClientError:  # ended meanwhile
                pass
            ended.append(room.id)
        return ended

    exam_checked: set[str] = set()

    async def watch_exams() -> None:
        while True:
            await asyncio.sleep(EXAM_CHECK)
            try:
                await sweep_exams(time.time())
            except Exception:  # the next look tries again
                log.exception("the exam watch failed")

    h = _handled
    return ProgressionWeb([
        page_route("/tutorial/{game}", "tutorial.html"),
        page_route("/account", "account.html"),
        page_route("/player/{player}", "player.html"),
        page_route("/leaderboard/{game}", "leaderboard.html"),
        page_route("/daily/{game}", "daily.html"),
        page_route("/ladder/{game}", "ladder.html"),
        Route("/api/tutorials/{game}", h(tutorial)),
        Route("/api/tutorials/{game}/{step}", h(tutorial_attempt), methods=["POST"]),
        Route("/api/account", h(me)),
        Route("/api/account/register", h(register), methods=["POST"]),
        Route("/api/account/login", h(login), methods=["POST"]),
        Route("/api/account/guest", h(guest), methods=["POST"]),
        Route("/api/account/logout", h(logout), methods=["POST"]),
        *settings_routes(engine, need_player, h),
        Route("/api/players/{player}", h(player_page)),
        # a player's games: the filtered list, a game's record, the export (history_routes)
        *history_routes(prog, limits, today, history_player, h),
        Route("/api/leaderboards/{game}", h(leaderboards)),
        Route("/api/daily/{game}", h(daily)),
        Route("/api/daily/{game}/answer", h(daily_answer), methods=["POST"]),
        Route("/api/daily/{game}/play", h(daily_play), methods=["POST"]),
        Route("/api/ladder/{game}", h(ladder)),
        Route("/api/ladder/{game}/exam", h(ladder_exam), methods=["POST"]),
        Route("/api/ladder/{game}/leave", h(ladder_leave), methods=["POST"]),
        Route("/api/ladder/{game}/play", h(ladder_play), methods=["POST"]),
        Route("/api/ladder/{game}/next", h(ladder_next), methods=["POST"]),
        Route("/api/rooms/{room}/claim", h(claim_seats), methods=["POST"]),
        Route("/api/rooms/{room}/progress", h(room_rating)),
        Route("/api/rooms/{room}/feedback", h(room_feedback), methods=["POST"]),
        Route("/api/review", h(review), methods=["POST"]),
    ], on_finish, record_embargo, warm, sweep_exams, watch_exams)


def _warm_review(game_id: str) -> None:
    """Import a game's evaluator and search code and build its evaluator; where it searches
    to a depth, judge the first moves of a game at depth 1 (milliseconds), so first-call
    caches are filled too. Evaluators that sample hidden information are only built: a
    single call of theirs can take seconds, which a review asked meanwhile would wait for."""
    import copy

    from ..progression import feedback

    game = get_game(game_id)
    options = game.validate_options({})
    evaluator = feedback.evaluator_for(game_id, options)
    if evaluator is None:
        return
    feedback.thresholds_for(game_id, options)
    if not isinstance(getattr(evaluator, "depth", None), int) or feedback.sees_views(evaluator):
        return
    shallow = copy.copy(evaluator)
    shallow.depth = 1  # type: ignore[union-attr]
    state = game.new_game(options, 0)
    moves: list[tuple[int, str]] = []
    while not state.is_over and len(moves) < 4:
        seat = state.acting_seats[0]
        text = state.legal_moves(seat).texts()[0]
        moves.append((seat, text))
        state = state.play(text, seat)
    feedback.review(game_id, moves, options, 0, evaluator=shallow)


__all__ = ["ProgressionWeb", "progression_routes"]
