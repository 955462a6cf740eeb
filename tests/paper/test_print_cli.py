"""``asobiba print`` (issue 19 items 1–3): the commands write PDFs; bad input exits non-zero
with a reason and writes nothing."""

from __future__ import annotations

from typer.testing import CliRunner

from asobiba.cli.main import app

from .pdfread import reader, texts
from .test_games_paper import random_record

runner = CliRunner()


def test_print_patapata_course_seed_paper(tmp_path):
    out = tmp_path / "p.pdf"
    res = runner.invoke(app, ["print", "patapata", "--course", "dice", "--seed", "7",
                              "--paper", "letter", "--lang", "ja", "-o", str(out)])
    assert res.exit_code == 0, res.output
    data = out.read_bytes()
    assert len(reader(data).pages) == 3
    assert "シード 7" in " ".join(t.text for t in texts(data, 1))


def test_print_algo_level_count(tmp_path):
    out = tmp_path / "a.pdf"
    res = runner.invoke(app, ["print", "algo", "--level", "2", "--count=2", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = " ".join(t.text for i in range(len(reader(out.read_bytes()).pages))
                    for t in texts(out.read_bytes(), i))
    assert "Puzzle 2" in text and "answers" in text


def test_print_record(tmp_path):
    rec = tmp_path / "game.json"
    rec.write_text(random_record("memory_matrix").dumps(), encoding="utf-8")
    out = tmp_path / "r.pdf"
    res = runner.invoke(app, ["print", "record", str(rec), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "game record" in " ".join(t.text for t in texts(out.read_bytes(), 0))


def test_bad_input_exits_nonzero_and_writes_nothing(tmp_path):
    out = tmp_path / "x.pdf"
    for args, reason in [
        (["print", "patapata", "--course", "4"], "course"),
        (["print", "patapata", "--colour", "red"], "unknown print option"),
        (["print", "flipflop", "--board"], "needs a value"),
        (["print", "nosuchgame"], "unknown game"),
        (["print", "record", str(tmp_path / "missing.json")], "cannot read"),
        (["print", "reversi", "--lang", "fr"], "lang"),
    ]:
        res = runner.invoke(app, [*args, "-o", str(out)])
        assert res.exit_code != 0, args
        assert reason in res.output, (args, res.output)
        assert not out.exists()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "asobiba-record", "game": "reversi"}', encoding="utf-8")
    res = runner.invoke(app, ["print", "record", str(bad), "-o", str(out)])
    assert res.exit_code != 0 and not out.exists()
