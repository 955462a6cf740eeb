"""The Bot API (docs/bot-api.md): outside engines play people on the server over HTTP.

Learnt from lichess's Bot API (not its code): a registered account is upgraded — for good —
to a BOT account; a personal API token (``Authorization: Bearer …``, stored hashed, scoped,
revocable) lets its program stream its events (challenges, game starts) and each game's
states as NDJSON, accept or decline challenges and play moves over HTTP.

What a bot is shown of a game is the update a person in its seat gets — ``view(seat)`` and
the room's public part, nothing else: the stream is a connection in the room like a
person's WebSocket (:class:`~.rooms.Conn`), fed by the same broadcast. A move goes through
:meth:`Hub.play`, the path of a person's move (checked, stored, then fanned out; nothing
half-applied). Games with a BOT account are casual: never rated, so a BOT account never
enters a rating pool or a leaderboard.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Engine, RowMapping
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..core import OptionError
from ..core.jsontypes import JSONObject
from ..games import available, get
from ..progression import accounts
from ..progression.errors import AuthError
from ..tables import (
    API_TOKENS,
    BOT_ACCOUNTS,
    BOT_CHALLENGES,
    SEAT_PLAYERS,
    GameRow,
    GameSeatRow,
    PlayerRow,
    RoomRow,
    utcnow,
)
from . import fairplay, shared
from .bot_api_schema import AIChallengeRequest, ChallengeRequest, Decline, TokenRequest
from .db import reader
from .limits import Limits
from .rooms import ClientError, Conn, hash_key, new_key
from .security import BadJSON, parse_json
from .wire import dumps

if TYPE_CHECKING:
    from .rooms import Hub, Room

COOKIE = "asobiba_session"  # progression_routes.COOKIE (not imported: no cycle)
SCOPES = ("bot:play",)
"""What a token may be allowed: ``bot:play`` — everything under /api/bot/."""
MAX_TOKENS = 20  # per account
POLL = 0.5  # seconds between two looks at an event stream's challenges and games
KEEP_ALIVE = 10.0  # seconds of silence after which a stream sends an empty line
BOT_MARK = "BOT"
"""The title a BOT account carries wherever it is shown (seat names, its player page)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_id(hashed: str) -> str:
    """A token's public id: the start of its hash (names it for revoking, opens nothing)."""
    return hashed[:12]


def bot_accounts(engine: Engine, player_ids: list[int]) -> set[int]:
    """Which of these players are BOT accounts (progression: never rated)."""
    if not player_ids:
        return set()
    with reader(engine).connect() as conn:
        return set(conn.execute(select(BOT_ACCOUNTS.c.player_id).where(
            BOT_ACCOUNTS.c.player_id.in_(player_ids))).scalars())


async def _body(request: Request) -> JSONObject:
    try:
        data = parse_json(await request.body(), empty={})
    except BadJSON as exc:
        raise ClientError("bad_json", str(exc)) from None
    if not isinstance(data, dict):
        raise ClientError("bad_json", "the request must be a JSON object")
    return data


# ---- the context -------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotApi:
    """What every Bot API handler needs, typed: the store's engine, the rooms' Hub (made at
    start-up: ``get_hub``) and the limits. One per app, built by ``create_app`` and kept at
    ``AppContext.bot_api``; each handler reads it with :func:`api`."""

    engine: Engine
    get_hub: Callable[[], Hub]
    limits: Limits

    @property
    def hub(self) -> Hub:
        return self.get_hub()


def api(conn: HTTPConnection) -> BotApi:
    """The app's Bot API part, from a request."""
    from .routes.context import ctx  # routes/ imports this module: read lazily, no cycle

    got = ctx(conn).bot_api
    assert got is not None, "create_app sets it"
    return got


async def limited(request: Request, rule: str, *key: str) -> None:
    limits = api(request).limits
    if not await limits.ahit(rule, *key):
        r = limits.rules[rule]
        raise ClientError("too_many", f"too many requests of this kind ({r.tries} per "
                          f"{r.window:g} s); wait and try again", status=429,
                          args={"tries": str(r.tries), "window": f"{r.window:g}"})


def ip(request: Request) -> str:
    return str(request.scope.get("state", {}).get("client_ip") or "?")


