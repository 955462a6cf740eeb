"""The update messages of a room's WebSocket: each carries only the moves its connection has
not been sent (``room.moves_from``), the rest of the room and the seat's views whole; an
undo sends the whole list again; ``sync`` asks for the whole room; and no update, whole or
partial, ever holds more than ``view(seat)`` of the seats the connection holds."""

from __future__ import annotations

import json
from typing import Any

from asobiba.games import get
from asobiba.server.db import Store

from .helpers import create_room, is_update, make_client, read_until, send_json

HUMAN = {"kind": "human"}


class Client:
    """A scripted page: joins each update's moves to the ones it holds, as room.js does."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.moves: list[list[Any]] | None = None
        self.updates: list[dict[str, Any]] = []

    def take(self, msg: dict[str, Any]) -> None:
        room = msg["room"]
        start = room.get("moves_from")
        if start is None:
            self.moves = list(room["moves"])
        else:
            assert self.moves is not None and len(self.moves) >= start, \
                "a partial update that does not follow what this connection was sent"
            self.moves = self.moves[:start] + room["moves"]
        assert len(self.moves) == room["ply"]
        self.updates.append(msg)

    def until(self, pred: Any) -> dict[str, Any]:
        def check(m: dict[str, Any]) -> bool:
            if is_update(m):
                self.take(m)
            return bool(pred(m))
        return read_until(self.ws, check)

    def reach(self, ply: int) -> None:
        """Read until this page has been sent the position after ``ply`` moves."""
        if not self.updates or self.updates[-1]["room"]["ply"] < ply:
            self.until(lambda m: is_update(m) and m["room"]["ply"] >= ply)

    def act(self, msg: dict[str, Any], ref: str) -> None:
        send_json(self.ws, {**msg, "id": ref})
        reply = self.until(lambda m: m.get("id") == ref)
        assert reply["type"] == "ack", reply


def test_updates_carry_only_the_moves_not_yet_sent_and_undo_or_sync_sends_all(
        tmp_path: Any) -> None:
    with make_client(tmp_path) as client:
        room = create_room(client, "reversi", [HUMAN, HUMAN])
        rid = room["room"]
        with client.websocket_connect(f"/ws/{rid}") as ws:
            c = Client(ws)
            c.act({"type": "hello", "seats": room["keys"]}, "hello")
            assert "moves_from" not in c.updates[0]["room"], "the first update is whole"
            for ply, move in enumerate(["d3", "c5", "f6", "f5"]):
                c.act({"type": "move", "seat": ply % 2, "move": move, "ply": ply}, f"m{ply}")
                last = c.updates[-1]["room"]
                assert last["moves_from"] == ply and last["moves"] == [[ply % 2, move]]
            assert c.moves == client.get(f"/api/rooms/{rid}").json()["moves"]
            # an undo takes moves back: the next update holds the whole (shorter) list
            c.act({"type": "undo", "seat": 1}, "undo")
            undone = [u for u in c.updates if u["room"]["ply"] == 3][-1]["room"]
            assert "moves_from" not in undone and len(undone["moves"]) == 3
            c.act({"type": "move", "seat": 1, "move": "f5", "ply": 3}, "again")
            assert c.updates[-1]["room"]["moves_from"] == 3
            # a page that missed an update asks for the whole room
            send_json(ws, {"type": "sync"})
            whole = c.until(is_update)
            assert "moves_from" not in whole["room"]
            assert whole["room"]["moves"] == client.get(f"/api/rooms/{rid}").json()["moves"]


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def test_rule_every_update_holds_only_the_views_of_the_connections_own_seats(
        tmp_path: Any) -> None:
    """Hidden information (Algo: each player's numbers): every update each connection got —
    whole or partial — holds exactly ``view(seat)`` at that ply for its own seats (a
    spectator: ``view(None)``), and the public move list never holds a move's text."""
    url = f"sqlite:///{tmp_path / 'asobiba.db'}"
    with make_client(tmp_path) as client:
        room = create_room(client, "algo", [HUMAN, HUMAN])
        rid = room["room"]
        k0, k1 = room["keys"]
        with client.websocket_connect(f"/ws/{rid}") as a, \
                client.websocket_connect(f"/ws/{rid}") as b, \
                client.websocket_connect(f"/ws/{rid}") as spectator:
            pa, pb, ps = Client(a), Client(b), Client(spectator)
            pa.act({"type": "hello", "seats": [k0]}, "ha")
            pb.act({"type": "hello", "seats": [k1]}, "hb")
            pages = {0: pa, 1: pb}
            for n in range(12):
                info = client.get(f"/api/rooms/{rid}").json()
                if info["status"] != "active":
                    break
                ply = info["ply"]
                for page in pages.values():  # wait until each page has this position
                    page.reach(ply)
                seat = next(s for s, p in pages.items()
                            if p.updates[-1]["views"][0]["view"]["legal_moves"])
                move = pages[seat].updates[-1]["views"][0]["view"]["legal_moves"][0]
                pages[seat].act({"type": "move", "seat": seat, "move": move, "ply": ply},
                                f"m{n}")
            final = client.get(f"/api/rooms/{rid}").json()["ply"]
            for page in (pa, pb, ps):
                page.reach(final)
    assert final >= 4
    stored = Store(url).load_room(rid)
    assert stored is not None
    game = get("algo")
    states = [game.new_game(stored.options, stored.seed)]
    for m in stored.moves:
        states.append(states[-1].play(m.text, m.seat))
    partial = 0
    for page, seats in ((pa, [0]), (pb, [1]), (ps, [None])):
        for msg in page.updates:
            room = msg["room"]
            partial += "moves_from" in room
            # before its hello, a page is a spectator; after it, it holds its own seat
            assert msg["you"] in ([], [s for s in seats if s is not None])
            assert [v["seat"] for v in msg["views"]] == (msg["you"] or [None])
            for v in msg["views"]:
                assert v["view"] == _plain(states[room["ply"]].view(v["seat"]))
            assert all(text is None for _seat, text in room["moves"])
        assert page.moves == [[m.seat, None] for m in stored.moves]
    assert partial, "the partial updates were checked too"


def test_rule_an_update_is_one_position_even_when_the_next_move_lands_meanwhile(
        tmp_path: Any) -> None:
    """Information flow (docs/web.md): each update shows one position — its ply, its moves
    and the seats' views belong together. The reply to a move, waiting for the room's lock
    while that move was committed, got the room before the move's broadcast had built its
    messages for the other connections: they went out with the ply of the first move and
    the views after the reply, so a client saw its turn at a ply already played and its
    move came back ``stale``."""
    import asyncio

    from asobiba.server.bots import BotPool
    from asobiba.server.rooms import Conn, Hub

    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=60.0)
    hub = Hub(store, pool, get)
    got: dict[int, list[dict[str, Any]]] = {0: [], 1: []}

    def conn_for(seat: int, key: str) -> Conn:
        async def send_text(text: str) -> None:
            got[seat].append(json.loads(text))

        async def send(message: Any) -> None:
            got[seat].append(json.loads(json.dumps(message)))

        return Conn(send, keys={seat: key}, send_text=send_text)

    async def scenario() -> None:
        room, keys = await hub.create(get("reversi"), {}, [HUMAN, HUMAN])
        room.conns.update((conn_for(0, keys[0]), conn_for(1, keys[1])))
        state = room.state
        first = state.acting_seats[0]
        m1 = state.move_text(state.legal_moves(first)[0], first)
        after = state.play(m1, first)
        second = after.acting_seats[0]
        m2 = after.move_text(after.legal_moves(second)[0], second)
        # the reply is already waiting for the room when the first move commits
        await asyncio.gather(hub.play(room, first, m1, 0), hub.play(room, second, m2, 1))

    try:
        asyncio.run(scenario())
    finally:
        pool.shutdown()
        store.close()
    game = get("reversi")
    checked = 0
    for seat, messages in got.items():
        moves: list[list[Any]] = []
        for msg in messages:
            room = msg["room"]
            start = room.get("moves_from")
            moves = list(room["moves"]) if start is None else moves[:start] + room["moves"]
            assert len(moves) == room["ply"], msg
            state = game.new_game({}, 0)
            for s, text in moves:
                state = state.play(text, s)
            assert msg["views"][0]["view"] == state.view(seat), \
                f"seat {seat}: the views are those of the update's own ply {room['ply']}"
            checked += 1
    assert checked >= 4, "each seat was sent both moves' updates"


