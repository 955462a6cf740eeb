"""Event-loop stalls from the HTTP rate limits with ``--redis`` (issue 13 items 3 and 5).

One scaled-mode web app (SQLite store, a real Debian ``redis-server`` for the bus and the
limits) is served by uvicorn in this process; a client process fires a burst of
``POST /api/rooms`` (each rate-limited: one Redis round trip for the count) while a probe task
on the server's event loop measures how late its 5 ms sleeps wake up — what every WebSocket
of the process would wait on top of its own work.

Two variants in the same run, the same burst:

* **peer — on the loop**: ``Limits.ahit`` replaced by the old call (``hit`` on the event
  loop, as every HTTP route did before);
* **off the loop**: the code as it is (``ahit`` asks Redis in the store's own threads).

``--redis-stall-ms N`` (default 20) makes Redis busy the way a shared production Redis
sometimes is: another client runs a script that spins N ms every 100 ms (0: an idle Redis).
Prints the probe's lateness (p50 / p99 / max), the ratio peer / current, the burst's wall
time beside the CPU seconds of this process (server + probe) and of the client process,
and the load average. Usage: ``python bench/limits_stall.py [--rooms 1000] [--clients 8]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
import uvicorn  # noqa: E402

from asobiba.server.app import create_app  # noqa: E402
from asobiba.server.limits import Limits, RedisStore  # noqa: E402
from asobiba.server.services import RedisServer  # noqa: E402

CLIENT = r"""
import sys, httpx
from concurrent.futures import ThreadPoolExecutor
url, n, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
body = {"game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]}
with httpx.Client(base_url=url, timeout=120) as http:
    def one(i):
        return http.post("/api/rooms", json=body,
                         headers={"x-forwarded-for": f"10.9.{i // 250}.{i % 250 + 1}"}
                         ).status_code
    with ThreadPoolExecutor(c) as pool:
        codes = list(pool.map(one, range(n)))
print(sum(code == 201 for code in codes))
"""


class OnTheLoop(Limits):
    """The peer: every limit asked on the event loop, as the routes did before ``ahit``."""

    async def ahit(self, rule: str, *key: str) -> bool:
        return self.hit(rule, *key)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


BUSY = """
local t0 = redis.call('TIME')
local start = t0[1] * 1000000 + t0[2]
while true do
  local t = redis.call('TIME')
  if t[1] * 1000000 + t[2] - start >= tonumber(ARGV[1]) then return 1 end
end
"""


def busy_redis(url: str, stall_ms: int, stop: threading.Event) -> None:
    """Redis busy ``stall_ms`` every 100 ms: a script that spins (Redis runs one command at a
    time, so every other client waits; ``DEBUG SLEEP`` is disabled in Debian's Redis 7)."""
    r = redis.Redis.from_url(url, socket_timeout=30)
    spin = r.register_script(BUSY)
    while not stop.wait(0.1):
        spin(args=[stall_ms * 1000])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_variant(name: str, limits: Limits, redis_url: str, rooms: int, clients: int,
                      workdir: Path) -> dict[str, float]:
    app = create_app(str(workdir), db_url=f"sqlite:///{workdir / 'a.db'}",
                     redis_url=redis_url, limits=limits, bot_processes=0,
                     trust_proxy=True)  # its clients' X-Forwarded-For, from 127.0.0.1
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on",
                                           proxy_headers=False))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    lateness: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            lateness.append((time.perf_counter() - t0 - 0.005) * 1000)

    probing = asyncio.create_task(probe())
    cpu0, kids0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    client = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CLIENT, f"http://127.0.0.1:{port}", str(rooms), str(clients),
        stdout=subprocess.PIPE)
    out, _ = await client.communicate()
    wall = time.perf_counter() - wall0
    done.set()
    await probing
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    created = int(out.decode().strip() or 0)
    server.should_exit = True
    await serving
    result = {"created": created, "wall": wall, "cpu": time.process_time() - cpu0,
              "client_cpu": kids.ru_utime + kids.ru_stime - kids0.ru_utime - kids0.ru_stime,
              "p50": statistics.median(lateness), "p99": pct(lateness, 0.99),
              "max": max(lateness), "samples": len(lateness)}
    print(f"{name:<22} rooms created {created}/{rooms} in {wall:.2f} s wall; CPU: server+probe "
          f"{result['cpu']:.2f} s, client {result['client_cpu']:.2f} s; event-loop lateness "
          f"ms p50 {result['p50']:.2f}  p99 {result['p99']:.2f}  max {result['max']:.2f} "
          f"({len(lateness)} samples)", flush=True)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=1000)
    ap.add_argument("--clients", type=int, default=8, help="requests in flight at once")
    ap.add_argument("--redis-stall-ms", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3, help="runs of each variant, alternating")
    args = ap.parse_args()
    print(f"== limits stall: {args.rooms} POST /api/rooms, {args.clients} at once, Redis busy "
          f"{args.redis_stall_ms} ms every 100 ms; {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    srv = RedisServer().start()
    stop = threading.Event()
    try:
        if args.redis_stall_ms > 0:
            threading.Thread(target=busy_redis, args=(srv.url, args.redis_stall_ms, stop),
                             daemon=True).start()
        variants = [("peer: on the loop", OnTheLoop), ("off the loop (ahit)", Limits)]
        results: dict[str, list[dict[str, float]]] = {name: [] for name, _ in variants}
        for round_ in range(args.rounds):  # alternating, so neither always runs first
            for name, cls in variants if round_ % 2 == 0 else variants[::-1]:
                with tempfile.TemporaryDirectory(prefix="asobiba-limits-") as tmp:
                    # scale: the burst comes from few addresses; the count is what we measure
                    limits = cls(store=RedisStore(srv.url), scale=1000)
                    results[name].append(asyncio.run(run_variant(
                        name, limits, srv.url, args.rooms, args.clients, Path(tmp))))

        def med(name: str, key: str) -> float:
            return statistics.median(r[key] for r in results[name])

        old, new = (name for name, _ in variants)
        for name in (old, new):
            print(f"median of {args.rounds} rounds, {name:<22} lateness ms p50 "
                  f"{med(name, 'p50'):.2f}  p99 {med(name, 'p99'):.2f}  max "
                  f"{med(name, 'max'):.2f}; CPU server+probe {med(name, 'cpu'):.2f} s over "
                  f"{med(name, 'wall'):.2f} s wall", flush=True)
        print(f"ratio peer/current (medians): lateness p50 "
              f"{med(old, 'p50') / med(new, 'p50'):.1f}x, p99 "
              f"{med(old, 'p99') / med(new, 'p99'):.1f}x, max "
              f"{med(old, 'max') / med(new, 'max'):.1f}x; load average after "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    finally:
        stop.set()
        srv.stop()


if __name__ == "__main__":
    main()
