"""Issue 27 item 8: a player's game history over HTTP — the paged list filtered by game,
result, opponent and rated/casual in the query; bad filter values refused with a code and
arguments; a stored game's record for the replay page; the export of every game in one zip
(records that replay, and each game's text notation) within its caps and rate limit; a daily
challenge's record withheld until its day is over, as the room's is."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from asobiba.core import Outcome, Record
from asobiba.formats import export_record
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import Progression, ratings
from asobiba.progression import history as hist
from asobiba.server import create_app
from asobiba.server import history_routes as hr
from asobiba.server.limits import Limits, Rule


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def client(tmp: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp), bot_processes=0)) as c:
        yield c


def _prog(tmp: Path) -> Progression:
    return Progression(create_engine(f"sqlite:///{tmp / 'asobiba.db'}"))


def _record(game_id: str, seed: int, **options: Any) -> Record:
    game = get(game_id)
    opts = game.validate_options(dict(options))
    bots = [game.make_bot("random" if game_id == "reversi" else "1", seed * 10 + i) for i in range(game.num_seats(opts))]
    return play_game(game, bots, opts, seed).record


def _word(rec: Record, seat: int) -> str:
    assert rec.result is not None
    return ratings.result_word(rec.result.ranks[seat], rec.result.ranks)


@pytest.fixture
def played(client: TestClient, tmp: Path) -> dict[str, Any]:
    """Hanako's games: Reversi and Algo (hidden cards) against two people, rated and
    casual, from both seats; a draw stored without a record; a game of someone else's."""
    prog = _prog(tmp)
    me = prog.register("hanako", "a long password")[0]["id"]
    taro = prog.register("Taro", "a long password")[0]["id"]
    jiro = prog.register("jiro", "a long password")[0]["id"]
    expected: list[dict[str, Any]] = []
    for i in range(8):
        game_id = "reversi" if i % 2 == 0 else "algo"
        rec = _record(game_id, 100 + i)
        rival = taro if i % 3 else jiro
        players = [me, rival] if i % 4 < 2 else [rival, me]
        res = prog.record_game(players, rec, rated=i % 3 != 2,
                               context="rated" if i % 3 != 2 else "casual")
        seat = players.index(me)
        expected.append({"id": res["game_row_id"], "game": game_id, "result": _word(rec, seat),
                         "rated": res["rated"], "opponent": "Taro" if rival == taro else "jiro",
                         "record": rec})
    with prog.session() as s:
        draw = ratings.record_result(s, "reversi", [me, jiro], Outcome.from_scores((32, 32)),
                                     rated=False)
    expected.append({"id": draw.game_row_id, "game": "reversi", "result": "draw",
                     "rated": False, "opponent": "jiro", "record": None})
    other = prog.record_game([taro, jiro], _record("reversi", 7))
    return {"me": me, "taro": taro, "expected": expected[::-1], "other": other["game_row_id"]}


def _ids(client: TestClient, me: int, **query: str) -> list[int]:
    res = client.get(f"/api/players/{me}/games", params={**query, "limit": "50"})
    assert res.status_code == 200, res.text
    return [g["game_row_id"] for g in res.json()["games"]]


def test_issue27_history_lists_every_game_newest_first_with_its_replay(
        client: TestClient, played: dict[str, Any]) -> None:
    res = client.get(f"/api/players/{played['me']}/games", params={"limit": "50"}).json()
    exp = played["expected"]
    assert [g["game_row_id"] for g in res["games"]] == [e["id"] for e in exp]
    assert res["next"] is None
    for g, e in zip(res["games"], exp, strict=True):
        assert (g["game"], g["result"], g["rated"], g["opponents"]) == (
            e["game"], e["result"], e["rated"], [e["opponent"]])
        # a game with a stored record links to its replay; one without has no link
        assert g["replay"] == (f"/replay?record={e['id']}" if e["record"] else None)
    assert played["other"] not in [g["game_row_id"] for g in res["games"]]


