"""The Bot API's request and answer bodies (docs/bot-api.md), registered in the typed API's
:data:`~.api_schema.OPS` and :data:`~.api_schema.PATHS` (so every Bot API route is checked
and documented like the others: /api/openapi.json). A JSON boundary, like api_schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt

from . import api_schema


class TokenRequest(BaseModel):
    scopes: list[Literal["bot:play"]] = Field(default=["bot:play"], max_length=4)
    label: str = Field("", max_length=80)


class TokenCreated(BaseModel):
    id: str
    token: str
    scopes: list[str]
    label: str


class TokenInfo(BaseModel):
    id: str
    scopes: list[str]
    label: str
    created: str


class TokenList(BaseModel):
    tokens: list[TokenInfo]


class Done(BaseModel):
    ok: bool


class Upgraded(BaseModel):
    id: int
    name: str
    title: str


class ChallengeRequest(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, object] = Field(default_factory=dict)
    seat: StrictInt = Field(0, ge=0, le=15)
    """The challenger's seat (the bot takes the other one)."""


class AIChallengeRequest(ChallengeRequest):
    level: str = Field(max_length=40)
    """The server CPU's level (``GET /api/games``: each game's levels)."""
    seat: StrictInt = Field(0, ge=0, le=15)
    """The BOT account's seat; the CPU takes every other one."""


class ChallengeCreated(BaseModel):
    challenge: str
    room: str
    url: str
    seat: int
    key: str | None = None
    status: str


class ChallengeInfo(BaseModel):
    id: str
    status: str
    reason: str | None
    room: str
    bot: str
    game: str


class Decline(BaseModel):
    reason: Literal["generic", "later", "variant", "busy"] = "generic"


class MovePlayed(BaseModel):
    ok: bool
    ply: int


class NDJSON(api_schema.Media):
    pass


STREAM = NDJSON("application/x-ndjson", "one JSON event per line (an empty line: keep-alive)")


class TokenPath(api_schema._Params):
    token_id: str = Field(max_length=16)


class ChallengePath(api_schema._Params):
    challenge: str = Field(max_length=16)


class BotPath(api_schema._Params):
    bot: str = Field(max_length=64)


class MovePath(api_schema._Params):
    room: str = Field(max_length=32)
    move: str = Field(max_length=200)


class PlyQuery(api_schema._Params):
    ply: str | None = Field(None, max_length=8)


api_schema.PATHS.update({
    "/api/account/tokens/{token_id}": TokenPath,
    "/api/challenge/{bot}": BotPath,
    "/api/challenge/{challenge}/status": ChallengePath,
    "/api/bot/challenge/{challenge}/accept": ChallengePath,
    "/api/bot/challenge/{challenge}/decline": ChallengePath,
    "/api/bot/game/stream/{room}": api_schema.RoomPath,
    "/api/bot/game/{room}/move/{move:path}": MovePath,
    "/api/bot/game/{room}/resign": api_schema.RoomPath,
})
api_schema.OPS.update({
    ("POST", "/api/account/tokens"): api_schema.Op({201: TokenCreated}, body=TokenRequest),
    ("GET", "/api/account/tokens"): api_schema.Op({200: TokenList}),
    ("DELETE", "/api/account/tokens/{token_id}"): api_schema.Op({200: Done}),
    ("POST", "/api/bot/account/upgrade"): api_schema.Op({200: Upgraded}),
    ("GET", "/api/bot/stream/event"): api_schema.Op({200: STREAM}),
    ("GET", "/api/bot/game/stream/{room}"): api_schema.Op({200: STREAM}),
    ("POST", "/api/bot/game/{room}/move/{move:path}"): api_schema.Op({200: MovePlayed},
                                                                     query=PlyQuery),
    ("POST", "/api/bot/game/{room}/resign"): api_schema.Op({200: Done}),
    ("POST", "/api/challenge/{bot}"): api_schema.Op({201: ChallengeCreated},
                                                    body=ChallengeRequest),
    ("GET", "/api/challenge/{challenge}/status"): api_schema.Op({200: ChallengeInfo}),
    ("POST", "/api/bot/challenge/{challenge}/accept"): api_schema.Op({200: ChallengeCreated}),
    ("POST", "/api/bot/challenge/{challenge}/decline"): api_schema.Op({200: Done},
                                                                      body=Decline),
    ("POST", "/api/bot/challenge/ai"): api_schema.Op({201: ChallengeCreated},
                                                     body=AIChallengeRequest),
})
