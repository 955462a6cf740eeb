"""The server without a browser: rooms, seats and keys, hostile input, persistence and
resume, the table's actions (resign, undo, rematch), records and replays, the bot pool."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from asobiba.server.bots import BotPool, BotTimeout
from asobiba.server.db import Store

from .helpers import (
    create_room,
    is_update,
    make_client,
    my_view,
    quick,
    read_until,
    receive_json,
    send_json,
    slow,
)

JSON = {"content-type": "application/json"}

HUMAN = {"kind": "human"}


def bot(level: str = "random") -> dict[str, Any]:
    return {"kind": "bot", "level": level}


def join(ws: Any, keys: list[dict[str, Any]]) -> dict[str, Any]:
    """Say hello with seat keys; return the last update received before the ack."""
    send_json(ws, {"type": "hello", "seats": keys, "id": "hello"})
    seen: list[dict[str, Any]] = []
    read_until(ws, lambda m: m.get("id") == "hello" or m.get("type") == "error", seen=seen)
    updates = [m for m in seen if is_update(m)]
    errors = [m for m in seen if m.get("type") == "error"]
    assert not errors, errors
    return updates[-1]


def expect_error(ws: Any, message: Any, code: str, raw: bool = False) -> dict[str, Any]:
    if raw:
        ws.send_text(message)
    else:
        ws.send_json(message)
    err = read_until(ws, lambda m: m.get("type") == "error")
    assert err["code"] == code, err
    assert err["message"]
    return err


def play_to_end(ws: Any, first: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move whenever it is this seat's turn, until the game ends."""
    msg = first

    def ready(m: dict[str, Any]) -> bool:
        return is_update(m) and (my_view(m)["over"] or bool(my_view(m)["legal_moves"]))

    for ply in range(500):
        view = my_view(msg)
        if view["over"]:
            return msg
        send_json(ws, {"type": "move", "move": view["legal_moves"][0],
                       "ply": msg["room"]["ply"], "id": ply})
        seen: list[dict[str, Any]] = []
        read_until(ws, lambda m, p=ply: m.get("id") == p and m["type"] == "ack"
                   or m["type"] == "error", seen=seen)
        errors = [m for m in seen if m["type"] == "error"]
        assert not errors, f"move {view['legal_moves'][0]} at ply {msg['room']['ply']} " \
            f"was refused: {errors}"
        # the bot's reply may overtake the acknowledgement of our move
        later = [m for m in seen if ready(m) and (
            my_view(m)["over"] or m["room"]["ply"] > msg["room"]["ply"] + 1)]
        msg = later[-1] if later else read_until(ws, ready)
    raise AssertionError("game did not end")