# ---- who is asking -------------------------------------------------------------------------------
def _session_player(engine: Engine, token: str) -> JSONObject | None:
    with Session(engine) as s:
        try:
            info = accounts.player_for_token(s, token)
        except AuthError:
            return None
        finally:
            s.commit()
    return {"id": info.id, "name": info.name, "kind": info.kind}


async def signed_in(request: Request) -> JSONObject | None:
    token = request.cookies.get(COOKIE)
    return await run_in_threadpool(_session_player, api(request).engine, token) if token \
        else None


async def need_account(request: Request) -> JSONObject:
    me = await signed_in(request)
    if me is None:
        raise ClientError("not_signed_in", "sign in first", status=401)
    if me["kind"] != "human":
        raise ClientError("not_registered", "only a registered account (not a guest) "
                          "may do this", status=403)
    return me


def _token_player(engine: Engine, hashed: str) -> tuple[JSONObject, bool] | None:
    with reader(engine).connect() as conn:
        row = conn.execute(select(API_TOKENS.c.player_id, API_TOKENS.c.scopes)
                           .where(API_TOKENS.c.token_hash == hashed)).first()
        if row is None:
            return None
        player = conn.execute(select(PlayerRow.id, PlayerRow.name).where(
            PlayerRow.id == row.player_id)).first()
        bot = conn.execute(select(BOT_ACCOUNTS.c.player_id).where(
            BOT_ACCOUNTS.c.player_id == row.player_id)).first() is not None
    if player is None:
        return None
    return {"id": player.id, "name": player.name, "scopes": row.scopes.split()}, bot


async def bearer(request: Request, need_bot: bool = True) -> JSONObject:
    """The account of the ``Authorization: Bearer`` token, allowed ``bot:play`` (and,
    ``need_bot``, a BOT account); each token's requests are rate-limited."""
    raw = request.headers.get("authorization", "")
    scheme, _, token = raw.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        await limited(request, "bot_auth", ip(request))
        raise ClientError("no_token", "send 'Authorization: Bearer <token>' (a personal "
                          "API token: POST /api/account/tokens)", status=401)
    hashed = token_hash(token.strip())
    found = await run_in_threadpool(_token_player, api(request).engine, hashed)
    if found is None:
        await limited(request, "bot_auth", ip(request))  # guessing tokens is slowed down
        raise ClientError("bad_token", "this token is unknown or was revoked", status=401)
    player, bot = found
    await limited(request, "bot_api", token_id(hashed))
    if "bot:play" not in player["scopes"]:  # type: ignore[operator]
        raise ClientError("missing_scope", "this token lacks the 'bot:play' scope",
                          status=403)
    if need_bot and not bot:
        raise ClientError("not_bot", "only a BOT account may use the Bot API; upgrade it "
                          "first (POST /api/bot/account/upgrade)", status=403)
    return player


# ---- tokens --------------------------------------------------------------------------------------
def _store_token(engine: Engine, player_id: object, hashed: str, req: TokenRequest) -> None:
    with engine.begin() as conn:
        count = len(conn.execute(select(API_TOKENS.c.token_hash).where(
            API_TOKENS.c.player_id == player_id)).all())
        if count >= MAX_TOKENS:
            raise ClientError("too_many_tokens", f"an account may hold at most "
                              f"{MAX_TOKENS} tokens; revoke one first", status=409,
                              args={"max": str(MAX_TOKENS)})
        conn.execute(insert(API_TOKENS).values(
            token_hash=hashed, player_id=player_id, scopes=" ".join(sorted(
                set(req.scopes))), label=req.label.strip(), created=utcnow()))


async def create_token(request: Request) -> Response:
    me = await need_account(request)
    await limited(request, "token", str(me["id"]))
    data = await _body(request)
    req = TokenRequest.model_validate(data)
    token = "asb_" + secrets.token_urlsafe(24)
    hashed = token_hash(token)
    await run_in_threadpool(_store_token, api(request).engine, me["id"], hashed, req)
    return JSONResponse({"id": token_id(hashed), "token": token,
                         "scopes": sorted(set(req.scopes)), "label": req.label.strip()},
                        status_code=201)