def test_an_update_written_as_text_is_the_update_message(tmp_path: Any) -> None:
    """A broadcast writes each update as text, with the room part serialised once for all
    its connections (``Room.update_text``): that text is exactly :meth:`Room.message_for`
    (plus the ``ack`` when the update acknowledges a move), for a seat, both seats and a
    spectator, whole and from a ply on, in a game with hidden information too."""
    import asyncio

    from asobiba.server.bots import BotPool
    from asobiba.server.rooms import Conn, Hub

    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    pool = BotPool(processes=0, time_limit=60.0)
    hub = Hub(store, pool, get)
    checked: list[str] = []

    async def nothing(message: Any) -> None:
        return None

    async def scenario(game_id: str) -> None:
        room, keys = await hub.create(get(game_id), {}, [HUMAN, HUMAN])
        for _ in range(3):
            state = room.state
            seat = state.acting_seats[0]
            move = state.move_text(state.legal_moves(seat)[0], seat)
            await hub.play(room, seat, move)
        public = room.public(with_moves=False)
        for seats in ({0: keys[0]}, {1: keys[1]}, {}, {0: keys[0], 1: keys[1]}):
            conn = Conn(nothing, keys=dict(seats))
            for start in (None, 0, 2, 3):
                for ack in (None, 7, "m3"):
                    texts: dict[int | None, str] = {}
                    text = room.update_text(conn, public, start, texts, ack)
                    expected = _plain(room.message_for(conn, public, start))
                    if ack is not None:
                        expected["ack"] = ack
                    assert json.loads(text) == expected, (game_id, seats, start, ack)
                    checked.append(game_id)

    try:
        asyncio.run(scenario("reversi"))
        asyncio.run(scenario("algo"))
    finally:
        pool.shutdown()
        store.close()
    assert len(checked) == 2 * 4 * 4 * 3
