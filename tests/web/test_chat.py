"""Chat with moderation (asobiba.server.chat, issue 28 item 4), tried as players, spectators
and attackers would (docs/fair-play.md "Chat"), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from asobiba.games import available, get
from asobiba.server import chat, create_app
from asobiba.server.rooms import ClientError
from asobiba.tables import CHAT_LINES, MODERATION

from .test_fairplay_rating import CLOCK, account, as_, guest


@pytest.fixture
def client(tmp_path: Any, db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), db_url=db_url, bot_processes=0)) as c:
        yield c


def engine(client: TestClient) -> Any:
    return client.app.state.store.engine  # type: ignore[attr-defined]


def make_room(client: TestClient, game: str = "reversi", casual: bool = True,
              **extra: Any) -> dict[str, Any]:
    g = get(game)
    seats = [{"kind": "human"}] * g.num_seats(g.validate_options({}))
    body: dict[str, Any] = {"game": game, "seats": seats, "casual": casual, **extra}
    if not casual:
        body["clock"] = CLOCK
    res = client.post("/api/rooms", json=body)
    assert res.status_code == 201, res.text
    return dict(res.json())


def claim(client: TestClient, token: str, room: dict[str, Any], seat: int) -> None:
    res = as_(client, token).post(f"/api/rooms/{room['room']}/claim",
                                  json={"seats": [room["keys"][seat]]})
    assert res.status_code == 200, res.text


_held: dict[int, list[dict[str, Any]]] = {}
"""Chat lines a socket received while a helper waited for something else (kept in order)."""


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (updates and the like in between are skipped)."""
    held = _held.get(id(ws), [])
    if kind == "chat" and held:
        return held.pop(0)
    while True:
        msg = dict(ws.receive_json())
        if msg["type"] == kind:
            return msg
        if msg["type"] == "error" and kind != "error":
            raise AssertionError(msg)


def chat_before_pong(ws: Any) -> list[dict[str, Any]]:
    """Every chat line this socket received before the answer to a ping sent now."""
    ws.send_json({"type": "ping"})
    got = _held.pop(id(ws), [])
    while True:
        msg = dict(ws.receive_json())
        if msg["type"] == "pong":
            return got
        if msg["type"] == "chat":
            got.append(msg)


