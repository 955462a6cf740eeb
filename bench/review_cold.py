"""The review page's wait, cold and warm (issue 14 item 6): ``POST /api/review`` of a 60-move
Reversi record against a real ``asobiba serve`` process —

* **cold**: the first request, sent the moment the server listens (before its background
  warm-up has run);
* **first after warm-up**: a fresh server, the first request sent a few seconds after start;
* **warm**: further requests to that server;

beside ``POST /api/replay`` of the same record (the cheapest request that reads a whole
record) as the peer. Prints wall time, the server process's CPU time (from /proc), the load
average, and what the review reached: verdicts, their depths, ``complete``. The review's
wall budget is progress.review.REVIEW_WALL (4 s from the request's arrival).

    python bench/review_cold.py [warm repeats]
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asobiba.core import MoveEntry, Record  # noqa: E402
from asobiba.games import get  # noqa: E402


def record(seed: int, plies: int = 60) -> Record:
    game = get("reversi")
    state = game.new_game(game.validate_options({}), seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over and len(moves) < plies:
        seat = state.acting_seats[0]
        legal = state.legal_moves(seat).texts()
        moves.append(MoveEntry(seat, legal[rng.randrange(len(legal))]))
        state = state.play(moves[-1].move, seat)
    return Record(game="reversi", options=dict(state.options), seed=seed, moves=tuple(moves))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {**os.environ, "ASOBIBA_LIMIT_SCALE": "1000", "ASOBIBA_BOT_PROCESSES": "1"}
        code = (f"from asobiba.server import run; "
                f"run('127.0.0.1', {self.port}, {tempfile.mkdtemp()!r}, None)")
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/games",
                                            timeout=30):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer within 120 s")

    def post(self, path: str, body: bytes) -> tuple[float, float, int, dict]:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body,
                                     headers={"content-type": "application/json"})
        cpu, wall = cpu_seconds(self.proc.pid), time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=120) as res:
                status, data = res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            status, data = exc.code, json.loads(exc.read())
        return time.perf_counter() - wall, cpu_seconds(self.proc.pid) - cpu, status, data

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


def show(label: str, wall: float, cpu: float, status: int, data: dict) -> None:
    rv = (data.get("review") or {}) if status == 200 else {}
    depths = Counter(m["depth"] for m in rv.get("moves", []))
    print(f"{label:26s} {wall:6.2f} s wall {cpu:5.2f} s CPU  status {status}  "
          f"verdicts {len(rv.get('moves', []))}/{rv.get('plies', '?')}  depths "
          f"{dict(sorted(depths.items(), key=str))}  complete {rv.get('complete')}  "
          f"load {os.getloadavg()[0]:.2f}", flush=True)


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    body = record(0).dumps().encode()
    print(f"load average before: {os.getloadavg()}  (60-move Reversi record, "
          f"{len(body)} bytes)")
    server = Server()
    try:
        cold = server.post("/api/review", body)
        show("cold (first, at once)", *cold)
    finally:
        server.stop()
    server = Server()
    try:
        time.sleep(8.0)  # the warm-up starts 1 s after start-up and takes ~1 s of CPU
        after = server.post("/api/review", body)
        show("first after warm-up", *after)
        warm = []
        for i in range(repeats):
            warm.append(server.post("/api/review", record(i + 1).dumps().encode()))
            show(f"warm #{i + 1}", *warm[-1])
        replay = server.post("/api/replay", body)
        print(f"{'replay (peer)':26s} {replay[0]:6.2f} s wall {replay[1]:5.2f} s CPU  "
              f"status {replay[2]}")
    finally:
        server.stop()
    mean_warm = sum(w[0] for w in warm) / len(warm)
    print(f"cold/warm wall {cold[0] / mean_warm:.2f}x   cold/warm CPU "
          f"{cold[1] / max(sum(w[1] for w in warm) / len(warm), 1e-9):.2f}x   "
          f"warm review/replay wall {mean_warm / max(replay[0], 1e-9):.1f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
