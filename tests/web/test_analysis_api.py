"""The analysis board's server side (issue 29 items 1 and 5): positions with coded errors,
the deepening streamed over the WebSocket from the analysis process (a real spawned
process, not a thread), and the per-address CPU budget."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba.server.analysis_routes import Analysis, Budget

from .helpers import with_analysis

ADDRESS = "address:testclient"
"""The budget's key of the test client's requests: its address, as the app's Guard reads it."""


@pytest.fixture
def client(app_client: TestClient, analysis: Analysis) -> TestClient:
    """The real app (conftest ``app_client``) with the module's analysis process, a large
    budget and no accounts."""
    analysis.budget = Budget(cpu=1000.0)
    return with_analysis(app_client, analysis)


def stream(client: TestClient, position: dict[str, Any], most: int = 60
           ) -> list[dict[str, Any]]:
    out = []
    with client.websocket_connect("/ws/analysis") as ws:
        ws.send_json({"type": "analyse", "position": position})
        for _ in range(most):
            message = ws.receive_json()
            out.append(message)
            if message["type"] in ("stopped", "error"):
                break
        ws.send_json({"type": "stop"})
    return out


def test_a_position_for_the_page_and_coded_refusals(client: TestClient) -> None:
    ok = client.post("/api/analysis/position", json={"game": "reversi", "moves": ["d3"]})
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["moves"] == ["d3"] and body["engine"] is True and body["to_move"] == 1
    assert "c3" in body["legal_moves"] and body["view"]["board"][5][3] == "B"
    bad = client.post("/api/analysis/position", json={
        "game": "reversi", "setup": {"board": ["........"] * 8, "turn": 0}})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "analysis_bad_board"
    assert bad.json()["error"]["args"] == {"reason": "centre_empty"}
    illegal = client.post("/api/analysis/position", json={"game": "reversi",
                                                           "moves": ["d3", "a1"]})
    assert illegal.json()["error"] == {"code": "analysis_bad_move", "message":
                                       "analysis_bad_move", "args": {
                                           "ply": "2", "move": "a1", "reason": "illegal"}}


def test_hidden_information_positions_show_only_the_seats_view(client: TestClient) -> None:
    from asobiba.games import get

    state = get("algo").new_game({}, 9)
    res = client.post("/api/analysis/position", json={"game": "algo", "seed": 9, "seat": 0})
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["engine"] is False and body["seat"] == 0
    assert body["view"] == state.view(0)  # never the full state
    assert body["seat_analysis"]["kind"] == "algo" and body["seat_analysis"]["cards"]
    for row in body["view"]["rows"][1:]:
        assert all("number" not in card for card in row if not card["up"])


def test_deepening_streams_one_message_per_depth(client: TestClient) -> None:
    messages = stream(client, {"game": "reversi", "moves": ["f5", "d6", "c3"]}, most=6)
    depths = [m for m in messages if m["type"] == "depth"]
    assert [m["depth"] for m in depths] == list(range(1, len(depths) + 1))
    assert len(depths) >= 3
    # every step's CPU is charged to the address: "used" is the running sum, rounded to the
    # millisecond (a quick depth 1 can cost 0.4 ms and show 0.0 used), plus the CPU of any
    # step that ran out of time (a "working" message, which carries no CPU of its own)
    timed_out = any(m["type"] == "working" for m in messages)
    spent, before = 0.0, 0.0
    for m in depths:
        assert len(m["lines"]) == 3
        assert all(len(ln["pv"]) <= m["depth"] and ln["pv"][0] == ln["move"]
                   for ln in m["lines"])
        assert m["cpu"] >= 0
        spent += m["cpu"]
        assert m["used"] >= before and m["used"] >= spent - 0.0006
        if not timed_out:
            assert abs(m["used"] - spent) <= 0.0006
        before = m["used"]
    assert spent > 0


