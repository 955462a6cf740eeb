"""The server's bot turns on the one bot-turn step of the game loop (issue 17 item 3):
``play.runner.pick`` in the bot slot, ``play.runner.settle`` against the room's state — in
the embedded pool (``Hub._bot_turn``) and in a bot worker of the scaled mode
(``Hub.bot_job``, what ``asobiba worker`` runs for each queued job). Real SQLite store, real
bot pool (thread slots); the queue of the scaled mode is replaced by a list of the jobs the
web process would have queued, the worker's job then run as ``asobiba worker`` runs it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from asobiba.core import Rng
from asobiba.core.rng import derive_seed
from asobiba.games import get
from asobiba.server.bots import BotPool, choose_move
from asobiba.server.db import Store
from asobiba.server.rooms import Hub

SEATS = [{"kind": "bot", "level": "2", "name": ""}, {"kind": "human", "level": None,
                                                       "name": "hana"}]


class QueuedJobs:
    """The jobs a web process of the scaled mode queues (room, seat, ply), kept in a list."""

    remote = True

    def __init__(self) -> None:
        self.jobs: list[tuple[str, int, int]] = []

    async def enqueue(self, room_id: str, seat: int, ply: int, after: str = "") -> bool:
        self.jobs.append((room_id, seat, ply))
        return True

    async def close(self) -> None:
        return None


def expected_first_move(seed: int, cpu_seed: int) -> str:
    """What the level-2 Reversi bot of seat 0 picks at ply 0 of a room dealt with ``seed``
    whose CPU seed (``Room.cpu_seed``, from the server's secret) is ``cpu_seed``, made here by
    the server's own bot entry point with the seed the server derives."""
    state = get("reversi").new_game({}, seed)
    return choose_move("reversi", "2", derive_seed(cpu_seed, "bot", 0, 0) >> 1, 0,
                       dict(state.options), [state.view(0)])


async def until(check: Any, what: str) -> None:
    for _ in range(6000):  # generous: the machine may be loaded
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_embedded_bot_turn_plays_the_bots_pick_through_the_runner_step(
        tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=120.0)
    hub = Hub(store, pool, get)

    async def scenario() -> tuple[str, int, int, list[str]]:
        room, _keys = await hub.create(get("reversi"), {}, SEATS, seed=77)
        await until(lambda: len(room.moves) == 1 and not room.bot_tasks, "the bot turn")
        return room.moves[0].text, room.data.seed, room.cpu_seed, list(room.notes)

    try:
        text, seed, cpu, notes = asyncio.run(scenario())
    finally:
        pool.shutdown()
        store.close()
    assert text == expected_first_move(seed, cpu)
    assert not any(n["code"] == "bot_fallback" for n in notes)


def test_rule_embedded_bot_overrunning_its_limit_plays_the_seeded_fallback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that cannot answer within its limit: the settle step plays the seeded random
    legal move of the fallback stream and the room's log says the bot timed out. (The bot
    is made slow — 5 s before it picks — so that no scheduling under load lets it finish
    inside the 0.3 s limit.)"""
    from asobiba.server import bots

    real = bots.bot_pick

    def slow_pick(*args: Any) -> Any:
        time.sleep(5.0)
        return real(*args)

    monkeypatch.setattr(bots, "bot_pick", slow_pick)
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=0.3)
    hub = Hub(store, pool, get)

    async def scenario() -> tuple[str, list[str], int, int]:
        room, _keys = await hub.create(get("reversi"), {}, SEATS, seed=78)
        await until(lambda: len(room.moves) == 1 and not room.bot_tasks, "the bot turn")
        return room.moves[0].text, list(room.notes), room.data.seed, room.cpu_seed

    try:
        text, notes, seed, cpu = asyncio.run(scenario())
    finally:
        pool.shutdown()
        store.close()
    legal = get("reversi").new_game({}, seed).legal_moves(0).texts()
    assert text == legal[Rng(cpu, "fallback", 0, 0).below(len(legal))]
    assert [(n["code"], n["args"]["seat"], n["args"]["why"]) for n in notes] == [
        ("bot_fallback", 0, "timeout")], notes


def test_worker_bot_job_plays_the_bots_pick_through_the_runner_step(tmp_path: Path) -> None:
    """The scaled mode: the web process only queues the job; a worker's hub (as ``asobiba
    worker`` builds it) loads the room from the database and makes the move through the
    same step — the same move the embedded pool would make; a repeated job changes
    nothing (at-least-once delivery)."""
    url = f"sqlite:///{tmp_path / 'a.db'}"
    web_store, worker_store = Store(url), Store(url)
    queued, worker_queue = QueuedJobs(), QueuedJobs()
    web_pool, worker_pool = BotPool(processes=0), BotPool(processes=0, time_limit=120.0)
    web = Hub(web_store, web_pool, get, jobs=queued)
    worker = Hub(worker_store, worker_pool, get, jobs=worker_queue, clocks=False)

    cpu: list[int] = []

    async def scenario() -> tuple[str, bool, bool, int]:
        room, _keys = await web.create(get("reversi"), {}, SEATS, seed=79)
        cpu.append(room.cpu_seed)
        await until(lambda: queued.jobs == [(room.id, 0, 0)], "the queued job")
        done = await worker.bot_job(room.id, 0, 0)
        again = await worker.bot_job(room.id, 0, 0)  # delivered twice: a no-op
        stored = web_store.load_room(room.id)
        assert stored is not None
        assert not room.bot_tasks  # the web process ran no bot itself
        return stored.moves[0].text, done, again, len(stored.moves)

    try:
        text, done, again, n = asyncio.run(scenario())
    finally:
        for pool in (web_pool, worker_pool):
            pool.shutdown()
        web_store.close()
        worker_store.close()
    assert done and again and n == 1
    # the worker derives the same CPU seed from the database's secret as the web process
    assert text == expected_first_move(79, cpu[0])


def test_rule_a_job_found_done_already_tells_the_web_processes_to_reload(
        tmp_path: Path) -> None:
    """Issue 13 item 4 (kill -9 of a worker mid-move): a worker killed after its commit and
    before it published the move leaves the web processes one move behind. The worker that
    takes the job over finds the move stored and publishes a ``sync`` of the room, so every
    process reloads it (before, the players waited for a move they never saw)."""
    from asobiba.core.jsontypes import JSONObject
    from asobiba.server.bus import LocalBus

    class Recording(LocalBus):
        def __init__(self) -> None:
            super().__init__()
            self.events: list[JSONObject] = []

        def publish(self, event: JSONObject) -> None:
            self.events.append(event)

    url = f"sqlite:///{tmp_path / 'a.db'}"
    web_store, worker_store = Store(url), Store(url)
    queued = QueuedJobs()
    web_pool, worker_pool = BotPool(processes=0), BotPool(processes=0, time_limit=120.0)
    web = Hub(web_store, web_pool, get, jobs=queued)
    first_bus, second_bus = Recording(), Recording()
    first = Hub(worker_store, worker_pool, get, jobs=QueuedJobs(), clocks=False,
                bus=first_bus)
    second = Hub(worker_store, worker_pool, get, jobs=QueuedJobs(), clocks=False,
                 bus=second_bus)

    async def scenario() -> None:
        room, _keys = await web.create(get("reversi"), {}, SEATS, seed=80)
        await until(lambda: queued.jobs == [(room.id, 0, 0)], "the queued job")
        assert await first.bot_job(room.id, 0, 0)
        assert [e["kind"] for e in first_bus.events] == ["move"]
        first_bus.events.clear()  # as if the first worker died before publishing it
        assert await second.bot_job(room.id, 0, 0)  # the job, taken over
        assert second_bus.events == [{"kind": "sync", "room": room.id}]

    try:
        asyncio.run(scenario())
    finally:
        for pool in (web_pool, worker_pool):
            pool.shutdown()
        web_store.close()
        worker_store.close()
