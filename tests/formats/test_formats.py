"""Standard records (issue 18 item 7): Reversi transcripts and GGF, every game's record as
text in its own notation, through one interface (``asobiba.formats`` and the CLI)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from asobiba.cli.main import app
from asobiba.core import RandomBot, Record, RecordError
from asobiba.formats import RecordFormat, export_record, formats_for, import_record, register
from asobiba.games import available, get
from asobiba.play.runner import play_game

runner = CliRunner()

GAMES = [("reversi", {}), ("flipflop", {"board": "5x5"}), ("reverstargo", {}),
         ("memory_matrix", {"players": 3}), ("algo", {"players": 3, "jokers": True}),
         ("patapata", {"players": 2})]


def _record(game_id: str, options: dict, seed: int = 0) -> Record:
    game = get(game_id)
    n = game.num_seats(game.validate_options(options))
    bots = [RandomBot(seed * 10 + i) for i in range(n)]
    return play_game(game, bots, options, seed=seed).record


def _reversi_with_a_pass() -> Record:
    for seed in range(200):
        record = _record("reversi", {}, seed)
        if any(m.move == "pass" for m in record.moves):
            return record
    raise AssertionError("no random Reversi game with a pass in 200 seeds")


def test_every_game_has_json_and_text() -> None:
    for gid in available():
        assert {"json", "text"} <= set(formats_for(gid))
    assert {"transcript", "ggf"} <= set(formats_for("reversi"))


@pytest.mark.parametrize("game_id,options", GAMES, ids=[g for g, _ in GAMES])
def test_text_round_trip_in_the_games_own_notation(game_id: str, options: dict) -> None:
    record = _record(game_id, options, seed=3)
    text = export_record(record, "text")
    assert f'[Game "{game_id}"]' in text
    first = record.moves[0]
    assert f"1. {'ABCDEFGH'[first.seat]} {first.move}\n" in text
    back = import_record(text)  # format and game recognised from the text
    assert back.moves == record.moves
    assert back.result == record.result
    assert back.seed == record.seed and dict(back.options) == dict(record.options)
    assert back.seats == record.seats
    assert import_record(export_record(record, "json")).moves == record.moves


def test_text_with_an_illegal_move_is_refused_with_its_number() -> None:
    text = export_record(_record("flipflop", {}, 1), "text")
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("2. "))
    lines[i] = "2. B Ra1-a3"
    with pytest.raises(RecordError, match="move 2"):
        import_record("\n".join(lines))


def test_transcript_round_trip_with_passes_implied() -> None:
    record = _reversi_with_a_pass()
    transcript = export_record(record, "transcript").strip()
    assert "pass" not in transcript
    assert len(transcript) == 2 * sum(m.move != "pass" for m in record.moves)
    back = import_record(transcript, "transcript", "reversi")
    assert back.moves == record.moves  # the passes come back where they were forced
    assert back.result == record.result


def test_known_opening_transcript() -> None:
    # the tiger opening, as Othello books write it
    record = import_record("f5d6c3d3c4f4f6f3e6e7", "transcript", "reversi")
    assert [m.move for m in record.moves][:3] == ["f5", "d6", "c3"]
    assert [m.seat for m in record.moves][:4] == [0, 1, 0, 1]
    assert import_record("F5 d6\nc3", game_id="reversi").moves == record.moves[:3]


def test_transcript_errors_name_the_problem() -> None:
    with pytest.raises(RecordError, match="not a square"):
        import_record("f5d6z9", "transcript", "reversi")
    with pytest.raises(RecordError, match="move 2 \\(f5\\)"):
        import_record("f5f5", "transcript", "reversi")


def test_ggf_round_trip() -> None:
    record = _reversi_with_a_pass()
    ggf = export_record(record, "ggf")
    assert ggf.startswith("(;GM[Othello]") and ggf.strip().endswith(";)")
    assert "PA]" in ggf
    diff = record.result.scores[0] - record.result.scores[1]
    assert f"RE[{diff:+.3f}]" in ggf
    back = import_record(ggf)
    assert back.moves == record.moves and back.result == record.result


def test_ggf_as_ggs_writes_it() -> None:
    ggf = ("(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alpha]PW[beta]RB[2000.0]"
           "RW[1900.0]TI[05:00//02:00]TY[8]RE[?]BO[8 -------- -------- -------- ---O*--- "
           "---*O--- -------- -------- -------- *]B[f5//0.01]W[D6/-1.20/3.5]B[c3];)")
    record = import_record(ggf)
    assert [m.move for m in record.moves] == ["f5", "d6", "c3"]
    assert [s.name for s in record.seats] == ["alpha", "beta"]
    assert record.extra["ggf"]["PC"] == "GGS/os"


@pytest.mark.parametrize("ggf,message", [
    ("(;GM[Go]B[f5];)", "only Othello"),
    ("(;GM[Othello]TY[10]B[f5];)", "8×8"),
    ("(;GM[Othello]BO[8 -------- -------- -------- ---OO--- ---*O--- -------- -------- "
     "-------- *]B[f5];)", "standard start"),
    ("(;GM[Othello]W[f5];)", "out of turn"),
    ("(;GM[Othello]B[k9];)", "not a square"),
    ("(;GM[Othello]B[f5]W[f5];)", "move 2"),
    ("GM[Othello]B[f5]", "enclosed"),
])
def test_bad_ggf_is_refused(ggf: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        import_record(ggf, "ggf", "reversi")


def test_ggf_result_that_the_moves_do_not_produce_is_refused() -> None:
    record = _record("reversi", {}, 5)
    ggf = export_record(record, "ggf")
    diff = record.result.scores[0] - record.result.scores[1]
    with pytest.raises(RecordError, match="does not match"):
        import_record(ggf.replace(f"RE[{diff:+.3f}]", f"RE[{diff + 2:+.3f}]"))


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(RecordError, match="formats: json, text"):
        export_record(_record("algo", {}), "sgf")


def test_a_game_can_register_another_format() -> None:
    # how the ReverStarGo app's record plugs into the same interface
    def dumps(record: Record) -> str:
        return " ".join(m.move for m in record.moves)

    def loads(text: str) -> Record:
        states = get("reverstargo").replay(text.split())
        from asobiba.core import MoveEntry

        moves = tuple(MoveEntry(s.to_move, m) for s, m in zip(states, text.split()))
        return Record(game="reverstargo", options={}, seed=0, moves=moves,
                      result=states[-1].outcome)

    register("reverstargo", RecordFormat("plain", "moves separated by spaces", ".txt",
                                         dumps, loads))
    record = _record("reverstargo", {}, 2)
    text = export_record(record, "plain")
    assert import_record(text, "plain", "reverstargo").moves == record.moves
    del formats_for("reverstargo")["plain"]


def test_cli_export_and_import(tmp_path) -> None:
    record = _record("reversi", {}, 7)
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    out = runner.invoke(app, ["export", str(path), "--format", "transcript"])
    assert out.exit_code == 0, out.output
    transcript = out.output.strip()
    src = tmp_path / "game.txt"
    src.write_text(transcript, encoding="utf-8")
    back = runner.invoke(app, ["import", str(src), "--game", "reversi", "-O",
                               str(tmp_path / "back.json")])
    assert back.exit_code == 0, back.output
    again = Record.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert again.moves == record.moves
    listed = runner.invoke(app, ["export", "--list", "reversi"])
    assert "ggf" in listed.output and "transcript" in listed.output


def test_cli_import_of_a_bad_record_fails_and_writes_nothing(tmp_path) -> None:
    src = tmp_path / "bad.txt"
    src.write_text("f5f5", encoding="utf-8")
    target = tmp_path / "out.json"
    out = runner.invoke(app, ["import", str(src), "-f", "transcript", "-g", "reversi",
                              "-O", str(target)])
    assert out.exit_code == 2
    assert not target.exists()


def test_export_refuses_a_tampered_record(tmp_path) -> None:
    record = _record("reversi", {}, 8)
    data = json.loads(record.dumps())
    data["moves"][3]["move"] = "a1"
    with pytest.raises(RecordError):
        export_record(Record.from_json(data), "ggf")