def test_flipflop_3x3_streams_one_exact_answer(client: TestClient) -> None:
    messages = stream(client, {"game": "flipflop"})
    assert messages[-1] == {"type": "stopped", "reason": "done", "depth": 1}
    lines = messages[-2]["lines"]
    assert all(ln["verdict"] in ("win", "draw", "loss") for ln in lines)


def test_a_bad_position_is_refused_on_the_stream_too(client: TestClient) -> None:
    messages = stream(client, {"game": "algo"})
    assert messages == [{"type": "error", "code": "analysis_no_engine",
                         "args": {"game": "algo"}}]


def test_the_cpu_budget_stops_an_address_and_says_when_to_come_back(
        app_client: TestClient, analysis: Analysis) -> None:
    analysis.budget = Budget(cpu=0.5, window=600.0)
    client = with_analysis(app_client, analysis)
    # a Reversi midgame deepens for many seconds: the budget must cut it
    messages = stream(client, {"game": "reversi",
                               "moves": ["f5", "d6", "c3", "d3", "c4", "f4"]}, most=80)
    last = messages[-1]
    assert last["type"] == "error" and last["code"] == "analysis_budget", messages[-3:]
    assert last["args"]["budget"] == 0.5 and last["args"]["retry_after"] >= 1
    used = analysis.budget.used(ADDRESS)
    assert used >= 0.5
    # the spent budget costs nothing more: refused before any engine work
    res = client.post("/api/analysis/position", json={"game": "reversi"})
    assert res.status_code == 429 and res.json()["error"]["code"] == "analysis_budget"
    assert analysis.budget.used(ADDRESS) == used


def test_the_budget_window_slides() -> None:
    now = [0.0]
    budget = Budget(cpu=2.0, window=10.0, clock=lambda: now[0])
    budget.charge("a", 1.5)
    now[0] = 4.0
    budget.charge("a", 1.0)
    assert not budget.allows("a") and budget.allows("b")
    assert budget.retry_after("a") == 7  # the first step leaves the window at t = 10
    now[0] = 10.5
    assert budget.allows("a") and budget.used("a") == 1.0


def _tree() -> dict[str, Any]:
    """The page's flat tree: d3 (c5 {main}) and the variation c4 {the other} c3."""
    return {"comment": "start {here}", "nodes": [
        [-1, "d3", ""], [0, "c5", "main"], [-1, "c4", "the other"], [2, "c3", ""]]}


def test_export_share_and_import_round_trip_the_whole_tree(client: TestClient) -> None:
    res = client.post("/api/analysis/export", json={"game": "reversi", "tree": _tree()})
    assert res.status_code == 200, res.text
    body = res.json()
    assert "(1. c4 {the other} 2. c3)" in body["notation"] and body["share"]
    for field in ("notation", "share"):
        back = client.post("/api/analysis/import", json={"game": "reversi",
                                                         field: body[field]})
        assert back.status_code == 200, back.text
        assert back.json()["tree"] == _tree()
        assert back.json()["options"] == {} and back.json()["seed"] == 0


def test_import_refuses_garbled_and_illegal_trees_with_codes(client: TestClient) -> None:
    def refused(**body: Any) -> dict[str, Any]:
        res = client.post("/api/analysis/import", json={"game": "reversi", **body})
        assert res.status_code == 400, res.text
        error: dict[str, Any] = res.json()["error"]
        return {"code": error["code"], "args": error["args"]}

    assert refused(share="1$$$") == {"code": "analysis_share_garbled", "args": {}}
    assert refused(notation='[Game "reversi"] 1. d3 (')["code"] == "analysis_tree_garbled"
    assert refused(notation='[Game "reversi"] 1. d3 (1. c4 2. a1)') == {
        "code": "analysis_bad_move", "args": {"ply": "2", "move": "a1", "reason": "illegal"}}
    assert refused(notation='[Game "algo"] 1. d3')["code"] == "analysis_wrong_game"
    bad = client.post("/api/analysis/export", json={"game": "reversi",
                                                    "tree": {"nodes": [[0, "d3", ""]]}})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "analysis_bad_request"