def _load_tokens(engine: Engine, player_id: object) -> list[JSONObject]:
    with reader(engine).connect() as conn:
        rows = conn.execute(select(API_TOKENS).where(
            API_TOKENS.c.player_id == player_id).order_by(API_TOKENS.c.created)).all()
    return [{"id": token_id(r.token_hash), "scopes": r.scopes.split(),
             "label": r.label, "created": r.created} for r in rows]


async def list_tokens(request: Request) -> Response:
    me = await need_account(request)
    return JSONResponse({"tokens": await run_in_threadpool(_load_tokens, api(request).engine,
                                                           me["id"])})


def _drop_tokens(engine: Engine, player_id: object, wanted: str) -> int:
    with engine.begin() as conn:
        hashes = [h for h in conn.execute(select(API_TOKENS.c.token_hash).where(
            API_TOKENS.c.player_id == player_id)).scalars() if token_id(h) == wanted]
        for h in hashes:
            conn.execute(delete(API_TOKENS).where(API_TOKENS.c.token_hash == h))
        return len(hashes)


async def revoke_token(request: Request) -> Response:
    me = await need_account(request)
    wanted = request.path_params["token_id"]
    if not await run_in_threadpool(_drop_tokens, api(request).engine, me["id"], wanted):
        raise ClientError("no_token", "you have no token with this id", status=404)
    return JSONResponse({"ok": True})


# ---- the BOT account -----------------------------------------------------------------------------
def _store_upgrade(engine: Engine, pid: int) -> None:
    with engine.begin() as conn:
        rated = conn.execute(select(GameSeatRow.game_id).join(
            GameRow, GameRow.id == GameSeatRow.game_id).where(
            GameSeatRow.player_id == pid, GameRow.rated.is_(True)).limit(1)).first()
        if rated is not None:
            raise ClientError("has_rated_games", "this account has played rated "
                              "games; only a fresh account may become a BOT account",
                              status=409)
        if conn.execute(select(BOT_ACCOUNTS.c.player_id).where(
                BOT_ACCOUNTS.c.player_id == pid)).first() is not None:
            raise ClientError("already_bot", "this account is a BOT account already",
                              status=409)
        conn.execute(insert(BOT_ACCOUNTS).values(player_id=pid, upgraded=utcnow()))


async def upgrade(request: Request) -> Response:
    """For good, and only for a registered account that has played no rated game
    (a rating earned as a person would be carried into the BOT's games)."""
    me = await signed_in(request)
    if me is None:
        me = await bearer(request, need_bot=False)
    elif me["kind"] != "human":
        raise ClientError("not_registered", "only a registered account (not a guest) "
                          "may become a BOT account", status=403)
    pid = int(str(me["id"]))
    await run_in_threadpool(_store_upgrade, api(request).engine, pid)
    return JSONResponse({"id": pid, "name": me["name"], "title": BOT_MARK})


# ---- challenges ----------------------------------------------------------------------------------
def _check_game(game_id: str, options: dict[str, object]) -> tuple[str, JSONObject]:
    if game_id not in available():
        raise ClientError("unknown_game", f"unknown game {game_id!r}; games here: "
                          f"{', '.join(available())}",
                          args={"game": game_id, "games": ", ".join(available())})
    try:
        return game_id, get(game_id).validate_options(dict(options))  # type: ignore[arg-type]
    except OptionError as exc:
        raise ClientError("bad_options", str(exc), args=exc.detail()) from None


def _store_challenge(engine: Engine, name: str, me: JSONObject | None, game_id: str,
                     options: JSONObject, seat: int) -> tuple[str, str, str]:
    with engine.begin() as conn:
        bot = conn.execute(select(PlayerRow.id).join(
            BOT_ACCOUNTS, BOT_ACCOUNTS.c.player_id == PlayerRow.id).where(
            PlayerRow.name == name)).first()
        if bot is None:
            raise ClientError("no_bot", f"there is no BOT account named {name!r}",
                              status=404, args={"name": name})
        if me is not None and me["id"] == bot.id:
            raise ClientError("self_challenge", "a BOT cannot challenge itself")
        cid, room_id, key = secrets.token_urlsafe(9), secrets.token_urlsafe(6), \
            new_key()
        conn.execute(insert(BOT_CHALLENGES).values(
            id=cid, bot_id=bot.id, challenger_id=me["id"] if me else None,
            challenger=str(me["name"]) if me else "", room_id=room_id, game=game_id,
            options=json.dumps(options), bot_seat=1 - seat, key_hash=hash_key(key),
            status="created", reason=None, created=utcnow()))
        return cid, room_id, key


