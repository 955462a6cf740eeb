"""Shared helpers for the web tests: an app on a temporary data dir, a WebSocket client that
reads until a condition holds, and a slow function for the bot-pool time-limit test."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from asobiba.server import create_app


def make_client(data_dir: str, **kw: Any) -> TestClient:
    kw.setdefault("bot_processes", 0)
    return TestClient(create_app(str(data_dir), **kw))


def create_room(client: TestClient, game: str, seats: list[dict[str, Any]],
                options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    res = client.post("/api/rooms", json={"game": game, "seats": seats,
                                          "options": options or {}, **extra})
    assert res.status_code == 201, res.text
    return res.json()


def read_until(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 500,
               seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Receive messages until one satisfies ``pred``; keep every frame in ``seen``."""
    for _ in range(limit):
        msg = ws.receive_json()
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg
    raise AssertionError("condition never met")


def is_update(msg: dict[str, Any]) -> bool:
    return msg.get("type") == "update"


def my_view(msg: dict[str, Any]) -> dict[str, Any]:
    return msg["views"][0]["view"]


def slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


def quick(x: int) -> int:
    return x * 2
