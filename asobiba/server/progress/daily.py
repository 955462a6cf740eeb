"""The daily challenge over HTTP: a day's challenge (today's without its seed), graded
answers to today's puzzle, and playing today's challenge in a room. The day counts once per
account (the first attempt scores; later ones are practice, said so)."""

from __future__ import annotations

import json
from datetime import date

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..api_schema import DailyAnswers, parsed
from .context import (
    MAX_BODY,
    ProgressionWeb,
    Refused,
    current,
    daily_rooms,
    game_id,
    limited,
    need_player,
    web,
)
from .recording import open_room


def daily_used(w: ProgressionWeb, player_id: int, game: str, day: date) -> bool:
    """Whether the player's attempt that counts for ``day`` is taken (a daily room
    opened, or answers given): every later one is practice."""
    return bool(daily_rooms(w.engine, player_id, game, day.isoformat())
                or w.prog.daily_attempts(player_id, game, day))


def _day(request: Request) -> date:
    raw = request.query_params.get("date")
    if raw is None:
        return web(request).today()
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise Refused(400, "bad_date", "date must look like 2026-11-29") from None


async def daily(request: Request) -> Response:
    """A day's challenge: a coming day's is refused; today's comes without its seed (the
    seed gives the deal and the CPU's choices) but with the seed's commitment; a past
    day's comes with its seed, which anyone can check against the commitment."""
    w = web(request)
    prog, today = w.prog, w.today
    game = game_id(request)
    day = _day(request)
    if day > today():
        raise Refused(404, "not_yet", f"the {day.isoformat()} challenge is not out yet "
                      f"(today is {today().isoformat()}, UTC)")
    try:
        challenge = await run_in_threadpool(prog.daily_public, game, day, today())
    except (KeyError, ValueError) as exc:
        raise Refused(404, "no_daily", str(exc)) from None
    player = await current(request)
    calendar = None
    practice = None
    if player:
        calendar = await run_in_threadpool(prog.daily_calendar, int(player["id"]), game,
                                           day.year, day.month)
        if day == today():  # whether a new attempt today would only be practice
            practice = await run_in_threadpool(daily_used, w, int(player["id"]), game, day)
    return JSONResponse({"date": day.isoformat(), "challenge": challenge,
                         "calendar": calendar, "practice": practice})


async def daily_answer(request: Request) -> Response:
    """Graded answers to today's puzzle. The day counts once per account: the first
    answers score; later ones are practice (said so: ``practice`` and the event)."""
    w = web(request)
    game = game_id(request)
    await limited(request, "daily_answer")
    player = await need_player(request)
    answers = (await parsed(request, DailyAnswers, MAX_BODY)).answers
    if not all(len(a) < 16 for a in answers):
        raise Refused(400, "bad_field", "'answers' must be a list of short texts")
    day = w.today()
    events = await run_in_threadpool(w.prog.daily_answer, int(player["id"]), game, day,
                                     answers, day)
    return JSONResponse({"events": events,
                         "practice": any(e.get("type") == "practice" for e in events)})


async def daily_play(request: Request) -> Response:
    """Play today's challenge in a room: an opponent challenge with the day's seed,
    options and opening, the player in the challenge's seat and its CPU level in the
    other; a puzzle course (Patapata) alone on the day's dice. Not rated; the finished
    game goes to the day's calendar (a puzzle clears it at the target score)."""
    w = web(request)
    game = game_id(request)
    await limited(request, "daily_play")
    player = await need_player(request)
    day = w.today()  # the day record_attempt counts as today
    try:
        ch = await run_in_threadpool(w.prog.daily_full, game, day)
    except (KeyError, ValueError) as exc:
        raise Refused(404, "no_daily", str(exc)) from None
    if ch.kind == "puzzle":  # a solo course (Patapata): the day's dice, no CPU seat
        res = await open_room(w, game, player, "daily", "", ch.player_seat, None, None,
                              seed=ch.seed, options=dict(ch.options), opening=[], day=day)
    elif ch.kind != "opponent" or ch.bot_level is None:
        raise Refused(400, "not_playable", f"the {game} challenge is a {ch.kind}, "
                      "not a game")
    else:
        # the day's deal and opening (ch.seed: the same for everyone); the CPU's choices
        # come from the room's own secret seed (Hub: cpu_seed), new for every attempt
        res = await open_room(w, game, player, "daily", ch.bot_level, ch.player_seat, None,
                              None, seed=ch.seed, options=dict(ch.options),
                              opening=list(ch.opening), day=day)
    out = json.loads(bytes(res.body))
    mine = await run_in_threadpool(daily_rooms, w.engine, int(player["id"]), game,
                                   day.isoformat())
    out["practice"] = mine[:1] != [out["room"]]  # the day's first room alone scores
    out["attempt"] = mine.index(out["room"]) + 1 if out["room"] in mine else len(mine)
    return JSONResponse(out, status_code=res.status_code)
