"""Is the server still responsive while many bots think at once?

Starts the real server (``asobiba.server.run``) twice — bots in a process pool (the
default) and, as the baseline, bots in threads of the server process — and in each run:

* creates ``--rooms`` Reversi rooms where two level-``--level`` bots play each other;
* meanwhile one person plays a human-vs-human Reversi game over a WebSocket, and we time
  every move from sending it to its acknowledgement (which comes only after the move is
  committed to SQLite);
* after ``--seconds``, counts the bot moves played in all rooms.

Prints move-acknowledgement latency (median, 95th percentile, max) and bot throughput for
both runs, and the ratios. Usage: ``python bench/web_concurrency.py [--rooms 8]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(data: str, port: int, processes: int) -> subprocess.Popen[str]:
    env = {**os.environ, "ASOBIBA_BOT_DELAY": "0", "ASOBIBA_BOT_PROCESSES": str(processes),
           "ASOBIBA_BOT_TIME_LIMIT": "30"}
    code = f"from asobiba.server import run; run('127.0.0.1', {port}, {data!r}, None)"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


async def person(base: str, ws_base: str, seconds: float) -> list[float]:
    """A human-vs-human game played as fast as acknowledgements come back."""
    async with httpx2.AsyncClient(base_url=base) as http:
        room = (await http.post("/api/rooms", json={
            "game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
    latencies = []
    deadline = time.perf_counter() + seconds
    async with websockets.connect(f"{ws_base}/ws/{room['room']}") as ws:
        await ws.send(json.dumps({"type": "hello", "seats": room["keys"], "id": "h"}))
        view = None
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "update":
                view = msg
            if msg.get("id") == "h":
                break
        n = 0
        while time.perf_counter() < deadline and view is not None:
            acting = [v for v in view["views"] if v["view"]["legal_moves"]]
            if not acting:
                break
            seat = acting[0]["seat"]
            move = acting[0]["view"]["legal_moves"][0]
            n += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "seat": seat, "move": move, "id": n}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "update":
                    view = msg
                if msg.get("id") == n:
                    latencies.append(time.perf_counter() - sent)
                    break
            if view["room"]["status"] != "active":
                async with httpx2.AsyncClient(base_url=base) as http:
                    room = (await http.post("/api/rooms", json={
                        "game": "reversi",
                        "seats": [{"kind": "human"}, {"kind": "human"}]})).json()
                return latencies + await person(base, ws_base, deadline - time.perf_counter())
            await asyncio.sleep(0.05)  # a person does not move every millisecond
    return latencies


async def one_run(processes: int, rooms: int, level: str, seconds: float) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = start(data, port, processes)
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        try:
            async with httpx2.AsyncClient(base_url=base) as http:
                ids = []
                for _ in range(rooms):
                    res = await http.post("/api/rooms", json={
                        "game": "reversi", "seats": [{"kind": "bot", "level": level}] * 2})
                    ids.append(res.json()["room"])
                latencies = await person(base, ws_base, seconds)
                plies = [(await http.get(f"/api/rooms/{i}")).json()["ply"] for i in ids]
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
    latencies.sort()
    return {
        "mode": f"process pool ({processes})" if processes else "threads (baseline)",
        "acks": len(latencies),
        "median_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "max_ms": 1000 * latencies[-1],
        "bot_moves": sum(plies),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=8)
    ap.add_argument("--level", default="5")
    ap.add_argument("--seconds", type=float, default=12.0)
    ap.add_argument("--processes", type=int, default=2)
    args = ap.parse_args()
    runs = [asyncio.run(one_run(p, args.rooms, args.level, args.seconds))
            for p in (args.processes, 0)]
    print(f"{args.rooms} bot-vs-bot Reversi rooms (level {args.level}) + one person playing, "
          f"{args.seconds:g} s each, {os.cpu_count()} CPUs")
    print(f"{'bots run in':<22}{'acks':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}"
          f"{'bot moves':>11}")
    for r in runs:
        print(f"{r['mode']:<22}{r['acks']:>6}{r['median_ms']:>11.1f}{r['p95_ms']:>9.1f}"
              f"{r['max_ms']:>9.1f}{r['bot_moves']:>11}")
    pool, threads = runs
    print(f"p95 acknowledgement latency, threads / process pool: "
          f"{threads['p95_ms'] / pool['p95_ms']:.1f}x")
    print(f"bot moves, process pool / threads: {pool['bot_moves'] / max(1, threads['bot_moves']):.2f}x")


if __name__ == "__main__":
    main()
