"""Loud failures (issue 17 item 5): a registered game whose import fails is an error in
``games.get()``, in the lobby and in the server's start, never a skip or a silent
disappearance; and the registry's plug-in rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asobiba import games
from asobiba.core import UnknownGameError


@pytest.fixture
def broken() -> Iterator[str]:
    games.register("brokengame", "tests.brokengame")
    try:
        yield "brokengame"
    finally:
        games.unregister("brokengame")


def test_a_broken_game_is_listed_and_get_raises_with_the_cause(broken: str) -> None:
    assert broken in games.available()  # listed, not hidden
    with pytest.raises(games.GameImportError, match="failed to import.*no_such_module") as exc:
        games.get(broken)
    assert isinstance(exc.value.__cause__, ModuleNotFoundError)
    assert not isinstance(exc.value, UnknownGameError), "never taken for an unknown game"
    with pytest.raises(games.GameImportError):
        games.all_games()


def test_a_broken_game_stops_the_server_start_and_the_lobby(broken: str, tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from asobiba.server import create_app

    with pytest.raises(games.GameImportError, match="brokengame"):
        with TestClient(create_app(str(tmp_path), bot_processes=0)):
            pass
    client = TestClient(create_app(str(tmp_path / "b"), bot_processes=0))  # no lifespan
    lobby = client.get("/api/games")
    assert lobby.status_code == 500
    assert lobby.json()["error"]["code"] == "game_import_failed" and "no_such_module" in lobby.text


def test_a_broken_game_is_an_error_in_the_cli(broken: str) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "ASOBIBA_GAMES": "brokengame=tests.brokengame"}
    done = subprocess.run([sys.executable, "-c", "from asobiba.cli.main import main; main()",
                           "games"], cwd=Path(__file__).resolve().parents[2], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "brokengame" in done.stdout + done.stderr


def test_a_module_without_a_game_and_a_wrong_id_are_refused() -> None:
    games.register("nogame", "tests.core")  # a package with no MANIFEST
    try:
        with pytest.raises(games.GameImportError, match="defines no MANIFEST"):
            games.get("nogame")
    finally:
        games.unregister("nogame")
    games.register("tictac", "tests.tictactoe")
    try:
        with pytest.raises(games.GameImportError, match="says its id is 'tictactoe'"):
            games.get("tictac")
    finally:
        games.unregister("tictac")


def test_registration_rules() -> None:
    with pytest.raises(ValueError, match="lower-case"):
        games.register("Bad Id", "x")
    with pytest.raises(ValueError, match="already registered"):
        games.register("reversi", "somewhere.else")
    with pytest.raises(ValueError, match="shipped"):
        games.unregister("reversi")
    with pytest.raises(UnknownGameError, match="unknown game 'nope'"):
        games.get("nope")
