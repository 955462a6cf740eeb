"""A player's game history over HTTP (docs/web.md, "Game history"): the filtered, paged list
the player page shows, one stored game's record (what the replay page loads), and the export
of a player's games as one zip file.

What is given out is what the replay already shows anyone of a finished game: its record
(with the seed, so every hidden card once the game is over). A daily challenge's record
waits until its day is over, as a room's does (``record_embargo``): the day's seed would give
the day's deal away. Only finished games are stored, so nothing else needs hiding.
"""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from typing import TypeVar

from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core import Record
from ..core.jsontypes import JSONObject
from ..games import available
from ..progression import Progression
from ..progression import history as hist
from ..progression.errors import ProgressionError
from ..search.budget import WorkBudget
from .progress.accounts import history_player
from .progress.context import handled, web
from .rooms import ClientError

T = TypeVar("T")

EXPORT_MAX_GAMES = 500
"""Games in one export file at most; a longer history is exported in parts (``before``)."""
EXPORT_MAX_BYTES = 16_000_000
"""Bytes of records and notation in one export file at most (before compression)."""
EXPORT_CPU = 4.0
"""CPU seconds (the worker thread's) one export may spend: writing each game's text notation
replays it. Whatever is cut by a cap is named in ``index.json`` (``truncated``, ``next``)."""
EXPORT_WALL = 30.0
"""Seconds an export may take at all (a loaded machine): then 503 ``busy``."""

MAX_ROW_ID = 2**31 - 1
"""The largest row number a stored game or player can have (a 32-bit INTEGER key)."""


def _bad(name: str, value: str, allowed: str) -> ClientError:
    return ClientError("bad_filter", f"{name} must be {allowed}, not {value!r}",
                       args={"filter": name, "value": value[:60], "allowed": allowed})


def filters_from(query: Mapping[str, str]) -> tuple[hist.Filters, int | None]:
    """The filters and ``before`` of a request's query, checked: 400 ``bad_filter`` with
    the filter, the value and what is allowed."""
    def one(name: str) -> str | None:
        value = query.get(name)
        return None if value in (None, "") else str(value)
    game, result, opponent, kind, before = (one(n) for n in (
        "game", "result", "opponent", "kind", "before"))
    if game is not None and game not in available():
        raise _bad("game", game, "one of " + ", ".join(available()))
    if result is not None and result not in hist.RESULTS:
        raise _bad("result", result, "one of " + ", ".join(hist.RESULTS))
    if kind is not None and kind not in hist.KINDS:
        raise _bad("kind", kind, "one of " + ", ".join(hist.KINDS))
    if opponent is not None and len(opponent) > 40:
        raise _bad("opponent", opponent, "a name of at most 40 characters")
    if before is not None and not (before.isdigit() and int(before) <= MAX_ROW_ID + 1):
        raise _bad("before", before, "a game number (the 'next' of the previous page)")
    return (hist.Filters(game=game, result=result, opponent=opponent, kind=kind),
            int(before) if before is not None else None)


def embargoed(context: str, finished: str, today: date) -> bool:
    """A daily challenge's record is published once its day is over (UTC). The stored game
    keeps when it finished, not the challenge's day, which is that day or earlier: waiting
    until the finishing day is over waits at least as long as the room's record does."""
    return context == "daily" and date.fromisoformat(finished[:10]) >= today


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:40]


def build_export(rows: Iterable[JSONObject], player: JSONObject, filters: hist.Filters, today: date,
                 max_games: int = EXPORT_MAX_GAMES, max_bytes: int = EXPORT_MAX_BYTES,
                 cpu: float = EXPORT_CPU) -> bytes:
    """The zip of ``rows`` (history.records, newest first): per game its record as JSON
    (``<n>-<game>.json``, what the replay page loads) and in the game's text notation
    (``<n>-<game>.txt``), and ``index.json`` listing them — and saying where a cap cut the
    export (``truncated``: games, bytes or cpu; ``next``: the ``before`` for the rest)."""
    from ..formats import export_record

    budget = WorkBudget(cpu)
    out = io.BytesIO()
    listed: list[JSONObject] = []
    withheld: list[int] = []
    size, truncated, nxt = 0, None, None
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for row in rows:
            if len(listed) >= max_games:
                truncated = "games"
            elif size >= max_bytes:
                truncated = "bytes"
            elif budget.exhausted():
                truncated = "cpu"
            if truncated:
                nxt = listed[-1]["game_row_id"] if listed else None
                break
            if row["record"] is None or embargoed(row["context"], row["finished"], today):
                withheld.append(row["game_row_id"])
                continue
            name = f"games/{row['game_row_id']}-{_safe(row['game'])}"
            text = row["record"]
            try:
                notation = export_record(Record.loads(text), "text")
            except Exception as exc:  # a stored record that no longer replays: said, kept
                notation = f"(this record does not replay with today's rules: {exc})\n"
            z.writestr(f"{name}.json", text)
            z.writestr(f"{name}.txt", notation)
            size += len(text) + len(notation)
            entry = {k: v for k, v in row.items() if k != "record"}
            entry["files"] = [f"{name}.json", f"{name}.txt"]
            listed.append(entry)
        index = {"player": player, "format": "asobiba-history-1",
                 "filters": {k: v for k, v in vars(filters).items() if v is not None},
                 "games": listed, "withheld": withheld, "truncated": truncated,
                 "next": nxt,
                 "about": "Each game: its record as JSON (load it in the replay page, or "
                          "`asobiba replay`) and its moves in the game's text notation. "
                          "Newest first. 'withheld': games whose record is not public yet "
                          "(a daily challenge of a day not over). 'truncated': the export "
                          "stopped at a cap (games, bytes or cpu); ask again with "
                          "before=<next> for the older games."}
        z.writestr("index.json", json.dumps(index, ensure_ascii=False, indent=1))
    return out.getvalue()