def test_issue27_history_filters_are_applied_in_the_query(
        client: TestClient, played: dict[str, Any]) -> None:
    me, exp = played["me"], played["expected"]

    def want(pred: Any) -> list[int]:
        return [e["id"] for e in exp if pred(e)]
    assert _ids(client, me, game="algo") == want(lambda e: e["game"] == "algo")
    for word in ("win", "loss", "draw"):
        assert _ids(client, me, result=word) == want(lambda e, w=word: e["result"] == w)
    assert want(lambda e: e["result"] == "draw")  # the draw is there to be found
    assert _ids(client, me, opponent="taro") == want(lambda e: e["opponent"] == "Taro")
    assert _ids(client, me, kind="rated") == want(lambda e: e["rated"])
    assert _ids(client, me, kind="casual") == want(lambda e: not e["rated"])
    both = _ids(client, me, game="reversi", opponent="jiro", kind="casual")
    assert both == want(lambda e: e["game"] == "reversi" and e["opponent"] == "jiro"
                        and not e["rated"]) and both
    assert _ids(client, me, opponent="nobody") == []


def test_issue27_history_pages_with_before(client: TestClient, played: dict[str, Any]) -> None:
    me, exp = played["me"], played["expected"]
    seen: list[int] = []
    before = ""
    while True:
        page = client.get(f"/api/players/{me}/games",
                          params={"limit": "4", "before": before}).json()
        assert len(page["games"]) <= 4
        seen += [g["game_row_id"] for g in page["games"]]
        if page["next"] is None:
            break
        before = str(page["next"])
    assert seen == [e["id"] for e in exp]


@pytest.mark.parametrize(("name", "value"), [
    ("game", "chess"), ("result", "won"), ("kind", "friendly"), ("before", "-3"),
    ("before", "x"), ("opponent", "n" * 41), ("limit", "0"), ("limit", "51")])
def test_issue27_history_bad_filter_is_400_with_code_and_args(
        client: TestClient, played: dict[str, Any], name: str, value: str) -> None:
    for path in ("games", "export"):
        if path == "export" and name == "limit":
            continue
        res = client.get(f"/api/players/{played['me']}/{path}", params={name: value})
        assert res.status_code == 400, res.text
        err = res.json()["error"]
        assert err["code"] == "bad_filter"
        assert err["args"]["filter"] == name and err["args"]["value"] == value[:60]
        assert err["args"]["allowed"]


def test_issue27_history_of_no_player_is_404(client: TestClient, played: dict[str, Any]) -> None:
    for path in ("games", "export"):
        assert client.get(f"/api/players/99999/{path}").status_code == 404
        assert client.get(f"/api/players/abc/{path}").status_code == 404
    assert client.get("/api/records/99999").status_code == 404


