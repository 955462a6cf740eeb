"""Faults while rooms play, with every real process of the scaled mode (issue 25 item 9):
two ``asobiba serve --redis``, one ``asobiba worker``, PostgreSQL and Redis of their own
(tests/web/fault_harness.py). In turn: Redis killed for 10 s (losing every key) and started
again, the worker killed -9 and started again, a web process killed -9 and started again,
PostgreSQL stopped at once and started again. After each: no acknowledged move lost, and
every room — people rooms with one player at each web process, person-against-bot rooms —
makes its next round (the next move acknowledged and seen by the other player, or answered
by the bot), every client having reconnected where its process went away.

The target is 10 s from the end of a fault to the last room's round; the test allows
``fault_harness.ROUND`` (60 s) per round, since a loaded 2-core machine may be many times
slower, and prints what it measured (run with ``-s`` to see it; docs/benchmarks.md has a
run's figures). On the code before issue 25's fixes it failed at the first fault: the people
rooms froze while Redis was away (a move at one process never reached the other: "stuck"
after 60 s); the bot rooms' faults there (NOGROUP, a job dropped) are shown failing by
tests/web/test_bot_jobs_faults.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asobiba.server.services import PgCluster, RedisServer, _server_bin_dir

from .fault_harness import ROUND, Cluster, loadavg


def test_rule_no_acknowledged_move_lost_and_no_room_stuck_through_every_fault(
        redis_server: RedisServer, tmp_path: Path) -> None:
    bin_dir = _server_bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL server binaries are not installed")
    pg = PgCluster(bin_dir)  # its own cluster: this test restarts it
    pg.start()
    cluster = None
    t0 = os.times()
    try:
        cluster = Cluster(tmp_path, pg, redis_server, pg.new_database())
        phase = "the first rounds"
        try:
            cluster.rounds()  # every room playing before the first fault
            phase = "Redis restarted"
            redis = cluster.fault_redis(down=10.0)
            phase = "the worker killed"
            worker = cluster.fault_worker()
            phase = "a web process killed"
            web = cluster.fault_web(0)
            phase = "PostgreSQL restarted"
            postgres = cluster.fault_postgres()
            phase = "the last rounds"
            cluster.rounds()
        except (TimeoutError, OSError) as exc:  # a wait outside a room's retried round
            raise AssertionError(f"{phase}: {exc!r}; load average {loadavg()}\n"
                                 f"{cluster.tails()}") from exc
        lost = cluster.lost()
        acked = cluster.acked()
    finally:
        if cluster is not None:
            cluster.stop()
        pg.stop()
    t1 = os.times()
    print(f"acked {acked} moves, lost {len(lost)}; this process's CPU "
          f"{t1.user - t0.user + t1.system - t0.system:.1f} s; load average {loadavg()}")
    assert lost == [], "every acknowledged move is in the database"
    assert acked >= 20
    for entry in (redis, worker, web, postgres):
        assert entry["lost"] == 0, entry
        assert entry["slowest_room_s"] < ROUND, entry
    # during the Redis outage the people rooms went on, each move crossing between the two
    # processes through the database (it froze until Redis was back before)
    assert redis["people_rounds_during_outage_s"], redis
    assert postgres and cluster.refused >= 1, "moves were refused while PostgreSQL was down"
