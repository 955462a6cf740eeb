"""s10-explorer2: the explorers come from the games' ``explorer`` hooks through the registry
(docs/explorer.md, "Games plug in"); ``GET /api/explorer`` lists them for the pages."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba import games
from asobiba.core import protocol
from asobiba.explorer import positions
from asobiba.explorer.positions import explorer_for, explorers
from asobiba.server import create_app

SHIPPED = [("reversi", "reversi", {}), ("flipflop-3x3", "flipflop", {"board": "3x3"}),
           ("flipflop-5x5", "flipflop", {"board": "5x5"}), ("reverstargo", "reverstargo", {})]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path), bot_processes=0)) as c:
        yield c


def test_the_list_is_the_games_hooks_and_leaves_out_games_without_one(
        client: TestClient) -> None:
    plugged = set(games.available()) - set(games.GAME_IDS)
    assert plugged  # the suite's plug-in game (no explorer hook) is registered, yet not listed
    res = client.get("/api/explorer")
    assert res.status_code == 200, res.text
    listed = res.json()["explorers"]
    assert [(e["explorer"], e["game"], e["options"]) for e in listed] == SHIPPED
    assert [e["defaults"] for e in listed] == [{}, {"board": "3x3"}, {"board": "3x3"}, {}]
    assert [(e.id, e.game, dict(e.options)) for e in explorers().values()] == SHIPPED


def test_a_stored_game_finds_its_explorer_by_its_options_and_their_defaults() -> None:
    assert explorer_for("flipflop", {}) is explorers()["flipflop-3x3"]  # the default board
    assert explorer_for("flipflop", {"board": ""}) is explorers()["flipflop-3x3"]
    assert explorer_for("flipflop", {"board": "5x5"}) is explorers()["flipflop-5x5"]
    assert explorer_for("reversi", {"anything": 1}) is explorers()["reversi"]
    plugged = set(games.available()) - set(games.GAME_IDS)
    for game in ("memory_matrix", "algo", "patapata", *plugged):
        assert explorer_for(game, {}) is None


@pytest.fixture
def extra_set(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Reversi's hooks with one more explorer set (as a game adding a variant would)."""
    kind = type(games.get("reversi"))
    hooks = games.get("reversi").progression()
    grown = dataclasses.replace(hooks, explorer_sets={**hooks.explorer_sets, "reversi-copy": {}})
    monkeypatch.setitem(protocol._PROGRESSION, kind, grown)
    positions._GAMES.clear()
    yield
    positions._GAMES.clear()


def test_a_set_a_game_declares_is_an_explorer_with_the_games_parts(
        extra_set: None, client: TestClient) -> None:
    assert list(explorers()) == [s[0] for s in SHIPPED[:1]] + ["reversi-copy"] + \
        [s[0] for s in SHIPPED[1:]]
    copy, reversi = explorers()["reversi-copy"], explorers()["reversi"]
    assert copy.game == "reversi" and copy.perms == reversi.perms
    assert explorer_for("reversi", {}) is reversi  # the first set that fits wins
    res = client.get("/api/explorer/reversi-copy", params={"moves": "f5"})
    assert res.status_code == 200, res.text
    body: dict[str, Any] = res.json()
    assert body["explorer"] == "reversi-copy" and body["moves"] == ["f5"]
    assert "reversi-copy" in [e["explorer"] for e in client.get("/api/explorer").json()
                              ["explorers"]]


def test_explorer_sets_without_the_hook_make_no_explorer(monkeypatch: pytest.MonkeyPatch) -> None:
    kind = type(games.get("reverstargo"))
    hooks = dataclasses.replace(games.get("reverstargo").progression(), explorer=None)
    monkeypatch.setitem(protocol._PROGRESSION, kind, hooks)
    positions._GAMES.clear()
    try:
        assert "reverstargo" not in explorers() and "reversi" in explorers()
    finally:
        positions._GAMES.clear()
