"""Accounts over HTTP (the session cookie): who is signed in, registering (a guest keeps
their history), signing in and out, a guest account; and the pages about players — a
player's page, the ``{player}`` of the history routes, a game's leaderboards."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...core.jsontypes import JSONObject
from ...progression.accounts import password_weakness
from ...progression.errors import AuthError, ProgressionError
from ...progression.names import normal as normal_name
from ..api_schema import Credentials, parsed
from .context import (
    COOKIE,
    MAX_BODY,
    Refused,
    current,
    game_id,
    limited,
    need_player,
    public,
    set_cookie,
    web,
)


async def me(request: Request) -> Response:
    player = await current(request)
    return JSONResponse({"player": public(player) if player else None})


async def register(request: Request) -> Response:
    prog = web(request).prog
    creds = await parsed(request, Credentials, MAX_BODY)
    name, password = creds.name, creds.password
    # a weak password is refused before the limit counts (no argon2 spent on it), so a
    # person trying a few passwords is not locked out
    weak = await run_in_threadpool(password_weakness, password, name)
    if weak:
        raise Refused(400, "bad_account", weak)
    await limited(request, "register")
    token = request.cookies.get(COOKIE) or ""
    guest = await current(request)
    if guest and guest.get("kind") == "guest":
        # a guest who registers keeps their history, ratings and ladder — under a new
        # session: the guest's token (which someone may have planted) stops working
        player, token = await run_in_threadpool(prog.claim_guest, token, name, password)
    else:
        player, token = await run_in_threadpool(prog.register, name, password)
    response = JSONResponse({"player": public(player)}, status_code=201)
    set_cookie(response, request, token)
    return response


async def login(request: Request) -> Response:
    prog = web(request).prog
    creds = await parsed(request, Credentials, MAX_BODY)
    name, password = creds.name, creds.password
    # per (address, name) — someone elsewhere cannot lock the owner out — and per
    # address over all names
    await limited(request, "login_ip")
    # the name as it is looked up (NFKC): "ｖｉｃｔｉｍ" is "victim"'s count, not a new one
    await limited(request, "login", normal_name(name).casefold())
    player, token = await run_in_threadpool(prog.login, name, password)
    old = request.cookies.get(COOKIE)
    if old:  # a new session id at login: whatever session the browser had ends
        await run_in_threadpool(prog.logout, old)
    response = JSONResponse({"player": public(player)})
    set_cookie(response, request, token)
    return response


async def guest(request: Request) -> Response:
    await limited(request, "guest")
    player, token = await run_in_threadpool(web(request).prog.guest)
    response = JSONResponse({"player": public(player)}, status_code=201)
    set_cookie(response, request, token)
    return response


async def logout(request: Request) -> Response:
    token = request.cookies.get(COOKIE)
    if token:
        try:
            await run_in_threadpool(web(request).prog.logout, token)
        except AuthError:
            pass
    response = JSONResponse({"player": None})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


# ---- pages of players and games -----------------------------------------------------------------
async def player_page(request: Request) -> Response:
    w = web(request)
    raw = request.path_params["player"]
    if raw == "me":
        pid = int((await need_player(request))["id"])
    elif raw.isdigit() and len(raw) <= 12:
        pid = int(raw)
    else:
        raise Refused(404, "no_player", "there is no such player")
    try:
        page = await run_in_threadpool(w.prog.player_page, pid)
    except ProgressionError:
        raise Refused(404, "no_player", "there is no such player") from None
    from ..bot_api import BOT_MARK, bot_accounts  # a BOT account is marked (bot-api.md)

    page["title"] = BOT_MARK if await run_in_threadpool(bot_accounts, w.engine, [pid]) \
        else None
    return JSONResponse(page)


async def history_player(request: Request) -> int:
    """The ``{player}`` of a history route: a number or ``me``; 404 when none."""
    raw = request.path_params["player"]
    if raw == "me":
        return int((await need_player(request))["id"])
    from ...progression.models import PlayerRow

    prog = web(request).prog

    def known() -> bool:
        with prog.session() as s:
            return s.get(PlayerRow, int(raw)) is not None
    if not (raw.isdigit() and int(raw) < 2**31 and await run_in_threadpool(known)):
        raise Refused(404, "no_player", "there is no such player")
    return int(raw)


async def leaderboards(request: Request) -> Response:
    """Every rated pool of a game: its established people (ratings.leaderboard: no
    bot, no provisional rating, enough games against enough established opponents)."""
    game = game_id(request)
    prog = web(request).prog

    def load() -> JSONObject:
        return {pool: prog.leaderboard(pool, 50)
                for pool in prog.leaderboards(game, 1)}
    return JSONResponse({"game": game, "pools": await run_in_threadpool(load)})
