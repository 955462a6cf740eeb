"""Two people choose a reverse match or a best-of-N series when they create a room (issue
#9, "in two-player mode the players choose"): the set is stored with its rooms, its standing
is shown in every room of the set, each player keeps their own key for the next game with
colours swapped, and a restart loses nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from asobiba.games import get as get_game
from asobiba.server.db import MatchSetRow, RoomRow

from .helpers import create_room, is_update, make_client, read_until, send_json

HUMAN = {"kind": "human"}


def hello(ws: Any, keys: list[dict[str, Any]]) -> dict[str, Any]:
    """Claim seats; the last update received before the acknowledgement."""
    send_json(ws, {"type": "hello", "seats": keys, "id": "hello"})
    seen: list[dict[str, Any]] = []
    read_until(ws, lambda m: m.get("id") == "hello" or m.get("type") == "error", seen=seen)
    assert not [m for m in seen if m.get("type") == "error"], seen
    return [m for m in seen if is_update(m)][-1]


def policy(k: int) -> Any:
    """A deterministic way to play: the ((ply + 1) * k)-th legal move, wrapping around."""
    return lambda view, ply: view["legal_moves"][((ply + 1) * k) % len(view["legal_moves"])]


def play_game(conns: dict[int, Any], last: dict[int, dict[str, Any]], choose: Any
              ) -> dict[int, dict[str, Any]]:
    """Play a game to its end: ``conns`` maps each seat to the WebSocket holding it (one
    socket may hold both seats), ``last`` each socket's latest update; returns the latest
    updates once every socket has seen the game end."""
    socks = {id(ws): ws for ws in conns.values()}
    latest = {id(conns[s]): last[s] for s in conns}
    for n in range(400):
        msg = next(iter(latest.values()))
        if msg["room"]["status"] == "finished":
            break
        views = {v["seat"]: v["view"] for m in latest.values() for v in m["views"]
                 if v["seat"] is not None}
        acting = [s for s in views[next(iter(views))]["acting"] if s in conns]
        seat = acting[0]
        ws = conns[seat]
        ply = msg["room"]["ply"]
        send_json(ws, {"type": "move", "seat": seat, "move": choose(views[seat], ply),
                       "ply": ply, "id": n})
        seen: list[dict[str, Any]] = []
        read_until(ws, lambda m, i=n: m.get("id") == i or m.get("type") == "error", seen=seen)
        assert not [m for m in seen if m.get("type") == "error"], seen
        for key, other in socks.items():
            if other is ws:
                latest[key] = [m for m in seen if is_update(m)][-1]
            else:
                latest[key] = read_until(other, lambda m, p=ply: is_update(m)
                                         and m["room"]["ply"] > p)
    else:
        raise AssertionError("the game did not end")
    return {s: latest[id(conns[s])] for s in conns}


def final_view(client: Any, room_id: str) -> Any:
    """The finished game's last state, replayed from its public record."""
    record = json.loads(client.get(f"/api/rooms/{room_id}/record").text)
    game = get_game(record["game"])
    moves = [(m["seat"], m["move"]) for m in record["moves"]]
    return record, game.replay(moves, record["options"], record["seed"])[-1]


def count(client: Any, table: Any) -> int:
    from sqlalchemy.orm import Session

    with Session(client.app.state.store.engine) as s:
        return int(s.scalar(select(func.count()).select_from(table)) or 0)


