"""Rooms and the progression layer: who holds which seat (a claim with the seat's key), a
room opened for the ladder, an exam or a daily challenge (its player's seat claimed, its
context stored), and recording a finished room — rated, counted for the ladder or the exam,
or put on the day's calendar — in the background, once every person's seat is held by an
account. A daily room's record waits until its day is over (:func:`record_embargo`)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from datetime import date
from typing import TYPE_CHECKING, cast

from sqlalchemy import insert, select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...core import Outcome
from ...core.jsontypes import JSONObject
from ...games import get as get_game
from ...progression.errors import ProgressionError
from ...progression.ladder_data import ladder_options
from ...progression.matches import Match, tiebreak_for
from ...tables import DAILY_ROOMS, LADDER_SETS, ROOM_CONTEXT, ROOM_RATINGS, SEAT_PLAYERS
from ..api_schema import Claim, parsed
from ..db import reader
from ..rooms import ClientError
from .context import MAX_BODY, ProgressionWeb, Refused, daily_rooms, load_context, need_player, web

if TYPE_CHECKING:
    from ..rooms import Room

log = logging.getLogger("asobiba.server.progression")


def _outcome(room: Room) -> Outcome:
    """The room's result as an Outcome (a resignation or fallen flag has no natural one)."""
    r = cast("JSONObject", room.result)  # called for finished rooms only: never None
    return Outcome(tuple(r["scores"]), tuple(r["ranks"]), str(r.get("reason", "")))


