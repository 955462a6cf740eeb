"""The progression commands, through Typer's runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.cli import app

runner = CliRunner()


def test_ranks_lists_thirty_with_the_games_levels() -> None:
    res = runner.invoke(app, ["ranks", "reverstargo"])
    assert res.exit_code == 0, res.output
    assert "Zeus" in res.output and "ゼウス" in res.output and "FINAL (final)" in res.output


def test_daily_json_is_the_public_challenge() -> None:
    res = runner.invoke(app, ["daily", "reversi", "--date", "2026-11-29", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["id"] == "reversi:2026-11-29" and data["view"]["legal_moves"]


def test_daily_refuses_a_bad_date_with_an_error() -> None:
    res = runner.invoke(app, ["daily", "reversi", "--date", "2026-13-40"])
    assert res.exit_code == 2


def test_match_between_bots_prints_the_winner() -> None:
    res = runner.invoke(app, ["match", "reversi", "2", "random", "--format", "rm", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["over"] and len(data["games"]) == 2 and data["format"] == "reverse"


def test_review_of_a_saved_record(tmp_path) -> None:
    game = get("reversi")
    rec = play_game(game, [game.make_bot("1", 1), game.make_bot("2", 2)], {}, 0).record
    path = tmp_path / "game.json"
    path.write_text(rec.dumps(), encoding="utf-8")
    res = runner.invoke(app, ["review", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.output)["moves"]) == len(rec.moves)
