"""Issue 14 item 3: every HTTP route of the API has its models — a request model for its
body, query and path parameters where it takes any, which is what the server checks at run
time, and an answer model per success status plus the one error shape — and the served
OpenAPI document is made of those same models. (Real answers are checked against these
schemas by schemathesis in test_api_fuzz.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel
from starlette.routing import Route
from starlette.testclient import TestClient

from asobiba.server import api_schema, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(str(tmp_path_factory.mktemp("models")), bot_processes=0)
    with TestClient(app) as c:
        yield c


def _operations(client: TestClient) -> list[tuple[str, Route]]:
    ops = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):  # the API's and the pages'; not WebSockets or files
            ops += [(m, route) for m in sorted((route.methods or {"GET"}) - {"HEAD"})]
    return ops


def test_every_route_has_request_and_answer_models(client: TestClient) -> None:
    """Walks the app's own route table: a route added without models fails here."""
    ops = _operations(client)
    assert len(ops) >= 30
    for method, route in ops:
        op = api_schema.OPS.get((method, route.path))
        assert op is not None, f"{method} {route.path} has no models in api_schema.OPS"
        assert op.answers and all(200 <= s < 300 for s in op.answers), route.path
        for answer in op.answers.values():
            parts = answer if isinstance(answer, tuple) else (answer,)
            assert all(isinstance(p, api_schema.Media) or issubclass(p, BaseModel)
                       for p in parts), (route.path, answer)
        if route.param_convertors:
            model = api_schema.PATHS.get(route.path)
            assert model is not None, f"{route.path}: no model of its path parameters"
            assert set(model.model_fields) == set(route.param_convertors), route.path
        # the route that runs is the checked one (api_schema.typed), not the bare handler
        assert route.endpoint.__wrapped__ is not None  # type: ignore[attr-defined]


def test_the_document_is_made_of_the_models_that_check(client: TestClient) -> None:
    doc = client.get("/api/openapi.json").json()
    schemas = doc["components"]["schemas"]
    ops = _operations(client)
    assert sum(len(v) for v in doc["paths"].values()) == len(ops)
    for method, route in ops:
        op = api_schema.OPS[(method, route.path)]
        entry = doc["paths"][api_schema.openapi_path(route.path)][method.lower()]
        for status, answer in op.answers.items():
            content = entry["responses"][str(status)]["content"]
            parts = answer if isinstance(answer, tuple) else (answer,)
            for part in parts:
                if isinstance(part, api_schema.Media):
                    assert part.media_type in content
                else:
                    ref = content["application/json"]["schema"]["$ref"]
                    name = ref.rsplit("/", 1)[1]
                    assert name == part.__name__ and "properties" in schemas[name]
        for status in api_schema.ERRORS:
            ref = entry["responses"][str(status)]["content"]["application/json"]["schema"]
            assert ref["$ref"].endswith("/ErrorResponse"), (route.path, status)
        if op.body is not None:
            assert entry["requestBody"]["required"] is True
            assert entry["requestBody"]["content"]["application/json"]["schema"]["$ref"] \
                .endswith("/" + op.body.__name__)
        else:
            assert "requestBody" not in entry, (method, route.path)
        names = {(p["in"], p["name"]) for p in entry["parameters"]}
        assert {n for w, n in names if w == "path"} == set(route.param_convertors)
        if op.query is not None:
            assert {n for w, n in names if w == "query"} == set(op.query.model_fields)
    error = schemas["ErrorResponse"]
    assert error["required"] == ["error"]
    assert set(schemas["ErrorDetail"]["required"]) == {"code", "message"}


def _path(route: Route) -> str:
    return route.path.replace("{game}", "reversi").replace("{player}", "1") \
        .replace("{room}", "nosuchroom").replace("{seek}", "nosuchseek") \
        .replace("{step}", "first").replace("{tournament}", "1")