def test_rule_full_game_against_bot_ends_with_result_and_record(
        tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        assert [k["seat"] for k in room["keys"]] == [0], "only human seats get keys"
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            final = play_to_end(ws, join(ws, room["keys"]))
        result = final["room"]["result"]
        assert final["room"]["status"] == "finished" and result["ranks"]
        record = client.get(f"/api/rooms/{room['room']}/record")
        assert record.status_code == 200
        data = record.json()
        assert len(data["moves"]) == final["room"]["ply"]
        assert data["result"]["scores"] == result["scores"]
        steps = client.post("/api/replay", content=record.content, headers=JSON).json()["steps"]
        assert len(steps) == len(data["moves"]) + 1
        assert steps[-1]["views"][0]["over"] is True


def test_rule_seed_and_keys_never_leave_the_server_during_play(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        info = client.get(f"/api/rooms/{room['room']}").json()
        text = json.dumps(info)
        assert "seed" not in info
        for k in room["keys"]:
            assert k["key"] not in text
        res = client.get(f"/api/rooms/{room['room']}/record")
        assert res.status_code == 409, "no record (it holds the seed) before the game ends"


def test_rule_hostile_input_is_refused_and_changes_nothing(tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            read_until(ws, is_update)
            # a spectator may not move
            expect_error(ws, {"type": "move", "seat": 0, "move": "d3"}, "not_your_seat")
            # a forged key gives nothing
            ws.send_json({"type": "hello", "seats": [{"seat": 0, "key": "forged" + k0["key"]}]})
            err = read_until(ws, lambda m: m.get("type") == "error")
            assert err["code"] == "bad_key"
            expect_error(ws, {"type": "move", "seat": 0, "move": "d3"}, "not_your_seat")
            expect_error(ws, "{not json", "bad_json", raw=True)
            expect_error(ws, "[1, 2]", "bad_message", raw=True)
            expect_error(ws, json.dumps({"type": "move", "move": "x" * 9000}), "too_large",
                         raw=True)
            expect_error(ws, {"type": "explode"}, "unknown_type")
            join(ws, [k0])
            expect_error(ws, {"type": "move", "seat": 1, "move": "d3"}, "not_your_seat")
            expect_error(ws, {"type": "move", "seat": 0, "move": "zz99"}, "malformed")
            expect_error(ws, {"type": "move", "seat": 0, "move": "a1"}, "illegal")
            expect_error(ws, {"type": "move", "seat": 0, "move": 42}, "bad_message")
            expect_error(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 7}, "stale")
            expect_error(ws, {"type": "undo_reply", "seat": 0, "accept": True}, "no_undo")
            expect_error(ws, {"type": "rematch"}, "not_over")
            with client.websocket_connect(f"/ws/{room['room']}") as ws2:
                join(ws2, [k1])
                expect_error(ws2, {"type": "move", "seat": 1, "move": "d3"}, "not_your_turn")
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert info["ply"] == 0 and info["status"] == "active"
        store = Store(db_url)
        stored = store.load_room(room["room"])
        assert stored is not None and stored.moves == []


def test_rule_bad_room_requests_name_the_problem(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        cases = [
            ({"game": "chess", "seats": [HUMAN, HUMAN]}, "unknown_game"),
            ({"game": "reversi", "seats": [HUMAN]}, "bad_seats"),
            ({"game": "reversi", "seats": [HUMAN, bot("99")]}, "bad_level"),
            ({"game": "reversi", "seats": [HUMAN, {"kind": "alien"}]}, "bad_seats"),
            ({"game": "algo", "options": {"players": 99}, "seats": [HUMAN, HUMAN]},
             "bad_options"),
            ({"game": "reversi", "options": {"bogus": 1}, "seats": [HUMAN, HUMAN]},
             "bad_options"),
        ]
        for body, code in cases:
            res = client.post("/api/rooms", json=body)
            assert res.status_code == 400 and res.json()["error"]["code"] == code, (body, res.text)
        res = client.post("/api/rooms", content=b"x" * 70_000, headers=JSON)
        assert res.status_code == 413
        res = client.post("/api/rooms", content=b"{oops", headers=JSON)
        assert res.json()["error"]["code"] == "bad_json"
        assert client.get("/api/rooms/nosuchroom").status_code == 404
        with client.websocket_connect("/ws/nosuchroom") as ws:
            assert receive_json(ws)["code"] == "no_room"
        res = client.post("/api/replay", content=b'{"format": "asobiba-record"}', headers=JSON)
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_record"


def test_rule_move_is_committed_before_it_is_acknowledged(tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        store = Store(db_url)
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            for ply, move in enumerate(["d3", "c5", "f6"]):
                ws.send_json({"type": "move", "seat": ply % 2, "move": move, "id": f"m{ply}"})
                read_until(ws, lambda m, p=ply: m.get("id") == f"m{p}")
                stored = store.load_room(room["room"])
                assert stored is not None
                assert [m.text for m in stored.moves] == ["d3", "c5", "f6"][: ply + 1]


def test_rule_restart_resumes_every_unfinished_game_exactly(tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            for ply, move in enumerate(["d3", "c5", "f6", "f5"]):
                ws.send_json({"type": "move", "seat": ply % 2, "move": move, "id": ply})
                read_until(ws, lambda m, p=ply: m.get("id") == p)
            before = client.get(f"/api/rooms/{room['room']}").json()
    # a new server process on the same database
    with make_client(tmp_path, db_url=db_url) as client:
        after = client.get(f"/api/rooms/{room['room']}").json()
        assert after["moves"] == before["moves"] and after["ply"] == 4
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, room["keys"][:1])
            assert msg["views"][0]["view"]["board"] == _replayed_board(["d3", "c5", "f6", "f5"])


def _replayed_board(moves: list[str]) -> list[str]:
    from asobiba.games import get

    state = get("reversi").new_game()
    for m in moves:
        state = state.play(m)
    return state.view(0)["board"]


def test_rule_resumed_game_with_a_bot_to_move_continues(tmp_path: Any, db_url: str) -> None:
    # the bot will not move in time
    with make_client(tmp_path, db_url=db_url, bot_delay=30) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            ws.send_json({"type": "move", "move": "d3", "id": 1})
            read_until(ws, lambda m: m.get("id") == 1)
    with make_client(tmp_path, db_url=db_url) as client:
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 2)


def test_rule_resign_ends_the_game_and_the_record_says_so(tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, bot("1")])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            ws.send_json({"type": "resign", "id": "r"})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
            assert msg["room"]["result"]["resigned"] == 0
            assert msg["room"]["result"]["winners"] == [1]
            expect_error(ws, {"type": "move", "move": "d3"}, "game_over")
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["extra"]["resigned"] == 0 and record["result"] is None
        assert client.post("/api/replay", json=record).status_code == 200


def test_rule_undo_against_a_bot_takes_back_my_move_and_its_reply(
        tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            ws.send_json({"type": "move", "move": "d3", "id": 1})
            read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 2)
            ws.send_json({"type": "undo", "id": 2})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 0)
            assert my_view(msg)["legal_moves"]
        stored = Store(db_url).load_room(room["room"])
        assert stored is not None and stored.moves == []


def test_rule_undo_between_people_needs_the_other_to_accept(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a, \
                client.websocket_connect(f"/ws/{room['room']}") as b:
            join(a, [k0])
            join(b, [k1])
            a.send_json({"type": "move", "move": "d3", "id": 1})
            read_until(a, lambda m: m.get("id") == 1)
            a.send_json({"type": "undo", "id": 2})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["undo"] is not None)
            assert msg["room"]["ply"] == 1 and msg["room"]["undo"]["waiting"] == [1]
            b.send_json({"type": "undo_reply", "accept": False, "id": 3})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["undo"] is None)
            assert msg["room"]["ply"] == 1
            a.send_json({"type": "undo", "id": 4})
            read_until(b, lambda m: is_update(m) and m["room"]["undo"] is not None)
            b.send_json({"type": "undo_reply", "accept": True, "id": 5})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["ply"] == 0)


