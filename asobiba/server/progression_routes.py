"""The progression layer over HTTP: tutorials, accounts (session cookie), player pages,
leaderboards, daily challenges and the ladder. Every call goes to
:class:`asobiba.progression.Progression` on the rooms' own database engine; argon2 and other
blocking work runs in the thread pool so the event loop keeps serving moves."""

from __future__ import annotations

import json
import time
from collections import defaultdict, deque
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..games import available
from ..progression import Progression
from ..progression.errors import AuthError, ProgressionError

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
COOKIE = "asobiba_session"
COOKIE_AGE = 30 * 24 * 3600  # the progression layer's session lifetime
MAX_BODY = 16_000
MAX_MOVE = 64
LOGIN_WINDOW, LOGIN_TRIES = 60.0, 5  # per client address and per account name


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.response = _error(status, code, message)


class RateLimiter:
    """At most ``tries`` attempts per key in a sliding ``window`` (seconds): slows password
    guessing without locking the real owner out for long."""

    def __init__(self, tries: int = LOGIN_TRIES, window: float = LOGIN_WINDOW) -> None:
        self.tries, self.window = tries, window
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, *keys: str) -> bool:
        now = time.monotonic()
        for key in keys:
            q = self.seen[key]
            while q and now - q[0] > self.window:
                q.popleft()
        if any(len(self.seen[k]) >= self.tries for k in keys):
            return False
        for key in keys:
            self.seen[key].append(now)
        return True


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _Refused(413, "too_large", f"the request is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise _Refused(400, "bad_json", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise _Refused(400, "bad_json", "the request must be a JSON object")
    return data


def _text(data: dict[str, Any], key: str, limit: int = 1024) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise _Refused(400, "bad_field", f"'{key}' must be text of 1 to {limit} characters")
    return value


def _game_id(request: Request) -> str:
    game = request.path_params["game"]
    if game not in available():
        raise _Refused(404, "unknown_game",
                       f"unknown game {game!r}; games here: {', '.join(available())}")
    return str(game)


def _handled(fn: Any) -> Any:
    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)  # type: ignore[no-any-return]
        except _Refused as exc:
            return exc.response
        except AuthError as exc:
            return _error(401, "auth", str(exc))
        except ProgressionError as exc:
            return _error(400, type(exc).__name__, str(exc))
    return endpoint


def _page(filename: str) -> Any:
    async def endpoint(request: Request) -> Response:
        return FileResponse(WEB_DIR / filename, headers={"cache-control": "no-cache"})
    return endpoint


