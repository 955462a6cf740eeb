"""A signed-in player's settings on the server (issue 27 item 5): ``GET`` and ``PUT
/api/account/settings``, one JSON object per player in ``web_account_settings``. The body is
checked by :class:`api_schema.SettingsBody` before the route reads it (a bad value, an
unknown key or a non-object is a 400 ``bad_settings`` naming the field; nothing changes).
A guest account has settings too; no session is a 401 ``not_signed_in``."""

from __future__ import annotations

import json

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..tables import ACCOUNT_SETTINGS
from .api_schema import SettingsBody, SettingsValues, parsed
from .db import reader
from .progress.context import handled, need_player, web


def load(engine: Engine, player_id: int) -> dict[str, str]:
    with reader(engine).connect() as conn:
        raw = conn.execute(select(ACCOUNT_SETTINGS.c.settings)
                           .where(ACCOUNT_SETTINGS.c.player_id == player_id)).scalar()
    if raw is None:
        return {}
    # stored by store() only, after validation; re-checked so an old row with a value
    # no longer offered reads as the defaults, never as an error
    try:
        return SettingsValues.model_validate(json.loads(raw)).model_dump()
    except ValueError:
        return {}


def store(engine: Engine, player_id: int, values: dict[str, str]) -> None:
    with engine.begin() as conn:
        conn.execute(delete(ACCOUNT_SETTINGS).where(ACCOUNT_SETTINGS.c.player_id == player_id))
        conn.execute(insert(ACCOUNT_SETTINGS).values(player_id=player_id,
                                                     settings=json.dumps(values)))


# ---- the handlers (module level: each reads the app's ProgressionWeb with ``web``) ----------
async def get_settings(request: Request) -> Response:
    player = await need_player(request)
    return JSONResponse({"settings": await run_in_threadpool(load, web(request).engine,
                                                             int(str(player["id"])))})


async def put_settings(request: Request) -> Response:
    player = await need_player(request)
    values = (await parsed(request, SettingsBody)).settings.model_dump()
    await run_in_threadpool(store, web(request).engine, int(str(player["id"])), values)
    return JSONResponse({"settings": values})


def settings_routes(engine: Engine) -> list[Route]:
    """The two routes (made on ``engine``, the progression layer's), behind the progression
    layer's refusal wrapper; no session is a 401 (``need_player``)."""
    ACCOUNT_SETTINGS.metadata.create_all(engine, tables=[ACCOUNT_SETTINGS])
    return [Route("/api/account/settings", handled(get_settings)),
            Route("/api/account/settings", handled(put_settings), methods=["PUT"])]
