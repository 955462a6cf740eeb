"""Issue 25 item 7: bad text (docs/fair-play.md, "Transport and browser defences").

The attacks, measured on the old main on PostgreSQL: a NUL byte answered 500 (each with two
tracebacks in the log) on POST /api/rooms, GET /api/rooms/%00 and its /record and /progress,
POST …/feedback and POST /api/account/login; /ws/%00 dropped the connection without a
word; seat names kept RTL overrides, NUL and CR/LF. Every test runs on SQLite and on
PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse

from asobiba.server import create_app

PEOPLE = [{"kind": "human"}, {"kind": "human"}]
NUL_ROOM = {"game": "reversi", "seats": [{"kind": "human", "name": "a\x00"}, {"kind": "human"}]}


@pytest.fixture
def client(tmp_path: Path, db_url: str) -> Iterator[TestClient]:
    # a 500 must come back as an answer, not as the test client's exception
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0),
                    raise_server_exceptions=False) as c:
        yield c


def refused(res: Any, where: str, char: str = "U+0000") -> bool:
    body = res.json()
    return (res.status_code == 400 and body["error"]["code"] == "bad_text"
            and body["error"]["args"] == {"where": where, "char": char})


def test_rule_a_nul_byte_is_refused_on_every_endpoint_that_failed(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "reversi", "seats": PEOPLE}).json()["room"]
    answers = {
        "POST /api/rooms": client.post("/api/rooms", json=NUL_ROOM),
        "GET /api/rooms/%00": client.get("/api/rooms/%00"),
        "GET /api/rooms/%00/record": client.get("/api/rooms/%00/record"),
        "GET /api/rooms/%00/progress": client.get("/api/rooms/%00/progress"),
        "POST feedback": client.post(f"/api/rooms/{room}/feedback",
                                     json={"seat": 0, "key": "k\x00", "ply": 0}),
        "POST /api/account/login": client.post("/api/account/login",
                                               json={"name": "a\x00b", "password": "x"}),
    }
    where = {k: "body" if k.startswith("POST") else "path" for k in answers}
    wrong = {k: (r.status_code, r.text[:160]) for k, r in answers.items()
             if not refused(r, where[k])}
    assert not wrong, wrong
    # nothing was stored: the one room made above is the only one
    assert client.get(f"/api/rooms/{room}").status_code == 200


def test_rule_control_characters_in_the_query_and_escaped_in_json_are_refused(
        client: TestClient) -> None:
    assert refused(client.get("/api/rooms/abc/record?format=%00"), "query")
    assert refused(client.get("/api/games?x=a%0d%0aSet-Cookie:%20y"), "query", "U+000D")
    # escaped (\u0000, \u001b, \u0085) as in the JSON text a script sends
    for escaped, char in ((b"\\u0000", "U+0000"), (b"\\u001b", "U+001B"),
                          (b"\\u0085", "U+0085"), (b"\\ud800", "U+D800")):
        body = b'{"name": "ab' + escaped + b'c", "password": "x"}'
        res = client.post("/api/account/login", content=body,
                          headers={"content-type": "application/json"})
        assert refused(res, "body", char), (escaped, res.text)
    # an escaped backslash before "u0000" is text, and a surrogate pair is one character
    ok = client.post("/api/rooms", content=(
        b'{"game": "reversi", "seats": [{"kind": "human", "name": "x\\\\u0000"}, '
        b'{"kind": "human", "name": "\\ud83d\\ude00"}]}'),
        headers={"content-type": "application/json"})
    assert ok.status_code == 201, ok.text
    seats = client.get(f"/api/rooms/{ok.json()['room']}").json()["seats"]
    assert [s["name"] for s in seats] == ["x\\u0000", "\U0001f600"]


def test_rule_a_nul_in_a_websocket_path_or_message_is_answered_with_a_code(
        client: TestClient) -> None:
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(
            "/ws/%00") as ws:
        ws.receive_json()
    assert refused(denied.value, "path")
    room = client.post("/api/rooms", json={"game": "reversi", "seats": PEOPLE}).json()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        assert ws.receive_json()["type"] == "update"
        ws.send_text('{"type": "hello", "seats": [{"seat": 0, "key": "a\\u0000"}]}')
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_text", answer
        assert answer["args"] == {"where": "message", "char": "U+0000"}
        ws.send_text('{"type": "move", "seat": 0, "move": "d3\\u0000", "id": 1}')
        assert ws.receive_json()["code"] == "bad_text"
        # the connection is still good
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json()["type"] == "pong"


def test_rule_seat_names_lose_bidi_controls_and_line_breaks(client: TestClient) -> None:
    names = ["\u202eevil\u202c", "a\r\nb", "\u2066x\u2069\u200f", "  ", "\u0085y",
             "名前" * 20]
    made = []
    for name in names:
        res = client.post("/api/rooms", json={"game": "reversi", "seats": [
            {"kind": "human", "name": name}, {"kind": "human"}]})
        made.append(res)
    assert [r.status_code for r in made] == [201, 201, 201, 201, 400, 201]
    assert refused(made[4], "body", "U+0085")
    shown = [client.get(f"/api/rooms/{r.json()['room']}").json()["seats"][0]["name"]
             for r in made if r.status_code == 201]
    assert shown == ["evil", "a b", "x", "", "名前" * 20]


def test_rule_the_store_refuses_what_postgresql_cannot_hold(db_url: str) -> None:
    """The store's own line, beneath the web's: the same refusal on both databases (SQLite
    stored the NUL; PostgreSQL raised a DataError), and nothing is written."""
    from asobiba.core.text import TextError
    from asobiba.server.db import RoomData, SeatData, Store, utcnow

    store = Store(db_url)
    room = RoomData(id="t1", game="reversi", rules_version=1, options={}, seed=1, casual=True,
                    hotseat=False, clock=None, status="active", result=None,
                    rematch_of=None, rematch_id=None, created=utcnow(),
                    seats=[SeatData(0, "human", None, "a\x00", None),
                           SeatData(1, "human", None, "", None)], moves=[])
    with pytest.raises(TextError) as err:
        store.create_room(room)
    assert err.value.code == "bad_text" and err.value.char == "U+0000"
    assert store.load_room("t1") is None
    store.close()


@pytest.mark.parametrize("text,char", [
    (r'"a\u0000"', "U+0000"), (r'"a\\u0000"', None), (r'"a\\\u0000"', "U+0000"),
    (r'"tab\u0009lf\u000a cr\u000D"', None), (r'"\u007f"', "U+007F"), (r'"\u0085"', "U+0085"),
    (r'"\u00e9\u540d"', None), (r'"\ud83d\ude00"', None), (r'"\ud83d"', "U+D83D"),
    (r'"\ude00"', "U+DE00"), (r'"\ud83dx"', "U+D83D"), (r'"\\ud83d\ude00"', "U+DE00"),
    (r'"\\ud83d\\ude00"', None), ('"a\x1bb"', "U+001B"), ('"\x9b"', "U+009B"),
])
def test_control_characters_are_found_in_json_text_literal_or_escaped(
        text: str, char: str | None) -> None:
    from asobiba.server.security import json_text_error

    found = json_text_error(text.encode("utf-8", "surrogatepass"))
    assert (found.char if found else None) == char


def test_rule_a_big_body_is_checked_too(client: TestClient) -> None:
    """Over 64 KB the body is scanned in a worker thread; the answer is the same."""
    moves = ",".join('{"seat": 0, "move": "d3"}' for _ in range(4000))
    body = ('{"game": "reversi", "moves": [' + moves + '], "note": "x\\u0000"}').encode()
    assert len(body) > 64_000
    res = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
    assert refused(res, "body"), res.text[:200]
