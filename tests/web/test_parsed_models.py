"""Issue 26 item 5: a handler reads its request body as the parsed model — the one the route
table checked (:class:`api_schema.CheckedRequest`) — and never the raw JSON again."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.requests import Request

from asobiba.server import api_schema
from asobiba.server.api_schema import CheckedRequest, LadderNext, TutorialMove, parsed
from asobiba.server.rooms import ClientError


def request(body: bytes, cls: type[Request] = Request) -> Any:
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    scope = {"type": "http", "method": "POST", "path": "/x", "headers": [],
             "query_string": b""}
    return cls(scope, receive)


def test_the_route_tables_check_is_the_handlers_model(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = api_schema.check

    def counting(model: Any, data: Any, status: int = 400) -> Any:
        calls.append(model.__name__)
        return real(model, data, status)
    monkeypatch.setattr(api_schema, "check", counting)
    req = request(b'{"room": "abc", "seat": 1, "key": "k"}', CheckedRequest)
    req.model = LadderNext

    async def go() -> LadderNext:
        return await parsed(req, LadderNext)
    got = asyncio.run(go())
    assert (got.room, got.seat, got.key) == ("abc", 1, "k")
    assert got is req.checked and calls == ["LadderNext"], "checked once, the same model"


def test_a_body_outside_the_route_table_is_checked_by_parsed() -> None:
    async def go(body: bytes) -> TutorialMove:
        return await parsed(request(body), TutorialMove)
    assert asyncio.run(go(b'{"move": "d3"}')).move == "d3"
    with pytest.raises(ClientError) as err:
        asyncio.run(go(b'{"move": ""}'))
    assert err.value.code == "bad_field"


def test_a_body_over_the_routes_own_limit_is_413() -> None:
    async def go() -> TutorialMove:
        return await parsed(request(b'{"move": "d3", "pad": "' + b"x" * 100 + b'"}'),
                            TutorialMove, limit=50)
    with pytest.raises(ClientError) as err:
        asyncio.run(go())
    assert err.value.code == "too_large" and err.value.status == 413
