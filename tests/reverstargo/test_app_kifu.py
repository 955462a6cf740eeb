"""The app's record text, both ways (docs/rules/reverstargo.md § 9, "The app's record
text"): the eight records the app itself wrote (tests/reverstargo/app_records/, origin
in its README) import, replay to their header and export back byte for byte; every other
form the app's ``generateNotationText`` can write is produced and read back here."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from asobiba.core import RandomBot, Record, RecordError, Rng, SeatInfo
from asobiba.games import get
from asobiba.games.reverstargo.appkifu import (
    RULE,
    Players,
    app_text_to_record,
    parse_app_text,
    read_app_text,
    record_to_app_text,
    winner_colour,
    write_app_text,
)
from asobiba.games.reverstargo.board import A_RING
from asobiba.games.reverstargo.cli import app
from asobiba.games.reverstargo.game import ReverStarGoState, start
from asobiba.games.reverstargo.kifu import export_kifu, import_kifu, kifu_to_record, record_to_kifu
from asobiba.play.runner import play_game
from tests.reverstargo.test_rules import KO_END

GAME = get("reverstargo")
DATA = Path(__file__).parent / "app_records"
APP_FILES = sorted(DATA.glob("app_*.txt"))


def random_game(seed: int) -> ReverStarGoState:
    s = start()
    rng = Rng(seed, "draw")
    while not s.is_over:
        moves = s.legal_moves()
        s = s.child(moves[rng.below(len(moves))])
    return s


def test_the_eight_app_records_are_present_and_byte_exact():
    assert len(APP_FILES) == 8
    for path in APP_FILES:
        raw = path.read_bytes()
        assert raw.endswith(b"\n") and b"\t" in raw and RULE.encode() in raw, path.name


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_rule_app_record_imports_and_replays_to_its_header(path: Path):
    text = path.read_text(encoding="utf-8")
    header, players = parse_app_text(text)
    states, moves, _, _ = read_app_text(text)
    final = states[-1]
    assert final.is_over
    assert header.result == final.score()  # "Result: Black X - White Y"
    assert header.moves == len(final.entries)  # "Moves: N", passes included
    assert header.passes == sum(e.is_pass for e in final.entries)
    want = "Draw" if winner_colour(final) is None else (
        f"{('Black', 'White')[winner_colour(final)]} wins")
    assert header.verdict == want and players.mode == "two"
    # the moves in our notation replay to the same game
    assert GAME.replay([m.move for m in moves])[-1].to_json() == final.to_json()


@pytest.mark.parametrize("path", APP_FILES, ids=lambda p: p.name)
def test_rule_app_record_exports_back_byte_for_byte(path: Path, tmp_path: Path):
    raw = path.read_bytes()
    record = Record.loads(kifu_to_record(raw.decode("utf-8")).dumps())  # through JSON
    assert record_to_kifu(record, "app").encode("utf-8") == raw
    # and through the command line: import, then export --format app
    runner = CliRunner()
    rec = tmp_path / "game.json"
    out = runner.invoke(app, ["import", str(path), "-o", str(rec)])
    assert out.exit_code == 0, out.output
    back = tmp_path / "back.txt"
    out = runner.invoke(app, ["export", str(rec), "--format", "app", "-o", str(back)])
    assert out.exit_code == 0, out.output
    assert back.read_bytes() == raw


def test_rule_app_records_cover_the_omitted_cp_colour_passes_and_captures():
    texts = [p.read_text(encoding="utf-8") for p in APP_FILES]
    entries = [e for t in texts for line in t.split("\n") for e in line.split("\t")]
    assert any(e.endswith("   ") for e in entries)  # the CP colour left out
    assert any(e.endswith("--") for e in entries)  # an automatic pass
    assert any(" +" in e for e in entries) and not any(e.endswith(" +0") for e in entries)
    assert any("(incl. " in t for t in texts) and any(t.split("\n")[4] == "Moves: 31"
                                                      for t in texts)


def test_rule_the_app_leaves_the_cp_colour_out_exactly_when_the_mover_owns_the_ring():
    # in the app's own records: every entry without [B]/[W] was played by a side that held
    # all six A cells, and every side that held them was written without it
    for path in APP_FILES:
        text = path.read_text(encoding="utf-8")
        states, _, header, _ = read_app_text(text)
        final = states[-1]
        s = start()
        for (_, _, part), e in zip(header.entries, final.entries, strict=True):
            if e.is_pass:
                continue
            mine = s.black if e.seat == 0 else s.white
            owns = mine & A_RING == A_RING
            assert owns == ("[" not in part), (path.name, part)
            s = s.child((e.cell, e.colour))


def test_cpu_games_write_the_players_line_and_win_loss_as_the_app():
    final = random_game(5)
    winner = winner_colour(final)
    assert winner is not None
    for label, level in (("Lv.1", "entry"), ("Lv.5", "formidable"), ("MAX", "max"),
                         ("FINAL", "final")):
        for human in (0, 1):
            players = Players("cpu", human="You", human_colour=human, cpu=label)
            text = write_app_text(final, players, "2026-11-30")
            lines = text.split("\n")
            colour = ("Black", "White")[human]
            assert lines[2] == f"You ({colour}) vs CPU {label}"
            verdict = "Win" if winner == human else "Loss"
            assert lines[3].endswith(f"({verdict})")
            record = app_text_to_record(text)
            bot = record.seats[1 - human]
            assert bot.kind == "bot" and bot.level == level
            assert record.seats[human] == SeatInfo("human", "You")
            assert record_to_app_text(Record.loads(record.dumps())) == text


def test_a_cpu_game_of_ours_exports_with_the_apps_cpu_header():
    result = play_game(GAME, [RandomBot(1), GAME.make_bot("final", 2)], {}, 4)
    record = Record(result.record.game, result.record.options, result.record.seed,
                    result.record.moves, (SeatInfo("human", "Mika"),
                                          SeatInfo("bot", "reverstargo-final", "final")),
                    result.record.result, result.record.rules_version, "2026-12-01T10:00:00")
    text = record_to_kifu(record, "app")
    assert text.split("\n")[:3] == ["[ReverStarGo Game Record]", "Date: 2026-12-01",
                                    "Mika (Black) vs CPU FINAL"]
    states, _ = import_kifu(text)
    assert states[-1].to_json() == result.states[-1].to_json()


def test_named_two_player_games_and_draws():
    final = random_game(151)  # a draw: equal totals and equal captures
    assert winner_colour(final) is None
    text = write_app_text(final, Players("two", names=("Aki", "Ben")), "2026-11-30")
    assert text.split("\n")[2:4] == [
        "Aki (Black) vs Ben (White)",
        f"Result: Black {final.score()[0]} - White {final.score()[1]} (Draw)"]
    record = app_text_to_record(text)
    assert [s.name for s in record.seats] == ["Aki", "Ben"]
    assert record_to_app_text(record) == text
    won = random_game(84)  # equal totals, decided by captured stones
    b, w = won.score()
    assert b == w and winner_colour(won) is not None
    text = write_app_text(won, Players("two", names=("Aki", "Ben")), "2026-11-30")
    assert f"({('Aki', 'Ben')[winner_colour(won)]} wins)" in text
    assert read_app_text(text)[0][-1].to_json() == won.to_json()


def test_the_japanese_build_and_a_memo_line():
    final = GAME.replay(KO_END)[-1]  # ends by ko, with a pass
    players = Players("cpu", human="やまと", human_colour=1, cpu="Lv.3")
    text = write_app_text(final, players, "2026-11-30", language="ja", memo="初勝利")
    lines = text.split("\n")
    passes = sum(e.is_pass for e in final.entries)
    assert lines[:3] == ["📝 初勝利", "", "【ReverStarGo 棋譜】"]
    assert lines[4] == "やまと（白） vs CPU Lv.3"
    assert lines[6] == f"手数: {len(final.entries)}手（パス{passes}回含む）"
    record = app_text_to_record(text)
    assert record.extra["app"]["memo"] == "初勝利" and record.extra["app"]["language"] == "ja"
    assert record_to_app_text(record) == text
    # the two-player forms of the Japanese build
    for p, line in ((Players("two"), "黒 vs 白（2人対戦）"),
                    (Players("two", names=("A", "B")), "A（黒） vs B（白）")):
        t = write_app_text(final, p, "2026-11-30", language="ja")
        assert t.split("\n")[2] == line and read_app_text(t)[0][-1].to_json() == final.to_json()


def test_the_older_builds_players_line_is_read():
    final = random_game(7)
    text = write_app_text(final, Players("cpu", human="You", human_colour=0), "2026-11-01")
    old = text.replace("You (Black) vs CPU Lv.1", "You (Black) vs 2-Player")
    record = kifu_to_record(old)
    assert record_to_app_text(record) == old


def test_a_copy_whose_tabs_became_spaces_still_reads():
    raw = APP_FILES[3].read_text(encoding="utf-8")
    spaced = raw.replace("\t", "    ")
    assert read_app_text(spaced)[0][-1].to_json() == read_app_text(raw)[0][-1].to_json()
    # and back out, the app's own layout with its tabs
    assert record_to_app_text(kifu_to_record(spaced)) == raw
    with pytest.raises(RecordError, match=r"entry 3: cannot read 'XX'"):
        import_kifu(raw.replace(" 3.●CX[B]", "XX"))


def _app_text() -> str:
    return APP_FILES[3].read_text(encoding="utf-8")  # has a pass and an omitted colour


def test_rule_bad_app_text_is_refused_with_the_entry_and_the_reason():
    text = _app_text()
    with pytest.raises(RecordError, match=r"entry 5 .*flanks nothing"):
        import_kifu(text.replace(" 5.●B6[B]", " 5.●DQ[B]"))
    with pytest.raises(RecordError, match="captures 1, not 0"):
        import_kifu(text.replace("11.●BX[W] +1", "11.●BX[W]"))
    with pytest.raises(RecordError, match="turn"):
        import_kifu(text.replace(" 1.●B8[B]", " 1.○B8[B]"))
    with pytest.raises(RecordError, match="pass"):
        import_kifu(text.replace("29.●--", "29.●C2[B]"))
    with pytest.raises(RecordError, match="says Black 15"):
        import_kifu(text.replace("Result: Black 14", "Result: Black 15"))
    with pytest.raises(RecordError, match="verdict"):
        import_kifu(text.replace("(White wins)", "(Black wins)"))
    with pytest.raises(RecordError, match="counts 2 passes"):
        import_kifu(text.replace("(incl. 1 passes)", "(incl. 2 passes)"))
    with pytest.raises(RecordError, match="says 32 moves"):
        import_kifu(text.replace("Moves: 31", "Moves: 32"))
    with pytest.raises(RecordError, match="players line"):
        import_kifu(text.replace("Black vs White (2-Player)", "Black vs White (3-Player)"))
    with pytest.raises(RecordError, match="header line 'Black against White'"):
        import_kifu(text.replace("Black vs White (2-Player)", "Black against White"))
    with pytest.raises(RecordError, match="header is missing"):
        import_kifu(text.replace("[ReverStarGo Game Record]", "[Othello]"))


def test_our_own_record_text_stays_the_default():
    result = play_game(GAME, [RandomBot(3), RandomBot(4)], {}, 5)
    ours = record_to_kifu(result.record)
    names = [seat.name or seat.kind for seat in result.record.seats]
    assert ours == export_kifu(result.states[-1], names[0], names[1],
                               (result.record.started or "")[:16].replace("T", " "))
    assert "Entries:" in ours and "\t" not in ours
    assert import_kifu(ours)[0][-1].to_json() == result.states[-1].to_json()
    runner = CliRunner()
    bad = runner.invoke(app, ["export", "x.json", "--format", "pgn"])
    assert bad.exit_code == 1 and "asobiba, app" in bad.output


def test_random_games_round_trip_through_the_app_text():
    for seed in range(20):
        final = random_game(1000 + seed)
        text = write_app_text(final, Players("two"), "2026-11-30")
        states, _, header, _ = read_app_text(text)
        assert states[-1].to_json() == final.to_json()
        assert len(header.entries) == len(final.entries)


def test_the_shared_export_and_import_know_the_app_format(tmp_path: Path):
    """``asobiba import`` recognises the app's text by itself; ``asobiba export --format
    app`` writes it back byte for byte; ``kifu`` is asobiba's own record text."""
    from asobiba.cli.main import app as main_app
    from asobiba.formats import export_record, formats_for, import_record

    assert {"app", "kifu"} <= set(formats_for("reverstargo"))
    raw = APP_FILES[6].read_bytes()
    record = import_record(raw.decode("utf-8"))  # format and game recognised from the text
    assert record.game == "reverstargo" and record.extra["app"]["players"] == (
        "Black vs White (2-Player)")
    assert export_record(record, "app").encode("utf-8") == raw
    ours = export_record(record, "kifu")
    assert "Entries: 33" in ours and import_record(ours).moves == record.moves
    runner = CliRunner()
    rec = tmp_path / "game.json"
    out = runner.invoke(main_app, ["import", str(APP_FILES[6]), "-O", str(rec)])
    assert out.exit_code == 0, out.output
    back = tmp_path / "back.txt"
    out = runner.invoke(main_app, ["export", str(rec), "--format", "app", "-O", str(back)])
    assert out.exit_code == 0, out.output
    assert back.read_bytes() == raw