async def challenge(request: Request) -> Response:
    """A person challenges a BOT account: the room is made when the bot accepts; its seat
    key is given now, once (kept hashed with the challenge)."""
    await limited(request, "challenge", ip(request))
    req = ChallengeRequest.model_validate(await _body(request))
    game_id, options = _check_game(req.game, req.options)
    n = get(game_id).num_seats(options)
    if n != 2:
        raise ClientError("bad_seats", f"{game_id} with these options has {n} seats; a "
                          "challenge is for two", args={"game": game_id, "seats": str(n)})
    if req.seat >= n:
        raise ClientError("bad_seats", f"seat must be 0 or 1, not {req.seat}",
                          args={"seat": str(req.seat), "seats": str(n)})
    me = await signed_in(request)
    name = request.path_params["bot"]
    cid, room_id, key = await run_in_threadpool(_store_challenge, api(request).engine, name,
                                                me, game_id, options, req.seat)
    return JSONResponse({"challenge": cid, "room": room_id, "url": f"/r/{room_id}",
                         "seat": req.seat, "key": key, "status": "created"},
                        status_code=201)


def _challenge_row(engine: Engine, cid: str) -> RowMapping | None:
    with reader(engine).connect() as conn:
        return conn.execute(select(BOT_CHALLENGES).where(
            BOT_CHALLENGES.c.id == cid)).mappings().first()


async def challenge_status(request: Request) -> Response:
    engine = api(request).engine
    row = await run_in_threadpool(_challenge_row, engine, request.path_params["challenge"])
    if row is None:
        raise ClientError("no_challenge", "there is no such challenge", status=404)
    bot = await run_in_threadpool(_player_name, engine, int(row["bot_id"]))
    status = "created" if row["status"] == "accepting" else row["status"]
    return JSONResponse({"id": row["id"], "status": status, "reason": row["reason"],
                         "room": row["room_id"], "bot": bot, "game": row["game"]})


def _player_name(engine: Engine, pid: int) -> str:
    with reader(engine).connect() as conn:
        return str(conn.execute(select(PlayerRow.name).where(PlayerRow.id == pid))
                   .scalar() or "")


def _settle(engine: Engine, cid: str, pid: int, status: str, reason: str | None
            ) -> RowMapping:
    """Move a challenge to this BOT from ``created`` to ``status``: once (the
    compare-and-set makes two answers at two processes give one)."""
    with engine.begin() as conn:
        row = conn.execute(select(BOT_CHALLENGES).where(
            BOT_CHALLENGES.c.id == cid)).mappings().first()
        if row is None or row["bot_id"] != pid:
            raise ClientError("no_challenge", "there is no such challenge for you",
                              status=404)
        done = conn.execute(update(BOT_CHALLENGES).where(
            BOT_CHALLENGES.c.id == cid, BOT_CHALLENGES.c.status == "created").values(
            status=status, reason=reason)).rowcount
        if not done:
            raise ClientError("challenge_settled", f"this challenge was "
                              f"{row['status']} already", status=409,
                              args={"status": str(row["status"])})
        return row


def _undo_accept(engine: Engine, room_id: str, cid: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(SEAT_PLAYERS).where(SEAT_PLAYERS.c.room_id == room_id))
        conn.execute(update(BOT_CHALLENGES).where(BOT_CHALLENGES.c.id == cid)
                     .values(status="created"))


def _mark_accepted(engine: Engine, cid: str) -> None:
    with engine.begin() as conn:
        conn.execute(update(BOT_CHALLENGES).where(BOT_CHALLENGES.c.id == cid)
                     .values(status="accepted"))