def joined(ws: Any, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seats": seats or []})
    until(ws, "update")
    ws.send_json({"type": "chat_join"})
    return until(ws, "chat_lines")


def say(ws: Any, channel: str, text: str, ref: int = 1) -> dict[str, Any]:
    """Send a line; its ack or its refusal."""
    ws.send_json({"type": "chat", "channel": channel, "text": text, "id": ref})
    while True:
        msg = dict(ws.receive_json())
        if msg.get("id") == ref and msg["type"] in ("ack", "error"):
            return msg
        if msg["type"] == "chat":
            _held.setdefault(id(ws), []).append(msg)


def test_players_and_spectators_chat_reaches_the_right_readers_and_is_kept(
        client: TestClient) -> None:
    ann, ben, cat = account(client, "ann"), account(client, "ben"), account(client, "cat")
    room = make_room(client)
    claim(client, ann, room, 0)
    claim(client, ben, room, 1)
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as wa, \
            as_(client, ben).websocket_connect(f"/ws/{room['room']}") as wb, \
            as_(client, cat).websocket_connect(f"/ws/{room['room']}") as wc:
        first = joined(wa, [room["keys"][0]])
        assert first["players_chat"] is True and first["lines"] == []  # casual: on
        joined(wb, [room["keys"][1]])
        joined(wc)
        assert say(wa, "players", "good luck!")["type"] == "ack"
        for ws in (wa, wb, wc):  # everyone at the table reads the players' channel
            line = until(ws, "chat")["line"]
            assert (line["author"], line["seat"], line["text"]) == ("ann", 0, "good luck!")
        # a casual, perfect-information game: spectators' lines reach the players too
        assert say(wc, "spectators", "nice opening")["type"] == "ack"
        assert [m["line"]["text"] for m in chat_before_pong(wb)] == ["nice opening"]
        # a spectator does not write as a player, nor a player as a spectator
        assert say(wc, "players", "hi", 2)["code"] == "chat_not_player"
        assert say(wa, "spectators", "hi", 3)["code"] == "chat_not_spectator"
    # a reload gets the stored lines again
    with as_(client, cat).websocket_connect(f"/ws/{room['room']}") as wc:
        got = joined(wc)["lines"]
        assert [(x["channel"], x["text"]) for x in got] == [("players", "good luck!"),
                                                             ("spectators", "nice opening")]


def test_an_anonymous_socket_reads_but_cannot_write(client: TestClient) -> None:
    room = make_room(client)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{room['room']}") as ws:
        assert joined(ws)["signed_in"] is False
        assert say(ws, "spectators", "hello")["code"] == "chat_sign_in"


def test_players_chat_is_off_by_default_in_rated_games_and_a_choice_at_creation(
        client: TestClient) -> None:
    ann, ben = account(client, "ann3"), account(client, "ben3")
    for casual, choice, on in ((False, None, False), (False, True, True),
                               (True, False, False), (True, None, True)):
        extra = {} if choice is None else {"chat": choice}
        room = make_room(client, casual=casual, **extra)
        claim(client, ann, room, 0)
        claim(client, ben, room, 1)
        with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as ws:
            assert joined(ws, [room["keys"][0]])["players_chat"] is on
            assert say(ws, "players", "hi")["type"] == ("ack" if on else "error")
    assert client.post("/api/rooms", json={"game": "reversi", "seats": [{"kind": "human"}] * 2,
                                           "chat": "yes"}).status_code == 400


@pytest.mark.parametrize("game", [g for g in available() if not get(g).perfect_information
                                  and get(g).num_seats(get(g).validate_options({})) > 1])
def test_spectator_lines_never_reach_a_player_of_a_hidden_information_game(
        client: TestClient, game: str) -> None:
    """The attack: a spectator (a friend of a player, say) tries to tell the players
    something during a hidden-information game — through the player's seat socket, through
    a second, seatless socket of the player's own account, or an anonymous socket."""
    ann, ben, cat = account(client, f"a{game[:6]}"), account(client, f"b{game[:6]}"), \
        account(client, f"c{game[:6]}")
    room = make_room(client, game)
    claim(client, ann, room, 0)
    claim(client, ben, room, 1)
    rid = room["room"]
    with as_(client, ann).websocket_connect(f"/ws/{rid}") as player, \
            as_(client, ann).websocket_connect(f"/ws/{rid}") as players_second, \
            as_(client, cat).websocket_connect(f"/ws/{rid}") as spectator:
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{rid}") as anonymous:
            assert joined(player, [room["keys"][0]])["spectators_hidden"] is True
            assert joined(players_second)["player"] is True  # its account holds a seat
            joined(anonymous)
            joined(spectator)
            assert say(spectator, "spectators", "ann holds the 7")["type"] == "ack"
            assert until(spectator, "chat")["line"]["text"] == "ann holds the 7"
            for ws in (player, players_second, anonymous):
                assert chat_before_pong(ws) == []
            # ... nor by joining again (the stored lines are filtered the same way)
            player.send_json({"type": "chat_join"})
            assert until(player, "chat_lines")["lines"] == []
            # the players' own line reaches everyone, the spectator included
            assert say(player, "players", "gl")["type"] == "ack"
            assert [m["line"]["text"] for m in chat_before_pong(spectator)] == ["gl"]
            # the game ends: now the players may read the spectators' lines
            player.send_json({"type": "resign", "seat": 0})
            until(player, "update")
            player.send_json({"type": "chat_join"})
            after = until(player, "chat_lines")
            assert [x["text"] for x in after["lines"]] == ["ann holds the 7", "gl"]
            assert after["spectators_hidden"] is False


def test_rated_games_hold_spectator_lines_back_from_the_players_too(client: TestClient) -> None:
    ann, ben, cat = account(client, "ann4"), account(client, "ben4"), account(client, "cat4")
    room = make_room(client, casual=False)
    claim(client, ann, room, 0)
    claim(client, ben, room, 1)
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as player, \
            as_(client, cat).websocket_connect(f"/ws/{room['room']}") as spectator:
        joined(player, [room["keys"][0]])
        joined(spectator)
        assert say(spectator, "spectators", "play c4")["type"] == "ack"
        assert chat_before_pong(player) == []


@pytest.mark.parametrize("text", ["ＦＵＣＫ off", "F u C k", "f.u.c.k", "fυck",  # Greek υ
                                  "sh1t", "ｼﾈ", "死ね", "ｷﾁｶﾞｲ", "K Y S", "kill   your self"])
def test_the_word_filter_sees_through_width_case_and_look_alikes(client: TestClient,
                                                                   text: str) -> None:
    # ｼﾈ (half-width katakana) is not in the list: only the refusal of listed words counts
    listed = text != "ｼﾈ"
    ann = account(client, "filt")
    room = make_room(client)
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as ws:
        joined(ws)
        got = say(ws, "spectators", text)
        assert (got.get("code") == "chat_filtered") is listed, got
    with engine(client).connect() as conn:
        stored = conn.execute(select(CHAT_LINES.c.text)).scalars().all()
    assert stored == ([] if listed else [chat.clean(text)])  # stored in NFKC


def test_innocent_words_pass_the_filter() -> None:
    for text in ("Scunthorpe", "retardant", "good game", "ありがとう", "よろしくお願いします",
                 "shiitake", "Dickens"):
        assert chat.check_text(text) == text


def test_hostile_strings_are_cleaned_or_refused(client: TestClient) -> None:
    assert chat.clean("a\u202eb\u200dc\x00d\n\ne") == "abcd e"  # bidi, ZWJ, NUL, newlines
    assert chat.clean("ｈｅｌｌｏ") == "hello"
    for bad, code in (("", "chat_empty"), ("\u200b\u202e ", "chat_empty"),
                      ("x" * (chat.MAX_LENGTH + 1), "chat_too_long")):
        with pytest.raises(ClientError) as err:
            chat.check_text(bad)
        assert err.value.code == code
    ann = account(client, "hostile")
    room = make_room(client)
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as ws:
        joined(ws)
        assert say(ws, "spectators", "<img src=x onerror=alert(1)>")["type"] == "ack"
        assert until(ws, "chat")["line"]["text"] == "<img src=x onerror=alert(1)>"  # as text
        assert say(ws, "spectators", "x" * 2001, 2)["code"] == "bad_message"
        assert say(ws, "whisper", "hi", 3)["code"] == "bad_message"  # type: ignore[arg-type]


def test_flooding_from_two_sockets_at_once_stores_at_most_the_rate(client: TestClient
                                                                   ) -> None:
    ann = account(client, "flood")
    room = make_room(client)
    results: list[str] = []
    lock = threading.Lock()

    def flood(ws: Any, base: int) -> None:
        for i in range(8):
            got = say(ws, "spectators", f"spam {base + i}", base + i)
            with lock:
                results.append(got.get("code") or got["type"])

    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as w1, \
            as_(client, ann).websocket_connect(f"/ws/{room['room']}") as w2:
        joined(w1)
        joined(w2)
        threads = [threading.Thread(target=flood, args=(w, b)) for w, b in ((w1, 100),
                                                                            (w2, 200))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results.count("ack") == chat.RATE_LINES
    assert set(results) == {"ack", "chat_too_fast"}
    with engine(client).connect() as conn:
        assert len(conn.execute(select(CHAT_LINES.c.id)).all()) == chat.RATE_LINES


def test_a_muted_player_is_refused_on_every_socket_and_the_audit_says_who_and_why(
        client: TestClient) -> None:
    ann = account(client, "loud")
    room = make_room(client)
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as first:
        joined(first)
        assert say(first, "spectators", "before")["type"] == "ack"
        chat.moderate(engine(client), "mute", "loud", by="op", reason="insults", hours=2)
        got = say(first, "spectators", "after", 2)
        assert got["code"] == "chat_muted" and got["args"]["until"]
        # a second connection (a new socket, a new page) is muted as well
        with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as second:
            joined(second)
            assert say(second, "spectators", "again")["code"] == "chat_muted"
        chat.moderate(engine(client), "unmute", "loud", by="op", reason="served")
        assert say(first, "spectators", "sorry", 3)["type"] == "ack"
        chat.moderate(engine(client), "ban", "loud", by="op2", reason="threats")
        assert say(first, "spectators", "x", 4)["code"] == "chat_banned"
    log = chat.audit(engine(client), "loud")
    assert [(x["action"], x["by"], x["reason"]) for x in log] == [
        ("mute", "op", "insults"), ("unmute", "op", "served"), ("ban", "op2", "threats")]
    with pytest.raises(ClientError):
        chat.moderate(engine(client), "ban", "loud", by="op", reason=" ")  # unexplained
    with engine(client).connect() as conn:
        assert len(conn.execute(select(MODERATION.c.id)).all()) == 3


def test_a_blocker_does_not_see_the_blocked_players_lines(client: TestClient) -> None:
    ann, ben = account(client, "blocker"), account(client, "pest")
    assert as_(client, ann).post("/api/people/pest/block").status_code == 200
    room = make_room(client)
    with as_(client, ben).websocket_connect(f"/ws/{room['room']}") as wb:
        joined(wb)
        assert say(wb, "spectators", "earlier")["type"] == "ack"
        with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as wa:
            assert joined(wa)["lines"] == []  # the stored line is left out
            assert say(wb, "spectators", "hey", 2)["type"] == "ack"
            assert chat_before_pong(wa) == []
            assert say(wa, "spectators", "hello all", 3)["type"] == "ack"


def test_reports_go_to_the_operator_queue_and_are_resolved_with_an_audit(
        client: TestClient) -> None:
    ann, ben = account(client, "rep1"), account(client, "rep2")
    room = make_room(client)
    with as_(client, ben).websocket_connect(f"/ws/{room['room']}") as wb:
        joined(wb)
        say(wb, "spectators", "you are bad")
        line = until(wb, "chat")["line"]
    res = as_(client, ann).post("/api/chat/reports", json={"line": line["id"],
                                                           "reason": "abuse"})
    assert res.status_code == 201, res.text
    again = as_(client, ann).post("/api/chat/reports", json={"line": line["id"]})
    assert again.json()["report"] == res.json()["report"]  # one open report per line
    assert as_(client, ben).post("/api/chat/reports",
                                 json={"line": line["id"]}).json()["error"]["code"] == "report_self"
    assert as_(client, ann).post("/api/chat/reports", json={"player": "rep2",
                                                            "reason": "spam"}).status_code == 201
    assert as_(client, ann).post("/api/chat/reports", json={"reason": "spam"}
                                 ).json()["error"]["code"] == "bad_report"
    assert as_(client, ann).post("/api/chat/reports", json={"line": 1, "reason": "mean"}
                                 ).json()["error"]["code"] == "bad_report"
    client.cookies.clear()
    assert client.post("/api/chat/reports", json={"line": 1}).status_code == 401
    queue = chat.reports(engine(client))
    assert [(q["reporter"], q["target"], q["text"]) for q in queue] == [
        ("rep1", "rep2", "you are bad"), ("rep1", "rep2", None)]
    chat.resolve(engine(client), queue[0]["id"], by="op", reason="rude",
                 remove_line=True)
    assert [q["id"] for q in chat.reports(engine(client))] == [queue[1]["id"]]
    with as_(client, ann).websocket_connect(f"/ws/{room['room']}") as wa:
        assert joined(wa)["lines"] == []  # the removed line is shown no more
    assert [x["action"] for x in chat.audit(engine(client), "rep2")] == ["resolve", "remove"]


def test_tournament_chat_entrants_write_anyone_reads(client: TestClient) -> None:
    ann, ben = account(client, "tc1"), account(client, "tc2")
    made = as_(client, ann).post("/api/tournaments", json={"game": "reversi",
                                                          "kind": "swiss", "starts_in": 30})
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    assert as_(client, ann).post(f"/api/tournaments/{tid}/join").status_code == 200
    posted = as_(client, ann).post(f"/api/tournaments/{tid}/chat", json={"text": "gl all"})
    assert posted.status_code == 201, posted.text
    refused = as_(client, ben).post(f"/api/tournaments/{tid}/chat", json={"text": "hi"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat_not_entrant"
    assert as_(client, ann).post(f"/api/tournaments/{tid}/chat", json={"text": "ｆｕｃｋ"}
                                 ).json()["error"]["code"] == "chat_filtered"
    client.cookies.clear()
    read = client.get(f"/api/tournaments/{tid}/chat")
    assert read.status_code == 200
    assert [x["text"] for x in read.json()["lines"]] == ["gl all"]
    assert read.json()["can_write"] is False
    after = client.get(f"/api/tournaments/{tid}/chat",
                       params={"after": read.json()["lines"][0]["id"]})
    assert after.json()["lines"] == []
    assert client.get("/api/tournaments/99999/chat").status_code == 404


def test_a_guest_account_may_chat(client: TestClient) -> None:
    g = guest(client)
    room = make_room(client)
    with as_(client, g).websocket_connect(f"/ws/{room['room']}") as ws:
        joined(ws)
        assert say(ws, "spectators", "hello")["type"] == "ack"


def test_the_operator_commands_queue_mute_ban_and_audit(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from asobiba.cli.main import app as cli

    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        ann, ben = account(c, "opann"), account(c, "opben")
        as_(c, ann).post("/api/chat/reports", json={"player": "opben", "reason": "spam"})
        ben_room = make_room(c)
        run = CliRunner()
        d = ["--data-dir", str(tmp_path)]
        out = run.invoke(cli, ["admin", "reports", *d])
        assert out.exit_code == 0 and "opann reports opben (spam)" in out.output, out.output
        assert run.invoke(cli, ["admin", "mute", "opben", "--hours", "1", "--reason",
                                "spam", "--by", "op", *d]).exit_code == 0
        with as_(c, ben).websocket_connect(f"/ws/{ben_room['room']}") as ws:
            joined(ws)
            assert say(ws, "spectators", "hi")["code"] == "chat_muted"
        refused = run.invoke(cli, ["admin", "ban", "nobody", "--reason", "x", *d])
        assert refused.exit_code == 2 and "no_player" in refused.output
        assert run.invoke(cli, ["admin", "resolve", "1", "--reason", "muted", "--by", "op",
                                *d]).exit_code == 0
        log = run.invoke(cli, ["admin", "audit", "opben", "--json", *d])
        acts = json.loads(log.output)["actions"]
        assert [(a["action"], a["by"]) for a in acts] == [("mute", "op"), ("resolve", "op")]
        assert "no open reports" in run.invoke(cli, ["admin", "reports", *d]).output


def test_a_finished_rooms_chat_is_given_for_its_replay_and_nothing_before(
        client: TestClient) -> None:
    """``GET /api/rooms/{room}/chat``: while the game is on it is refused (the spectators'
    lines of a hidden-information game must not reach a player by this way either); once it
    is over anyone reads both channels, minus removed lines and lines of accounts they
    block."""
    ann, ben, cat = account(client, "rann"), account(client, "rben"), account(client, "rcat")
    room = make_room(client, "algo")
    claim(client, ann, room, 0)
    claim(client, ben, room, 1)
    rid = room["room"]
    with as_(client, ann).websocket_connect(f"/ws/{rid}") as player, \
            as_(client, cat).websocket_connect(f"/ws/{rid}") as spectator:
        joined(player, [room["keys"][0]])
        joined(spectator)
        assert say(spectator, "spectators", "ann holds the 7")["type"] == "ack"
        assert say(player, "players", "gl")["type"] == "ack"
        assert say(player, "players", "oops", 2)["type"] == "ack"
        for who in (ann, cat, None):
            res = (as_(client, who) if who else client).get(f"/api/rooms/{rid}/chat")
            assert res.status_code == 409 and res.json()["error"]["code"] == "not_over"
        player.send_json({"type": "resign", "seat": 0})
        until(player, "update")
    with engine(client).begin() as conn:  # a moderator removed one line
        conn.execute(CHAT_LINES.update().where(CHAT_LINES.c.text == "oops").values(removed=True))
    res = as_(client, ann).get(f"/api/rooms/{rid}/chat")
    assert res.status_code == 200, res.text
    assert [(x["channel"], x["author"], x["seat"], x["text"]) for x in res.json()["lines"]] == [
        ("spectators", "rcat", None, "ann holds the 7"), ("players", "rann", 0, "gl")]
    client.cookies.clear()  # anonymous readers get the same
    assert [x["text"] for x in client.get(f"/api/rooms/{rid}/chat").json()["lines"]] == [
        "ann holds the 7", "gl"]
    assert as_(client, ben).post("/api/people/rcat/block").status_code == 200
    assert [x["text"] for x in as_(client, ben).get(f"/api/rooms/{rid}/chat").json()["lines"]
            ] == ["gl"]
    assert client.get("/api/rooms/nosuchroom/chat").json()["error"]["code"] == "no_room"
    assert client.get("/api/rooms/nosuchroom/chat").status_code == 404
