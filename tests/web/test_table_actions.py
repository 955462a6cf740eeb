"""Table manners on the server (asobiba.server.table): the history a seat has seen (the move
list's stepping), abort until every seat has moved, draw offers between people. Real app,
real SQLite, real WebSockets; bad requests are refused and change nothing."""

from __future__ import annotations

import json
from typing import Any

from .helpers import create_room, is_update, make_client, read_until, send_json
from .test_server import HUMAN, bot, expect_error, join


def test_rule_history_holds_exactly_the_views_the_seat_has_seen(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, [k0])
            legal = msg["views"][0]["view"]["legal_moves"]
            send_json(ws, {"type": "move", "seat": 0, "move": legal[0], "ply": 0})
            read_until(ws, lambda m: is_update(m) and m["room"]["ply"] >= 1)
            send_json(ws, {"type": "history"})
            hist = read_until(ws, lambda m: m.get("type") == "history")
        assert [h["seat"] for h in hist["views"]] == [0], "only the seat this connection holds"
        views = hist["views"][0]["views"]
        assert len(views) == 2, "the start and the position after the one move"
        assert all("legal_moves" not in v for v in views)
        # seat 1's face-down numbers are nowhere in seat 0's history (hidden information)
        for v in views:
            for card in v["rows"][1]:
                assert "number" not in card or card.get("up"), card
        assert all(v["seat"] == 0 for v in views), "every view is seat 0's own"


def test_rule_a_spectator_history_is_the_public_view_of_every_position(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, _ = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as player:
            join(player, [k0])
            send_json(player, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            read_until(player, lambda m: is_update(m) and m["room"]["ply"] == 1)
        with client.websocket_connect(f"/ws/{room['room']}") as watcher:
            read_until(watcher, is_update)
            send_json(watcher, {"type": "history"})
            hist = read_until(watcher, lambda m: m.get("type") == "history")
        (entry,) = hist["views"]
        assert entry["seat"] is None and len(entry["views"]) == 2
        assert entry["views"][1]["last_move"] == "d3"


def test_rule_abort_only_until_every_seat_has_moved(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, [k0, k1])
            assert msg["room"]["table"]["can_abort"] is True
            send_json(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 1)
            assert msg["room"]["table"]["can_abort"] is True, "seat 1 has not moved yet"
            send_json(ws, {"type": "move", "seat": 1, "move": "c3", "ply": 1})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["ply"] == 2)
            assert msg["room"]["table"]["can_abort"] is False
            expect_error(ws, {"type": "abort", "seat": 0}, "cannot_abort")
        info = client.get(f"/api/rooms/{room['room']}").json()
        assert info["status"] == "active", "a refused abort changes nothing"


def test_rule_an_aborted_game_has_no_winner_and_says_so_in_its_record(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        (k0,) = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            join(ws, [k0])
            send_json(ws, {"type": "abort", "seat": 0})
            msg = read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
        result = msg["room"]["result"]
        assert result["aborted"] is True and result["ranks"] == [1, 1]
        assert result["scores"] == [0.0, 0.0], "nobody scores in an aborted game"
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["extra"]["aborted"] == 0
        assert record["moves"] == []


def test_rule_a_draw_needs_both_players_and_a_move_withdraws_the_offer(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as a, \
                client.websocket_connect(f"/ws/{room['room']}") as b:
            join(a, [k0])
            join(b, [k1])
            send_json(a, {"type": "draw", "seat": 0})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["table"]["draw_offers"])
            assert msg["room"]["table"]["draw_offers"] == [0]
            assert msg["room"]["status"] == "active", "one offer alone draws nothing"
            # seat 0 moves: its offer lapses
            send_json(a, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["ply"] == 1)
            assert msg["room"]["table"]["draw_offers"] == []
            send_json(b, {"type": "draw", "seat": 1})
            read_until(a, lambda m: is_update(m) and m["room"]["table"]["draw_offers"] == [1])
            send_json(a, {"type": "draw", "seat": 0, "accept": True})
            msg = read_until(b, lambda m: is_update(m) and m["room"]["status"] == "finished")
        result = msg["room"]["result"]
        assert result["agreed_draw"] is True and result["ranks"] == [1, 1]
        record = client.get(f"/api/rooms/{room['room']}/record").json()
        assert record["extra"]["agreed_draw"] is True


def test_rule_no_draw_offers_against_a_bot_or_from_a_spectator(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        (k0,) = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, [k0])
            assert msg["room"]["table"]["can_draw"] is False
            expect_error(ws, {"type": "draw", "seat": 0}, "cannot_draw")
        room2 = create_room(client, "reversi", [HUMAN, HUMAN])
        with client.websocket_connect(f"/ws/{room2['room']}") as ws:
            read_until(ws, is_update)
            expect_error(ws, {"type": "draw", "seat": 0}, "not_your_seat")
            expect_error(ws, {"type": "abort", "seat": 0}, "not_your_seat")
        assert json.dumps(client.get(f"/api/rooms/{room2['room']}").json()["status"]) == '"active"'


def test_rule_no_draw_offers_in_a_game_that_cannot_be_drawn(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        k0, _ = room["keys"]
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            msg = join(ws, [k0])
            assert msg["room"]["table"]["can_draw"] is False
            expect_error(ws, {"type": "draw", "seat": 0}, "cannot_draw")


def test_rule_a_finished_game_downloads_in_each_of_its_notations(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, bot()])
        (k0,) = room["keys"]
        rid = room["room"]
        assert client.get(f"/api/rooms/{rid}/record?format=text").status_code == 409, \
            "no record of any kind while the game runs"
        with client.websocket_connect(f"/ws/{rid}") as ws:
            join(ws, [k0])
            send_json(ws, {"type": "move", "seat": 0, "move": "d3", "ply": 0})
            read_until(ws, lambda m: is_update(m) and m["room"]["ply"] >= 2)
            send_json(ws, {"type": "resign", "seat": 0})
            read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
        names = [f["name"] for f in client.get("/api/formats/reversi").json()["formats"]]
        assert {"json", "text", "transcript", "ggf"} <= set(names)
        moves = [m["move"] for m in client.get(f"/api/rooms/{rid}/record").json()["moves"]]
        transcript = client.get(f"/api/rooms/{rid}/record?format=transcript")
        assert transcript.status_code == 200
        assert transcript.text.strip() == "".join(m for m in moves if m != "pass")
        bad = client.get(f"/api/rooms/{rid}/record?format=nope")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_format"