async def accept(request: Request) -> Response:
    a = api(request)
    me = await bearer(request)
    pid = int(str(me["id"]))
    cid = request.path_params["challenge"]
    # "accepting" until the room exists: a challenge said to be accepted has a room the
    # person can join (the status page and event stream say "accepted" only then)
    row = await run_in_threadpool(_settle, a.engine, cid, pid, "accepting", None)
    game = get(row["game"])
    bot_seat = int(row["bot_seat"])
    seats: list[JSONObject] = [{"kind": "human", "level": None, "name": ""}
                               for _ in range(2)]
    seats[bot_seat]["name"] = f"{BOT_MARK} {me['name']}"
    seats[1 - bot_seat]["name"] = str(row["challenger"])[:40]
    held = {bot_seat: pid}
    if row["challenger_id"] is not None:
        held[1 - bot_seat] = int(row["challenger_id"])
    # the seats are bound before the room exists: once it does, the event stream may
    # announce it and the bot's game stream must find its seat
    await run_in_threadpool(_bind, a.engine, row["room_id"], held)
    try:
        await a.hub.create(game, json.loads(row["options"]), seats, casual=True,
                           room_id=row["room_id"],
                           key_hashes={1 - bot_seat: row["key_hash"],
                                       bot_seat: hash_key(new_key())})
    except BaseException:
        await run_in_threadpool(_undo_accept, a.engine, row["room_id"], cid)
        raise
    await run_in_threadpool(_mark_accepted, a.engine, cid)
    return JSONResponse({"challenge": cid, "room": row["room_id"],
                         "url": f"/r/{row['room_id']}", "seat": bot_seat,
                         "status": "accepted"})


def _bind(engine: Engine, room_id: str, held: dict[int, int]) -> None:
    with engine.begin() as conn:
        for seat, player in held.items():
            conn.execute(insert(SEAT_PLAYERS).values(room_id=room_id, seat=seat,
                                                     player_id=player))


async def decline(request: Request) -> Response:
    me = await bearer(request)
    req = Decline.model_validate(await _body(request))
    await run_in_threadpool(_settle, api(request).engine, request.path_params["challenge"],
                            int(str(me["id"])), "declined", req.reason)
    return JSONResponse({"ok": True})


def _store_ai_challenge(engine: Engine, cid: str, pid: int, level: str, room_id: str,
                        game_id: str, options: JSONObject, seat: int) -> None:
    with engine.begin() as conn:
        conn.execute(insert(BOT_CHALLENGES).values(
            id=cid, bot_id=pid, challenger_id=pid, challenger=f"CPU {level}",
            room_id=room_id, game=game_id, options=json.dumps(options),
            bot_seat=seat, key_hash=None, status="accepted", reason=None,
            created=utcnow()))
        conn.execute(insert(SEAT_PLAYERS).values(room_id=room_id, seat=seat,
                                                 player_id=pid))


async def challenge_ai(request: Request) -> Response:
    """The BOT against the server's CPU (every other seat), accepted at once."""
    me = await bearer(request)
    await limited(request, "room", ip(request))
    req = AIChallengeRequest.model_validate(await _body(request))
    game_id, options = _check_game(req.game, req.options)
    game = get(game_id)
    n = game.num_seats(options)
    if req.seat >= n:
        raise ClientError("bad_seats", f"{game_id} with these options has {n} seats",
                          args={"game": game_id, "seats": str(n), "seat": str(req.seat)})
    if req.level not in game.level_names():
        raise ClientError("bad_level", f"bot level {req.level!r} does not exist; levels: "
                          f"{', '.join(game.level_names()) or 'none'}",
                          args={"level": str(req.level),
                                "levels": ", ".join(game.level_names())})
    seats: list[JSONObject] = [{"kind": "bot", "level": req.level, "name": ""}
                               for _ in range(n)]
    seats[req.seat] = {"kind": "human", "level": None,
                       "name": f"{BOT_MARK} {me['name']}"}
    pid = int(str(me["id"]))
    a = api(request)
    room, _keys = await a.hub.create(game, options, seats, casual=True,
                                     key_hashes={req.seat: hash_key(new_key())})
    cid = secrets.token_urlsafe(9)
    await run_in_threadpool(_store_ai_challenge, a.engine, cid, pid, req.level, room.id,
                            game_id, options, req.seat)
    return JSONResponse({"challenge": cid, "room": room.id, "url": f"/r/{room.id}",
                         "seat": req.seat, "status": "accepted"}, status_code=201)


