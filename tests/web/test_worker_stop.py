"""``asobiba worker`` stops cleanly on SIGTERM (issue 13 leftovers): the process exits 0 in
good time and its log holds nothing but its start line and that it is stopping — no
traceback, no ``Bad file descriptor`` from Python's exit clean-up racing the bot processes'
manager threads.

Two rare faults were found here: the exit race (deterministic check:
``test_bot_pool.py::test_a_pool_shut_down_waiting_leaves_nothing_for_pythons_exit_to_race``)
and a worker that, about one stop in a hundred, never stopped: the SIGTERM's single
cancellation was lost and the worker sat idle on its event loop (the faulthandler dump below
showed only ``select``); it is now cancelled again until it ends (deterministic check: the
``until_stopped`` tests below). This real-process test guards the whole stop path of the
command, signalled alone (a process manager) or with its bot processes (``kill`` of the
process group, as bench/web_load.py stops it); on a hang it dumps the worker's stacks."""

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
    assert len(lines) == 2 and "taking jobs" in lines[0], "\n".join(lines[-40:])
    assert lines[1] == "asobiba worker: stopping (SIGTERM)"


def test_a_stop_cancels_the_work_again_until_it_has_ended(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's stop (:func:`worker.until_stopped`) does not trust one cancellation: a
    job that loses the first one (as a library call completing at that very moment can)
    is cancelled again until it ends, and its clean-up runs. With a single cancel this
    test's job would run on, and the bound below would fail it."""
    import asyncio

    from asobiba.server import worker

    monkeypatch.setattr(worker, "RECANCEL", 0.05)
    lost: list[int] = []
    ended: list[str] = []

    async def job() -> None:
        try:
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    if not lost:  # the first cancellation, lost
                        lost.append(1)
                        continue
                    raise
        finally:
            ended.append("clean-up ran")

    async def scenario() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.05, stop.set)
        await worker.until_stopped(job(), stop)

    asyncio.run(asyncio.wait_for(scenario(), 120))
    assert lost == [1] and ended == ["clean-up ran"]


def test_work_that_ends_by_itself_ends_the_stop_wait_too() -> None:
    """No stop: the job's own end (or its error) ends :func:`worker.until_stopped`."""
    import asyncio

    from asobiba.server import worker

    async def fails() -> None:
        raise RuntimeError("no database")

    async def scenario() -> None:
        await worker.until_stopped(fails(), asyncio.Event())

    with pytest.raises(RuntimeError, match="no database"):
        asyncio.run(asyncio.wait_for(scenario(), 120))