# ---- the handlers (module level: each reads the app's ProgressionWeb with ``web``) ----------
async def limited(request: Request, rule: str) -> None:
    limits = web(request).limits
    ip = str(request.scope.get("state", {}).get("client_ip") or "?")
    if not await limits.ahit(rule, ip):
        r = limits.rules[rule]
        raise ClientError("too_many", f"too many requests of this kind ({r.tries} per "
                          f"{r.window:g} s from your address); wait and try again",
                          status=429)


def run(prog: Progression, fn: Callable[[Session], T]) -> T:
    with prog.session() as s:
        return fn(s)


def with_links(games: list[JSONObject], day: date) -> list[JSONObject]:
    for g in games:
        public = bool(g.pop("has_record")) and not embargoed(
            str(g["context"]), str(g["finished"]), day)
        g["replay"] = f"/replay?record={g['game_row_id']}" if public else None
    return games


async def games(request: Request) -> Response:
    """One page of a player's games, newest first, filtered (``game``, ``result``,
    ``opponent``, ``kind``); ``next`` is the ``before`` of the following page."""
    await limited(request, "history")
    filters, before = filters_from(request.query_params)
    raw_limit = request.query_params.get("limit") or "20"
    if not (raw_limit.isdigit() and 1 <= int(raw_limit) <= hist.MAX_PAGE):
        raise _bad("limit", raw_limit, f"a number from 1 to {hist.MAX_PAGE}")
    pid = await history_player(request)
    w = web(request)
    data = await run_in_threadpool(
        run, w.prog, lambda s: hist.page(s, pid, filters, before, int(raw_limit)))
    data["games"] = with_links(data["games"], w.today())
    return JSONResponse(data)


async def record(request: Request) -> Response:
    """A stored game's record (``/replay?record=N`` loads it), as the room's record is
    given out: JSON, or one of the game's notations (``?format=``)."""
    gid = int(request.path_params["record"])
    if gid > MAX_ROW_ID:  # no row has it; PostgreSQL refuses the comparison (500 before)
        raise ClientError("no_record", "there is no such game record", status=404)
    w = web(request)
    row = await run_in_threadpool(run, w.prog, lambda s: hist.record_of(s, gid))
    text = row[2] if row is not None else None
    if row is None or text is None:
        raise ClientError("no_record", "there is no such game record", status=404)
    context, finished = row[0], row[1]
    if embargoed(context, finished, w.today()):
        raise ClientError("not_yet", "this game played a daily challenge; its record (with "
                          "the day's seed) is published once that day is over (UTC)",
                          status=409)
    rec = Record.loads(text)
    fmt = request.query_params.get("format", "json")
    if fmt != "json":
        from ..formats import export_record, formats_for

        if fmt not in formats_for(rec.game):
            raise ClientError("bad_format", f"{rec.game} has no record format {fmt!r}; "
                              f"formats: {', '.join(formats_for(rec.game))}",
                              args={"format": fmt[:40]})
        out = await asyncio.to_thread(export_record, rec, fmt)
        suffix = formats_for(rec.game)[fmt].suffix.lstrip(".") or "txt"
        return Response(out, media_type="text/plain; charset=utf-8", headers={
            "content-disposition":
                f'attachment; filename="asobiba-{rec.game}-game{gid}.{suffix}"'})
    return Response(text, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="asobiba-{rec.game}-game{gid}.json"'})


def export_work(prog: Progression, today: Callable[[], date], pid: int,
                filters: hist.Filters, before: int | None) -> tuple[bytes, str]:
    """The export's zip and the player's name (in a worker thread: :func:`export`)."""
    with prog.session() as s:
        from ..progression.models import PlayerRow

        p = s.get(PlayerRow, pid)
        if p is None:
            raise ProgressionError(f"no player {pid}")
        who = {"id": p.id, "name": p.name, "kind": p.kind}
        return (build_export(hist.records(s, pid, filters, before), who, filters,
                             today()), p.name)


async def export(request: Request) -> Response:
    """Every game of a player (filtered like the list) in one zip: built in a worker
    thread within caps of games, bytes and CPU (``build_export``), so a player with
    thousands of games costs one capped file, never a frozen process."""
    await limited(request, "history_export")
    filters, before = filters_from(request.query_params)
    pid = await history_player(request)
    w = web(request)
    try:
        body, name = await asyncio.wait_for(asyncio.to_thread(
            export_work, w.prog, w.today, pid, filters, before), EXPORT_WALL)
    except TimeoutError:
        raise ClientError("busy", f"the export took over {EXPORT_WALL:g} s; the server is "
                          "busy — try again later", status=503) from None
    return Response(body, media_type="application/zip", headers={
        "content-disposition":
            f'attachment; filename="asobiba-games-{_safe(name)}-{pid}.zip"'})


def history_routes() -> list[Route]:
    """A player's games: the filtered list, the export, a game's record — each behind the
    progression layer's refusal wrapper; the ``{player}`` path parameter is a number or
    ``me`` (404 when there is no such player: ``progress.accounts.history_player``)."""
    return [
        Route("/api/players/{player}/games", handled(games)),
        Route("/api/players/{player}/export", handled(export)),
        Route("/api/records/{record}", handled(record)),
    ]
