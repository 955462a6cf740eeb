"""Issue 26 item 1: every check that is about "every game" is parametrised over the registry
(``asobiba.games.available()``), so a game plugged in at test time (a folder of tests/, see tests/conftest.py) runs
them all with no test naming it: protocol conformance (opt-out impossible: a game with no
tests of its own still runs it), records in every format, paper, the RL bindings, the CLI's
list, and the browser files served from the game's folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from asobiba.core.manifest import GameManifest, manifest_of
from asobiba.games import available, get, manifest
from tests.conformance import check_random_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = available()


def test_the_suite_runs_a_plugged_in_game() -> None:
    """tests/conftest.py plugs in the test folders that ask for it: the parametrised
    checks below are proved on a game no shipped code knows."""
    assert [g for g in GAMES if manifest(g).package.startswith("tests.")]


@pytest.mark.parametrize("game_id", GAMES)
def test_issue26_every_game_has_one_manifest_resolved_once(game_id: str) -> None:
    found = manifest(game_id)
    assert isinstance(found, GameManifest) and found is manifest(game_id)
    assert found.game is get(game_id) and manifest_of(found.game) is found
    assert found.game.progression().package == found.package


@pytest.mark.parametrize("game_id", GAMES)
def test_issue26_conformance_of_every_game(game_id: str) -> None:
    check_random_games(game_id, [{}], games=3)


@pytest.mark.parametrize("game_id", GAMES)
def test_issue26_every_game_round_trips_its_records_in_every_format(game_id: str) -> None:
    from asobiba.core import RandomBot
    from asobiba.formats import export_record, formats_for, import_record
    from asobiba.play.runner import play_game

    game = get(game_id)
    seats = game.new_game({}, 5).num_seats
    result = play_game(game, [RandomBot(i) for i in range(seats)], {}, 5)
    record = result.record
    for name in formats_for(game_id):
        text = export_record(record, name)
        back = import_record(text, name, game_id)
        assert [m.move for m in back.moves] == [m.move for m in record.moves], name


@pytest.mark.parametrize("game_id", [g for g in GAMES if manifest(g).paper is not None])
def test_issue26_every_game_with_paper_prints(game_id: str, tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    from asobiba.paper import parse_request, print_game

    pdf = print_game(parse_request(game_id, {}, seed=1))
    assert pdf[:5] == b"%PDF-" and len(pdf) > 1000


@pytest.mark.parametrize("game_id", [g for g in GAMES if manifest(g).encoding is not None])
def test_issue26_every_game_with_an_encoding_is_a_pettingzoo_env(game_id: str) -> None:
    pytest.importorskip("pettingzoo")
    from asobiba.envs import GYM_IDS, pettingzoo_env

    env = pettingzoo_env(game_id)
    env.reset(seed=3)
    for _agent in env.agent_iter(max_iter=6):
        obs, _, done, trunc, _ = env.last()
        env.step(None if done or trunc else int(obs["action_mask"].nonzero()[0][0]))  # type: ignore[arg-type]
    assert GYM_IDS[game_id].startswith("asobiba/")


def test_issue26_the_cli_lists_every_registered_game() -> None:
    out = subprocess.run([sys.executable, "-m", "asobiba.cli.main", "games", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert [g["id"] for g in json.loads(out.stdout)] == GAMES


@pytest.mark.parametrize("game_id", GAMES)
def test_issue26_the_server_serves_each_game_s_renderer_and_words_from_its_folder(
        game_id: str, tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from asobiba.server.app import create_app

    found = manifest(game_id)
    with TestClient(create_app(str(tmp_path))) as client:
        js = client.get(f"/static/games/{game_id}.js")
        words = client.get(f"/static/games/{game_id}.words.json")
        generic = client.get("/static/games/generic.js")
    renderer = found.web_file("renderer.js")
    if renderer is None:
        assert js.status_code == 404
    else:
        assert js.status_code == 200 and js.text == renderer.read_text(encoding="utf-8")
        assert "javascript" in js.headers["content-type"]
    assert words.status_code == 200
    table = words.json()
    if table:
        assert set(table) == {"en", "ja"} and set(table["en"]) == set(table["ja"])
    assert generic.status_code == 200 and "generic" in generic.text
