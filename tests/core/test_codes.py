"""Issue 26 item 2: every error and every end of game is a code with arguments.

A refused move carries its rule as ``exc.why`` (``code`` + ``args``; its English ``text``
is the message's tail, made from them); an outcome carries ``code`` + ``args`` next to its
English ``reason``; old records (a result with only ``reason``) still load and replay.
All of it fails on the code before issue 26 (no ``why``, no ``Outcome.code``)."""

from __future__ import annotations

import random

import pytest

from asobiba.core import IllegalMoveError, MalformedMoveError, MoveError, NotYourTurnError, Outcome
from asobiba.core.record import MoveEntry, Record
from asobiba.games import all_games, get

REFUSALS = [
    # game, options, moves played first, the refused move, its error, code, args
    ("reversi", {}, [], "a1", IllegalMoveError, "reversi.no_bracket", {"sq": "a1", "colour": "white"}),
    ("reversi", {}, [], "d4", IllegalMoveError, "reversi.occupied", {"sq": "d4"}),
    ("reversi", {}, [], "pass", IllegalMoveError, "reversi.no_pass", {}),
    ("reversi", {}, [], "zz", MalformedMoveError, "reversi.notation", {}),
    ("flipflop", {}, [], "Ba1-a2", IllegalMoveError, "flipflop.wrong_face", {"sq": "a1", "face": "rook"}),
    ("flipflop", {}, [], "Ra1-b2", IllegalMoveError, "flipflop.not_a_line",
     {"face": "rook", "frm": "a1", "to": "b2"}),
    ("flipflop", {}, [], "Rb1-b3", IllegalMoveError, "flipflop.is_capture", {"sq": "b3", "move": "Rb1xb3"}),
    ("flipflop", {}, [], "Ra3-a2", IllegalMoveError, "flipflop.opposing_piece",
     {"sq": "a3", "colour": "white"}),
    ("flipflop", {}, [], "Ra1-a1", IllegalMoveError, "flipflop.must_move", {}),
    ("flipflop", {}, [], "Rd1-d2", MalformedMoveError, "flipflop.off_board", {"sq": "d1", "n": 3}),
    ("reverstargo", {}, [], "CP", IllegalMoveError, "reverstargo.cp", {}),
    ("reverstargo", {}, [], "pass", IllegalMoveError, "reverstargo.no_pass", {}),
    ("reverstargo", {}, [], "zz", MalformedMoveError, "reverstargo.no_cell", {"cell": "ZZ"}),
    ("memory_matrix", {"players": 2}, [], "pass", IllegalMoveError, "memory_matrix.no_pass", {}),
    ("memory_matrix", {"players": 2}, [], "z99", IllegalMoveError, "memory_matrix.no_cell", {"cell": "z99"}),
    ("algo", {}, [], "stay", IllegalMoveError, "algo.stay_early", {}),
    ("algo", {}, [], "show 1 2", MalformedMoveError, "algo.one_position", {"kind": "show"}),
    ("patapata", {}, [], "rotate 45", MalformedMoveError, "patapata.rotate", {}),
    ("patapata", {}, [], "write a1Q", MalformedMoveError, "patapata.mark", {"text": "Q"}),
]


@pytest.mark.parametrize(("gid", "options", "before", "move", "error", "code", "args"), REFUSALS,
                         ids=[f"{r[0]}-{r[3]}" for r in REFUSALS])
def test_issue26_a_refused_move_carries_its_rule_as_a_code(
        gid: str, options: dict[str, object], before: list[str], move: str,
        error: type[MoveError], code: str, args: dict[str, object]) -> None:
    state = get(gid).new_game(dict(options), 1)
    for m in before:
        state = state.play(m)
    with pytest.raises(error) as info:
        state.play(move)
    exc = info.value
    assert (exc.why.code, dict(exc.why.args)) == (code, args)
    assert exc.why.text  # the English, from code + args (a refused rule ends the message)
    if error is IllegalMoveError:
        assert str(exc).endswith(exc.why.text)
    # what a refusal sends: the category as its code, the rule and its arguments as text
    assert exc.detail() == {"why": code, **{k: str(v) for k, v in args.items()}}


def test_issue26_a_move_out_of_turn_or_after_the_end_has_a_code() -> None:
    state = get("reversi").new_game({}, 1)
    with pytest.raises(NotYourTurnError) as info:
        state.play("d3", 1)
    assert (info.value.why.code, dict(info.value.why.args)) == ("not_your_turn", {"seat": 1})


def test_issue26_flipflop_ends_are_codes() -> None:
    """White's piece on Black's goal that Black cannot take back; a side with no move."""
    lost = get("flipflop").new_game({"board": "3x3"}, 0).play("Rb1xb3").play("Rc3-c2")
    outcome = lost.outcome
    assert outcome is not None
    assert (outcome.code, dict(outcome.args)) == ("flipflop.holds", {"colour": "white", "sq": "b3"})
    assert outcome.reason == "White's piece on b3 was not taken back: White holds the goal"


def play_out(gid: str, options: dict[str, object], seed: int) -> tuple[Outcome, Record]:
    game = get(gid)
    state = game.new_game(dict(options), seed)
    states, moves = [state], []
    rng = random.Random(seed)
    while not state.is_over:
        seat = rng.choice(state.acting_seats)
        move = state.move_text(rng.choice(list(state.legal_moves(seat))), seat)
        state = state.play(move, seat)
        states.append(state)
        moves.append(MoveEntry(seat, move))
    assert state.outcome is not None
    return state.outcome, Record.from_states(states, moves, seed)


@pytest.mark.parametrize("gid", [g.id for g in all_games()])
def test_issue26_every_end_is_a_code_and_old_records_still_replay(gid: str) -> None:
    """Every game played to its end has a coded outcome whose English ``reason`` is made
    from it; the code and args travel in ``to_json`` (the room's result, the record); a
    record stored before codes (a result with only the English reason) loads and replays."""
    from asobiba.core.errors import why
    from tests.web.test_i18n_table import game_codes

    outcome, record = play_out(gid, {}, 3)
    assert outcome.code.startswith(f"{gid}.")
    assert outcome.reason == why(game_codes(), outcome.code, **outcome.args).text or \
        outcome.code in ("flipflop.holds", "flipflop.no_move")  # English capitalises colours
    data = outcome.to_json()
    assert (data["code"], data["args"]) == (outcome.code, dict(outcome.args))
    again = Outcome.from_json(data)
    assert (again.code, dict(again.args), again.reason) == (outcome.code, dict(outcome.args),
                                                           outcome.reason)
    legacy = {k: v for k, v in data.items() if k not in ("code", "args")}
    old = Outcome.from_json(legacy)
    assert old.code == "" and old.reason == outcome.reason and old == outcome
    stored = record.to_json()
    assert stored["result"]["code"] == outcome.code  # a new record keeps the code
    del stored["result"]["code"], stored["result"]["args"]  # ... an old one has none
    states = Record.from_json(stored).replay(get)
    assert states[-1].outcome is not None and states[-1].outcome.code == outcome.code
