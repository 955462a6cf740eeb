"""The opening explorer over HTTP (docs/explorer.md): ``GET /api/explorer`` lists the
explorers (each game's ``explorer_sets``: id, game, options); ``GET /api/explorer/{explorer}?moves=``
answers the position after ``moves`` with the moves played from it in stored finished games
(counts, results for the side to move, average rating, last played) beside the bundled
engine book; ``/explorer/{explorer}`` is the standalone page with a board.

Errors are codes with arguments: ``no_explorer`` (404: no such explorer; ``allowed`` lists
them), ``hidden_information`` (400: a game whose positions are not public — Memory Matrix,
Algo, Patapata — has no explorer), ``illegal_line`` (400: the move at ``ply`` is not legal
there), ``bad_line`` (400: more than :data:`MAX_LINE` moves), ``too_many`` (429: the
``explorer`` rule of :mod:`.limits`, per address). A query is a few primary-key reads after
replaying at most ``MAX_LINE`` moves, done in a worker thread.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..core import AsobibaError
from ..core.jsontypes import JSONObject
from ..explorer.book import book_moves
from ..explorer.index import moves_at
from ..explorer.positions import explorers
from .db import reader
from .rooms import ClientError

MAX_LINE = 120
"""Moves in one asked line at most."""
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def _line(raw: str) -> list[str]:
    return [m for m in raw.replace(" ", ",").split(",") if m]


def answer(engine: Engine, name: str, raw_moves: str) -> JSONObject:
    """The explorer's answer for one position (raises ClientError for a bad request)."""
    if name not in explorers():
        from ..games import available, get

        base = name.split("-")[0]
        if base in available() and not get(base).perfect_information:
            raise ClientError("hidden_information", f"{base} hides information; it has no "
                              "opening explorer", args={"game": base})
        raise ClientError("no_explorer", f"there is no opening explorer {name[:40]!r}",
                          status=404, args={"explorer": name[:40],
                                            "allowed": ", ".join(explorers())})
    ex = explorers()[name]
    moves = _line(raw_moves)
    if len(moves) > MAX_LINE:
        raise ClientError("bad_line", f"a line has at most {MAX_LINE} moves",
                          args={"max": str(MAX_LINE)})
    state = ex.new_state()
    played: list[str] = []
    for ply, text in enumerate(moves, 1):
        try:
            move = state.parse(text)
            played.append(state.move_text(move))
            state = state.play(move)
        except AsobibaError:
            raise ClientError("illegal_line", f"move {ply} ({text[:24]!r}) is not legal there",
                              args={"ply": str(ply), "move": text[:24]}) from None
    with Session(reader(engine)) as s:
        rows = moves_at(s, ex, state)
    book = book_moves(ex, state)
    for r in rows:
        r["book"] = book.pop(str(r["move"]), None)
    rows += [{"move": m, "games": 0, "wins": 0, "draws": 0, "losses": 0, "rating": None,
              "last_played": None, "book": e} for m, e in book.items()]
    total = {k: sum(int(r[k] or 0) for r in rows) for k in ("games", "wins", "draws", "losses")}
    return {"explorer": ex.id, "game": ex.game, "options": dict(ex.options),
            "moves": played, "to_move": state.to_move, "over": state.is_over,
            "legal": state.legal_moves().texts() if not state.is_over else [],
            "view": state.view(None), "played": rows, "total": total}


def listing() -> JSONObject:
    """Every explorer (``GET /api/explorer``), in the registry's order: its id, game and
    fixed options, and the game's declared defaults of those options (a stored or analysed
    game that leaves one out has the default: how a page finds the explorer of a game)."""
    from ..games import get

    out: list[JSONObject] = []
    for ex in explorers().values():
        declared = {o.name: o.default for o in get(ex.game).options}
        out.append({"explorer": ex.id, "game": ex.game, "options": dict(ex.options),
                    "defaults": {k: declared.get(k) for k in ex.options}})
    return {"explorers": out}


# ---- the handlers (module level: each reads the app's store and limits) ----------------------
async def api(request: Request) -> Response:
    from .routes.context import ctx  # routes/ imports this module: read lazily, no cycle

    app = ctx(request)
    ip = str(request.scope.get("state", {}).get("client_ip") or "?")
    if not await app.limits.ahit("explorer", ip):
        r = app.limits.rules["explorer"]
        raise ClientError("too_many", f"too many requests of this kind ({r.tries} per "
                          f"{r.window:g} s); wait and try again", status=429)
    name = str(request.path_params["explorer"])
    raw = request.query_params.get("moves") or ""
    return JSONResponse(await run_in_threadpool(answer, app.store.engine, name, raw))


async def page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "explorer.html", headers={"cache-control": "no-cache"})


async def index(request: Request) -> Response:
    return JSONResponse(listing())


ROUTES = [Route("/api/explorer", index), Route("/api/explorer/{explorer}", api),
          Route("/explorer/{explorer}", page)]
"""The explorer's routes, in their order (the app places them before the game files)."""
