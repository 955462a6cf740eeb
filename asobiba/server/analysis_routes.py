"""The analysis board (issue 29 item 1; docs/analysis.md): the page ``/analysis/{game}``,
``POST /api/analysis/position`` (a position for the page: its view, line and legal moves; in a
hidden-information game one seat's analysis) and the WebSocket ``/ws/analysis`` that streams
the multi-PV deepening, one message per depth.

Engine work never runs on the event loop nor in this process's threads: it runs in one
analysis process (:class:`Analysis`; ``ASOBIBA_ANALYSIS_PROCESSES``), niced so that moves
in rooms come first, one short step at a time (``STEP_SECONDS``; a depth not finished goes on in the
next step), so the steps of several people interleave. Each step's CPU time is charged to its address: beyond ``CPU_BUDGET``
CPU seconds in ``WINDOW`` seconds an address gets the coded refusal ``analysis_budget``
(with ``retry_after``) until its old steps leave the window; an address has at most
``STREAMS`` analyses streaming at once (a new one stops its oldest).

The routes (:data:`ROUTES`, placed by ``routes.table()``) are module-level handlers: each
reads the app's :class:`AnalysisWeb` — the analysis process(es), the budget and who a session
cookie is — kept at ``AppContext.analysis`` (issue 26 item 3: no closures).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import multiprocessing
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import Scope
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..analysis import worker
from ..core.jsontypes import JSONObject
from ..games import available
from . import api_schema
from .api_schema import (
    PAGE,
    AnalysedPosition,
    AnalysisSpec,
    AnalysisTree,
    AnalysisTreeExport,
    AnalysisTreeImport,
    AnalysisTreeText,
    GamePath,
    Op,
)
from .progression_routes import COOKIE

P = ParamSpec("P")
R = TypeVar("R")
log = logging.getLogger("asobiba.server.analysis")

WEB_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "web")

CPU_BUDGET = float(os.environ.get("ASOBIBA_ANALYSIS_CPU", "60"))
"""CPU seconds of analysis one address may use in ``WINDOW`` seconds."""
WINDOW = float(os.environ.get("ASOBIBA_ANALYSIS_WINDOW", "600"))
STEP_SECONDS = 2.0
"""Wall seconds of one step in the analysis process. A depth not finished by then is not
shown; the next step goes on with it (the analyst's tables keep what was searched), so the
steps of several people interleave in the one process however deep each one goes."""
DEPTH_TRIES = 30
"""Steps one depth may take before deepening stops there (``stopped``, ``time``)."""
STREAMS = 1
"""Analyses streaming at once per address (a new one stops the oldest)."""
MAX_DEPTH = 64
PROCESSES = int(os.environ.get("ASOBIBA_ANALYSIS_PROCESSES", "1"))


class Budget:
    """CPU seconds spent per key (``account:<id>`` or ``address:<ip>``) in a sliding window,
    in this process's memory: one web process (tests, a single ``serve``). :class:`DbBudget`
    and :class:`RedisBudget` keep the same entries where every web process sees them."""

    blocking = False
    """Its calls wait on a database or Redis: :class:`Analysis` runs them in a thread."""

    def __init__(self, cpu: float = CPU_BUDGET, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.cpu, self.window, self.clock = cpu, window, clock
        self.spent: dict[str, deque[tuple[float, float]]] = {}

    # ---- the store: the entries (when, CPU seconds) of a key within the window ------------
    def entries(self, key: str) -> list[tuple[float, float]]:
        q = self.spent.setdefault(key, deque())
        cutoff = self.clock() - self.window
        while q and q[0][0] < cutoff:
            q.popleft()
        return list(q)

    def add(self, key: str, at: float, cpu: float) -> None:
        self.spent.setdefault(key, deque()).append((at, cpu))
        if len(self.spent) > 10_000:  # forget keys with nothing in the window
            for k in [k for k, q in self.spent.items() if not q]:
                del self.spent[k]

    # ---- the rule --------------------------------------------------------------------------
    def used(self, key: str) -> float:
        return sum(c for _, c in self.entries(key))

    def retry_after(self, key: str) -> int:
        """Seconds until enough old steps leave the window for the key to go on."""
        q = self.entries(key)
        over = sum(c for _, c in q) - self.cpu
        for at, c in q:
            over -= c
            if over < 0:
                return max(1, int(at + self.window - self.clock()) + 1)
        return 1

    def allows(self, key: str) -> bool:
        return self.used(key) < self.cpu

    def refusal(self, key: str) -> JSONObject | None:
        """The coded refusal when ``key`` used its budget (one read of the store), or None."""
        q = self.entries(key)
        used = sum(c for _, c in q)
        if used < self.cpu:
            return None
        over = used - self.cpu
        retry = 1
        for at, c in q:
            over -= c
            if over < 0:
                retry = max(1, int(at + self.window - self.clock()) + 1)
                break
        return {"code": "analysis_budget",
                "args": {"retry_after": retry, "budget": self.cpu, "window": self.window}}

    def charge(self, key: str, cpu: float) -> None:
        self.add(key, self.clock(), cpu)


class DbBudget(Budget):
    """The budget in the database (``web_analysis_cpu``): every web process on one database
    counts one budget per key. Wall-clock time: the processes' monotonic clocks differ."""

    blocking = True

    def __init__(self, engine: Engine, cpu: float = CPU_BUDGET, window: float = WINDOW,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(cpu, window, clock)
        from ..tables import ANALYSIS_CPU

        self.engine, self.table = engine, ANALYSIS_CPU
        self._swept = 0.0
        self._local = Budget(cpu, window, clock)

    def entries(self, key: str) -> list[tuple[float, float]]:
        t = self.table
        now = self.clock()
        try:
            with self.engine.begin() as conn:
                if now - self._swept > self.window:  # everyone's old rows, now and then
                    self._swept = now
                    conn.execute(t.delete().where(t.c.at < now - self.window))
                rows = conn.execute(select(t.c.at, t.c.cpu).where(
                    t.c.who == key, t.c.at >= now - self.window).order_by(t.c.at)).all()
        except OperationalError:  # the database busy or away: what this process counted
            log.warning("analysis budget: the database did not answer; counting here")
            return self._local.entries(key)
        return [(float(at), float(cpu)) for at, cpu in rows] + self._local.entries(key)

    def add(self, key: str, at: float, cpu: float) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(self.table.insert().values(who=key[:80], at=at, cpu=cpu))
        except OperationalError:  # kept here until the window passes: never lost
            log.warning("analysis budget: the database did not answer; counting here")
            self._local.add(key, at, cpu)


class RedisBudget(Budget):
    """The budget in Redis (``serve --redis``): a sorted set per key, by time, each member
    carrying its CPU seconds; it expires with its window. If Redis is unreachable this
    process counts on its own meanwhile (as the other limits do: :class:`limits.RedisStore`)."""

    blocking = True

    def __init__(self, url: str, cpu: float = CPU_BUDGET, window: float = WINDOW,
                 clock: Callable[[], float] = time.time, timeout: float = 0.5) -> None:
        super().__init__(cpu, window, clock)
        import redis

        self._redis = redis.Redis.from_url(url, socket_timeout=timeout,
                                           socket_connect_timeout=timeout,
                                           client_name="asobiba-analysis")
        self._local = Budget(cpu, window, clock)
        self._n = itertools.count(1)
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"

    def _key(self, key: str) -> str:
        return f"asobiba:analysis:{key}"

    def entries(self, key: str) -> list[tuple[float, float]]:
        now = self.clock()
        try:
            pipe = self._redis.pipeline()
            pipe.zremrangebyscore(self._key(key), "-inf", now - self.window)
            pipe.zrange(self._key(key), 0, -1, withscores=True)
            _, found = pipe.execute()
        except Exception:  # noqa: BLE001 - Redis away: count here meanwhile
            return self._local.entries(key)
        return [(float(at), float(member.split(b":", 1)[0])) for member, at in found]

    def add(self, key: str, at: float, cpu: float) -> None:
        member = f"{cpu!r}:{self.origin}:{next(self._n)}"
        try:
            pipe = self._redis.pipeline()
            pipe.zadd(self._key(key), {member: at})
            pipe.expire(self._key(key), int(self.window) + 60)
            pipe.execute()
        except Exception:  # noqa: BLE001 - Redis away: count here meanwhile
            self._local.add(key, at, cpu)


def shared_budget(engine: Engine | None, redis_url: str | None) -> Budget:
    """The budget every web process shares: in Redis when the app runs with ``--redis``, in
    the database otherwise (docs/analysis.md)."""
    if redis_url:
        return RedisBudget(redis_url)
    if engine is not None:
        return DbBudget(engine)
    return Budget()


class Analysis:
    """The analysis process(es) and the budget."""

    def __init__(self, processes: int = PROCESSES, budget: Budget | None = None,
                 executor: Executor | None = None) -> None:
        self.processes = processes
        self.budget = budget or Budget()
        self._executor = executor
        self.streams: dict[str, list[asyncio.Task[None]]] = {}

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=worker.start)
        return self._executor

    async def run(self, key: str, fn: Callable[P, JSONObject], *args: P.args,
                  **kwargs: P.kwargs) -> JSONObject:
        """``fn(*args)`` in the analysis process, its CPU time charged to ``key``."""
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self.executor(), functools.partial(fn, *args,
                                                                                **kwargs))
        except BrokenProcessPool:  # the process died (killed): a fresh one next time
            self._executor = None
            raise
        await self._budget(self.budget.charge, key, float(out.get("cpu", 0.0)))
        return out

    async def _budget(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """A budget call: in a thread when it waits on the database or Redis."""
        if self.budget.blocking:
            return await asyncio.to_thread(fn, *args, **kwargs)
        return fn(*args, **kwargs)

    async def refusal(self, key: str) -> JSONObject | None:
        return await self._budget(self.budget.refusal, key)

    async def used(self, key: str) -> float:
        return await self._budget(self.budget.used, key)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


# ---- request models (api_schema: every HTTP route is typed) ---------------------------------
api_schema.PATHS.setdefault("/analysis/{game}", GamePath)
api_schema.OPS.setdefault(("GET", "/analysis/{game}"), Op({200: PAGE}))
api_schema.OPS.setdefault(("POST", "/api/analysis/position"),
                          Op({200: AnalysedPosition}, body=AnalysisSpec))
api_schema.OPS.setdefault(("POST", "/api/analysis/export"),
                          Op({200: AnalysisTreeText}, body=AnalysisTreeExport))
api_schema.OPS.setdefault(("POST", "/api/analysis/import"),
                          Op({200: AnalysisTree}, body=AnalysisTreeImport))


def spec_of(data: object) -> tuple[JSONObject, int | None]:
    """The description without ``seat`` and None fields (the worker's cache key), and the
    seat."""
    if not isinstance(data, dict):
        return {"game": None}, None
    seat = data.get("seat")
    spec = {k: v for k, v in data.items() if v is not None and k != "seat"}
    if "record" not in spec and "notation" not in spec:
        spec.pop("ply", None)
    return spec, seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def _refused(status: int, error: JSONObject) -> JSONResponse:
    """The API's one error shape (``api_schema.ErrorDetail``: the arguments as text)."""
    args = {str(k): str(v) for k, v in (error.get("args") or {}).items()}
    return JSONResponse({"error": {"code": error["code"], "message": error["code"],
                                   "args": args}}, status_code=status)


Account = Callable[[str], int | None]
"""A session cookie's account id (None: not signed in); blocking (it reads the database)."""


class AnalysisWeb:
    """The analysis board's part of the app, kept at ``AppContext.analysis`` and read by each
    handler with :func:`aweb`: the analysis process(es) and the CPU budget
    (:class:`Analysis`, with the streams running per key) and ``account``, who a session
    cookie is — signed in, the budget is the account's (the same in every tab, on every
    address), else the address's."""

    def __init__(self, analysis: Analysis | None = None, account: Account | None = None
                 ) -> None:
        self.analysis = analysis or Analysis()
        self.account = account

    async def address(self, scope: Scope) -> str:
        """The key the budget counts: ``account:<id>`` signed in, else ``address:<ip>``."""
        account = self.account
        token = HTTPConnection(scope).cookies.get(COOKIE) if account is not None else None
        if token and account is not None:
            who = await asyncio.to_thread(account, token)
            if who is not None:
                return f"account:{who}"
        return f"address:{scope.get('state', {}).get('client_ip') or '?'}"


def aweb(conn: HTTPConnection) -> AnalysisWeb:
    """The app's analysis board part, from a request or a WebSocket."""
    from .routes.context import ctx  # routes/ imports this module: read lazily, no cycle

    got = ctx(conn).analysis
    assert got is not None, "create_app sets it"
    return got


async def engine_answer(request: Request, fn: Callable[P, JSONObject], *args: P.args,
                        **kwargs: P.kwargs) -> Response:
    """``fn(*args)`` run in the analysis process for the request's key, as the answer: the
    coded refusal ``analysis_budget`` (429) before any engine work once the key has used its
    budget, the worker's coded error (400), else its JSON without the CPU time."""
    aw = aweb(request)
    key = await aw.address(request.scope)
    refusal = await aw.analysis.refusal(key)
    if refusal is not None:
        return _refused(429, refusal)
    out = await aw.analysis.run(key, fn, *args, **kwargs)
    if "error" in out:
        return _refused(400, out["error"])
    out.pop("cpu", None)
    return JSONResponse(out)


# ---- the handlers (module level: each reads the app's AnalysisWeb) ---------------------------
async def page(request: Request) -> Response:
    if request.path_params["game"] not in available():
        return JSONResponse({"error": {"code": "unknown_game", "message": "no such game",
                                       "args": {"game": request.path_params["game"]}}},
                            status_code=404)
    return FileResponse(os.path.join(WEB_DIR, "analysis.html"),
                        headers={"cache-control": "no-cache"})


async def position(request: Request) -> Response:
    try:
        data = json.loads(await request.body() or b"{}")
    except ValueError:
        return _refused(400, {"code": "analysis_bad_request", "args": {"field": "body"}})
    spec, seat = spec_of(data)
    return await engine_answer(request, worker.describe, spec, seat)


async def export(request: Request) -> Response:
    """The page's tree as notation (Export) and as a share token (the link). Formatting
    only, bounded by the body's size: no engine work, no budget."""
    from ..analysis import tree as trees

    try:
        data = json.loads(await request.body() or b"{}")
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise trees.AnalysisError("analysis_bad_request", field="body")
        setup = data.get("setup")
        options, seed = data.get("options") or {}, data.get("seed") or 0
        if not isinstance(options, dict) or not isinstance(seed, int) \
                or not (setup is None or isinstance(setup, dict)):
            raise trees.AnalysisError("analysis_bad_request", field="options")
        tree = trees.Tree(data["game"], options, seed, setup,
                          trees.node_from_json(data.get("tree")))
        notation = trees.export(tree)
    except ValueError:
        return _refused(400, {"code": "analysis_bad_request", "args": {"field": "body"}})
    except trees.AnalysisError as exc:
        return _refused(400, exc.to_json())
    try:
        share: str | None = trees.pack(tree)
        share_error = None
    except trees.AnalysisError as exc:  # too big for a link: the notation still is
        share, share_error = None, exc.to_json()
    return JSONResponse({"notation": notation, "share": share,
                         "share_error": share_error})


async def import_tree(request: Request) -> Response:
    """A pasted notation or a share token back as the page's tree, checked move by move
    in the analysis process (charged to the budget like any engine work)."""
    try:
        data = json.loads(await request.body() or b"{}")
    except ValueError:
        return _refused(400, {"code": "analysis_bad_request", "args": {"field": "body"}})
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) \
            or not isinstance(data.get("notation", data.get("share")), str):
        return _refused(400, {"code": "analysis_bad_request", "args": {"field": "body"}})
    notation = data.get("notation")
    return await engine_answer(request, worker.read_tree, data["game"],
                               notation if isinstance(notation, str) else None,
                               None if isinstance(notation, str) else data.get("share"))


