"""The typed HTTP API: request models (pydantic) and the OpenAPI document the app serves at
``/api/openapi.json`` (docs/web.md, "The typed API").

Why pydantic models on the existing Starlette app rather than FastAPI routers: the routes,
middleware and error shape already exist and are tested; FastAPI would add a second routing
and error layer to keep in step with them. pydantic gives the same two things FastAPI would —
strict validation (``StrictBool``: ``"casual": "false"`` is refused, not read as true) and
JSON Schema for each model — and the document is built from the app's own route table, so a
route added later is in the document (and fuzzed by schemathesis) without a second list.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from starlette.routing import Route

from .rooms import ClientError


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class SeatSpec(_Model):
    kind: Literal["human", "bot"]
    name: str = Field("", max_length=40)
    level: str | None = Field(None, max_length=40)


class Clock(_Model):
    """Fischer (``initial``, ``increment``) or correspondence (``per_move``) seconds; the
    ranges are server.clock's (checked there: one place)."""

    initial: StrictInt | None = None
    increment: StrictInt | None = None
    per_move: StrictInt | None = None


class MatchSpec(_Model):
    format: Literal["single", "reverse", "best_of"]
    games: StrictInt | None = Field(None, ge=3, le=15)


class CreateRoom(_Model):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(max_length=16)
    casual: StrictBool = True
    hotseat: StrictBool = False
    clock: Clock | None = None
    match: Literal["single", "reverse", "best_of"] | MatchSpec | None = None


class SeatCount(_Model):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)


class Credentials(_Model):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class TutorialMove(_Model):
    move: str = Field(min_length=1, max_length=64)


class SeatKey(_Model):
    seat: StrictInt = Field(ge=0, le=15)
    key: str = Field(max_length=100)


class Claim(_Model):
    seats: list[SeatKey] = Field(max_length=16)


class FeedbackRequest(_Model):
    ply: StrictInt = Field(ge=0)
    seat: StrictInt | None = None
    key: str | None = Field(None, max_length=100)


class DailyAnswers(_Model):
    answers: list[str] = Field(max_length=32)


class LadderPlay(_Model):
    tier: str | None = Field(None, max_length=16)


class LadderNext(_Model):
    room: str = Field(max_length=32)
    seat: StrictInt = Field(ge=0, le=15)
    key: str = Field(max_length=100)


class GameRecord(_Model):
    """An asobiba game record (docs/records.md): game, options, seed, moves as text."""

    format: str | None = None
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt | None = None
    moves: list[dict[str, Any]] = Field(default_factory=list)


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    """The one error shape of the API."""

    error: ErrorDetail


REQUESTS: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/api/rooms"): CreateRoom,
    ("POST", "/api/seats"): SeatCount,
    ("POST", "/api/account/register"): Credentials,
    ("POST", "/api/account/login"): Credentials,
    ("POST", "/api/tutorials/{game}/{step}"): TutorialMove,
    ("POST", "/api/rooms/{room}/claim"): Claim,
    ("POST", "/api/rooms/{room}/feedback"): FeedbackRequest,
    ("POST", "/api/daily/{game}/answer"): DailyAnswers,
    ("POST", "/api/ladder/{game}/play"): LadderPlay,
    ("POST", "/api/ladder/{game}/next"): LadderNext,
    ("POST", "/api/replay"): GameRecord,
    ("POST", "/api/review"): GameRecord,
}
"""Each POST route's request body model; a route not listed takes an optional JSON object."""


def check(model: type[BaseModel], data: Any) -> Any:
    """Validate ``data`` against ``model`` (strictly typed fields); a refusal names the field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "body"
        raise ClientError("bad_field", f"{where}: {first.get('msg', 'invalid')}") from None


def openapi(routes: list[Any], games: list[str]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every ``/api/`` route in ``routes``."""
    schemas: dict[str, Any] = {}

    def ref(model: type[BaseModel]) -> dict[str, Any]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            schemas[name] = sub
        schemas[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}

    error = {"description": "refused; nothing was changed",
             "content": {"application/json": {"schema": ref(ErrorResponse)}}}
    paths: dict[str, Any] = {}
    for route in routes:
        if not isinstance(route, Route) or not route.path.startswith("/api/"):
            continue
        params = []
        for name in route.param_convertors:
            schema: dict[str, Any] = {"type": "string", "maxLength": 64}
            if name == "game":
                schema = {"type": "string", "enum": games}
            params.append({"name": name, "in": "path", "required": True, "schema": schema})
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            op: dict[str, Any] = {
                "operationId": f"{method.lower()}_{route.path.strip('/').replace('/', '_')}"
                .replace("{", "").replace("}", ""),
                "summary": (route.endpoint.__doc__ or route.name or "").strip().split("\n")[0],
                "parameters": params,
                "responses": {"200": {"description": "done",
                                      "content": {"application/json": {"schema": {}}}},
                              "201": {"description": "created",
                                      "content": {"application/json": {"schema": {}}}},
                              "400": error, "401": error, "403": error, "404": error,
                              "409": error, "413": error, "415": error, "429": error,
                              "503": error},
            }
            if method == "POST":
                model = REQUESTS.get((method, route.path))
                op["requestBody"] = {
                    "required": model is not None,
                    "content": {"application/json": {
                        "schema": ref(model) if model else {"type": "object"}}}}
            paths.setdefault(route.path, {})[method.lower()] = op
    return {"openapi": "3.1.0",
            "info": {"title": "asobiba", "version": "1",
                     "description": "Every error is {\"error\": {\"code\", \"message\"}}; "
                                    "state-changing requests take JSON from this origin."},
            "paths": paths, "components": {"schemas": schemas}}


__all__ = ["REQUESTS", "ErrorResponse", "check", "openapi"]