def test_each_format_is_created_and_reported(tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        single = create_room(client, "reversi", [HUMAN, HUMAN])
        assert client.get(f"/api/rooms/{single['room']}").json()["set"] is None
        same = create_room(client, "reversi", [HUMAN, HUMAN], match="single")
        assert client.get(f"/api/rooms/{same['room']}").json()["set"] is None
        rev = create_room(client, "reverstargo", [HUMAN, HUMAN], match="reverse")
        s = client.get(f"/api/rooms/{rev['room']}").json()["set"]
        assert (s["format"], s["best_of"], s["index"], s["games"], s["over"]) == (
            "reverse", 1, 0, [], False)
        assert s["sides"] == {"A": 0, "B": 1} and s["has_tiebreak"] is True
        bo = create_room(client, "flipflop", [HUMAN, HUMAN],
                         match={"format": "best_of", "games": 5})
        s = client.get(f"/api/rooms/{bo['room']}").json()["set"]
        assert (s["format"], s["best_of"], s["has_tiebreak"]) == ("best_of", 5, False)
        # Memory Matrix and Algo with two players qualify; the lobby asks /api/seats
        mm = create_room(client, "memory_matrix", [HUMAN, HUMAN], {"players": 2},
                         match="reverse")
        assert client.get(f"/api/rooms/{mm['room']}").json()["set"]["format"] == "reverse"
        assert client.post("/api/seats", json={"game": "algo"}).json()["sets"] is True
        assert client.post("/api/seats", json={"game": "memory_matrix"}).json()["sets"] is False
        assert count(client, MatchSetRow) == 3


@pytest.mark.parametrize(("game", "options", "seats", "match", "words"), [
    ("reversi", {}, 2, "triple", "unknown match format"),
    ("reversi", {}, 2, {"format": "best_of", "games": 4}, "odd number"),
    ("reversi", {}, 2, {"format": "best_of", "games": 1}, "odd number"),
    ("reversi", {}, 2, {"format": "best_of", "games": 17}, "odd number"),
    ("reversi", {}, 2, {"format": "best_of", "games": True}, "odd number"),
    ("reversi", {}, 2, {"format": "best_of"}, "odd number"),
    ("reversi", {}, 2, {"format": "reverse", "games": 3}, "only for best_of"),
    ("reversi", {}, 2, {"format": "reverse", "colour": "black"}, "'match' must be"),
    ("reversi", {}, 2, 3, "'match' must be"),
    ("memory_matrix", {"players": 4}, 4, "reverse", "4 seats"),
    ("patapata", {"players": 2}, 2, {"format": "best_of", "games": 3}, "simultaneous"),
])
def test_bad_match_formats_are_refused_and_create_nothing(
        tmp_path: Any, game: str, options: dict[str, Any], seats: int, match: Any,
        words: str) -> None:
    with make_client(tmp_path) as client:
        res = client.post("/api/rooms", json={"game": game, "options": options,
                                              "seats": [HUMAN] * seats, "match": match})
        assert res.status_code == 400, res.text
        assert res.json()["error"]["code"] == "bad_match" and words in res.json()["error"]["message"]
        assert count(client, RoomRow) == 0 and count(client, MatchSetRow) == 0


def test_rule_reverse_match_sums_scores_with_colours_swapped_and_breaks_ties_by_captures(
        tmp_path: Any) -> None:
    """ReverStarGo reverse match: game 1 side A plays seat 0 (Black), game 2 seat 1; the
    summed scores tie 39-39 and the summed captures (the seed's tie-break) decide it.
    The two deterministic lines were found by searching such a tie."""
    with make_client(tmp_path) as client:
        room = create_room(client, "reverstargo", [HUMAN, HUMAN], match="reverse")
        keys = {k["seat"]: k["key"] for k in room["keys"]}
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            first = hello(ws, room["keys"])
            end = play_game({0: ws, 1: ws}, {0: first, 1: first}, policy(5))
        result1 = end[0]["room"]["result"]
        _, final1 = final_view(client, room["room"])
        s = client.get(f"/api/rooms/{room['room']}").json()["set"]
        assert len(s["games"]) == 1 and s["over"] is False and s["next"]["room"] is None
        g = s["games"][0]
        assert (g["seat_of_a"], g["score_a"], g["score_b"]) == (0, *result1["scores"])
        assert [g["tiebreak_a"], g["tiebreak_b"]] == final1.view(None)["captured"]

        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["keys"])
            send_json(ws, {"type": "next", "id": "next"})
            nxt = read_until(ws, lambda m: m.get("type") in ("set_next", "error"))
            assert nxt["type"] == "set_next", nxt
        # each key moved with its holder: seat 0's key sits at seat 1 now, and the reverse
        assert {k["seat"]: k["key"] for k in nxt["keys"]} == {1: keys[0], 0: keys[1]}
        second = nxt["room"]
        with client.websocket_connect(f"/ws/{second}") as ws:
            first = hello(ws, nxt["keys"])
            assert first["room"]["set"]["sides"] == {"A": 1, "B": 0}
            end = play_game({0: ws, 1: ws}, {0: first, 1: first}, policy(7))
        result2 = end[0]["room"]["result"]
        rec1, _ = final_view(client, room["room"])
        rec2, final2 = final_view(client, second)
        assert rec1["seed"] == rec2["seed"], "a reverse match replays the same game"

        s = client.get(f"/api/rooms/{second}").json()["set"]
        a_total = result1["scores"][0] + result2["scores"][1]
        b_total = result1["scores"][1] + result2["scores"][0]
        caps1, caps2 = final1.view(None)["captured"], final2.view(None)["captured"]
        assert s["totals"] == [a_total, b_total] == [39, 39]
        assert s["tiebreak"] == [caps1[0] + caps2[1], caps1[1] + caps2[0]] == [5, 1]
        assert (s["over"], s["winner"], s["wins"]) == (True, "A", [1, 0])
        # the first room shows the decided set too, and there is no further game
        assert client.get(f"/api/rooms/{room['room']}").json()["set"]["winner"] == "A"
        with client.websocket_connect(f"/ws/{second}") as ws:
            hello(ws, nxt["keys"])
            send_json(ws, {"type": "next", "id": "again"})
            err = read_until(ws, lambda m: m.get("type") == "error")
            assert err["code"] == "set_over"