def test_issue27_stored_record_is_the_games_record_and_replays(
        client: TestClient, played: dict[str, Any]) -> None:
    for e in played["expected"]:
        res = client.get(f"/api/records/{e['id']}")
        if e["record"] is None:
            assert res.status_code == 404 and res.json()["error"]["code"] == "no_record"
            continue
        assert res.status_code == 200
        assert Record.loads(res.text).to_json() == e["record"].to_json()
        # what the replay page does with it: the server replays it into every seat's view
        rep = client.post("/api/replay", content=res.content,
                          headers={"content-type": "application/json"})
        assert rep.status_code == 200 and rep.json()["plies"] == len(e["record"].moves)
        txt = client.get(f"/api/records/{e['id']}", params={"format": "text"})
        assert txt.status_code == 200 and txt.text == export_record(e["record"], "text")
    bad = client.get(f"/api/records/{played['expected'][1]['id']}", params={"format": "nope"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_format"


def _zip(res: Any) -> tuple[dict[str, Any], zipfile.ZipFile]:
    assert res.status_code == 200, res.text
    assert res.headers["content-type"] == "application/zip"
    assert "attachment" in res.headers["content-disposition"]
    z = zipfile.ZipFile(io.BytesIO(res.content))
    return json.loads(z.read("index.json")), z


def test_issue27_export_holds_every_game_record_and_notation(
        client: TestClient, played: dict[str, Any]) -> None:
    index, z = _zip(client.get(f"/api/players/{played['me']}/export"))
    exp = played["expected"]
    with_record = [e for e in exp if e["record"] is not None]
    assert [g["game_row_id"] for g in index["games"]] == [e["id"] for e in with_record]
    assert index["withheld"] == [e["id"] for e in exp if e["record"] is None]
    assert index["truncated"] is None and index["next"] is None
    assert index["player"]["name"] == "hanako"
    for g, e in zip(index["games"], with_record, strict=True):
        js, txt = g["files"]
        rec = Record.loads(z.read(js))
        assert rec.to_json() == e["record"].to_json()
        rec.replay(get)  # every move checked again, and the stored result
        assert z.read(txt).decode() == export_record(e["record"], "text")
        assert g["result"] == e["result"] and g["opponents"] == [e["opponent"]]
    # the filters apply to the export too
    index, _ = _zip(client.get(f"/api/players/{played['me']}/export",
                               params={"game": "algo", "kind": "rated"}))
    assert [g["game_row_id"] for g in index["games"]] == [
        e["id"] for e in with_record if e["game"] == "algo" and e["rated"]]
    assert index["filters"] == {"game": "algo", "kind": "rated"}


def test_issue27_a_daily_record_waits_for_its_day_like_the_rooms(
        client: TestClient, tmp: Path) -> None:
    prog = _prog(tmp)
    me = prog.register("daily_player", "a long password")[0]["id"]
    bot = prog.bot_id("reversi", "random")
    gid = prog.record_game([me, bot], _record("reversi", 3), rated=False,
                           context="daily")["game_row_id"]
    res = client.get(f"/api/records/{gid}")
    assert res.status_code == 409 and res.json()["error"]["code"] == "not_yet"
    page = client.get(f"/api/players/{me}/games").json()
    assert page["games"][0]["replay"] is None
    index, z = _zip(client.get(f"/api/players/{me}/export"))
    assert index["games"] == [] and index["withheld"] == [gid]
    assert not [n for n in z.namelist() if n.startswith("games/")]
    # the day after it finished, it is public
    today = date.today()
    assert hr.embargoed("daily", f"{today.isoformat()}T12:00:00+00:00", today)
    assert not hr.embargoed("daily", f"{today.isoformat()}T12:00:00+00:00",
                            today + timedelta(days=1))
    assert not hr.embargoed("rated", f"{today.isoformat()}T12:00:00+00:00", today)


def test_issue27_export_is_capped_and_says_where_to_go_on(tmp: Path) -> None:
    prog = _prog(tmp)
    me = prog.register("many", "a long password")[0]["id"]
    rival = prog.register("rival", "a long password")[0]["id"]
    rec = _record("reversi", 5)
    for _ in range(7):
        prog.record_game([me, rival], rec, rated=False, context="casual")
    with prog.session() as s:
        rows = list(hist.records(s, me, batch=3))  # batches chain without a gap
        assert len(rows) == 7 and len({r["game_row_id"] for r in rows}) == 7
        data = hr.build_export(hist.records(s, me, batch=3), {"id": me}, hist.Filters(),
                               date.today(), max_games=3)
    index = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("index.json"))
    assert len(index["games"]) == 3 and index["truncated"] == "games"
    assert index["next"] == index["games"][-1]["game_row_id"]
    with prog.session() as s:
        rest = hr.build_export(hist.records(s, me, before=index["next"]), {"id": me},
                               hist.Filters(), date.today())
    rest_index = json.loads(zipfile.ZipFile(io.BytesIO(rest)).read("index.json"))
    assert len(rest_index["games"]) == 4 and rest_index["truncated"] is None
    with prog.session() as s:
        small = hr.build_export(hist.records(s, me), {"id": me}, hist.Filters(),
                                date.today(), max_bytes=1)
    assert json.loads(zipfile.ZipFile(io.BytesIO(small)).read("index.json"))["truncated"] \
        == "bytes"
    with prog.session() as s:
        none = hr.build_export(hist.records(s, me), {"id": me}, hist.Filters(),
                               date.today(), cpu=0.0)
    assert json.loads(zipfile.ZipFile(io.BytesIO(none)).read("index.json"))["truncated"] \
        == "cpu"


def test_issue27_export_and_history_are_rate_limited(tmp: Path) -> None:
    limits = Limits(rules={"history": Rule(3, 60.0), "history_export": Rule(2, 600.0)})
    with TestClient(create_app(str(tmp), bot_processes=0, limits=limits)) as c:
        me = _prog(tmp).register("limited", "a long password")[0]["id"]
        assert [c.get(f"/api/players/{me}/export").status_code for _ in range(3)] == [
            200, 200, 429]
        assert [c.get(f"/api/players/{me}/games").status_code for _ in range(4)] == [
            200, 200, 200, 429]
        assert c.get(f"/api/players/{me}/games").json()["error"]["code"] == "too_many"
