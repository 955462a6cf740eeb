"""The `asobiba` command: the JSON shapes documented in docs/cli.md and clear errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from asobiba.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_games_lists_reversi_with_titles():
    res = run("games", "--json")
    assert res.exit_code == 0, res.output
    games = {g["id"]: g for g in json.loads(res.output)}
    assert games["reversi"]["title"] == {"en": "Reversi", "ja": "リバーシ"}


def test_replay_json_shape():
    res = run("replay", "reversi", "d3", "c5", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert set(out) >= {"game", "options", "seed", "moves", "to_move", "legal_moves", "outcome",
                        "state"}
    assert out["to_move"] == 0 and out["outcome"] is None
    assert out["moves"] == [{"seat": 0, "move": "d3"}, {"seat": 1, "move": "c5"}]
    assert sorted(out["legal_moves"]) == ["b6", "c6", "d6", "e6", "f6"]


def test_replay_seat_view():
    res = run("replay", "reversi", "d3", "--seat", "1", "--json")
    out = json.loads(res.output)
    assert "view" in out and "state" not in out and out["view"]["seat"] == 1


def test_replay_illegal_move_exits_nonzero_with_reason():
    res = run("replay", "reversi", "d3", "d3", "--json")
    assert res.exit_code != 0
    assert "occupied" in res.output and "move 2" in res.output


def test_bad_option_names_allowed_values():
    res = run("replay", "reversi", "--option", "size=10")
    assert res.exit_code != 0 and "unknown option" in res.output


def test_replay_from_record_file(tmp_path):
    from asobiba.core import MoveEntry, Record
    from asobiba.games import get

    states = get("reversi").replay(["d3", "c5"])
    rec = Record.from_states(states, [MoveEntry(0, "d3"), MoveEntry(1, "c5")], 0)
    path = tmp_path / "r.json"
    path.write_text(rec.dumps())
    res = run("replay", "reversi", "--record", str(path), "f6", "--json")
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.output)["moves"]) == 3
    path.write_text(rec.dumps().replace('"c5"', '"c9"'))
    bad = run("replay", "reversi", "--record", str(path), "--json")
    assert bad.exit_code != 0 and "move 2" in bad.output


def test_bot_prints_a_legal_move():
    res = run("bot", "reversi", "d3", "--level", "2", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["seat"] == 1 and out["move"] in ("c3", "c5", "e3")


def test_arena_json_counts_every_game():
    res = run("arena", "reversi", "--bot", "2", "--bot", "random", "--games", "4", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    a, b = out["bots"]
    assert a["games"] == b["games"] == 4
    assert a["wins"] + a["draws"] + a["losses"] == 4
    assert a["wins"] == b["losses"] and "elo" in out


def test_perft_cli():
    res = run("perft", "reversi", "--depth", "5", "--json")
    assert json.loads(res.output)["leaves"] == 1396


def test_play_against_bot_in_terminal(tmp_path):
    """A scripted human (seat 0) plays 'moves', a bad move, then resigns; the record is saved."""
    save = tmp_path / "game.json"
    res = runner.invoke(app, ["play", "reversi", "--vs", "1", "--seat", "0", "--seed", "1",
                              "--save", str(save)], input="moves\nz9\nd3\nundo\nc4\nresign\n")
    assert res.exit_code == 0, res.output
    assert "not played" in res.output and "undone" in res.output
    data = json.loads(save.read_text())
    assert data["game"] == "reversi" and data["moves"][0] == {"seat": 0, "move": "c4"}


def test_arena_reverse_matches_swap_colours_with_the_same_seed():
    res = run("arena", "reversi", "--bot", "2", "--bot", "random", "--games", "2", "--reverse",
              "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    a, b = out["bots"]
    assert out["format"] == "reverse" and a["games"] == b["games"] == 2
    assert a["wins"] + a["draws"] + a["losses"] == 2 and a["wins"] == b["losses"]
    # a match total is the sum of two games' disc counts
    assert all(0 < x <= 128 for x in [a["mean_score"], b["mean_score"]])


def test_arena_reverse_needs_two_seats():
    res = run("arena", "reversi", "--bot", "1", "--bot", "1", "--bot", "1", "--reverse")
    assert res.exit_code != 0


def test_reverse_match_tiebreak_is_captures_for_reverstargo():
    from asobiba.core import RandomBot
    from asobiba.games import get
    from asobiba.play.runner import play_game

    game = get("reverstargo")
    captured_any = False
    for seed in range(6):
        final = play_game(game, [RandomBot(seed), RandomBot(seed + 9)], {}, seed).states[-1]
        shown = final.view(None)["captured"]
        assert [game.match_tiebreak(final, s) for s in (0, 1)] == [float(c) for c in shown]
        captured_any |= any(shown)
    assert captured_any, "no random game captured anything: the check above proved nothing"
    assert get("reversi").match_tiebreak(get("reversi").new_game(), 0) == 0.0


def test_arena_rate_calibrates_bot_ratings_in_the_database(tmp_path):
    """Issue #9: bots carry ratings, calibrated by `asobiba arena --rate`: every game is
    stored and rated, the stronger level ends rated higher, a second run continues the pool."""
    from sqlalchemy import create_engine, func, select
    from sqlalchemy.orm import Session

    from asobiba.progression import accounts, ratings
    from asobiba.progression.models import GameRow

    url = f"sqlite:///{tmp_path / 'r.db'}"
    res = run("arena", "reversi", "--bot", "4", "--bot", "random", "--games", "6",
              "--rate", url, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    strong, weak = out["ratings"]
    assert strong["bot"] == "4" and strong["games"] == weak["games"] == 6
    wins = out["bots"][0]["wins"]
    assert (strong["rating"] > weak["rating"]) == (wins > out["bots"][0]["losses"])
    res = run("arena", "reversi", "--bot", "4", "--bot", "random", "--games", "2",
              "--reverse", "--rate", url, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["ratings"][0]["games"] == 6 + 4  # both games of 2 matches
    with Session(create_engine(url)) as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 10
        bot = accounts.bot_player(s, "reversi", "4")
        assert ratings.current_rating(s, bot.id, "reversi")["rating"] == \
            json.loads(res.output)["ratings"][0]["rating"]


def test_arena_rate_refuses_a_bad_database_url():
    res = run("arena", "reversi", "--bot", "1", "--bot", "2", "--games", "1",
              "--rate", "nope://x")
    assert res.exit_code == 2 and "cannot open the database" in res.output
