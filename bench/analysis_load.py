"""Does the analysis board slow the rooms down? (issue 29 item 5)

One ``asobiba serve`` (embedded, SQLite) started here, as bench/web_load.py does, with Reversi
rooms of two human clients playing at a paced rate (``--rooms``, ``--rate`` moves/s) over real
WebSockets. The same run has three phases of ``--seconds`` each:

1. **quiet**: the rooms alone;
2. **analysing**: the rooms plus ``--analysts`` people (each its own address) on
   ``/ws/analysis``, each analysing Reversi midgame positions one after another (a new
   position whenever the last one stops: solved, out of time, or refused by the budget);
3. **quiet again**: the rooms alone (the machine is shared: a drift shows here).

Prints per phase the moves acknowledged, p50/p99 acknowledgement latency (send → ack, as
web_load measures it), the ratio of the analysing p99 to the quiet ones, the analysis depths
streamed and budget refusals, CPU seconds of the web process and of the analysis process,
and the load average before and after each phase. Example::

    python bench/analysis_load.py --rooms 20 --rate 20 --seconds 20 --analysts 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import websockets
from pydantic_core import from_json, to_json

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import Cluster, Stats, new_room, pct, play_room, print_ratios, tree, usage  # noqa: E402


def cpu_of(pids: list[int]) -> float:
    return usage(pids)[1]


def split_cpu(web_pid: int) -> tuple[float, float]:
    """(CPU of the web process itself, CPU of its children: bot and analysis processes)."""
    own = cpu_of([web_pid]) - sum(cpu_of([p]) for p in tree(web_pid)[1:])
    return own, cpu_of([web_pid]) - own


def midgame(rng: random.Random) -> list[str]:
    from asobiba.games import get

    state = get("reversi").new_game({}, 0)
    moves: list[str] = []
    for _ in range(rng.randrange(8, 30)):
        legal = list(state.legal_moves())
        text = state.move_text(rng.choice(legal))
        moves.append(text)
        state = state.play(text)
        if state.is_over:
            break
    return moves


async def analyst(port: int, index: int, stop_at: float, out: dict[str, int]) -> None:
    rng = random.Random(index)
    headers = {"x-forwarded-for": f"10.200.{index // 250}.{index % 250 + 1}"}
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/analysis",
                                  additional_headers=headers, open_timeout=60) as ws:
        while time.monotonic() < stop_at:
            await ws.send(to_json({"type": "analyse", "position": {
                "game": "reversi", "moves": midgame(rng)}}).decode())
            while time.monotonic() < stop_at:
                try:
                    async with asyncio.timeout(max(0.1, stop_at - time.monotonic())):
                        msg = from_json(await ws.recv(decode=False))
                except TimeoutError:
                    return
                kind = msg.get("type")
                out[kind] = out.get(kind, 0) + 1
                if kind == "error":
                    out[msg.get("code", "?")] = out.get(msg.get("code", "?"), 0) + 1
                    if msg.get("code") == "analysis_budget":
                        await asyncio.sleep(min(5.0, stop_at - time.monotonic()))
                    break
                if kind == "stopped":
                    break


async def phase(name: str, cluster: Cluster, rooms: int, rate: float, seconds: float,
                analysts: int) -> dict[str, Any]:
    port = cluster.ports[0]
    web = cluster.procs[0].proc.pid
    load_before = os.getloadavg()
    own0, kids0 = split_cpu(web)
    stats = Stats()
    stop_at = [time.monotonic() + 3600]
    go = asyncio.Event()
    ready: list[int] = []
    firsts = [await new_room([port], i) for i in range(rooms)]
    interval = rooms / rate
    players = [asyncio.create_task(play_room([port], i, stats, "paced", interval, stop_at,
                                             firsts[i], go, ready)) for i in range(rooms)]
    while len(ready) < 2 * rooms:
        await asyncio.sleep(0.05)
    began = time.monotonic()
    stop_at[0] = began + seconds
    go.set()
    seen: dict[str, int] = {}
    busy = [asyncio.create_task(analyst(port, i, stop_at[0], seen)) for i in range(analysts)]
    await asyncio.gather(*players, *busy, return_exceptions=True)
    wall = time.monotonic() - began
    own1, kids1 = split_cpu(web)
    acks = sorted(stats.acks)
    return {"phase": name, "moves": len(acks), "moves_per_s": len(acks) / wall,
            "p50_ms": pct(acks, 0.5), "p99_ms": pct(acks, 0.99),
            "errors": dict(stats.errors), "analysis": seen,
            "web_cpu_s": own1 - own0, "children_cpu_s": kids1 - kids0, "wall_s": wall,
            "load_before": load_before, "load_after": os.getloadavg()}


def show(r: dict[str, Any]) -> None:
    la = " ".join(f"{x:.2f}" for x in r["load_before"])
    lb = " ".join(f"{x:.2f}" for x in r["load_after"])
    print(f"{r['phase']:<13} moves {r['moves']:>5} ({r['moves_per_s']:.1f}/s)  "
          f"ack p50 {r['p50_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms  "
          f"web CPU {r['web_cpu_s']:.1f} s  bot+analysis CPU {r['children_cpu_s']:.1f} s  "
          f"wall {r['wall_s']:.1f} s  load {la} -> {lb}")
    if r["analysis"]:
        print(f"{'':<13} analysis messages {r['analysis']}")
    if r["errors"]:
        print(f"{'':<13} room errors {r['errors']}")


async def run(args: argparse.Namespace) -> None:
    cluster = Cluster("embedded", 1)
    try:
        results = []
        for name, analysts in (("quiet", 0), ("analysing", args.analysts),
                               ("quiet again", 0)):
            r = await phase(name, cluster, args.rooms, args.rate, args.seconds, analysts)
            show(r)
            results.append(r)
        print_ratios(results, "analysing")
    finally:
        cluster.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--rate", type=float, default=20.0, help="moves/s over all rooms")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--analysts", type=int, default=10)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
