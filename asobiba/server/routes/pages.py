"""The HTML pages (each a static file the page's script fills in) and the documents that
describe the API: OpenAPI for HTTP, JSON Schema for the WebSockets."""

from __future__ import annotations

import functools
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ...core.jsontypes import JSONObject
from ...games import available
from .. import api_schema
from .. import ws_protocol as wsp

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"
PAGES = {"/": "index.html", "/r/{room}": "room.html", "/replay": "replay.html",
         "/settings": "settings.html"}
"""Path → page file, for the room and lobby pages (the progression pages are
:mod:`.progression`'s)."""


async def page(filename: str, request: Request) -> Response:
    """A page file (its route binds ``filename``: ``functools.partial``, no closure)."""
    return FileResponse(WEB_DIR / filename, headers={"cache-control": "no-cache"})


def page_route(path: str, filename: str) -> Route:
    return Route(path, functools.partial(page, filename))


async def ws_schema(request: Request) -> Response:
    """The WebSocket protocol (ws_protocol): JSON Schema of every message each way."""
    return JSONResponse(wsp.schema())


async def openapi(request: Request) -> Response:
    """The OpenAPI document of every HTTP route (built once per app from its route table)."""
    document: JSONObject | None = getattr(request.app.state, "openapi", None)
    if document is None:
        document = request.app.state.openapi = api_schema.openapi(list(request.app.routes),
                                                                  list(available()))
    return JSONResponse(document)


ROUTES = [
    *(page_route(path, filename) for path, filename in PAGES.items()),
    Route("/api/openapi.json", openapi),
    Route("/api/ws-schema.json", ws_schema),
]
