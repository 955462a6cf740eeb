"""One path for both modes (issue 13 item 1): the room tests of test_server.py, run again
with the scaled mode plugged in — the web app on PostgreSQL with ``redis_url`` (the Redis
bus and bot queue, a throwaway ``redis-server``) and a real bot worker
(:func:`asobiba.server.worker.work`, in a thread of the test process) making the bots' moves
from the queue. Same tests, same assertions; only the bus, queue and store differ."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba.server import create_app
from asobiba.server.services import RedisServer

from . import test_server as rooms

SAME_TESTS = [
    rooms.test_rule_full_game_against_bot_ends_with_result_and_record,
    rooms.test_rule_seed_and_keys_never_leave_the_server_during_play,
    rooms.test_rule_hostile_input_is_refused_and_changes_nothing,
    rooms.test_rule_move_is_committed_before_it_is_acknowledged,
    rooms.test_rule_restart_resumes_every_unfinished_game_exactly,
    rooms.test_rule_resign_ends_the_game_and_the_record_says_so,
    rooms.test_rule_undo_against_a_bot_takes_back_my_move_and_its_reply,
    rooms.test_rule_undo_between_people_needs_the_other_to_accept,
    rooms.test_rule_rematch_swaps_seats_and_keys_come_from_the_old_ones,
    rooms.test_rule_spectators_get_the_public_view,
]
# Not repeated here: the fallen-flag test restarts the server inside a 2 s clock, which the
# scaled set-up (a worker warming its bots) cannot do in time on a loaded machine; flags
# across processes are tested with real processes in test_scale.py instead.


@contextlib.contextmanager
def bot_worker(db_url: str, redis_url: str) -> Iterator[None]:
    """A real bot worker (queue consumer + bot pool in threads) on its own event loop."""
    from asobiba.server.worker import work

    loop = asyncio.new_event_loop()
    ready = threading.Event()
    failed: list[BaseException] = []
    task: list[asyncio.Task[None]] = []

    def main() -> None:
        async def run() -> None:
            task.append(asyncio.current_task())  # type: ignore[arg-type]
            await work(db_url, redis_url, processes=0, ready=ready.set)

        try:
            loop.run_until_complete(run())
        except asyncio.CancelledError:
            pass
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            failed.append(exc)
            ready.set()

    thread = threading.Thread(target=main, name="bot-worker", daemon=True)
    thread.start()
    assert ready.wait(120), "the bot worker did not start"
    if failed:
        raise failed[0]
    try:
        yield
    finally:
        loop.call_soon_threadsafe(task[0].cancel)
        thread.join(30)


def scaled_clients(pg_url: str, redis_url: str) -> Callable[..., Any]:
    @contextlib.contextmanager
    def make_client(data_dir: Any, **kw: Any) -> Iterator[TestClient]:
        kw.setdefault("bot_processes", 0)
        db = kw.pop("db_url", None) or pg_url
        with bot_worker(db, redis_url), \
                TestClient(create_app(str(data_dir), db_url=db, redis_url=redis_url,
                                      **kw)) as client:
            yield client
    return make_client


@pytest.mark.parametrize("test", SAME_TESTS, ids=lambda t: t.__name__)
def test_same_room_rules_hold_in_the_scaled_mode(
        test: Callable[..., None], tmp_path: Path, pg_cluster: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    redis = RedisServer().start()
    try:
        pg_url = pg_cluster.new_database()
        monkeypatch.setattr(rooms, "make_client", scaled_clients(pg_url, redis.url))
        params = inspect.signature(test).parameters
        kwargs: dict[str, Any] = {"tmp_path": tmp_path, "monkeypatch": monkeypatch}
        if "db_url" in params:
            kwargs["db_url"] = pg_url
        test(**{k: v for k, v in kwargs.items() if k in params})
    finally:
        redis.stop()
