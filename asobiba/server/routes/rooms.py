"""Rooms over HTTP: the games on offer, creating a room, a room's seats and public state, its
record (once over) in every format, and the seat count of a game with options. Each handler
is a plain ``async def`` reading the app's parts from :func:`.context.ctx` and its request
body as its parsed model (:func:`..api_schema.parsed`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...core import Game, OptionError, Record
from ...core.jsontypes import JSONDecoded, JSONObject
from ...core.text import display_name
from ...games import available, get
from ...progression.matches import MatchFormat
from .. import api_schema, fairplay
from ..api_schema import CreateRoom, SeatCount, SeatSpec, parsed
from ..clock import ClockError, check_clock
from ..rooms import ClientError
from .common import error, game_of, ip, limited
from .context import AppContext, ctx

if TYPE_CHECKING:
    from ..room import Room

MAX_NAME = 40


def seat_specs(game: Game, n: int, seats: list[SeatSpec]) -> list[JSONObject]:
    """The seats asked for, checked against the game: one per seat, bot levels it has."""
    if len(seats) != n:
        raise ClientError("bad_seats", f"this game with these options has {n} seats; "
                          "give one entry per seat")
    levels = game.level_names()
    out: list[JSONObject] = []
    for i, spec in enumerate(seats):
        # shown to everyone in the room: no line breaks, control or bidi characters
        name = display_name(spec.name or "", MAX_NAME)
        level = None
        if spec.kind == "bot":
            level = str(spec.level or (levels[0] if levels else ""))
            if level not in levels:
                raise ClientError("bad_level", f"seat {i}: bot level {level!r} does not exist; "
                                  f"levels: {', '.join(levels) or 'none'}")
        out.append({"kind": spec.kind, "level": level, "name": name})
    return out


def set_games(game: Game, options: JSONObject) -> bool:
    """Whether a game with these options may be played as a reverse match or series: two
    seats taking turns (a set swaps the two players' colours between its games)."""
    return game.num_seats(options) == 2 and not game.simultaneous


def match_format(game: Game, options: JSONObject,
                 raw: str | api_schema.MatchSpec | None) -> MatchFormat | None:
    """``match``: absent / ``"single"``, ``"reverse"``, or ``{"format": "best_of",
    "games": N}``; its shape is checked by the request model (api_schema.CreateRoom), what
    this game allows here."""
    if raw is None:
        return None
    kind, games = (raw, None) if isinstance(raw, str) else (raw.format, raw.games)
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


def clock_of(body: api_schema.Clock | None) -> JSONObject | None:
    """A request's clock as the room keeps it (checked: server.clock), or ``bad_clock``."""
    raw: JSONDecoded = None if body is None else body.model_dump(exclude_unset=True)
    try:
        return check_clock(raw)
    except ClockError as exc:
        raise ClientError("bad_clock", str(exc), args=exc.details) from None


def valid_options(game: Game, options: JSONObject) -> JSONObject:
    try:
        return game.validate_options(options)
    except OptionError as exc:
        raise ClientError("bad_options", str(exc), args=exc.detail()) from None


async def games(request: Request) -> Response:
    return JSONResponse({"games": [get(g).describe() for g in available()]})


async def create_room(request: Request) -> Response:
    app = ctx(request)
    await limited(app.limits, "room", ip(request))
    body = await parsed(request, CreateRoom)
    game = game_of(body.game)
    options = valid_options(game, dict(body.options))
    seats = seat_specs(game, game.num_seats(options), body.seats)
    clock = clock_of(body.clock)
    if clock and game.simultaneous:
        raise ClientError("bad_clock", f"{game.id} has simultaneous turns, so it has no clock")
    match = match_format(game, options, body.match)
    fairplay.check_rated_timing(game, seats, body.casual, clock)
    room, keys = await app.hub.create(game, options, seats, casual=body.casual,
                                      hotseat=body.hotseat, clock=clock, match=match)
    if body.chat is not None:  # the players' chat chosen at creation (server.chat)
        from .. import chat

        await run_in_threadpool(chat.set_room_chat, app.store.engine, room.id, body.chat)
    return JSONResponse({"room": room.id, "url": f"/r/{room.id}",
                         "keys": [{"seat": s, "key": k} for s, k in sorted(keys.items())]},
                        status_code=201)


async def seat_count(request: Request) -> Response:
    """How many seats a game has with these options (the lobby's seat list)."""
    body = await parsed(request, SeatCount)
    game = game_of(body.game)
    options = valid_options(game, dict(body.options))
    return JSONResponse({"seats": game.num_seats(options), "options": options,
                         "sets": set_games(game, options)})


async def room_info(request: Request) -> Response:
    room = await ctx(request).open_room(request.path_params["room"])
    if room is None:
        return error(404, "no_room", "there is no such room")
    return JSONResponse(room.public())


async def released(app: AppContext, room_id: str, what: str) -> Room:
    """The room whose record (and what goes with it: its chat, for the replay) may be given
    out now: it exists, its game is over, and no embargo holds it (a daily challenge's,
    until its day ends). ``what`` names the thing asked for in the refusal."""
    room = await app.hub.get(room_id)
    if room is None:
        raise ClientError("no_room", "there is no such room", status=404)
    if room.status != "finished":
        raise ClientError("not_over", f"the {what} is available once the game is over "
                          "(the record holds the seed, which would reveal hidden information)",
                          status=409)
    embargo = await app.prog.record_embargo(room_id)
    if embargo:
        raise ClientError("not_yet", embargo, status=409)
    return room


async def room_record(request: Request) -> Response:
    app = ctx(request)
    room_id = request.path_params["room"]
    room = await released(app, room_id, "record")
    text = await asyncio.to_thread(app.hub.store.record, room_id)
    fmt = request.query_params.get("format", "json")
    if fmt != "json":
        # the game's own notations (asobiba.formats: text for every game, Reversi's
        # transcript and GGF, …), the same code as `asobiba export`
        from ...formats import export_record, formats_for

        if fmt not in formats_for(room.game.id):
            return error(400, "bad_format", f"{room.game.id} has no record format "
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
    from ...formats import formats_for

    game = game_of(request.path_params["game"])
    return JSONResponse({"formats": [
        {"name": f.name, "description": f.description, "suffix": f.suffix}
        for f in formats_for(game.id).values()]})


ROUTES = [
    Route("/api/games", games),
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/seats", seat_count, methods=["POST"]),
    Route("/api/rooms/{room}", room_info),
    Route("/api/rooms/{room}/record", room_record),
    Route("/api/formats/{game}", record_formats),
]