def test_rule_best_of_three_alternates_colours_and_gives_each_player_only_their_key(
        tmp_path: Any) -> None:
    """Two players, two sockets: the next game starts when both have asked; each socket
    learns only its own key's new seat; the standing counts games until one side has two."""
    with make_client(tmp_path) as client:
        room = create_room(client, "flipflop", [HUMAN, HUMAN],
                           match={"format": "best_of", "games": 3})
        keys = {k["seat"]: k for k in room["keys"]}
        mine = {"A": keys[0]["key"], "B": keys[1]["key"]}
        seat_of = {"A": 0, "B": 1}
        room_id = room["room"]
        winners = []
        for game in range(3):
            with client.websocket_connect(f"/ws/{room_id}") as wa, \
                    client.websocket_connect(f"/ws/{room_id}") as wb:
                ua = hello(wa, [{"seat": seat_of["A"], "key": mine["A"]}])
                ub = hello(wb, [{"seat": seat_of["B"], "key": mine["B"]}])
                assert ub["room"]["set"]["sides"] == seat_of
                end = play_game({seat_of["A"]: wa, seat_of["B"]: wb},
                                {seat_of["A"]: ua, seat_of["B"]: ub}, policy(0))
                result = end[seat_of["A"]]["room"]["result"]
                winners.append("A" if seat_of["A"] in result["winners"] else "B")
                s = end[seat_of["A"]]["room"]["set"]
                assert len(s["games"]) == game + 1
                assert s["wins"] == [winners.count("A"), winners.count("B")]
                if s["over"]:
                    break
                send_json(wb, {"type": "rematch", "id": "rm"})
                err = read_until(wb, lambda m: m.get("type") == "error")
                assert err["code"] == "in_set", "no rematch in the middle of a set"
                send_json(wa, {"type": "next", "id": "na"})
                asked = read_until(wb, lambda m, a=seat_of["A"]: is_update(m)
                                   and m["room"]["set"]["next"]["offers"] == [a])
                assert asked["room"]["set"]["next"]["room"] is None, "waits for both"
                send_json(wb, {"type": "next", "id": "nb"})
                na = read_until(wa, lambda m: m.get("type") == "set_next")
                nb = read_until(wb, lambda m: m.get("type") == "set_next")
            assert na["room"] == nb["room"]
            # colours alternate every game, and each socket hears only of its own key
            assert na["keys"] == [{"seat": 1 - seat_of["A"], "key": mine["A"]}]
            assert nb["keys"] == [{"seat": 1 - seat_of["B"], "key": mine["B"]}]
            seat_of = {"A": 1 - seat_of["A"], "B": 1 - seat_of["B"]}
            room_id = na["room"]
            with client.websocket_connect(f"/ws/{room_id}") as ws:
                send_json(ws, {"type": "hello", "seats": [{"seat": 1 - seat_of["A"],
                                                          "key": mine["A"]}]})
                err = read_until(ws, lambda m: m.get("type") == "error")
                assert err["code"] == "bad_key", "the old seat's key does not fit it now"
        # first legal moves: seat 0 always wins FlipFlop 3x3, so A, B, A
        assert winners == ["A", "B", "A"]
        s = client.get(f"/api/rooms/{room_id}").json()["set"]
        assert (s["over"], s["winner"], s["wins"], s["index"]) == (True, "A", [2, 1], 2)
        assert [g["seat_of_a"] for g in s["games"]] == [0, 1, 0]


