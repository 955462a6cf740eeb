"""Restart time with many unfinished games (issue 13 item 5).

Fills a fresh SQLite database with ``--rooms`` unfinished Reversi rooms holding ``--moves``
moves in all (real games: random legal moves, replayed exactly by the server), then starts
``asobiba serve`` on it and measures, from the process start:

* the first HTTP answer (``GET /api/games``) and the first answer about one of the stored
  rooms (``GET /api/rooms/<id>``, a room loaded on demand) — target ≤ 2 s;
* as the peer, the time until every unfinished room is loaded (what the server used to wait
  for before answering anything: 96 s for 2,150 rooms on the old main).

Beside each wall time it prints the CPU seconds the server's processes (the server and any
process it started, e.g. bot processes) had used at that moment, read from ``/proc`` — on a
loaded machine the wall time grows with the load, the CPU time does not.

Prints both with the load average. Usage: ``python bench/web_restart.py [--rooms 2000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2
from sqlalchemy import insert
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asobiba.games import get  # noqa: E402
from asobiba.server.db import MoveRow, RoomRow, SeatRow, Store, utcnow  # noqa: E402


def games(n: int, plies: int, seed: int) -> list[list[tuple[int, str]]]:
    """``n`` distinct unfinished Reversi games of up to ``plies`` random legal moves."""
    rng = random.Random(seed)
    game = get("reversi")
    out = []
    while len(out) < n:
        state = game.new_game({}, 1)
        moves: list[tuple[int, str]] = []
        while len(moves) < plies and not state.is_over:
            seat = state.acting_seats[0]
            text = rng.choice(state.legal_moves(seat).texts())
            nxt = state.play(text, seat)
            if nxt.is_over:
                break
            moves.append((seat, text))
            state = nxt
        out.append(moves)
    return out


def fill(url: str, rooms: int, total_moves: int) -> int:
    store = Store(url)
    per = max(1, total_moves // rooms)
    pool = games(50, per, 7)
    now = utcnow()
    stored = 0
    with Session(store.engine) as s, s.begin():
        room_rows, seat_rows, move_rows = [], [], []
        for i in range(rooms):
            rid = f"r{i:05d}"
            room_rows.append(dict(id=rid, game="reversi", rules_version=get("reversi").rules_version,
                                  options="{}", seed=1, casual=True, hotseat=False, clock=None,
                                  status="active", result=None, rematch_of=None,
                                  rematch_id=None, created=now, updated=now))
            for seat in (0, 1):
                seat_rows.append(dict(room_id=rid, seat=seat, kind="human", level=None,
                                      name="", key_hash="x" * 64))
            for ply, (seat, text) in enumerate(pool[i % len(pool)]):
                move_rows.append(dict(room_id=rid, ply=ply, seat=seat, text=text, at=now))
        stored = len(move_rows)
        s.execute(insert(RoomRow), room_rows)
        s.execute(insert(SeatRow), seat_rows)
        s.execute(insert(MoveRow), move_rows)
    store.close()
    return stored


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=100_000)
    args = ap.parse_args()
    empty = Path(tempfile.mkdtemp(prefix="asobiba-restart-empty-"))
    try:
        port = httpx_port()
        t0 = time.monotonic()
        with open(empty / "serve.log", "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "asobiba.cli.main", "serve", "--port",
                                     str(port), "--data-dir", str(empty)], cwd=ROOT, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        cpu: dict[str, float] = {}
        la_bare = os.getloadavg()
        try:
            bare = wait_ok(f"http://127.0.0.1:{port}/api/games", t0, cpu, proc.pid)
            bare_cpu = cpu[f"http://127.0.0.1:{port}/api/games"]
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
    finally:
        shutil.rmtree(empty, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix="asobiba-restart-"))
    try:
        stored = fill(f"sqlite:///{tmp / 'asobiba.db'}", args.rooms, args.moves)
        port = httpx_port()
        log = tmp / "serve.log"
        la0 = os.getloadavg()
        t0 = time.monotonic()
        with open(log, "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "asobiba.cli.main", "serve", "--port",
                                     str(port), "--data-dir", str(tmp)], cwd=ROOT, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            first_url = f"http://127.0.0.1:{port}/api/games"
            room_url = f"http://127.0.0.1:{port}/api/rooms/r{args.rooms // 2:05d}"
            first = wait_ok(first_url, t0, cpu, proc.pid)
            room = wait_ok(room_url, t0, cpu, proc.pid)
            info = json.loads(httpx2.get(f"http://127.0.0.1:{port}/api/rooms/"
                                        f"r{args.rooms // 2:05d}").text)
            deadline = time.monotonic() + 900
            resumed = None
            while time.monotonic() < deadline:
                text = log.read_text(errors="replace")
                if "resumed" in text:
                    resumed = time.monotonic() - t0
                    break
                time.sleep(0.2)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(30)
        la1 = os.getloadavg()
        print(f"{args.rooms} unfinished rooms, {stored} moves (SQLite), {os.cpu_count()} CPUs; "
              f"load average {la0[0]:.2f} before, {la1[0]:.2f} after")
        print(f"peer: an empty database, first HTTP answer {bare:6.2f} s after the process "
              f"started, server CPU {bare_cpu:.2f} s (Python, the games, the app; load "
              f"average {la_bare[0]:.2f})")
        print(f"first HTTP answer      {first:6.2f} s after the process started, server CPU "
              f"{cpu[first_url]:.2f} s ({first - bare:+.2f} s for the stored rooms)")
        print(f"first room answered    {room:6.2f} s, server CPU {cpu[room_url]:.2f} s "
              f"(ply {info['ply']}, loaded on demand)")
        if resumed is not None:
            print(f"every room loaded      {resumed:6.2f} s (in the background; the old server "
                  f"waited for this before answering) -> {resumed / room:.0f}x")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def httpx_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_cpu(session: int) -> float:
    """CPU seconds (user + system) used so far by every live process of ``session`` (the
    server was started as a session leader, so its session id is its pid)."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # field 6 of stat: the session id
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def wait_ok(url: str, t0: float, cpu: dict[str, float] | None = None,
            session: int = 0) -> float:
    """Seconds from ``t0`` until ``url`` answers 200; ``cpu[url]``: the server's CPU seconds
    then."""
    while True:
        try:
            if httpx2.get(url, timeout=30).status_code == 200:
                if cpu is not None:
                    cpu[url] = tree_cpu(session)
                return time.monotonic() - t0
        except httpx2.HTTPError:
            pass
        if time.monotonic() - t0 > 900:
            raise RuntimeError(f"no answer from {url}")
        time.sleep(0.02)


if __name__ == "__main__":
    main()