# ---- streams -------------------------------------------------------------------------------------
def _pending(engine: Engine, pid: int) -> list[RowMapping]:
    """This BOT's open challenges and its games still being played."""
    rooms = RoomRow.__table__
    with reader(engine).connect() as conn:
        return list(conn.execute(
            select(BOT_CHALLENGES, rooms.c.status.label("room_status"))
            .select_from(BOT_CHALLENGES.outerjoin(
                rooms, rooms.c.id == BOT_CHALLENGES.c.room_id))
            .where(BOT_CHALLENGES.c.bot_id == pid, or_(
                BOT_CHALLENGES.c.status == "created",
                and_(BOT_CHALLENGES.c.status == "accepted",
                     rooms.c.status == "active")))
            .order_by(BOT_CHALLENGES.c.created)).mappings().all())


def _challenge_event(row: RowMapping) -> JSONObject:
    return {"type": "challenge", "challenge": {
        "id": row["id"], "game": row["game"], "options": json.loads(row["options"]),
        "challenger": row["challenger"], "seat": row["bot_seat"],
        "room": row["room_id"]}}


async def event_lines(engine: Engine, pid: int) -> AsyncIterator[str]:
    """The event stream's NDJSON lines for BOT ``pid``: each new challenge, each game's start
    and finish (a look every POLL seconds; an empty line after KEEP_ALIVE of silence)."""
    told: set[str] = set()
    playing: set[str] = set()
    quiet = 0.0
    while True:
        rows = await run_in_threadpool(_pending, engine, pid)
        out: list[JSONObject] = []
        now_playing = set()
        for row in rows:
            if row["status"] == "created" and row["id"] not in told:
                told.add(row["id"])
                out.append(_challenge_event(row))
            elif row["status"] == "accepted":
                now_playing.add(row["room_id"])
                if row["room_id"] not in playing:
                    out.append({"type": "gameStart", "game": {
                        "room": row["room_id"], "id": row["game"],
                        "seat": row["bot_seat"], "challenge": row["id"],
                        "options": json.loads(row["options"])}})
        out += [{"type": "gameFinish", "game": {"room": r}}
                for r in sorted(playing - now_playing)]
        playing = now_playing
        if out:
            quiet = 0.0
            yield "".join(dumps(e) + "\n" for e in out)
        else:
            quiet += POLL
            if quiet >= KEEP_ALIVE:
                quiet = 0.0
                yield "\n"
        await asyncio.sleep(POLL)


async def event_stream(request: Request) -> Response:
    me = await bearer(request)
    pid = int(str(me["id"]))
    return StreamingResponse(event_lines(api(request).engine, pid),
                             media_type="application/x-ndjson")


def _seats_of(engine: Engine, room_id: str, pid: int) -> list[int]:
    with reader(engine).connect() as conn:
        return sorted(conn.execute(select(SEAT_PLAYERS.c.seat).where(
            SEAT_PLAYERS.c.room_id == room_id, SEAT_PLAYERS.c.player_id == pid)).scalars())


async def bot_seat(request: Request) -> tuple[Room, int]:
    me = await bearer(request)
    a = api(request)
    room = await a.hub.get(request.path_params["room"])
    if room is None:
        raise ClientError("no_room", "there is no such room", status=404)
    seats = await run_in_threadpool(_seats_of, a.engine, room.id, int(str(me["id"])))
    if not seats:
        raise ClientError("not_your_seat", "your account holds no seat in this room; "
                          "only its own seat's account may play it", status=403)
    return room, seats[0]


def _state_event(room: Room, seat: int, update: JSONObject) -> JSONObject:
    """A person's update in this seat, as the bot's ``gameState``: the room's public
    part and this seat's view — the same two things, nothing more."""
    public = update["room"]
    assert isinstance(public, dict)
    views = update["views"]
    assert isinstance(views, list) and isinstance(views[0], dict)
    view = views[0]["view"]
    assert isinstance(view, dict)
    active = public["status"] == "active"
    return {"type": "gameState", "room": room.id, "seat": seat, "ply": public["ply"],
            "status": public["status"], "result": public["result"],
            "your_turn": active and bool(view.get("legal_moves")),
            "legal_moves": view.get("legal_moves") if active else [],
            "view": view}