def test_set_survives_a_restart_and_resigning_a_reverse_game_loses_the_set(
        tmp_path: Any, db_url: str) -> None:
    with make_client(tmp_path, db_url=db_url) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN], match="reverse",
                           clock={"initial": 600, "increment": 0})
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            first = hello(ws, room["keys"])
            end = play_game({0: ws, 1: ws}, {0: first, 1: first}, policy(0))
        standing = end[0]["room"]["set"]
    # a new server on the same database: the standing, and the next game, are still there
    with make_client(tmp_path, db_url=db_url) as client:
        assert client.get(f"/api/rooms/{room['room']}").json()["set"] == standing
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["keys"])
            send_json(ws, {"type": "next", "id": "next"})
            nxt = read_until(ws, lambda m: m.get("type") == "set_next")
    with make_client(tmp_path, db_url=db_url) as client:
        info = client.get(f"/api/rooms/{nxt['room']}").json()
        assert info["set"]["index"] == 1 and info["set"]["games"] == standing["games"]
        assert info["clock"] is not None, "the set keeps its time control"
        assert client.get(f"/api/rooms/{room['room']}").json()["set"]["next"]["room"] == \
            nxt["room"]
        with client.websocket_connect(f"/ws/{nxt['room']}") as ws:
            hello(ws, nxt["keys"])
            # seat 1 is side A now: A resigns the second game
            send_json(ws, {"type": "resign", "seat": 1, "id": "resign"})
            done = read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
        s = done["room"]["set"]
        assert (s["over"], s["forfeit"], s["winner"]) == (True, "A", "B")
    with make_client(tmp_path, db_url=db_url) as client:
        assert client.get(f"/api/rooms/{room['room']}").json()["set"]["winner"] == "B"


def test_hidden_information_sets_deal_each_game_afresh_and_show_only_results(
        tmp_path: Any) -> None:
    """Algo (hidden cards): the first game's record is public once it ends and holds its
    seed, so the second game of a reverse match must not reuse it; the standing holds the
    finished games' results and nothing of a view."""
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN], match="reverse")
        with client.websocket_connect(f"/ws/{room['room']}") as ws:
            hello(ws, room["keys"])
            send_json(ws, {"type": "resign", "seat": 1, "id": "r"})
            read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
        s = client.get(f"/api/rooms/{room['room']}").json()["set"]
        # a resignation in a reverse match decides the set at once
        assert (s["over"], s["winner"]) == (True, "A")
        assert set(s["games"][0]) == {"room", "seat_of_a", "score_a", "score_b", "points_a",
                                      "tiebreak_a", "tiebreak_b"}

        room = create_room(client, "algo", [HUMAN, HUMAN],
                           match={"format": "best_of", "games": 3})
        seeds = []
        ids, keys = room["room"], room["keys"]
        for _ in range(2):
            with client.websocket_connect(f"/ws/{ids}") as ws:
                hello(ws, keys)
                send_json(ws, {"type": "resign", "seat": 0, "id": "r"})
                read_until(ws, lambda m: is_update(m) and m["room"]["status"] == "finished")
                seeds.append(json.loads(client.get(f"/api/rooms/{ids}/record").text)["seed"])
                if len(seeds) == 2:
                    break
                send_json(ws, {"type": "next", "id": "n"})
                nxt = read_until(ws, lambda m: m.get("type") == "set_next")
            ids, keys = nxt["room"], nxt["keys"]
        assert seeds[0] != seeds[1]
        s = client.get(f"/api/rooms/{ids}").json()["set"]
        # a resignation in a series is one lost game: A lost game 1 (seat 0), B game 2
        assert (s["wins"], s["over"]) == ([1, 1], False)