# ---- who holds which seat -----------------------------------------------------------------------
async def claim_seats(request: Request) -> Response:
    """A signed-in player proves seats of a room with their keys; the first claim of a
    seat stands (a later one by someone else is refused)."""
    w = web(request)
    player = await need_player(request)
    room = await w.hub().get(request.path_params["room"])
    if room is None:
        raise Refused(404, "no_room", "there is no such room")
    guest_in_rated = player.get("kind") == "guest" and not room.data.casual
    claims = (await parsed(request, Claim, MAX_BODY)).seats
    proven = [c.seat for c in claims
              if c.seat < len(room.seats) and room.check_key(c.seat, c.key)]
    pid = int(player["id"])

    def store() -> list[int]:
        with w.engine.begin() as conn:
            held = dict(conn.execute(
                select(SEAT_PLAYERS.c.seat, SEAT_PLAYERS.c.player_id)
                .where(SEAT_PLAYERS.c.room_id == room.id)).all())
            if guest_in_rated and any(seat not in held for seat in proven):
                # a ladder or daily room (its seat given to the guest when it was
                # opened) is fine; taking a seat of a rated game is not
                raise Refused(403, "guest_casual", "guest accounts play casual games "
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
    w = web(request)
    room_id = request.path_params["room"]

    def load() -> str | None:
        with reader(w.engine).connect() as conn:
            return conn.execute(select(ROOM_RATINGS.c.result)
                                .where(ROOM_RATINGS.c.room_id == room_id)).scalar()

    def claimed() -> set[int]:
        with reader(w.engine).connect() as conn:
            return set(conn.execute(select(SEAT_PLAYERS.c.seat)
                                    .where(SEAT_PLAYERS.c.room_id == room_id)).scalars())
    raw = await run_in_threadpool(load)
    ctx = await run_in_threadpool(load_context, w.engine, room_id)
    room = await w.hub().get(room_id)
    # recorded once it ends only if every person's seat is held by an account
    held = await run_in_threadpool(claimed)
    expected = room is not None and all(s.seat in held
                                        for s in room.seats if s.kind != "bot")
    return JSONResponse({"recorded": raw is not None, "expected": expected,
                         "result": json.loads(raw) if raw else None,
                         "context": {k: ctx[k] for k in ("kind", "game", "level", "tier")}
                         if ctx else None})


# ---- opening a room for the ladder, an exam or a daily challenge ----------------------------------
async def open_room(w: ProgressionWeb, game_id: str, player: JSONObject, kind: str,
                    level: str, seat: int, tier: str | None, match: Match | None,
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
        room, keys = await w.hub().create(game, options, seats, casual=False, seed=seed,
                                          opening=opening)
    except ClientError as exc:
        raise Refused(400, exc.code, exc.message) from None
    pid = int(player["id"])

    def store() -> None:
        with w.engine.begin() as conn:
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
        w.exams.started(room, pid, game_id, seat)
    return JSONResponse({"room": room.id, "url": f"/r/{room.id}",
                         "keys": [{"seat": s, "key": k} for s, k in sorted(keys.items())]},
                        status_code=201)


# ---- recording a finished room --------------------------------------------------------------------
def on_finish(w: ProgressionWeb, room: Room) -> None:
    """Record ``room`` (just finished) in the background (:func:`record_room`)."""
    async def go() -> None:
        try:
            await run_in_threadpool(record_room, w, room)
        except Exception:  # a failed recording must never break the room
            log.exception("could not record room %s", room.id)
    task = asyncio.get_running_loop().create_task(go())
    w.pending.add(task)
    task.add_done_callback(w.pending.discard)


def record_room(w: ProgressionWeb, room: Room) -> None:
    """Record a finished room when every person's seat is claimed by an account."""
    engine, prog = w.engine, w.prog
    with reader(engine).connect() as conn:
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
    ctx = load_context(engine, room.id)
    is_daily = ctx is not None and ctx["kind"] == "daily"
    # a daily challenge starts from a set position: its result clears (or not) the day
    # and is kept in the history, but it is not a rated game
    from ..bot_api import bot_accounts  # a BOT account's games are never rated

    res = prog.record_game(players, record, rated=not casual and not is_daily
                           and not bot_accounts(engine, players),
                           context=ctx["kind"] if ctx else "casual" if casual else "rated")
    if ctx and is_daily:
        res["daily"] = report_daily(w, ctx, room, outcome)
    elif ctx:
        res["ladder"] = report_ladder(w, ctx, room, outcome)
    with engine.begin() as conn:
        conn.execute(insert(ROOM_RATINGS).values(room_id=room.id, result=json.dumps(res)))


def report_daily(w: ProgressionWeb, ctx: JSONObject, room: Room, outcome: Outcome
                 ) -> list[JSONObject]:
    """A daily-challenge room: the outcome goes to that day's calendar."""
    with reader(w.engine).connect() as conn:
        day = conn.execute(select(DAILY_ROOMS.c.day)
                           .where(DAILY_ROOMS.c.room_id == room.id)).scalar()
    pid, game = int(ctx["player_id"]), str(ctx["game"])
    # the day counts once: the first daily room the player opened that day scores
    first = daily_rooms(w.engine, pid, game, str(day))[:1] == [room.id]
    try:
        return w.prog.daily_result(pid, game, date.fromisoformat(str(day)), outcome,
                                   w.today(), scoring=first)
    except ProgressionError as exc:  # e.g. finished after midnight: another day now
        return [{"type": "not_counted", "reason": str(exc)}]


def report_ladder(w: ProgressionWeb, ctx: JSONObject, room: Room, outcome: Outcome
                  ) -> list[JSONObject]:
    """A ladder game counts for the player's ladder; an exam game goes to the exam."""
    pid, game = int(ctx["player_id"]), str(ctx["game"])
    try:
        if ctx["kind"] == "exam":
            hook = tiebreak_for(room.game)
            tb = hook(room.state.view(None)) if hook else None
            return w.prog.exam_game(pid, game, outcome, tb)
        with reader(w.engine).connect() as conn:
            before = conn.execute(select(LADDER_SETS.c.before)
                                  .where(LADDER_SETS.c.room_id == room.id)).scalar()
        if before is not None:
            return report_set_game(w, ctx, room, outcome,
                                   Match.from_json(json.loads(before)))
        seat = int(ctx["seat"])
        mine, best = outcome.ranks[seat], min(outcome.ranks)
        alone = sum(1 for r in outcome.ranks if r == best) == 1
        won = True if mine == best and alone else None if mine == best else False
        return w.prog.ladder_result(pid, game, str(ctx["level"]), won, ctx["tier"])
    except ProgressionError as exc:  # e.g. the exam was left before the game ended
        return [{"type": "not_counted", "reason": str(exc)}]


def report_set_game(w: ProgressionWeb, ctx: JSONObject, room: Room, outcome: Outcome,
                    match: Match) -> list[JSONObject]:
    """A game of a reverse-match set: the set counts once, when it is decided."""
    hook = tiebreak_for(room.game)
    match = match.add(outcome, hook(room.state.view(None)) if hook else None)
    with w.engine.begin() as conn:
        conn.execute(LADDER_SETS.update().where(LADDER_SETS.c.room_id == room.id)
                     .values(after=json.dumps(match.to_json())))
    if not match.is_over:
        return [{"type": "set_continues", "wins": list(match.wins())}]
    return w.prog.ladder_match(int(ctx["player_id"]), str(ctx["game"]), str(ctx["level"]),
                               match.to_json(), ctx["tier"])


async def record_embargo(w: ProgressionWeb, room_id: str) -> str | None:
    """A daily room's seed is the day's seed: its record waits until the day is over."""
    def load() -> str | None:
        with reader(w.engine).connect() as conn:
            return conn.execute(select(DAILY_ROOMS.c.day)
                                .where(DAILY_ROOMS.c.room_id == room_id)).scalar()
    day = await run_in_threadpool(load)
    if day is not None and date.fromisoformat(day) >= w.today():
        return (f"this game played the {day} daily challenge; its record (with the "
                "day's seed) is published once that day is over (UTC)")
    return None
