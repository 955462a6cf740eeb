"""The write path alone (issue 13 item 3): how many moves a second one server process can
commit to SQLite, and how long each waits for its commit, with many rooms moving at once.

Two runs in one session, same machine, same database layout, ``--rooms`` rooms each storing
``--moves`` moves one after another (a move waits for its commit before the next, as the
acknowledgement does):

* peer — the old path: each move its own transaction from a worker thread
  (``asyncio.to_thread(store.add_move, …)``), SQLite ``synchronous=FULL`` (an fsync per
  commit);
* now — the server's path: every move through the one writer thread's group commit
  (``store.writer.run(store.add_move_in, …)``), ``synchronous=NORMAL`` in WAL mode.

Prints moves/s, p50/p99 commit wait, the process's CPU time and the load average, and the
ratio. Usage: ``python bench/store_commits.py [--rooms 100 --moves 40]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from asobiba.server.db import MoveData, RoomData, SeatData, Store, utcnow  # noqa: E402


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def make_store(path: str, full: bool, rooms: int) -> Store:
    store = Store(f"sqlite:///{path}")
    if full:
        def fsync_each_commit(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            dbapi_connection.execute("PRAGMA synchronous=FULL")
        event.listen(store.engine, "connect", fsync_each_commit)
        store.engine.dispose()
    for i in range(rooms):
        store.create_room(RoomData(
            id=f"r{i}", game="reversi", rules_version=1, options={}, seed=1, casual=True,
            hotseat=False, clock=None, status="active", result=None, rematch_of=None,
            rematch_id=None, created=utcnow(),
            seats=[SeatData(0, "human", None, "", "k"), SeatData(1, "human", None, "", "k")],
            moves=[]))
    return store


async def run(store: Store, old: bool, rooms: int, moves: int) -> tuple[float, list[float]]:
    waits: list[float] = []

    async def room(i: int) -> None:
        for ply in range(moves):
            move = MoveData(ply, ply % 2, "d3", utcnow())
            t = time.perf_counter()
            if old:
                await asyncio.to_thread(store.add_move, f"r{i}", move, None, None)
            else:
                await store.writer.run(store.add_move_in, f"r{i}", move, None, None)
            waits.append(time.perf_counter() - t)

    t0 = time.perf_counter()
    await asyncio.gather(*(room(i) for i in range(rooms)))
    return time.perf_counter() - t0, sorted(waits)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--moves", type=int, default=40)
    args = ap.parse_args()
    print(f"{args.rooms} rooms x {args.moves} moves, SQLite, {os.cpu_count()} CPUs, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results = {}
    for name, old in (("peer: a transaction per move, FULL", True),
                      ("now: group commit, NORMAL", False)):
        with tempfile.TemporaryDirectory() as d:
            store = make_store(str(Path(d) / "a.db"), old, args.rooms)
            c0 = cpu()
            wall, waits = asyncio.run(run(store, old, args.rooms, args.moves))
            used = cpu() - c0
            n = len(waits)
            batches = store.writer.batches
            store.close()
        results[name] = n / wall
        print(f"{name:<38} {n / wall:8.0f} moves/s  commit wait p50 "
              f"{1000 * waits[n // 2]:7.1f} ms  p99 {1000 * waits[int(0.99 * n)]:7.1f} ms  "
              f"CPU {used:5.1f} s / {wall:5.1f} s wall"
              + (f"  ({n / batches:.1f} moves per commit)" if batches else ""))
    peer, now = results.values()
    print(f"now / peer: {now / peer:.1f}x moves/s; load average after "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