def test_rule_a_rated_set_rates_each_game_with_its_colours(tmp_path: Any) -> None:
    """docs/progression.md, Two-player sets: each game of a rated set is recorded and rated
    on its own, with each account at the seat it held in that game."""
    from asobiba.server.progression_routes import COOKIE

    def wait_recorded(client: Any, room: str) -> dict[str, Any]:
        import time

        for _ in range(400):
            body = client.get(f"/api/rooms/{room}/progress").json()
            if body["recorded"]:
                return body["result"]  # type: ignore[no-any-return]
            time.sleep(0.05)
        raise AssertionError("the finished room was never recorded")

    with make_client(tmp_path) as client:
        ids, tokens = {}, {}
        for name in ("alice", "bob"):
            res = client.post("/api/account/register",
                              json={"name": name, "password": "a long password"})
            assert res.status_code == 201, res.text
            ids[name], tokens[name] = res.json()["player"]["id"], res.cookies[COOKIE]
        # rated games between people need a clock (docs/fair-play.md): a correspondence one
        room = create_room(client, "flipflop", [HUMAN, HUMAN], match="reverse", casual=False,
                           clock={"per_move": 86400})
        keys = {k["seat"]: k for k in room["keys"]}
        holder = {"alice": keys[0], "bob": keys[1]}
        room_id, players = room["room"], {0: ids["alice"], 1: ids["bob"]}
        for game in range(2):
            for name in ("alice", "bob"):
                client.cookies.clear()  # one session cookie: this player's
                client.cookies.set(COOKIE, tokens[name])
                res = client.post(f"/api/rooms/{room_id}/claim", json={"seats": [holder[name]]})
                assert res.json()["seats"] == [holder[name]["seat"]]
            with client.websocket_connect(f"/ws/{room_id}") as ws:
                first = hello(ws, [holder["alice"], holder["bob"]])
                play_game({0: ws, 1: ws}, {0: first, 1: first}, policy(0))
                rated = wait_recorded(client, room_id)
                assert rated["rated"] is True
                assert {c["seat"]: c["player_id"] for c in rated["changes"]} == players
                if game == 1:
                    break
                send_json(ws, {"type": "next", "id": "n"})
                nxt = read_until(ws, lambda m: m.get("type") == "set_next")
            room_id = nxt["room"]
            holder = {name: next(k for k in nxt["keys"] if k["key"] == holder[name]["key"])
                      for name in holder}
            players = {1: ids["alice"], 0: ids["bob"]}
        # seat 0 wins FlipFlop 3x3 on first legal moves: alice won game 1 (seat 0) and lost
        # game 2 (seat 1); two rated games, not one set
        page = client.get(f"/api/players/{ids['alice']}").json()
        stats = page["stats"]["flipflop"]
        assert (stats["games"], stats["win"], stats["loss"]) == (2, 1, 1)
        assert sorted(h["seat"] for h in page["history"]) == [0, 1]


def test_rule_a_rematch_after_a_set_is_a_new_set_that_the_other_side_starts(
        tmp_path: Any) -> None:
    """Issue #9: "colours alternating across sets". After a decided FlipFlop 3×3 reverse
    match, a rematch is a new reverse match whose first game is started (seat 0) by the
    player who did not start the first set; each socket hears only of its own key."""
    with make_client(tmp_path) as client:
        room = create_room(client, "flipflop", [HUMAN, HUMAN], match="reverse")
        keys = {k["seat"]: k for k in room["keys"]}
        mine = {"A": keys[0]["key"], "B": keys[1]["key"]}
        seat_of = {"A": 0, "B": 1}
        room_id = room["room"]
        for _game in range(2):
            with client.websocket_connect(f"/ws/{room_id}") as wa, \
                    client.websocket_connect(f"/ws/{room_id}") as wb:
                ua = hello(wa, [{"seat": seat_of["A"], "key": mine["A"]}])
                ub = hello(wb, [{"seat": seat_of["B"], "key": mine["B"]}])
                end = play_game({seat_of["A"]: wa, seat_of["B"]: wb},
                                {seat_of["A"]: ua, seat_of["B"]: ub}, policy(0))
                s = end[seat_of["A"]]["room"]["set"]
                if s["over"]:
                    send_json(wa, {"type": "rematch", "id": "ra"})
                    send_json(wb, {"type": "rematch", "id": "rb"})
                    ra = read_until(wa, lambda m: m.get("type") == "rematch")
                    rb = read_until(wb, lambda m: m.get("type") == "rematch")
                    break
                send_json(wa, {"type": "next", "id": "na"})
                send_json(wb, {"type": "next", "id": "nb"})
                na = read_until(wa, lambda m: m.get("type") == "set_next")
                read_until(wb, lambda m: m.get("type") == "set_next")
                seat_of = {"A": 1 - seat_of["A"], "B": 1 - seat_of["B"]}
                room_id = na["room"]
        assert s["over"] and len(s["games"]) == 2
        assert ra["room"] == rb["room"]
        # A started the first set at seat 0: in the new set B starts, A sits at seat 1
        assert [k["seat"] for k in ra["keys"]] == [1] and [k["seat"] for k in rb["keys"]] == [0]
        assert ra["keys"][0]["key"] != rb["keys"][0]["key"]
        new = client.get(f"/api/rooms/{ra['room']}").json()
        assert new["set"]["format"] == s["format"] and new["set"]["games"] == []
        with client.websocket_connect(f"/ws/{ra['room']}") as ws:
            first = hello(ws, ra["keys"] + rb["keys"])
            assert first["room"]["set"]["sides"] == {"A": 0, "B": 1}
