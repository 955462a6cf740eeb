"""Print-and-play PDFs over HTTP (docs/paper.md), the same as ``asobiba print``:

- ``GET /api/print/{game}?lang=ja&paper=letter&seed=7&course=2`` — the game's blank material;
  any other query parameter is a game or print option, checked like the CLI's ``--name value``.
- ``POST /api/print/record`` with a record's JSON as the body — the record on paper.

Rendering is CPU work, so it runs in a worker thread; a bad option or record is a 400 that
names the problem, and nothing is rendered.
"""

from __future__ import annotations

from collections import OrderedDict

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import AsobibaError, Record

MAX_RECORD = 1_000_000
RESERVED = {"lang", "paper", "seed"}
CACHE_SIZE = 64
_cache: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
"""Blank material is a pure function of its request, so repeated downloads (every visitor's
lobby link) are served from memory instead of rendered again (tsume-algo sheets cost
seconds of CPU)."""


def _bad(code: str, message: str, status: int = 400) -> JSONResponse:
    # the API's one error shape (docs/web.md)
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _over_limit(request: Request) -> JSONResponse | None:
    """The server's abuse limit for renders (rule ``print``, per address), when it has one."""
    limits = getattr(request.app.state, "limits", None)
    if limits is None or "print" not in getattr(limits, "rules", {}):
        return None
    ip = str(request.scope.get("state", {}).get("client_ip") or "?")
    if await limits.ahit("print", ip):  # Redis: asked off the event loop
        return None
    rule = limits.rules["print"]
    return _bad("too_many", f"too many PDFs rendered ({rule.tries} per {rule.window:g} s); "
                "wait and try again", 429)


def _no_paper() -> JSONResponse | None:
    """503 ``no_paper`` when this install has no 'paper' extra (reportlab): the web app runs
    without it, its print links say what is missing."""
    from ..core.extras import message, missing

    lacking = missing("paper")
    if not lacking:
        return None
    return _bad("no_paper", message("paper", "printing", lacking[0]), 503)


def _pdf(data: bytes, filename: str) -> Response:
    return Response(data, media_type="application/pdf", headers={
        "content-disposition": f'attachment; filename="{filename}"',
        "cache-control": "public, max-age=3600"})


async def print_game_pdf(request: Request) -> Response:
    if (absent := _no_paper()) is not None:
        return absent
    from ..paper import parse_request, print_game

    game_id = request.path_params["game"]
    q = request.query_params
    raw = {k: v for k, v in q.items() if k not in RESERVED}
    seed_text = q.get("seed")
    try:
        seed = int(seed_text) if seed_text not in (None, "") else None
    except ValueError:
        return _bad("bad_option", f"seed must be a whole number, not {seed_text!r}")
    try:
        req = parse_request(game_id, raw, seed, q.get("paper", "a4"), q.get("lang", "en"))
        key = (game_id, tuple(sorted(req.options.items(), key=str)),
               tuple(sorted(req.extra.items(), key=str)), req.seed, req.seed_given, req.paper,
               req.lang)
        data = _cache.get(key) or b""
        if data:
            _cache.move_to_end(key)
        else:
            refused = await _over_limit(request)
            if refused is not None:
                return refused
            data = await anyio.to_thread.run_sync(print_game, req)
            _cache[key] = data
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    except AsobibaError as exc:
        status = 404 if getattr(exc, "option", None) == "game" else 400
        return _bad("bad_option" if status == 400 else "no_print", str(exc), status)
    return _pdf(data, f"asobiba-{game_id}-{req.lang}.pdf")


async def print_record_pdf(request: Request) -> Response:
    if (absent := _no_paper()) is not None:
        return absent
    from ..paper import print_record

    body = await request.body()
    if len(body) > MAX_RECORD:
        return _bad("too_large", f"a record may be at most {MAX_RECORD} bytes", 413)
    q = request.query_params
    refused = await _over_limit(request)
    if refused is not None:
        return refused
    try:
        record = Record.loads(body)
        data = await anyio.to_thread.run_sync(print_record, record, q.get("paper", "a4"),
                                              q.get("lang", "en"))
    except AsobibaError as exc:
        return _bad("bad_record", str(exc))
    return _pdf(data, f"asobiba-{record.game}-record.pdf")


def print_routes() -> list[Route]:
    return [Route("/api/print/record", print_record_pdf, methods=["POST"]),
            Route("/api/print/{game}", print_game_pdf)]