async def stream(engine: Analysis, ws: WebSocket, key: str, spec: JSONObject) -> None:
    """Deepen one position, a message per depth, until done, out of time or budget."""
    depth = tries = 0
    while depth < MAX_DEPTH:
        depth += 1
        refusal = await engine.refusal(key)
        if refusal is not None:
            await ws.send_json({"type": "error", **refusal})
            return
        out = await engine.run(key, worker.run_step, spec, depth, STEP_SECONDS)
        if "error" in out:
            await ws.send_json({"type": "error", **out["error"]})
            return
        if out.get("timeout"):  # the tables the step filled stay: go on with this depth
            tries += 1
            if tries > DEPTH_TRIES:
                await ws.send_json({"type": "stopped", "reason": "time",
                                    "depth": depth - 1})
                return
            await ws.send_json({"type": "working", "depth": depth,
                                "used": round(await engine.used(key), 3)})
            depth -= 1
            continue
        tries = 0
        await ws.send_json({"type": "depth", **out,
                            "used": round(await engine.used(key), 3),
                            "budget": engine.budget.cpu})
        if out.get("done"):
            await ws.send_json({"type": "stopped", "reason": "done",
                                "depth": out["depth"]})
            return
    await ws.send_json({"type": "stopped", "reason": "depth", "depth": depth})


