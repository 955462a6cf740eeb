"""Helpers shared by the route modules: the one error shape, the client's address, the
per-address limits, work in a thread within a time budget, a game by its id."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from ...core import Game
from ...core.jsontypes import JSONObject
from ...games import available, get
from ..limits import Limits
from ..rooms import ClientError

T = TypeVar("T")


def error(status: int, code: str, message: str, headers: dict[str, str] | None = None,
          args: dict[str, str] | None = None) -> JSONResponse:
    """The one error shape of the HTTP API: ``{"error": {"code", "message"}}`` (and
    ``"args"`` where a refusal has them, e.g. ``bad_text``'s ``where`` and ``char``)."""
    body: JSONObject = {"code": code, "message": message}
    if args:
        body["args"] = dict(args)
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def ip(conn: HTTPConnection) -> str:
    """The client's address (the Guard's, proxies considered)."""
    return str(conn.scope.get("state", {}).get("client_ip") or "?")


async def limited(limits: Limits, rule: str, *key: str) -> None:
    """Refuse (429, ``too_many``) when ``rule`` is over its limit for ``key`` (awaited: with
    Redis the count is asked off the event loop, :meth:`Limits.ahit`)."""
    if not await limits.ahit(rule, *key):
        r = limits.rules[rule]
        raise ClientError("too_many", f"too many requests of this kind ({r.tries} per "
                          f"{r.window:g} s); wait and try again", status=429)


async def budgeted(fn: Callable[[], T], budget: float, what: str) -> T:
    """Run blocking ``fn`` in a worker thread; answer 503 if it takes over ``budget``
    seconds (the thread finishes on its own; its answer is dropped)."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn), budget)
    except TimeoutError:
        raise ClientError("busy", f"{what} took over {budget:g} s; the server is busy or the "
                          "input too big — try again later", status=503) from None


def game_of(game_id: object) -> Game:
    """The game ``game_id`` names, or ``unknown_game``."""
    if not isinstance(game_id, str) or game_id not in available():
        raise ClientError("unknown_game",
                          f"unknown game {game_id!r}; games here: {', '.join(available())}")
    return get(game_id)
