"""Attack test (issue 29 item 5; docs/fair-play.md, "The analysis budget"): one user
analysing through two real ``asobiba serve`` processes cannot use more than one budget in
total — with ``--redis`` the count lives in Redis, without it in the shared database.

Before the budget was shared, each process counted its own: the second process streamed a
fresh budget after the first had refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import sqlalchemy as sa
from websockets.sync.client import connect

from asobiba.server.services import RedisServer

from .scale_helpers import WAIT, Web, web_pair

BUDGET = 1.0  # CPU seconds per window, for these processes
STEP = 2.0  # analysis_routes.STEP_SECONDS: a step's CPU is at most its wall time
MIDGAME = {"game": "reversi", "moves": ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3"]}
ENV = {"ASOBIBA_ANALYSIS_CPU": str(BUDGET), "ASOBIBA_ANALYSIS_WINDOW": "600",
       "ASOBIBA_LIMIT_SCALE": "100"}


def analyse(web: Web, most: int = 400) -> list[dict[str, Any]]:
    """Stream the midgame's analysis through ``web`` until it stops or is refused."""
    out: list[dict[str, Any]] = []
    with connect(f"{web.ws}/ws/analysis", open_timeout=WAIT, legacy=True) as ws:
        ws.send(json.dumps({"type": "analyse", "position": MIDGAME}))
        for _ in range(most):
            message = json.loads(ws.recv(timeout=120))
            out.append(message)
            if message["type"] in ("stopped", "error"):
                break
    return out


def attack(a: Web, b: Web) -> None:
    first = analyse(a)
    assert first[-1]["type"] == "error" and first[-1]["code"] == "analysis_budget", first[-3:]
    # the same user through the other process: refused before any engine work
    second = analyse(b)
    assert second == [{"type": "error", "code": "analysis_budget",
                       "args": second[0]["args"]}], second[:3]
    assert second[0]["args"]["budget"] == BUDGET and second[0]["args"]["retry_after"] >= 1
    res = httpx2.post(f"{b.http}/api/analysis/position", json={"game": "reversi"},
                      timeout=WAIT)
    assert res.status_code == 429 and res.json()["error"]["code"] == "analysis_budget"


def test_the_database_shares_the_budget_between_processes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'asobiba.db'}"
    with web_pair(db, None, tmp_path, ENV) as (a, b):
        attack(a, b)
    engine = sa.create_engine(db)
    with engine.connect() as conn:
        total = conn.execute(sa.text("SELECT SUM(cpu) FROM web_analysis_cpu")).scalar()
        keys = conn.execute(sa.text("SELECT DISTINCT who FROM web_analysis_cpu")).all()
    engine.dispose()
    assert [k for (k,) in keys] == ["address:127.0.0.1"]
    # one budget, plus at most the one step that crossed it
    assert BUDGET <= total <= BUDGET + STEP, total


def test_redis_shares_the_budget_between_processes(pg_url: str, redis_server: RedisServer,
                                                  tmp_path: Path) -> None:
    with web_pair(pg_url, redis_server.url, tmp_path, ENV) as (a, b):
        attack(a, b)
    import redis

    r = redis.Redis.from_url(redis_server.url)
    members = r.zrange("asobiba:analysis:address:127.0.0.1", 0, -1)
    total = sum(float(m.split(b":", 1)[0]) for m in members)
    assert BUDGET <= total <= BUDGET + STEP, total
