"""``asobiba worker`` stops cleanly on SIGTERM (issue 13 leftovers): the process exits 0 in
good time and its log holds nothing but its start line — no traceback, no ``Bad file
descriptor`` from Python's exit clean-up racing the bot processes' manager threads.

The race itself is narrow, so this real-process test catches it only now and then; the
deterministic check of the fix is ``test_bot_pool.py::test_a_pool_shut_down_waiting_leaves_
nothing_for_pythons_exit_to_race``. This one guards the whole stop path of the real command:
signalled alone (a process manager) or with its bot processes (``kill`` of the process group,
as bench/web_load.py stops it)."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from asobiba.server.services import RedisServer

from .scale_helpers import START_TIMEOUT, Worker


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_a_worker_stopped_with_sigterm_exits_cleanly(
        group: bool, pg_url: str, redis_server: RedisServer, tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    worker = Worker(pg_url, redis_server.url, log, processes=2)
    worker.env["PYTHONFAULTHANDLER"] = "1"  # SIGABRT dumps every thread's stack to the log
    worker.start()
    assert worker.proc is not None
    try:
        (os.killpg if group else os.kill)(worker.pid, signal.SIGTERM)
        try:
            rc = worker.proc.wait(START_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.kill(worker.pid, signal.SIGABRT)  # where it hangs, for the failure below
            worker.proc.wait(30)
            raise AssertionError("the worker did not stop within "
                                 f"{START_TIMEOUT:g} s:\n{worker.output()[-8000:]}") from None
        assert rc == 0
    finally:
        worker.kill9()
    lines = log.read_text(errors="replace").splitlines()
    assert len(lines) == 1 and "taking jobs" in lines[0], "\n".join(lines[-40:])
