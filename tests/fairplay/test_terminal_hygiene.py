"""Issue 14 item 8: information hygiene in the terminal. Each attack from the issue, as the
person at the terminal would have typed it (docs/fair-play.md, "The terminal")."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from asobiba.cli.main import app
from asobiba.games import get

runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
    else CliRunner()


def run(*args: str, input: str | None = None):  # noqa: A002 - click's name
    return runner.invoke(app, list(args), input=input)


def test_attack_seat_output_holds_no_other_seats_legal_moves_or_seed() -> None:
    """`replay algo -o jokers=true --seed 6 --seat 1` printed seat 0's legal moves
    (`place 1 … place 4`: seat 0 holds one joker) and `--json` the seed."""
    state = get("algo").new_game(get("algo").validate_options({"jokers": True}), 6)
    assert state.to_move == 0
    res = run("replay", "algo", "-o", "jokers=true", "--seed", "6", "--seat", "1")
    assert res.exit_code == 0, res.output
    for move in state.legal_moves(0).texts():
        assert not re.search(rf"\b{re.escape(move)}\b", res.stdout), move
    res = run("replay", "algo", "-o", "jokers=true", "--seed", "6", "--seat", "1", "--json")
    out = json.loads(res.stdout)
    assert "seed" not in out and "state" not in out and out["legal_moves"] == []
    assert out["view"] == state.view(1)
    assert "6" not in json.dumps({k: v for k, v in out.items() if k != "view"}).split(
        '"ply"')[0], "no seed anywhere outside the view"
    # the seat to move gets its own legal moves
    own = json.loads(run("replay", "algo", "-o", "jokers=true", "--seed", "6", "--seat", "0",
                         "--json").stdout)
    assert own["legal_moves"] == state.legal_moves(0).texts() and "seed" not in own


def test_attack_full_state_of_hidden_games_needs_reveal_and_says_so() -> None:
    """`replay memory_matrix|patapata … --json` printed the full state (`under`,
    `course_rows`) with nothing saying it was a spoiler."""
    for game, key in (("memory_matrix", "under"), ("patapata", "course_rows")):
        res = run("replay", game, "--seed", "3", "--json")
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert key not in json.dumps(out) and "seed" not in out and "state" not in out
        assert out["view"] == get(game).new_game(get(game).validate_options({}), 3).view(None)
        shown = run("replay", game, "--seed", "3", "--json", "--reveal")
        full = json.loads(shown.stdout)
        assert key in json.dumps(full["state"]) and full["seed"] == 3 and full["revealed"]
        assert "--reveal" in shown.stderr and "spoiler" in shown.stderr
    # nothing hidden in Reversi: its full state needs no flag
    assert "state" in json.loads(run("replay", "reversi", "d3", "--json").stdout)
    assert run("replay", "algo", "--seat", "0", "--reveal").exit_code != 0


def test_attack_play_patapata_never_shows_a_bots_answer_before_the_person_plays() -> None:
    """`asobiba play patapata` printed a bot's answer to the current task before the person
    played it."""
    game = get("patapata")
    options = game.validate_options({"players": 2})
    state = game.new_game(options, 5)
    first = state.legal_moves(0).texts()[0]
    res = run("play", "patapata", "-o", "players=2", "--vs", "greedy", "--seed", "5",
              "--save", "/dev/null", input=f"{first}\nresign\n")
    out = res.stdout
    prompt = out.index("seat 0> ")
    before = out[:prompt]
    assert "(bot) plays" not in before and "(bot) has moved" not in before, before[-500:]
    assert "seat 1 (bot)" in out[prompt:], "told after the person answered"
    assert "seed 5" not in before, "the seed (the dice to come) is not shown during play"


def test_attack_play_memory_matrix_shows_what_each_bot_move_flipped() -> None:
    """`asobiba play memory_matrix --vs …` never showed what the bots' moves flipped: the
    person saw only the position at their next turn. Now each bot move is followed by the
    person's view right after it (what they would have seen at the table)."""
    game = get("memory_matrix")
    options = game.validate_options({"players": 4})
    res = run("play", "memory_matrix", "-o", "players=4", "--vs", "1", "--seat", "3",
              "--seed", "2", "--save", "/dev/null", input="resign\n")
    out = res.stdout
    # replay the same game to know the views seat 3 had after each bot move
    from asobiba.cli import play_cmd  # noqa: F401 - the command under test

    state = game.new_game(options, 2)
    bots = {s: game.make_bot("1", 2 + s) for s in range(3)}
    for s, b in bots.items():
        b.reset(s, options)
    shown = 0
    while state.acting_seats[0] != 3:
        for s, b in bots.items():
            b.observe(state.view(s))
        actor = state.acting_seats[0]
        state = state.play(bots[actor].choose(state.view(actor)), actor)
        assert game.render_view(state.view(3)) in out
        shown += 1
    assert shown == 3 and out.count("(bot) has moved") == 3
    assert "seed 2" not in out[:out.index("seat 3> ")]