async def ws_analysis(ws: WebSocket) -> None:
    await ws.accept()
    aw = aweb(ws)
    engine = aw.analysis
    key = await aw.address(ws.scope)
    task: asyncio.Task[None] | None = None
    mine = engine.streams.setdefault(key, [])
    try:
        while True:
            try:
                message = await ws.receive_json()
            except (ValueError, KeyError):
                await ws.send_json({"type": "error", "code": "analysis_bad_request",
                                    "args": {"field": "message"}})
                continue
            if task is not None:  # a new position (or "stop") ends the running one
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                if task in mine:
                    mine.remove(task)
                task = None
            if not isinstance(message, dict) or message.get("type") != "analyse":
                continue
            spec, _ = spec_of(message.get("position"))
            while len(mine) >= STREAMS:  # another tab of the same address: stop it
                mine.pop(0).cancel()
            task = asyncio.create_task(stream(engine, ws, key, spec))
            mine.append(task)
    except WebSocketDisconnect:
        pass
    finally:
        if task is not None:
            task.cancel()
            if task in mine:
                mine.remove(task)


ROUTES: list[BaseRoute] = [
    Route("/analysis/{game}", page),
    Route("/api/analysis/position", position, methods=["POST"]),
    Route("/api/analysis/export", export, methods=["POST"]),
    Route("/api/analysis/import", import_tree, methods=["POST"]),
    WebSocketRoute("/ws/analysis", ws_analysis),
]
"""The analysis board's routes, in their order; ``routes.table()`` places them before the
room socket (``/ws/analysis`` is not a room)."""
