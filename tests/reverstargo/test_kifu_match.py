"""The app's record text round trip and checked import; reverse match scoring."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from asobiba.core import RandomBot, RecordError
from asobiba.games import get
from asobiba.games.reverstargo.cli import app
from asobiba.games.reverstargo.kifu import export_kifu, import_kifu, kifu_to_record, record_to_kifu
from asobiba.games.reverstargo.match import GameScore, first_colour, score_reverse_match
from asobiba.play.runner import play_game
from tests.reverstargo.test_rules import KO_END

GAME = get("reverstargo")


def test_kifu_round_trip_of_random_games():
    for seed in range(8):
        result = play_game(GAME, [RandomBot(seed), RandomBot(seed + 100)], {}, seed)
        final = result.states[-1]
        text = export_kifu(final, "A", "B", "2026-01-01 00:00")
        states, moves = import_kifu(text)
        assert states[-1].to_json() == final.to_json()
        assert [m.move for m in moves] == [m.move for m in result.moves]
        assert export_kifu(states[-1], "A", "B", "2026-01-01 00:00") == text
        assert record_to_kifu(result.record).splitlines()[5:] == text.splitlines()[5:]


def test_kifu_lists_passes_and_exceptions_in_entry_numbers():
    final = GAME.replay(KO_END)[-1]
    text = export_kifu(final)
    assert "○--" in text and text.count("\n") == len(final.entries) + 7
    assert kifu_to_record(text).moves[-1].move == "A5"


def _kifu() -> str:
    return export_kifu(GAME.replay(KO_END)[-1], date="2026-01-01 00:00")


def test_kifu_import_stops_at_first_illegal_entry_with_number_and_reason():
    bad = _kifu().replace("03.●B1[B] +0", "03.●DQ[B] +0")
    with pytest.raises(RecordError, match=r"entry 3 .*flanks nothing"):
        import_kifu(bad)


def test_kifu_import_checks_captures_turn_passes_and_result():
    text = _kifu()
    line = next(x for x in text.splitlines() if x.endswith("+1"))
    with pytest.raises(RecordError, match="captures 1, not 2"):
        import_kifu(text.replace(line, line[:-2] + "+2"))
    with pytest.raises(RecordError, match="turn"):
        import_kifu(text.replace("01.●B4[B]", "01.○B4[B]"))
    with pytest.raises(RecordError, match="Result|header says"):
        import_kifu(text.replace("Result: Black 19", "Result: Black 29"))
    with pytest.raises(RecordError, match="header"):
        import_kifu(text.replace("[ReverStarGo Game Record]", ""))
    with pytest.raises(RecordError, match="pass"):
        import_kifu(text.replace("02.○B7[B] +0", "02.○--"))


def test_cli_export_and_import(tmp_path):
    result = play_game(GAME, [RandomBot(1), RandomBot(2)], {}, 3)
    rec = tmp_path / "game.json"
    rec.write_text(result.record.dumps(), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(app, ["export", str(rec), "-o", str(tmp_path / "k.txt")])
    assert out.exit_code == 0, out.output
    back = runner.invoke(app, ["import", str(tmp_path / "k.txt")])
    assert back.exit_code == 0 and '"asobiba-record"' in back.output
    (tmp_path / "bad.txt").write_text("[ReverStarGo Game Record]\n01.●CP[B] +0\n")
    bad = runner.invoke(app, ["import", str(tmp_path / "bad.txt")])
    assert bad.exit_code == 1 and "entry 1" in bad.output


def test_reverse_match_sums_totals_then_captures():
    # A: Black 20 in game 1, White 15 in game 2 -> 35; B: 16 + 21 = 37
    r = score_reverse_match(GameScore((20, 16), (1, 0)), GameScore((21, 15), (0, 2)))
    assert r.totals == (35, 37) and r.winner == 1
    # a loss in game 1 turned round by a big win in game 2
    r = score_reverse_match(GameScore((17, 19), (0, 0)), GameScore((10, 26), (0, 0)))
    assert r.totals == (43, 29) and r.winner == 0
    # equal totals: captures decide; equal captures: a draw
    r = score_reverse_match(GameScore((18, 18), (2, 0)), GameScore((18, 18), (1, 1)))
    assert r.totals == (36, 36) and r.captured == (3, 1) and r.winner == 0
    r = score_reverse_match(GameScore((18, 18), (1, 1)), GameScore((18, 18), (1, 1)))
    assert r.winner is None and r.points(0) == 0.5


def test_reverse_match_colours_alternate_between_sets():
    assert [first_colour(i) for i in range(3)] == [0, 1, 0]


def test_reverse_match_refuses_unfinished_games():
    with pytest.raises(ValueError):
        GameScore.of(GAME.new_game())


def test_cli_solve_reports_an_exact_endgame(capsys):
    from asobiba.games.reverstargo.cli import solve

    moves = KO_END[:24]
    assert solve({}, moves, True) == 0
    out = capsys.readouterr().out
    assert '"proven": true' in out and '"move": ' in out
    assert solve({}, ["ZZ"], False) == 1