def progression_routes(engine: Engine, prog: Progression | None = None) -> list[Route]:
    """Routes to mount in the app; ``prog`` lets tests pass a cheap password hasher."""
    prog = prog or Progression(engine)
    limiter = RateLimiter()

    def set_cookie(response: Response, request: Request, token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")

    async def current(request: Request) -> dict[str, Any] | None:
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        try:
            return await run_in_threadpool(prog.whoami, token)
        except AuthError:
            return None

    async def need_player(request: Request) -> dict[str, Any]:
        me = await current(request)
        if me is None:
            raise _Refused(401, "not_signed_in", "sign in (or play as a guest) first")
        return me

    def public(player: dict[str, Any]) -> dict[str, Any]:
        return {k: player.get(k) for k in ("id", "name", "kind")}

    # ---- tutorials ---------------------------------------------------------------------------
    async def tutorial(request: Request) -> Response:
        game = _game_id(request)
        try:
            data = await run_in_threadpool(prog.tutorial, game)
        except KeyError:
            raise _Refused(404, "no_tutorial", f"{game} has no tutorial yet") from None
        return JSONResponse(data)

    async def tutorial_attempt(request: Request) -> Response:
        game = _game_id(request)
        move = _text(await _body(request), "move", MAX_MOVE)
        step = request.path_params["step"]
        try:
            data = await run_in_threadpool(prog.tutorial_attempt, game, step, move)
        except KeyError:
            raise _Refused(404, "no_step", f"the {game} tutorial has no step {step!r}") from None
        return JSONResponse(data)

    # ---- accounts ----------------------------------------------------------------------------
    async def me(request: Request) -> Response:
        player = await current(request)
        return JSONResponse({"player": public(player) if player else None})

    async def register(request: Request) -> Response:
        data = await _body(request)
        name, password = _text(data, "name", 64), _text(data, "password")
        token = request.cookies.get(COOKIE) or ""
        guest = await current(request)
        if guest and guest.get("kind") == "guest":
            # a guest who registers keeps their history, ratings and ladder (and session)
            player = await run_in_threadpool(prog.claim_guest, token, name, password)
        else:
            player, token = await run_in_threadpool(prog.register, name, password)
        response = JSONResponse({"player": public(player)}, status_code=201)
        set_cookie(response, request, token)
        return response

    async def login(request: Request) -> Response:
        data = await _body(request)
        name, password = _text(data, "name", 64), _text(data, "password")
        client = request.client.host if request.client else "?"
        if not limiter.allow(f"ip:{client}", f"name:{name.casefold()}"):
            raise _Refused(429, "too_many", "too many sign-in attempts; wait a minute and "
                           "try again")
        player, token = await run_in_threadpool(prog.login, name, password)
        response = JSONResponse({"player": public(player)})
        set_cookie(response, request, token)
        return response

    async def guest(request: Request) -> Response:
        player, token = await run_in_threadpool(prog.guest)
        response = JSONResponse({"player": public(player)}, status_code=201)
        set_cookie(response, request, token)
        return response

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        if token:
            try:
                await run_in_threadpool(prog.logout, token)
            except AuthError:
                pass
        response = JSONResponse({"player": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    # ---- pages of players and games ----------------------------------------------------------
    async def player_page(request: Request) -> Response:
        raw = request.path_params["player"]
        if raw == "me":
            pid = int((await need_player(request))["id"])
        elif raw.isdigit():
            pid = int(raw)
        else:
            raise _Refused(404, "no_player", "there is no such player")
        try:
            page = await run_in_threadpool(prog.player_page, pid)
        except ProgressionError:
            raise _Refused(404, "no_player", "there is no such player") from None
        return JSONResponse(page)

    async def leaderboards(request: Request) -> Response:
        game = _game_id(request)
        return JSONResponse({"game": game,
                             "pools": await run_in_threadpool(prog.leaderboards, game)})

    # ---- daily challenge ---------------------------------------------------------------------
    def _day(request: Request) -> date:
        raw = request.query_params.get("date")
        if raw is None:
            return date.today()
        try:
            return date.fromisoformat(raw)
        except ValueError:
            raise _Refused(400, "bad_date", "date must look like 2026-11-29") from None

    async def daily(request: Request) -> Response:
        game = _game_id(request)
        day = _day(request)
        try:
            challenge = await run_in_threadpool(prog.daily_challenge, game, day)
        except (KeyError, ValueError) as exc:
            raise _Refused(404, "no_daily", str(exc)) from None
        player = await current(request)
        calendar = None
        if player:
            calendar = await run_in_threadpool(prog.daily_calendar, int(player["id"]), game,
                                               day.year, day.month)
        return JSONResponse({"date": day.isoformat(), "challenge": challenge,
                             "calendar": calendar})

    async def daily_answer(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        answers = (await _body(request)).get("answers")
        if not isinstance(answers, list) or not all(isinstance(a, str) and len(a) < 16
                                                    for a in answers) or len(answers) > 32:
            raise _Refused(400, "bad_field", "'answers' must be a list of short texts")
        today = date.today()
        events = await run_in_threadpool(prog.daily_answer, int(player["id"]), game, today,
                                         answers, today)
        return JSONResponse({"events": events})

    # ---- ladder ------------------------------------------------------------------------------
    async def ladder(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        try:
            status = await run_in_threadpool(prog.ladder, int(player["id"]), game)
        except KeyError as exc:
            raise _Refused(404, "no_ladder", str(exc)) from None
        return JSONResponse(status)

    async def ladder_exam(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        return JSONResponse(await run_in_threadpool(prog.start_exam, int(player["id"]), game))

    async def ladder_leave(request: Request) -> Response:
        game = _game_id(request)
        player = await need_player(request)
        events = await run_in_threadpool(prog.leave_exam, int(player["id"]), game)
        return JSONResponse({"events": events})

    h = _handled
    return [
        Route("/tutorial/{game}", _page("tutorial.html")),
        Route("/account", _page("account.html")),
        Route("/player/{player}", _page("player.html")),
        Route("/leaderboard/{game}", _page("leaderboard.html")),
        Route("/daily/{game}", _page("daily.html")),
        Route("/ladder/{game}", _page("ladder.html")),
        Route("/api/tutorials/{game}", h(tutorial)),
        Route("/api/tutorials/{game}/{step}", h(tutorial_attempt), methods=["POST"]),
        Route("/api/account", h(me)),
        Route("/api/account/register", h(register), methods=["POST"]),
        Route("/api/account/login", h(login), methods=["POST"]),
        Route("/api/account/guest", h(guest), methods=["POST"]),
        Route("/api/account/logout", h(logout), methods=["POST"]),
        Route("/api/players/{player}", h(player_page)),
        Route("/api/leaderboards/{game}", h(leaderboards)),
        Route("/api/daily/{game}", h(daily)),
        Route("/api/daily/{game}/answer", h(daily_answer), methods=["POST"]),
        Route("/api/ladder/{game}", h(ladder)),
        Route("/api/ladder/{game}/exam", h(ladder_exam), methods=["POST"]),
        Route("/api/ladder/{game}/leave", h(ladder_leave), methods=["POST"]),
    ]


__all__ = ["RateLimiter", "progression_routes"]
