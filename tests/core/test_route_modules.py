"""The progression layer's routes are feature modules, not closures in one function (issue 26
item 3): in ``asobiba/server/progress/`` (and the old ``progression_routes.py``) no request
handler is defined inside another function — each is a module-level ``async def`` reading
the app's typed ``ProgressionWeb``. The only nested coroutines allowed are the refusal
wrapper's and the background recording's. The Bot API (``bot_api.py``) likewise: every
handler, helper and NDJSON stream a module-level function taking the app's typed ``BotApi``
(or its parts) — no function inside a function there at all. Parsed with ``ast``; nothing
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
            "account_settings.py", "chat.py"]
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
