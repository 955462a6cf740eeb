"""The ladder over HTTP: a player's ladder for a game, starting and leaving a rank-up exam,
playing a tier's game (or the running exam's next one, resumed if it is in progress), and a
reverse-match set's next game."""

from __future__ import annotations

import json
import secrets

from sqlalchemy import select
from sqlalchemy.engine import RowMapping
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...games import get as get_game
from ...progression.matches import Match, format_vs_cpu, replays_the_deal
from ...tables import LADDER_SETS
from ..api_schema import LadderNext, LadderPlay, parsed
from ..db import reader
from .context import MAX_BODY, Refused, game_id, load_context, need_player, web
from .recording import open_room


async def ladder(request: Request) -> Response:
    game = game_id(request)
    player = await need_player(request)
    try:
        status = await run_in_threadpool(web(request).prog.ladder, int(player["id"]), game)
    except KeyError as exc:
        raise Refused(404, "no_ladder", str(exc)) from None
    return JSONResponse(status)


async def ladder_exam(request: Request) -> Response:
    game = game_id(request)
    player = await need_player(request)
    return JSONResponse(await run_in_threadpool(web(request).prog.start_exam,
                                                int(player["id"]), game))


async def ladder_play(request: Request) -> Response:
    """Start a ladder game (an open tier without reverse matches) or the running exam's
    next game in a room: the player's seat is claimed, the CPU sits in the other."""
    w = web(request)
    gid = game_id(request)
    player = await need_player(request)
    pid = int(player["id"])
    status = await run_in_threadpool(w.prog.ladder, pid, gid)
    exam = status.get("exam")
    tier = (await parsed(request, LadderPlay, MAX_BODY)).tier
    if exam:
        running = await w.exams.running_room(pid, gid)
        if running is not None:  # the exam game in progress is resumed, never doubled
            return JSONResponse({"room": running, "url": f"/r/{running}", "keys": [],
                                 "resumed": True})
        return await open_room(w, gid, player, "exam", str(exam["level"]),
                               int(exam["player_seat"]), None, None)
    open_tier = next((u for u in status["unlocked"] if u["tier"] == tier), None)
    if open_tier is None:
        raise Refused(400, "locked", f"tier {tier!r} is not open at this rank; open: "
                      + ", ".join(u["tier"] for u in status["unlocked"]))
    level = str(open_tier["level"])
    if not open_tier["reverse"]:
        return await open_room(w, gid, player, "ladder", level, 0, tier, None)
    match = Match(format_vs_cpu(get_game(gid), level, tier=tier))
    slot = match.next_game()
    assert slot is not None
    # a set's games share one seed where the seed hides nothing; ladder_next decides
    return await open_room(w, gid, player, "ladder", level, slot.seat_of_a, tier, match,
                           seed=secrets.randbits(48))


async def ladder_next(request: Request) -> Response:
    """The next game of a reverse-match set, asked from the finished room's page with
    that room's seat key (created once; asking again gives nothing new)."""
    w = web(request)
    gid = game_id(request)
    player = await need_player(request)
    body = await parsed(request, LadderNext, MAX_BODY)
    seat, key = body.seat, body.key
    room = await w.hub().get(body.room)
    if room is None or not seat < len(room.seats) or not room.check_key(seat, key):
        raise Refused(403, "bad_key", "that is not your seat of a ladder room")
    ctx = await run_in_threadpool(load_context, w.engine, room.id)

    def load_set() -> RowMapping | None:
        with reader(w.engine).connect() as conn:
            return conn.execute(select(LADDER_SETS).where(LADDER_SETS.c.room_id == room.id)
                                ).mappings().first()
    row = await run_in_threadpool(load_set)
    if ctx is None or row is None or int(ctx["player_id"]) != int(player["id"]):
        raise Refused(404, "no_set", "this room is not a game of your reverse-match set")
    if row["after"] is None:
        raise Refused(409, "not_over", "this game of the set has not been counted yet")
    if row["next_room"] is not None:
        raise Refused(409, "started", f"the next game is room {row['next_room']}")
    match = Match.from_json(json.loads(row["after"]))
    slot = match.next_game()
    if slot is None:
        raise Refused(409, "set_over", "the set is over")
    res = await open_room(w, gid, player, "ladder", str(ctx["level"]), slot.seat_of_a,
                          ctx["tier"], match,
                          # the deal, where it hides nothing; the CPU gets the new
                          # room's own secret seed (rooms.cpu_seed), never game 1's
                          seed=room.data.seed if replays_the_deal(room.game) else None)
    new_room = json.loads(bytes(res.body))["room"]

    def link() -> None:
        with w.engine.begin() as conn:
            conn.execute(LADDER_SETS.update().where(LADDER_SETS.c.room_id == room.id)
                         .values(next_room=new_room))
    await run_in_threadpool(link)
    return res


async def ladder_leave(request: Request) -> Response:
    game = game_id(request)
    player = await need_player(request)
    events = await run_in_threadpool(web(request).prog.leave_exam, int(player["id"]), game)
    return JSONResponse({"events": events})
