"""The HTTP routes, one feature module each (issue 26 item 3), every handler a plain
module-level ``async def handler(request)`` that reads the app's parts from
:func:`.context.ctx` and its body as its parsed model (:func:`..api_schema.parsed`):

* :mod:`.pages` — the HTML pages and the API documents (OpenAPI, WebSocket schema);
* :mod:`.rooms` — games, creating rooms, a room's state and record, seat counts;
* :mod:`.replay` — replaying a record into every seat's views;
* the lobby's open games and live list (:class:`..lobby.Lobby`'s methods), the progression
  layer (accounts, ladder, daily, tutorials, exams, review: the package :mod:`..progress`),
  the analysis board (:mod:`..analysis_routes`), the Bot API (:mod:`..bot_api`) and
  print-and-play (:mod:`..print_routes`).

:func:`table` is the app's route table, built from these modules' ``ROUTES``."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.routing import BaseRoute

from .. import analysis_routes, bot_api
from ..print_routes import print_routes
from . import pages, replay, rooms
from .context import AppContext


def table(app: AppContext, room_socket: BaseRoute, static: BaseRoute,
          before_socket: Sequence[BaseRoute] = (),
          before_static: Sequence[BaseRoute] = ()) -> list[BaseRoute]:
    """Every route of the app, in matching order: the lobby's ``/ws/lobby``, the
    feature modules' ``before_socket`` routes (people) and the analysis board's (its
    ``/ws/analysis``) before the room socket ``/ws/{room}`` (none is a room); the
    ``before_static`` ones (puzzles, the explorer, each game's files under /static/games)
    before the static files, which come last."""
    assert app.lobby is not None and app.progression is not None
    return [
        *pages.ROUTES,
        *rooms.ROUTES,
        *replay.ROUTES,
        *app.lobby.routes(),
        *before_socket,
        *analysis_routes.ROUTES,  # docs/analysis.md
        room_socket,
        *app.progression.routes,
        *bot_api.ROUTES,  # docs/bot-api.md
        *print_routes(),
        *before_static,
        static,
    ]
