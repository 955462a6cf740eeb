"""The room bus of the scaled mode (asobiba.server.bus.RedisBus) on a real Redis: the order
and independence of the events a process receives (issue 13 item 1: every move reaches
every connection of every process, at once)."""

from __future__ import annotations

import asyncio

from asobiba.core.jsontypes import JSONObject
from asobiba.server.bus import RedisBus
from asobiba.server.services import RedisServer


def test_rule_a_room_waiting_on_its_lock_does_not_hold_up_other_rooms_events(
        redis_server: RedisServer) -> None:
    """An event whose handling waits (its room's lock is held while a move of that room is
    committed here) must not delay the events of other rooms behind it; the events of one
    room are still handled in the order they were published."""

    async def scenario() -> tuple[list[str], list[str]]:
        sender, receiver = RedisBus(redis_server.url), RedisBus(redis_server.url)
        release = asyncio.Event()
        handled: list[str] = []
        seen_while_blocked: list[str] = []
        other_done = asyncio.Event()

        async def on_event(event: JSONObject) -> None:
            name = f"{event['room']}:{event['n']}"
            if name == "slow:0":
                await release.wait()  # as if waiting for the room's lock
            handled.append(name)
            if event["room"] == "fast" and event["n"] == 2:
                other_done.set()

        async def nothing() -> None:
            return None

        await receiver.start(on_event, nothing)
        await sender.start(on_event, nothing)
        try:
            for n in range(3):
                sender.publish({"kind": "move", "room": "slow", "n": n})
            for n in range(3):
                sender.publish({"kind": "move", "room": "fast", "n": n})
            await asyncio.wait_for(other_done.wait(), 30)
            seen_while_blocked = list(handled)
            release.set()
            for _ in range(300):
                if len(handled) == 6:
                    break
                await asyncio.sleep(0.05)
        finally:
            await sender.close()
            await receiver.close()
        return seen_while_blocked, handled

    blocked, handled = asyncio.run(scenario())
    assert blocked == ["fast:0", "fast:1", "fast:2"], \
        "the other room's events were handled while the first room's waited"
    assert handled[3:] == ["slow:0", "slow:1", "slow:2"], \
        "a room's own events stay in the order they were published"


def test_an_event_is_handled_in_the_listeners_own_turn_when_nothing_holds_it(
        redis_server: RedisServer) -> None:
    """The receiving side (asobiba.server.eager): an event whose room has nothing pending
    is handled at once by the task that read it from Redis, not by a new task a loop turn
    later; one that must wait for its room's earlier event goes on in a task of its own
    (the order test above)."""

    async def scenario() -> list[str]:
        sender, receiver = RedisBus(redis_server.url), RedisBus(redis_server.url)
        handled_by: list[str] = []
        done = asyncio.Event()

        async def on_event(event: JSONObject) -> None:
            task = asyncio.current_task()
            assert task is not None
            handled_by.append(task.get_coro().__qualname__)  # type: ignore[union-attr]
            if len(handled_by) == 3:
                done.set()

        async def nothing() -> None:
            return None

        await receiver.start(on_event, nothing)
        await sender.start(None)
        try:
            for n in range(3):
                sender.publish({"kind": "move", "room": f"r{n}", "n": n})
                await asyncio.sleep(0.05)
            await asyncio.wait_for(done.wait(), 30)
        finally:
            await sender.close()
            await receiver.close()
        return handled_by

    assert asyncio.run(scenario()) == ["RedisBus._listen"] * 3