def test_rule_no_undo_in_hidden_information_games(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, room["keys"])
            assert msg["room"]["can_undo"] is False
            expect_error(ws, {"type": "undo", "seat": 0}, "undo_not_allowed")


def test_rule_rematch_swaps_seats_and_keys_come_from_the_old_ones(
        tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a, \
                client.websocket_connect(f"/ws/{room['room']}") as b:
            join(a, [k0])
            join(b, [k1])
            a.send_json({"type": "resign", "id": 1})
            read_until(b, lambda m: is_update(m) and m["room"]["status"] == "finished")
            a.send_json({"type": "rematch", "id": 2})
            read_until(b, lambda m: is_update(m) and m["room"]["rematch"]["offers"] == [0])
            b.send_json({"type": "rematch", "id": 3})
            ra = read_until(a, lambda m: m.get("type") == "rematch")
            rb = read_until(b, lambda m: m.get("type") == "rematch")
        assert ra["room"] == rb["room"]
        assert ra["keys"][0]["seat"] == 1 and rb["keys"][0]["seat"] == 0
        info = client.get(f"/api/rooms/{ra['room']}").json()
        assert info["status"] == "active" and info["ply"] == 0
        with client.websocket_connect(f"/ws/{ra['room']}") as ws:
            msg = join(ws, rb["keys"])
            assert msg["you"] == [0] and my_view(msg)["legal_moves"]
            # a stranger cannot claim the rematch seat with the old key
            ws.send_json({"type": "hello", "seats": [{"seat": 1, "key": k0["key"]}]})
            assert read_until(ws, lambda m: m.get("type") == "error")["code"] == "bad_key"


def test_rule_spectators_get_the_public_view(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = read_until(ws, is_update)
            assert msg["you"] == [] and msg["views"][0]["seat"] is None
            assert msg["views"][0]["view"]["legal_moves"] == []


def test_rule_seat_count_endpoint_follows_options(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        assert client.post("/api/seats", json={"game": "algo",
                                               "options": {"players": 4}}).json()["seats"] == 4
        res = client.post("/api/seats", json={"game": "algo", "options": {"players": "x"}})
        assert res.status_code == 400 and "players" in res.json()["error"]["message"]


def test_bot_pool_abandons_a_bot_that_overruns_its_time_limit() -> None:
    pool = BotPool(processes=1, time_limit=0.5)

    async def scenario() -> None:
        assert await pool.run(quick, 21, time_limit=60) == 42
        with pytest.raises(BotTimeout):
            await pool.run(slow, 30)
        # the runaway worker was killed and replaced: the pool still answers
        assert await pool.run(quick, 2, time_limit=60) == 4

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()


def test_rule_a_fallen_flag_loses_the_game_and_clocks_survive_a_restart(
        tmp_path: Any, db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from asobiba.server import clock

    with make_client(tmp_path, db_url=db_url) as client:
        res = client.post("/api/rooms", json={"game": "reversi", "seats": [HUMAN, HUMAN],
                                              "clock": {"initial": 5, "increment": 0}})
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_clock", "10 s minimum"
        res = client.post("/api/rooms", json={"game": "patapata", "options": {"players": 2},
                                              "seats": [HUMAN, HUMAN],
                                              "clock": {"initial": 60, "increment": 0}})
        assert res.json()["error"]["code"] == "bad_clock", "no clock with simultaneous turns"
        monkeypatch.setattr(clock, "MIN_INITIAL", 1)  # a short game keeps the test fast
        room = create_room(client, "reversi", [HUMAN, HUMAN],
                           clock={"initial": 2, "increment": 1})
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, room["keys"])
            clocks = msg["room"]["clock"]
            assert clocks["running"] == 0 and 1 < clocks["remaining"][0] <= 2
            ws.send_json({"type": "move", "seat": 0, "move": "d3", "id": 1})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 1)
            assert msg["room"]["clock"]["running"] == 1
            assert msg["room"]["clock"]["remaining"][0] > 2, "the increment was added"
    # restarted: White's clock is still running
    with make_client(tmp_path, db_url=db_url) as client:
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert info["clock"]["running"] == 1 and info["clock"]["remaining"][1] < 2
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished",
                             limit=100)
        assert msg["room"]["result"]["timeout"] == 1
        assert msg["room"]["result"]["winners"] == [0]
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["extra"]["timeout"] == 1


def test_rule_a_flood_of_messages_is_throttled(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            read_until(ws, is_update)
            for _ in range(60):
                ws.send_json({"type": "ping"})
            answers = [receive_json(ws) for _ in range(60)]
        kinds = [a.get("code", a["type"]) for a in answers]
        assert kinds.count("pong") >= 30, "a burst of 30 is allowed"
        assert kinds.count("too_fast") >= 1
        assert set(kinds) <= {"pong", "too_fast"}


def test_pages_may_run_only_this_servers_scripts(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        res = client.get("/")
        assert res.status_code == 200
        csp = res.headers["content-security-policy"]
        script_src = csp.split("script-src")[1].split(";")[0]
        assert "default-src 'self'" in csp and script_src.strip() == "'self'"  # no inline
        assert res.headers["x-content-type-options"] == "nosniff"
        assert client.get("/static/js/room.js").headers["content-type"].startswith(
            ("text/javascript", "application/javascript"))


def test_bot_pool_a_timeout_elsewhere_does_not_cancel_a_queued_bot_move() -> None:
    """Replacing the pool after one room's bot overran its limit must not cancel another
    room's bot move that was still queued: that move's room would wait for it forever."""
    pool = BotPool(processes=0, time_limit=0.5)  # threads: 4 workers

    async def scenario() -> None:
        runaways = [asyncio.create_task(pool.run(slow, 3)) for _ in range(4)]
        await asyncio.sleep(0)  # the four fill every worker, so the next one queues
        queued = asyncio.create_task(pool.run(quick, 2, time_limit=60))
        for task in runaways:
            with pytest.raises(BotTimeout):
                await task
        assert await queued == 4

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()


def test_rule_a_move_that_fails_to_store_is_refused_and_a_bot_tries_again(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move the store could not commit is not played: a person gets an error (and may
    try again), and a bot's turn is not lost either: it is tried again, so the person is
    never left waiting forever."""
    from asobiba.server.room import bots

    monkeypatch.setattr(bots, "BOT_RETRY", 0.1)
    with make_client(tmp_path) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        real_add_move = store.add_move_in  # what the server's writer runs for a move
        failures: list[int] = []

        def flaky_add_move(s: Any, room_id: str, move: Any, *args: Any) -> None:
            if move.ply not in failures:  # each ply fails to store once
                failures.append(move.ply)
                raise RuntimeError("the database went away for a moment")
            real_add_move(s, room_id, move, *args)

        monkeypatch.setattr(store, "add_move_in", flaky_add_move)
        room = create_room(client, "reversi", [HUMAN, bot()])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            # a person's move that could not be stored is refused, not acknowledged
            err = expect_error(ws, {"type": "move", "move": "d3", "id": 1}, "not_stored")
            assert err["id"] == 1
            assert client.get(f"/api/rooms/{room['room']}").json()["ply"] == 0
            ws.send_json({"type": "move", "move": "d3", "id": 2})  # the same connection
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 2)
            assert my_view(msg)["legal_moves"]
        assert failures == [0, 1], "the bot's first attempt failed to store as well"
        stored = Store(f"sqlite:///{tmp_path / 'asobiba.db'}").load_room(room["room"])
        assert stored is not None and [m.ply for m in stored.moves] == [0, 1]


def test_rule_a_throttled_move_is_refused_by_its_id(tmp_path: Any) -> None:
    """A message dropped by the rate limit is answered with its own id, so a client waiting
    for that move's acknowledgement learns at once that it was not played."""
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, room["keys"])
            for i in range(60):
                ws.send_json({"type": "ping", "id": f"p{i}"})
            seen: list[dict[str, Any]] = []
            read_until(ws, lambda m: m.get("type") == "error" and m.get("code") == "too_fast",
                       seen=seen)
            refused = [m for m in seen if m.get("code") == "too_fast"]
            assert refused and all(isinstance(m["id"], str) and m["id"].startswith("p")
                                   for m in refused)
