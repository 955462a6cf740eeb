"""A soak of the scaled mode under faults (issue 25 item 9): every real process — two
``asobiba serve --redis``, one ``asobiba worker``, a PostgreSQL cluster and a Redis of its own
— with people rooms (one player at each web process) and person-against-bot rooms playing
round after round, and a fault every ``--every`` seconds for ``--duration`` seconds, in turn:
Redis killed for ``--redis-down`` seconds (losing every key), the worker killed -9, web
process 0 killed -9, PostgreSQL stopped at once, web process 1 killed -9 (each started again,
as a supervisor would). After each fault every room plays a round, timed from the fault's
end (target: 10 s).

Prints, per fault, what tests/web/fault_harness.py measures (seconds for each room's round,
the processes' restart and the clients' reconnection), then the totals: moves acknowledged,
acknowledged moves missing from the database (lost), rounds over the 10 s target, rooms
stuck (no round within 60 s), the CPU seconds used by the asobiba processes (web, worker and
their bot processes, sampled each second from /proc, so a killed process counts up to its
last sample) and by this driver, and the load average.

Quick (the default, ``make bench``): 150 s, a fault every 30 s, 2 + 2 rooms (~4 minutes with
the start-up). The ten-minute soak: ``nice -n 5 python bench/web_faults_soak.py --duration 600
--every 60 --people 4 --bots 4``. Needs redis-server and the PostgreSQL server binaries (as
`make test` does).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(  # the processes it starts import this checkout
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])

from asobiba.server.services import PgCluster, RedisServer, _server_bin_dir  # noqa: E402
from tests.web.fault_harness import Cluster, CpuMeter, loadavg  # noqa: E402

TARGET = 10.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=150.0, help="seconds of faults")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between faults")
    ap.add_argument("--people", type=int, default=2, help="people rooms")
    ap.add_argument("--bots", type=int, default=2, help="person-against-bot rooms")
    ap.add_argument("--redis-down", type=float, default=10.0, help="seconds Redis is away")
    args = ap.parse_args()
    bin_dir = _server_bin_dir()
    if bin_dir is None:
        sys.exit("the PostgreSQL server binaries are not installed")
    print(f"load average at the start: {loadavg()}", flush=True)
    base = Path(tempfile.mkdtemp(prefix="asobiba-soak-"))
    redis = RedisServer().start()
    pg = PgCluster(bin_dir)
    pg.start()
    cluster: Cluster | None = None
    meter: CpuMeter | None = None
    t_start = time.monotonic()
    cpu0 = os.times()
    try:
        cluster = Cluster(base, pg, redis, pg.new_database(), people=args.people,
                          bots=args.bots)
        cluster.tolerant = True
        held = cluster
        meter = CpuMeter(held.pids)
        faults = [cluster.fault_redis, cluster.fault_worker, lambda: held.fault_web(0),
                  cluster.fault_postgres, lambda: held.fault_web(1)]
        rounds = 0
        slow_steady = 0
        t0 = time.monotonic()
        n = 0
        while n * args.every < args.duration:  # a fault at 0, every, 2 × every, …
            next_fault = t0 + n * args.every
            while time.monotonic() < next_fault:  # steady play until the next fault
                times = cluster.rounds()
                rounds += len(times)
                slow_steady += sum(1 for x in times if x > TARGET)
            fault = faults[n % len(faults)]
            if fault == cluster.fault_redis:
                cluster.fault_redis(down=args.redis_down)
            else:
                fault()
            n += 1
        lost = cluster.lost()
        acked = cluster.acked()
    finally:
        cpu_procs = meter.total() if meter is not None else 0.0
        if cluster is not None:
            cluster.stop()
        pg.stop()
        redis.stop()
    wall = time.monotonic() - t_start
    cpu1 = os.times()
    after = [x for e in cluster.log for x in e["rooms_progressed_s"]]
    reconnects = [x for e in cluster.log for x in e.get("reconnect_s", [])]
    summary = {
        "faults": len(cluster.log), "duration_s": round(wall, 1),
        "rooms": args.people + args.bots, "moves_acked": acked, "lost": len(lost),
        "rooms_stuck": cluster.stuck,
        "rounds_after_faults": len(after),
        "rounds_after_faults_over_10s": sum(1 for x in after if x > TARGET),
        "slowest_round_after_a_fault_s": round(max(after), 2) if after else None,
        "steady_rounds": rounds, "steady_rounds_over_10s": slow_steady,
        "reconnect_s_max": max(reconnects) if reconnects else None,
        "refused_while_postgres_down": cluster.refused,
        "cpu_s_asobiba_processes": round(cpu_procs, 1),
        "cpu_s_driver": round(cpu1.user - cpu0.user + cpu1.system - cpu0.system, 1),
        "load_average_end": loadavg(),
    }
    print(json.dumps(summary, indent=1), flush=True)
    if lost:
        print("LOST:", lost)
        sys.exit(1)


if __name__ == "__main__":
    main()
