"""Shared helpers for the web tests: an app on a temporary data dir, a WebSocket client that
reads until a condition holds (never forever: a bounded wait that fails with what it saw),
and a slow function for the bot-pool time-limit test."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import anyio
from starlette.testclient import TestClient, WebSocketTestSession

from asobiba.server import create_app

# How long one expected message may take to arrive. Generous: CI runs two test workers on a
# loaded 2-core machine; a healthy server answers in milliseconds, so only a real lost
# message ever waits this long.
RECEIVE_TIMEOUT = 60.0


def make_client(data_dir: str, **kw: Any) -> TestClient:
    kw.setdefault("bot_processes", 0)
    return TestClient(create_app(str(data_dir), **kw))


def create_room(client: TestClient, game: str, seats: list[dict[str, Any]],
                options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    res = client.post("/api/rooms", json={"game": game, "seats": seats,
                                          "options": options or {}, **extra})
    assert res.status_code == 201, res.text
    return res.json()


class ReceiveTimeout(AssertionError):
    """The server sent nothing for RECEIVE_TIMEOUT seconds while a test waited for it."""


def receive_json(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> Any:
    """``ws.receive_json()`` with a deadline (Starlette's own waits forever)."""

    async def bounded() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(bounded)
    except TimeoutError:
        raise ReceiveTimeout(f"no message from the server within {timeout:g} s") from None
    ws._raise_on_close(message)
    return json.loads(message["text"] if message.get("text") is not None
                      else message["bytes"].decode("utf-8"))


class Pacer:
    """Keeps a scripted client within the server's documented message rate (``app.RATE``
    a second after a burst of ``app.BURST``), with a margin. A fast scripted game would
    otherwise be throttled: the server drops the move (``too_fast``) and its acknowledgement
    never comes. People never play this fast; only test scripts do."""

    def __init__(self) -> None:
        from asobiba.server import app

        self.rate, self.burst = app.RATE * 0.8, app.BURST - 5.0
        self.budget, self.last = self.burst, time.monotonic()

    def wait(self) -> None:
        """Return once one more message fits in the rate; count it."""
        now = time.monotonic()
        self.budget = min(self.burst, self.budget + (now - self.last) * self.rate)
        self.last = now
        if self.budget < 1:
            time.sleep((1 - self.budget) / self.rate)
            self.budget, self.last = 1.0, time.monotonic()
        self.budget -= 1


_pacers: dict[int, tuple[Any, Pacer]] = {}


def pacer_for(client: Any) -> Pacer:
    """The pacer of one connection (a WebSocket session or a browser page)."""
    held = _pacers.get(id(client))
    if held is None or held[0] is not client:
        held = _pacers[id(client)] = (client, Pacer())
    return held[1]


def send_json(ws: Any, msg: dict[str, Any]) -> None:
    """``ws.send_json`` like a well-behaved client (see :class:`Pacer`)."""
    pacer_for(ws).wait()
    ws.send_json(msg)


def _brief(msg: dict[str, Any]) -> str:
    if msg.get("type") == "update":
        room = msg["room"]
        return (f"update(ply={room['ply']}, status={room['status']}, "
                f"thinking={room['thinking']}, notes={room['notes']})")
    return json.dumps(msg)[:200]


def read_until(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 500,
               seen: list[dict[str, Any]] | None = None,
               timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """Receive messages until one satisfies ``pred``; keep every frame in ``seen``.
    Fails (never hangs) when the server goes quiet for ``timeout`` seconds, listing the
    last frames it did send."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout * 4
    for _ in range(limit):
        try:
            msg = receive_json(ws, max(0.1, min(timeout, deadline - time.monotonic())))
        except ReceiveTimeout as exc:
            tail = "\n  ".join(_brief(m) for m in got[-8:]) or "(nothing)"
            raise ReceiveTimeout(f"{exc}; the condition was never met. Last frames:\n  {tail}"
                                 ) from None
        got.append(msg)
        if seen is not None:
            seen.append(msg)
        if pred(msg):
            return msg
    raise AssertionError(f"condition never met in {limit} messages")


def is_update(msg: dict[str, Any]) -> bool:
    return msg.get("type") == "update"


def my_view(msg: dict[str, Any]) -> dict[str, Any]:
    return msg["views"][0]["view"]


def slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


def quick(x: int) -> int:
    return x * 2


def with_analysis(client: TestClient, analysis: Any,
                  account: Callable[[str], int | None] | None = None) -> TestClient:
    """``client`` (the real app: the ``app_client`` fixture) with ``analysis`` as its analysis
    board's engine and budget — ``AppContext.analysis``, where the handlers read it — and
    ``account`` as who a session cookie is; its cookies cleared."""
    from asobiba.server.analysis_routes import AnalysisWeb
    from asobiba.server.routes.context import AppContext

    app_ctx = client.app.state.ctx  # type: ignore[attr-defined]
    assert isinstance(app_ctx, AppContext)
    app_ctx.analysis = AnalysisWeb(analysis, account)
    client.cookies.clear()
    return client
