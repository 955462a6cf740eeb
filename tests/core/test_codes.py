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


# ---- issue 26 item 2: an option's and a record's refusals are codes too ---------------------
def raise_sites(cls_name: str) -> list[tuple[str, int, str | None, set[str]]]:
    """Every ``OptionError(…)`` / ``RecordError(…)`` made in ``asobiba/`` (the games' folders,
    plug-ins' included): its file, line, the literal code of its ``why=option_why/record_why
    ("…", …)`` (None when it gives no ``why``) and the argument names it passes."""
    import ast
    import importlib
    from pathlib import Path

    from asobiba.games import available, manifest

    roots = [Path(__file__).resolve().parents[2] / "asobiba"]
    roots += [Path(str(importlib.import_module(manifest(g).package).__path__[0]))
              for g in available()]
    out = []
    seen: set[Path] = set()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if path in seen or path.name == "errors.py" and path.parent.name == "core":
                continue
            seen.add(path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == cls_name):
                    continue
                code, names = None, set()
                for kw in node.keywords:
                    if kw.arg == "why" and isinstance(kw.value, ast.Call):
                        first = kw.value.args[0] if kw.value.args else None
                        assert isinstance(first, ast.Constant), f"{path}:{node.lineno}"
                        code = str(first.value)
                        names = {k.arg for k in kw.value.keywords if k.arg}
                out.append((str(path), node.lineno, code, names))
    return out


@pytest.mark.parametrize("cls_name", ["OptionError", "RecordError"])
def test_issue26_every_option_and_record_refusal_is_a_code_with_words(cls_name: str) -> None:
    """Each raise site of an ``OptionError`` or ``RecordError`` yields a code of
    ``OPTION_WHY`` / ``RECORD_WHY`` (given, or the class's default ``option.invalid`` /
    ``record.invalid``), passes every argument its English asks for, and the code has words
    in English and Japanese (``why:<code>``); every site — the core's, the formats', the
    bindings' and each game's (record parsers, cross-option checks, view readers) — gives a
    specific code, never the fallback. Fails on the code before (no such codes; the refusal
    was its class code; then the games' sites still fell back to ``option.invalid`` /
    ``record.invalid``)."""
    import re

    from asobiba.core.errors import OPTION_WHY, RECORD_WHY
    from tests.web.test_i18n_table import every_word

    table = OPTION_WHY if cls_name == "OptionError" else RECORD_WHY
    default = "option.invalid" if cls_name == "OptionError" else "record.invalid"
    assert default in table  # the class's fallback keeps its words for a plug-in's raise
    strings = every_word()
    sites = raise_sites(cls_name)
    assert len(sites) > (20 if cls_name == "OptionError" else 60)  # the walk sees them
    problems = []
    for path, line, code, names in sites:
        where = f"{path}:{line}"
        if code is None or code == default:
            problems.append(f"{where}: no specific code")
            continue
        if code not in table:
            problems.append(f"{where}: {code} is no code of the table")
            continue
        wanted = set(re.findall(r"\{(\w+)\}", table[code]))
        if not wanted <= names:
            problems.append(f"{where}: {code} lacks {wanted - names}")
        for lang in ("en", "ja"):
            if f"why:{code}" not in strings[lang]:
                problems.append(f"{lang} why:{code}")
    assert problems == []


def test_issue26_option_and_record_refusals_carry_their_code_and_arguments() -> None:
    """What the raise sites give, seen from outside: an unknown option, a bad value, a bad
    seed, a tampered record and a record of the wrong game each carry their code and args."""
    from asobiba.core import OptionError, RecordError
    from asobiba.formats import import_record

    game = get("reversi")
    cases = [
        (lambda: game.validate_options({"colour": "x"}), "option.unknown", {"option": "colour"}),
        (lambda: get("flipflop").validate_options({"board": "7x7"}), "option.bad_value",
         {"option": "board", "value": "7x7"}),
        (lambda: game.new_game({}, "one"), "option.seed", {"value": "one"}),  # type: ignore[arg-type]
    ]
    for make, code, args in cases:
        with pytest.raises(OptionError) as info:
            make()
        assert info.value.why.code == code
        assert args.items() <= {k: str(v) for k, v in info.value.why.args.items()}.items()
        assert info.value.detail()["why"] == code
    _, record = play_out("reversi", {}, 1)
    data = record.to_json()
    data["result"]["scores"] = list(reversed(data["result"]["scores"]))
    with pytest.raises(RecordError) as bad:
        Record.from_json(data).replay(get)
    assert bad.value.why.code == "record.result"
    with pytest.raises(RecordError) as other:
        import_record(record.dumps(), fmt="json", game_id="flipflop")
    assert (other.value.why.code, other.value.why.args["game"]) == ("record.game_mismatch",
                                                                    "reversi")


def test_issue26_the_games_own_refusals_carry_their_code_and_arguments() -> None:
    """The games' cross-option checks and record parsers, seen from outside: each refusal
    carries a specific code with its arguments, not the fallback ``option.invalid`` /
    ``record.invalid`` (which they all gave before)."""
    from asobiba.core import OptionError, RecordError
    from asobiba.games.reversi.formats import loads_ggf, loads_transcript
    from asobiba.games.reverstargo.kifu import import_kifu

    options = [
        (lambda: get("algo").validate_options({"mode": "pair", "players": 3}), "option.must_be",
         {"option": "players", "value": "4", "other": "mode", "when": "pair"}),
        (lambda: get("algo").validate_options({"players": 2, "first": 2}), "option.range",
         {"option": "first", "min": "0", "max": "1", "value": "2"}),
    ]
    for make, code, args in options:
        with pytest.raises(OptionError) as info:
            make()
        assert (info.value.why.code, {k: str(v) for k, v in info.value.why.args.items()}) == \
            (code, args)
    records = [
        (lambda: loads_transcript("f5d6zz"), "record.format", {"format": "transcript"}),
        (lambda: loads_ggf("(;GM[Chess]B[F5];)"), "record.unsupported",
         {"format": "GGF", "tag": "GM", "value": "Chess"}),
        (lambda: loads_ggf("(;GM[Othello]B[F5]B[D6];)"), "record.move",
         {"number": "2", "move": "B[d6]"}),
        (lambda: import_kifu("no header here"), "record.format", {"format": "ReverStarGo"}),
    ]
    for make, code, args in records:
        with pytest.raises(RecordError) as bad:
            make()
        assert bad.value.why.code == code
        assert args.items() <= {k: str(v) for k, v in bad.value.why.args.items()}.items()
