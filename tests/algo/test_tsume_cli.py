"""Tsume-algo puzzles (unique answers, proved; explained step by step) and the CLI hooks."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from asobiba.games import get
from asobiba.games.algo.cli import app, puzzle
from asobiba.games.algo.infer import infer_view
from asobiba.games.algo.tsume import LEVELS, Puzzle, Question, explain, generate, unique
from asobiba.play.runner import play_game


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_tsume_every_puzzle_has_exactly_one_solution(level: int) -> None:
    for seed in range(3):
        pz = generate(level, seed)
        assert len(pz.rows) == LEVELS[level][0]
        assert sorted(k for row in pz.rows for k in row) == list(range(20))  # cards 0–9
        assert any(any(u) for u in pz.up) and not all(all(u) for u in pz.up)
        assert pz.questions and unique(pz, pz.questions)
        steps = explain(pz)
        for q in pz.questions:
            assert f"Answer — {q.text()} {pz.answer(q)}" in steps
        hard = any(s.startswith(("Suppose", "Counting")) for s in steps)
        assert hard == LEVELS[level][1]


def test_tsume_uniqueness_check_rejects_an_ambiguous_puzzle() -> None:
    # two rows, every card face down: the second card of A (white 0) could be white 1
    pz = Puzzle([list(range(10)), list(range(10, 20))], [[False] * 10, [False] * 10])
    assert not unique(pz, [Question("what", row=0, pos=1)])
    assert unique(pz, []) and not unique(pz, [Question("where", key=0)])


def test_tsume_steps_are_sound() -> None:
    """Every card the step-by-step solver settles is the true card, and every candidate a
    case analysis strikes out is not."""
    for seed, level in ((0, 2), (1, 2), (0, 4), (1, 4), (2, 4)):
        pz = generate(level, seed)
        for step in explain(pz):
            if " is " in step and not step.startswith(("Answer", "Counting", "Suppose")):
                where, rest = step.split(" is ", 1)
                colour, number = rest.split(":")[0].split()
                r, p = "ABCD".index(where[0]), int(where[1:]) - 1
                assert pz.rows[r][p] == int(number) * 2 + ("black", "white").index(colour)
            if step.startswith("Suppose"):
                where, rest = step[len("Suppose "):].split(" were ", 1)
                colour, number = rest.split(":")[0].split()
                r, p = "ABCD".index(where[0]), int(where[1:]) - 1
                assert pz.rows[r][p] != int(number) * 2 + ("black", "white").index(colour)


def test_cli_puzzle_json_and_play(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert puzzle(["--level", "1", "--seed", "2", "--json", "--show"]) == 0
    data = json.loads(capsys.readouterr().out)
    pz = generate(1, 2)
    assert data["answers"] == [pz.answer(q) for q in pz.questions]
    answers = iter(data["answers"])
    monkeypatch.setattr("builtins.input", lambda _prompt: next(answers))
    assert puzzle(["--level", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert f"{len(pz.questions)}/{len(pz.questions)} correct" in out
    assert puzzle(["--level", "9"]) != 0


def test_cli_infer_matches_the_engine(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = get("algo")
    result = play_game(game, [game.make_bot("3", 1), game.make_bot("2", 2)], {}, seed=5)
    path = tmp_path / "rec.json"
    path.write_text(result.record.dumps())
    out = CliRunner().invoke(app, ["infer", str(path), "--seat", "1", "--move", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    inf = infer_view(result.states[3].view(1))
    assert data["consistent_deals"] == inf.total
    for card in data["cards"]:
        for n, p in card["probabilities"].items():
            assert abs(p - inf.numbers(card["id"])[int(n)]) < 1e-6
    bad = CliRunner().invoke(app, ["infer", str(path), "--seat", "5"])
    assert bad.exit_code != 0


def test_deduction_aid_option_adds_the_seats_own_odds() -> None:
    game = get("algo")
    s = game.new_game({"aid": True}, 3)
    view = s.view(0)
    assert view["aid"] == infer_view({k: v for k, v in view.items() if k != "aid"}).to_json()
    assert "aid" not in s.view(None) and "aid" not in game.new_game({}, 3).view(0)