def _reads_body() -> Any:
    async def endpoint(request: Any) -> Any:
        from starlette.responses import JSONResponse

        await request.body()
        return JSONResponse({"read": True})
    return endpoint


def test_every_body_model_refuses_a_body_without_its_required_fields(
        client: TestClient, tmp_path: Any) -> None:
    """The model is the runtime validator: every operation's body, when its route reads it,
    is checked by the operation's model (400, the field named) before the route sees it.
    Checked through api_schema.typed for every operation (a route that needs a signed-in
    player or an existing room refuses before it reads a body), and through the real app
    for the operations anyone may call."""
    from starlette.applications import Starlette

    from asobiba.server.app import _error  # the app's one error shape
    from asobiba.server.rooms import ClientError

    async def refused(request: Any, exc: Exception) -> Any:
        assert isinstance(exc, ClientError)
        return _error(exc.status, exc.code, exc.message)

    routes = [Route(path, api_schema.typed(path, {method}, _reads_body()), methods=[method])
              for (method, path), op in api_schema.OPS.items() if op.body is not None]
    assert len(routes) >= 15
    bare = TestClient(Starlette(routes=routes, exception_handlers={ClientError: refused}))
    public = {"/api/rooms", "/api/seats", "/api/replay", "/api/review", "/api/account/login",
              "/api/account/register", "/api/seeks", "/api/seeks/quick",
              "/api/tutorials/{game}/{step}", "/api/print/record"}
    for route in routes:
        method = sorted((route.methods or {"POST"}) - {"HEAD"})[0]  # POST, or PUT (settings)
        op = api_schema.OPS[(method, route.path)]
        assert op.body is not None
        required = [n for n, f in op.body.model_fields.items() if f.is_required()]
        field = (required or list(op.body.model_fields))[0]
        body: dict[str, Any] = {} if required else {field: {"not": ["the", "type"]}}
        for c in (bare, client) if route.path in public else (bare,):
            res = c.request(method, _path(route), json=body)
            assert res.status_code == 400, (route.path, res.text)
            assert set(res.json()) == {"error"}
            assert field in res.json()["error"]["message"], (route.path, res.text)
        good = bare.request(method, _path(route), content=b"{}" if not required else b"[]",
                         headers={"content-type": "application/json"})
        assert good.status_code == (200 if not required else 400), route.path


def test_booleans_are_booleans_and_codes_name_the_problem(client: TestClient) -> None:
    res = client.post("/api/rooms", json={"game": "reversi", "casual": "false",
                                          "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert res.status_code == 400 and "casual" in res.json()["error"]["message"]
    res = client.post("/api/rooms", json={"game": "reversi", "seats": "two"})
    assert res.json()["error"]["code"] == "bad_seats"
    res = client.post("/api/replay", json={"game": "reversi", "moves": "e6"})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_record"
    res = client.post("/api/rooms", content=b"[1, 2]",
                      headers={"content-type": "application/json"})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_json"


def test_query_and_path_parameters_are_checked_by_their_models(client: TestClient) -> None:
    res = client.get("/api/daily/reversi", params={"date": "tomorrow"})
    assert res.status_code == 400 and res.json()["error"]["code"] == "bad_date"
    res = client.get("/api/players/" + "9" * 40)
    assert res.status_code == 404 and res.json()["error"]["code"] == "no_player"
    res = client.get("/api/print/reversi", params={"seed": "x" * 30})
    assert res.status_code == 400 and "seed" in res.json()["error"]["message"]
    res = client.get("/api/rooms/" + "r" * 80)
    assert res.status_code == 404 and res.json()["error"]["code"] == "no_room"


def test_an_untyped_route_stops_the_app() -> None:
    async def new(request: Any) -> Any:
        raise AssertionError("never reached")

    with pytest.raises(RuntimeError, match="GET /api/new"):
        api_schema.bind([Route("/api/new", new)])
    assert api_schema.missing([Route("/api/rooms/{room}", new)]) == []
