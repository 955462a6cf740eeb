"""Tutorials over HTTP: a game's tutorial, and checking a move at one of its steps."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..api_schema import TutorialMove, parsed
from .context import MAX_BODY, Refused, game_id, web


async def tutorial(request: Request) -> Response:
    game = game_id(request)
    try:
        data = await run_in_threadpool(web(request).prog.tutorial, game)
    except KeyError:
        raise Refused(404, "no_tutorial", f"{game} has no tutorial yet") from None
    return JSONResponse(data)


async def tutorial_attempt(request: Request) -> Response:
    game = game_id(request)
    move = (await parsed(request, TutorialMove, MAX_BODY)).move
    step = request.path_params["step"]
    try:
        data = await run_in_threadpool(web(request).prog.tutorial_attempt, game, step, move)
    except KeyError:
        raise Refused(404, "no_step", f"the {game} tutorial has no step {step!r}") from None
    return JSONResponse(data)
