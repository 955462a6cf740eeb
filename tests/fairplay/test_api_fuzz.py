"""Issue 14 item 3: schemathesis fuzzes every endpoint of the served OpenAPI document
against a real ``asobiba serve`` process; no request may get a 5xx (a 503 ``busy`` is the
documented time-budget answer, so only 500–502 and 504+ fail), and every answer must be one
the document describes: a documented status, its content type, and a body valid against
that status's schema (schemathesis's response-conformance checks) — the answer models of
asobiba/server/api_schema.py are checked against real answers here.

It runs twice: on the embedded server (SQLite) and on one backed by a throwaway PostgreSQL
(issue 25 item 7: text that PostgreSQL cannot store — a NUL — answered 500 there while
SQLite stored it).

Bounded and deterministic: ``derandomize`` (a fixed seed), a few examples per operation, so
the whole run stays well under a few minutes on a loaded 2-core machine (PostgreSQL's run
takes fewer examples per operation: its writes cost more)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.web.browser import Server
from tests.web.conftest import pg_cluster  # noqa: F401 - the session's PostgreSQL

CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]

EXAMPLES = {"sqlite": 12, "postgresql": 6}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def api_server(tmp_path_factory: pytest.TempPathFactory,
               request: pytest.FixtureRequest) -> Iterator[Server]:
    db_url = None
    if request.param == "postgresql":
        db_url = str(request.getfixturevalue("pg_cluster").new_database())
    srv = Server(Path(tmp_path_factory.mktemp("fuzz")), db_url=db_url).start()
    srv.kind = request.param  # type: ignore[attr-defined]
    yield srv
    srv.stop()


def test_fuzz_every_operation_without_server_errors(api_server: Server) -> None:
    from hypothesis import given

    schema = schemathesis.openapi.from_url(f"{api_server.url}/api/openapi.json")
    failures: list[str] = []
    answered: dict[tuple[str, str], int] = {}
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES[api_server.kind],  # type: ignore[attr-defined]
                  derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def fuzz(case: Any) -> None:
            response = case.call(timeout=60)
            if response.status_code >= 500 and response.status_code != 503:
                failures.append(f"{case.method} {case.formatted_path} body={case.body!r:.200}"
                                f" → {response.status_code}: {response.text[:200]}")
                return
            if response.status_code < 400:
                answered[case.method, case.path] = response.status_code
            try:
                case.validate_response(response, checks=CONFORMANCE)
            except (AssertionError, BaseExceptionGroup) as exc:  # schemathesis's failures
                failures.append(f"{case.method} {case.formatted_path} → "
                                f"{response.status_code}: {str(exc)[:400]}")
            if response.status_code >= 400:
                body = response.json()
                if set(body) != {"error"} or not (
                        {"code", "message"} <= set(body["error"]) <= {"code", "message", "args"}):
                    failures.append(f"{case.method} {case.formatted_path}: error shape {body}")

        fuzz()
    # every operation of the document (schemathesis leaves out the document's own URL)
    assert operations == sum(len(ops) for path, ops in schema.raw_schema["paths"].items()
                             if path != "/api/openapi.json")
    assert not failures, "\n".join(failures[:20])
    # the conformance checks saw real successful answers, not only refusals
    assert len(answered) >= 10, answered


def _with_nul(value: Any) -> tuple[Any, bool]:
    """``value`` with a NUL put into every string in it; whether it held any string."""
    if isinstance(value, str):
        return value[:1] + "\x00" + value[1:], True
    if isinstance(value, dict):
        pairs = {k: _with_nul(v) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(h for _, h in pairs.values())
    if isinstance(value, list):
        items = [_with_nul(v) for v in value]
        return [v for v, _ in items], any(h for _, h in items)
    return value, False


def test_a_nul_in_any_string_of_any_operation_is_refused_as_bad_text(
        api_server: Server) -> None:
    """Issue 25 item 7: a NUL in a path parameter, a query parameter or any string of a
    JSON body, on every operation of the document: 400 ``bad_text`` — never a 5xx, and on
    PostgreSQL (which cannot store a NUL) least of all. On the old main six operations
    answered 500 there."""
    from hypothesis import given

    schema = schemathesis.openapi.from_url(f"{api_server.url}/api/openapi.json")
    wrong: list[str] = []
    tried: set[tuple[str, str]] = set()
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=2, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def poison(case: Any) -> None:
            hit = False
            for part in ("path_parameters", "query", "body"):
                value = getattr(case, part, None)
                if value:
                    poisoned, h = _with_nul(value)
                    if h:
                        setattr(case, part, poisoned)
                        hit = True
            if not hit:
                return
            tried.add((case.method, case.path))
            response = case.call(timeout=60)
            error = response.json().get("error") if response.status_code >= 400 else None
            if response.status_code != 400 or not error or error.get("code") != "bad_text":
                wrong.append(f"{case.method} {case.formatted_path} body={case.body!r:.120} "
                             f"→ {response.status_code}: {response.text[:160]}")

        poison()
    assert not wrong, "\n".join(wrong[:20])
    assert len(tried) >= 20, sorted(tried)


def test_every_api_route_is_in_the_document(api_server: Server) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{api_server.url}/api/openapi.json", timeout=60) as res:
        doc = json.loads(res.read())
    from asobiba.server import create_app

    app = create_app(str(api_server.data_dir / "x"), bot_processes=0)
    from starlette.routing import Route

    from asobiba.server.api_schema import openapi_path

    paths = {openapi_path(r.path) for r in app.routes if isinstance(r, Route)}  # pages too
    assert paths == set(doc["paths"]) and "/r/{room}" in paths
