"""The WebSocket wire format's one JSON writer.

pydantic-core's serialiser (already a dependency, through pydantic): the same JSON as
``json.dumps(…, ensure_ascii=False)`` — integer keys become strings, tuples arrays — at a
quarter of the CPU, which matters because every move's update is serialised for each
connection of its room (docs/benchmarks.md, "Per-move CPU").
"""

from __future__ import annotations

from pydantic_core import to_json


def dumps(message: object) -> str:
    """``message`` as compact JSON text."""
    return to_json(message).decode()