async def _queue_update(queue: asyncio.Queue[JSONObject], message: JSONObject) -> None:
    """A game stream's connection's ``send``: keeps the room's updates (for :func:`game_lines`)."""
    if message.get("type") == "update":
        queue.put_nowait(message)


async def game_lines(h: Hub, room: Room, seat: int, conn: Conn,
                     queue: asyncio.Queue[JSONObject], full: JSONObject
                     ) -> AsyncIterator[str]:
    """The game stream's NDJSON lines: ``full`` (the gameFull), then a gameState for each
    update ``conn`` is sent that changes the ply, the status or the history (an empty line
    after KEEP_ALIVE of silence), until the game is over. ``conn`` is in the room only
    while the stream runs."""
    room.conns.add(conn)
    fairplay.note_presence(room)
    shared.publish(h, room)
    try:
        await h.broadcast(room)
        yield dumps(full) + "\n"
        last = (full["state"]["ply"], full["state"]["status"],  # type: ignore[index]
                room.history)
        if room.status != "active":
            return
        while True:
            try:
                update = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
            except TimeoutError:
                yield "\n"
                continue
            event = _state_event(room, seat, update)
            key = (event["ply"], event["status"], room.history)
            if key == last:
                continue  # presence or offers changed: nothing the bot plays on
            last = key
            yield dumps(event) + "\n"
            if event["status"] != "active":
                return
    finally:
        room.conns.discard(conn)
        fairplay.note_presence(room)
        shared.publish(h, room)
        h.forget_if_idle(room)


async def game_stream(request: Request) -> Response:
    room, seat = await bot_seat(request)
    h = api(request).hub
    queue: asyncio.Queue[JSONObject] = asyncio.Queue()
    conn = Conn(functools.partial(_queue_update, queue))
    conn.keys[seat] = ""
    full: JSONObject = {"type": "gameFull", "room": room.id, "game": room.game.id,
                        "options": room.options, "seat": seat,
                        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind,
                                   "level": s.level} for s in room.seats],
                        "state": _state_event(room, seat, room.message_for(conn))}
    return StreamingResponse(game_lines(h, room, seat, conn, queue, full),
                             media_type="application/x-ndjson")


async def move(request: Request) -> Response:
    room, seat = await bot_seat(request)
    raw_ply = request.query_params.get("ply")
    ply: int | None = None
    if raw_ply is not None:
        if not raw_ply.isdigit():
            raise ClientError("bad_field", "ply must be a whole number", args={"field": "ply"})
        ply = int(raw_ply)
    await api(request).hub.play(room, seat, request.path_params["move"], ply)
    return JSONResponse({"ok": True, "ply": len(room.moves)})


async def resign(request: Request) -> Response:
    room, seat = await bot_seat(request)
    if room.status != "active":
        raise ClientError("game_over", "the game is over")
    await api(request).hub.resign(room, seat)
    return JSONResponse({"ok": True})


ROUTES = [
    Route("/api/account/tokens", create_token, methods=["POST"]),
    Route("/api/account/tokens", list_tokens, methods=["GET"]),
    Route("/api/account/tokens/{token_id}", revoke_token, methods=["DELETE"]),
    Route("/api/bot/account/upgrade", upgrade, methods=["POST"]),
    Route("/api/bot/stream/event", event_stream),
    Route("/api/bot/game/stream/{room}", game_stream),
    Route("/api/bot/game/{room}/move/{move:path}", move, methods=["POST"]),
    Route("/api/bot/game/{room}/resign", resign, methods=["POST"]),
    Route("/api/bot/challenge/ai", challenge_ai, methods=["POST"]),
    Route("/api/bot/challenge/{challenge}/accept", accept, methods=["POST"]),
    Route("/api/bot/challenge/{challenge}/decline", decline, methods=["POST"]),
    Route("/api/challenge/{challenge}/status", challenge_status),
    Route("/api/challenge/{bot}", challenge, methods=["POST"]),
]
"""The Bot API's routes, in matching order (given to ``routes.table()``)."""


__all__ = ["BOT_MARK", "ROUTES", "SCOPES", "BotApi", "api", "bot_accounts", "token_hash"]
