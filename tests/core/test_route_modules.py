"""The progression layer's routes are feature modules, not closures in one function (issue 26
item 3): in ``asobiba/server/progress/`` (and the old ``progression_routes.py``) no request
handler is defined inside another function — each is a module-level ``async def`` reading
the app's typed ``ProgressionWeb``. The only nested coroutines allowed are the refusal
wrapper's and the background recording's. The Bot API (``bot_api.py``) likewise: every
handler, helper and NDJSON stream a module-level function taking the app's typed ``BotApi``
(or its parts) — no function inside a function there at all; nor in the analysis board's
``analysis_routes.py`` (its ``AnalysisWeb``). And in no module under ``asobiba/server/`` is
a function defined inside another function given to a ``Route`` or ``WebSocketRoute`` there
(a handler as a closure over the builder's arguments). Parsed with ``ast``; nothing
imported."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "asobiba" / "server"
ALLOWED = {("handled", "endpoint"), ("on_finish", "go")}


def nested_coroutines(source: str) -> list[tuple[str, str]]:
    """(outer function, inner coroutine) for every ``async def`` inside a function."""
    out = []
    for outer in ast.walk(ast.parse(source)):
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            out += [(outer.name, inner.name) for inner in ast.walk(outer)
                    if inner is not outer and isinstance(inner, ast.AsyncFunctionDef)]
    return out


def nested_functions(source: str) -> list[tuple[str, str]]:
    """(outer function, inner function) for every ``def`` or ``async def`` inside a function
    (a lambda is not counted)."""
    out = []
    for outer in ast.walk(ast.parse(source)):
        if isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            out += [(outer.name, inner.name) for inner in ast.walk(outer) if inner is not outer
                    and isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)]
    return out


def test_progression_handlers_are_module_level() -> None:
    files = [*sorted((SERVER / "progress").glob("*.py")), SERVER / "progression_routes.py"]
    assert len(files) >= 8
    found = {f.name: [n for n in nested_coroutines(f.read_text(encoding="utf-8"))
                      if n not in ALLOWED] for f in files}
    assert not {k: v for k, v in found.items() if v}, found


#: The feature modules whose route builders were closures in one function (issue 26 item 3),
#: now module-level handlers reading a typed part of the app's context.
FEATURES = ["tournament_routes.py", "puzzle_routes.py", "history_routes.py",
            "account_settings.py", "chat.py", "analysis_routes.py", "explorer_routes.py"]
#: Nested coroutines allowed there, each with its reason.
FEATURE_ALLOWED: dict[tuple[str, str], str] = {
    ("handled", "endpoint"): "the refusal wrapper (puzzle_routes.handled): it wraps a "
                             "module-level handler and closes over that handler only, never "
                             "over the app",
}


def test_feature_route_handlers_are_module_level() -> None:
    found = {name: [n for n in nested_coroutines((SERVER / name).read_text(encoding="utf-8"))
                    if n not in FEATURE_ALLOWED] for name in FEATURES}
    assert not {k: v for k, v in found.items() if v}, found


def test_the_checker_sees_a_handler_in_a_function() -> None:
    source = ("def progression_routes(engine):\n    async def me(request):\n        pass\n"
              "    return [me]\n")
    assert nested_coroutines(source) == [("progression_routes", "me")]


BOT_API_ALLOWED: set[tuple[str, str]] = set()
"""None: the game stream's per-request state (its queue, its connection) is passed to the
module-level ``_queue_update`` (by ``functools.partial``) and ``game_lines``."""


def test_bot_api_handlers_and_helpers_are_module_level() -> None:
    source = (SERVER / "bot_api.py").read_text(encoding="utf-8")
    assert [n for n in nested_coroutines(source) if n not in BOT_API_ALLOWED] == []
    assert [n for n in nested_functions(source) if n not in BOT_API_ALLOWED] == []
    # and the handlers are there, at module level, in its route table
    tree = ast.parse(source)
    top = {n.name for n in tree.body if isinstance(n, ast.AsyncFunctionDef)}
    assert {"create_token", "upgrade", "challenge", "accept", "event_stream", "game_stream",
            "move", "resign", "event_lines", "game_lines"} <= top


def test_the_checker_sees_a_helper_in_a_function() -> None:
    source = ("def bot_routes(engine):\n    def store():\n        pass\n"
              "    async def lines():\n        yield ''\n    return []\n")
    assert nested_functions(source) == [("bot_routes", "store"), ("bot_routes", "lines")]


ROUTE_CLASSES = {"Route", "WebSocketRoute", "Mount"}


def closure_routes(source: str) -> list[tuple[str, str]]:
    """(outer function, inner function) for every function defined inside a function and
    given there — as itself or through a wrapper (``Route(path, handled(inner))``) — as the
    endpoint of a ``Route``, ``WebSocketRoute`` or ``Mount``: a route handler that is a
    closure."""
    out = []
    for outer in ast.walk(ast.parse(source)):
        if not isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        inner = {n.name for n in ast.walk(outer) if n is not outer
                 and isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        for call in ast.walk(outer):
            if not isinstance(call, ast.Call):
                continue
            called = call.func.id if isinstance(call.func, ast.Name) else (
                call.func.attr if isinstance(call.func, ast.Attribute) else "")
            if called not in ROUTE_CLASSES:
                continue
            given = [*call.args[1:], *(k.value for k in call.keywords
                                       if k.arg in ("endpoint", "app"))]
            out += [(outer.name, n.id) for arg in given for n in ast.walk(arg)
                    if isinstance(n, ast.Name) and n.id in inner]
    return out


def test_no_route_handler_under_the_server_is_a_closure() -> None:
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) >= 60
    found = {str(f.relative_to(SERVER)): closure_routes(f.read_text(encoding="utf-8"))
             for f in files}
    assert not {k: v for k, v in found.items() if v}, found


def test_analysis_routes_hold_no_function_inside_a_function() -> None:
    source = (SERVER / "analysis_routes.py").read_text(encoding="utf-8")
    assert nested_functions(source) == []
    top = {n.name for n in ast.parse(source).body if isinstance(n, ast.AsyncFunctionDef)}
    assert {"page", "position", "export", "import_tree", "stream", "ws_analysis"} <= top


def test_the_checker_sees_a_closure_given_to_a_route() -> None:
    source = ("def analysis_routes(engine):\n"
              "    async def page(request):\n        pass\n"
              "    async def ws(socket):\n        pass\n"
              "    def helper():\n        pass\n"
              "    return [Route('/a', page), routing.WebSocketRoute('/ws', endpoint=ws),\n"
              "            Route('/b', handled(page)), Route('/c', module_level)]\n")
    assert closure_routes(source) == [("analysis_routes", "page"), ("analysis_routes", "ws"),
                                      ("analysis_routes", "page")]
    wrapper = ("def handled(fn):\n    async def endpoint(request):\n"
               "        return await fn(request)\n    return endpoint\n"
               "ROUTES = [Route('/a', handled(index))]\n")
    assert closure_routes(wrapper) == []
