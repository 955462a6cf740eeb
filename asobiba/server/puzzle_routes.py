"""The puzzle trainer over HTTP (docs/puzzles.md): the page, the sets, starting an attempt,
moves and answers — all checked on the server (asobiba.progression.puzzle_trainer)."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Awaitable, Callable
from datetime import date
from typing import TypeVar

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..core.jsontypes import JSONObject
from ..progression import puzzle_trainer as trainer
from ..progression.errors import AuthError
from ..progression.models import create_all
from ..progression.service import Progression
from ..tables import PUZZLE_ATTEMPTS, PUZZLE_SEEN
from .progression_routes import COOKIE, WEB_DIR, _utc_today
from .security import BadJSON, parse_json

T = TypeVar("T")
MAX_BODY = 4_000
RETRIES = 8


def _error(status: int, code: str, message: str, args: JSONObject | None = None
           ) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "args": args or {}}},
                        status_code=status)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str, **args: object) -> None:
        super().__init__(message)
        self.response = _error(status, code, message, {k: str(v) for k, v in args.items()})


class PuzzleWeb:
    """The trainer's part of the app, kept at ``AppContext.puzzles`` and read by each handler
    with :func:`pweb`: the rooms' database engine, the progression layer on it and the
    server's date (tests move it)."""

    def __init__(self, engine: Engine, today: Callable[[], date] = _utc_today) -> None:
        create_all(engine)
        PUZZLE_ATTEMPTS.metadata.create_all(engine, tables=[PUZZLE_ATTEMPTS, PUZZLE_SEEN])
        self.engine = engine
        self.prog = Progression(engine)
        self.today = today
        self.routes: list[Route] = route_table()

    def run(self, fn: Callable[[Session], T]) -> T:
        """One transaction, again after a short wait when it lost a race (all rolled back)."""
        for attempt in range(RETRIES):
            try:
                with Session(self.engine) as s, s.begin():
                    return fn(s)
            except (IntegrityError, OperationalError):
                if attempt == RETRIES - 1:
                    raise
                time.sleep(random.uniform(0.0, 0.005 * 2 ** min(attempt, 6)))
        raise AssertionError("unreachable")


def puzzle_routes(engine: Engine, today: Callable[[], date] = _utc_today) -> PuzzleWeb:
    """The trainer's part, on the rooms' database engine: its routes are :attr:`PuzzleWeb.routes`;
    the app keeps it at ``AppContext.puzzles``, where the handlers read it."""
    return PuzzleWeb(engine, today)


def pweb(request: Request) -> PuzzleWeb:
    """The app's puzzle trainer part, from a request."""
    from .routes.context import ctx

    got = ctx(request).puzzles
    assert got is not None, "create_app sets it"
    return got


# ---- the handlers (module level: each reads the app's PuzzleWeb) -----------------------------
async def who(request: Request) -> int:
    token = request.cookies.get(COOKIE)
    if token:
        try:
            me = await run_in_threadpool(pweb(request).prog.whoami, token)
            return int(me["id"])  # type: ignore[call-overload]
        except AuthError:
            pass
    raise _Refused(401, "not_signed_in", "sign in (or play as a guest) first")


async def body(request: Request) -> JSONObject:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _Refused(413, "too_large", f"the request is larger than {MAX_BODY} bytes",
                       limit=MAX_BODY)
    try:
        data = parse_json(raw, empty={})
    except BadJSON as exc:
        raise _Refused(400, "bad_json", str(exc)) from None
    if not isinstance(data, dict):
        raise _Refused(400, "bad_json", "the request must be a JSON object")
    return data


def text(data: JSONObject, key: str, limit: int = 64) -> str:
    v = data.get(key)
    if not isinstance(v, str) or not v or len(v) > limit:
        raise _Refused(400, "bad_field", f"'{key}' must be text of 1 to {limit} characters",
                       field=key, limit=limit)
    return v


def attempt_id(request: Request) -> int:
    raw = str(request.path_params["attempt"])
    if not raw.isdigit() or len(raw) > 9:
        raise _Refused(404, "no_attempt", f"no attempt {raw}", attempt=raw)
    return int(raw)


def handled(fn: Callable[[Request], Awaitable[Response]]
            ) -> Callable[[Request], Awaitable[Response]]:
    """``fn`` with its refusals (and the trainer's errors) as answers."""
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except _Refused as exc:
            return exc.response
        except trainer.PuzzleError as exc:
            return _error(exc.http, exc.refusal, str(exc),
                          {k: str(v) for k, v in exc.details.items()})
    return endpoint


async def page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "puzzles.html", headers={"cache-control": "no-cache"})


def _index(day: date, me: JSONObject | None, s: Session) -> JSONObject:
    name, pz = trainer.daily_puzzle(day)
    out: JSONObject = {"sets": trainer.sets(), "day": day.isoformat(),
                       "daily": {"set": name, "id": pz.id}, "me": None}
    if me is not None:
        out["me"] = {"id": me["id"], "name": me["name"],
                     **trainer.summary(s, int(me["id"]))}  # type: ignore[call-overload]
    return out


async def index(request: Request) -> Response:
    pw = pweb(request)
    day = pw.today()
    token = request.cookies.get(COOKIE)
    me: JSONObject | None = None
    if token:
        try:
            me = await run_in_threadpool(pw.prog.whoami, token)
        except AuthError:
            me = None
    return JSONResponse(await run_in_threadpool(pw.run, functools.partial(_index, day, me)))


async def start(request: Request) -> Response:
    pid = await who(request)
    data = await body(request)
    mode = text(data, "mode", 12)
    name = text(data, "set", 40) if mode != "daily" else str(data.get("set") or "")
    run_id = data.get("run")
    if run_id is not None and (not isinstance(run_id, int) or isinstance(run_id, bool)):
        raise _Refused(400, "bad_field", "'run' must be a number", field="run")
    pw = pweb(request)
    day = pw.today()
    return JSONResponse(await run_in_threadpool(
        pw.run, lambda s: trainer.start(s, pid, name, mode, day, run_id)))


async def move(request: Request) -> Response:
    pid = await who(request)
    aid = attempt_id(request)
    mv = text(await body(request), "move")
    return JSONResponse(await run_in_threadpool(
        pweb(request).run, lambda s: trainer.move(s, pid, aid, mv)))


async def answer(request: Request) -> Response:
    pid = await who(request)
    aid = attempt_id(request)
    answers = (await body(request)).get("answers")
    if (not isinstance(answers, list) or len(answers) > 16
            or not all(isinstance(a, str) and 0 < len(a) <= 8 for a in answers)):
        raise _Refused(400, "bad_field", "'answers' must be a list of short texts",
                       field="answers")
    texts = [str(a) for a in answers]
    return JSONResponse(await run_in_threadpool(
        pweb(request).run, lambda s: trainer.answer(s, pid, aid, texts)))


def route_table() -> list[Route]:
    """The trainer's routes, in their order."""
    return [
        Route("/puzzles", page),
        Route("/api/puzzles", handled(index)),
        Route("/api/puzzles/start", handled(start), methods=["POST"]),
        Route("/api/puzzles/attempts/{attempt}/move", handled(move), methods=["POST"]),
        Route("/api/puzzles/attempts/{attempt}/answer", handled(answer), methods=["POST"]),
    ]


__all__ = ["PuzzleWeb", "puzzle_routes", "pweb"]