def test_a_tree_too_big_for_a_link_still_exports(client: TestClient) -> None:
    import random

    rnd = random.Random(2)
    rows = [[-1, f"m{i}", "".join(rnd.choice("abcdefgh") for _ in range(400))]
            for i in range(60)]
    res = client.post("/api/analysis/export", json={
        "game": "reversi", "tree": {"comment": "", "nodes": rows}})
    assert res.status_code == 200, res.text
    assert res.json()["share"] is None
    assert res.json()["share_error"] == {"code": "analysis_tree_too_big",
                                         "args": {"what": "link", "most": 6000}}


def test_the_budget_is_the_accounts_when_signed_in(app_client: TestClient,
                                                   analysis: Analysis) -> None:
    """Signed in, every address of the account (and every tab) draws on one budget; a
    cookie that is no session counts as the address."""
    analysis.budget = Budget(cpu=1000.0)
    client = with_analysis(app_client, analysis,
                           account=lambda token: 7 if token == "good" else None)
    client.cookies.set("asobiba_session", "good")
    assert client.post("/api/analysis/position", json={"game": "reversi"}).status_code == 200
    client.cookies.set("asobiba_session", "forged")
    assert client.post("/api/analysis/position", json={"game": "reversi"}).status_code == 200
    assert analysis.budget.used("account:7") > 0 and analysis.budget.used(ADDRESS) > 0


def test_database_budgets_of_two_processes_count_together(tmp_path: Any) -> None:
    import sqlalchemy as sa

    from asobiba.server.analysis_routes import DbBudget
    from asobiba.server.schema import upgrade

    url = f"sqlite:///{tmp_path / 'b.db'}"
    now = [1000.0]
    engines = [sa.create_engine(url), sa.create_engine(url)]
    upgrade(engines[0])
    one, two = (DbBudget(e, cpu=2.0, window=10.0, clock=lambda: now[0]) for e in engines)
    one.charge("address:x", 1.5)
    now[0] = 1004.0
    assert two.refusal("address:x") is None
    two.charge("address:x", 1.0)
    assert one.refusal("address:x") == {"code": "analysis_budget", "args": {
        "retry_after": 7, "budget": 2.0, "window": 10.0}}
    assert two.refusal("address:y") is None
    now[0] = 1010.5  # the first step left the window
    assert one.refusal("address:x") is None and two.used("address:x") == 1.0
    for e in engines:
        e.dispose()


def test_registered_accounts_have_a_budget_guests_count_by_address(tmp_path: Any) -> None:
    import sqlalchemy as sa

    from asobiba.progression.service import Progression
    from asobiba.server.app import _account_of
    from asobiba.server.schema import upgrade

    engine = sa.create_engine(f"sqlite:///{tmp_path / 'p.db'}")
    upgrade(engine)
    prog = Progression(engine)
    me, token = prog.register("analyst", "a long and unusual passphrase 42")
    _, guest_token = prog.guest()
    account = _account_of(engine)
    assert account(token) == me["id"]
    assert account(guest_token) is None  # guests are free to make: no fresh budget each
    assert account("not a session") is None
    engine.dispose()


def test_the_app_keeps_its_analysis_board_in_its_context(tmp_path: Any) -> None:
    """``create_app`` builds the analysis board's part once, at ``AppContext.analysis``, with
    the budget every web process shares (the database's) and who a session cookie is; its
    routes come before the room socket (``/ws/analysis`` is not a room)."""
    from asobiba.server import create_app
    from asobiba.server.analysis_routes import AnalysisWeb, DbBudget

    app = create_app(str(tmp_path), bot_processes=0)
    try:
        part = app.state.ctx.analysis
        assert isinstance(part, AnalysisWeb) and isinstance(part.analysis.budget, DbBudget)
        assert part.account is not None
        paths = [getattr(r, "path", None) for r in app.routes]
        assert paths.index("/ws/analysis") < paths.index("/ws/{room}")
        assert paths.index("/api/analysis/position") < paths.index("/ws/{room}")
    finally:
        app.state.store.close()
