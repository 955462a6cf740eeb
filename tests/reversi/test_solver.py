"""The exact endgame solver (asobiba/games/reversi/endgame.py) and ``asobiba solve reversi``.

The solver is checked against a slow brute-force minimax written on the game's own rules
(``ReversiState``: legal moves, passes and the end of the game as the server plays them), on
random positions with few empties, and against the published exact scores of the FFO
endgame test suite (tests/reversi/ffo/, from edax's problem files).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asobiba.cli.main import app
from asobiba.games.reversi import bitboard as bb
from asobiba.games.reversi import endgame
from asobiba.games.reversi.cli import read_positions
from asobiba.games.reversi.game import GAME, PASS, ReversiState, parse_square
from asobiba.games.reversi.obf import PositionError, parse_obf

FFO = Path(__file__).parent / "ffo" / "fforum-1-19.obf"
FFO_LINES = FFO.read_text(encoding="utf-8").splitlines()
runner = CliRunner()


# ---- the slow reference -----------------------------------------------------------------
def standard_score(state: ReversiState) -> int:
    """Black's final score under standard Othello scoring: empties to the winner."""
    b, w = state.counts()
    empty = 64 - b - w
    return b - w + (empty if b > w else -empty if w > b else 0)


def minimax(state: ReversiState) -> int:
    """Exact score for the side to move, every line played out through the game's rules
    (``pass`` is a move when forced; the game ends when ``legal_moves`` is empty)."""
    if state.is_over:
        s = standard_score(state)
        return s if state.turn == 0 else -s
    best = -99
    for move in state.legal_moves():
        child = state.child(move)
        v = minimax(child) if child.turn == state.turn else -minimax(child)
        best = max(best, v)
    return best


def random_position(rnd: random.Random, empties: int) -> ReversiState:
    """A position reached by random play from the start, ``empties`` squares left (or the
    last position before the game ended)."""
    state = GAME.new_game()
    while True:
        if 64 - sum(state.counts()) <= empties:
            return state
        moves = list(state.legal_moves())
        nxt = state.child(rnd.choice(moves))
        if nxt.is_over:
            return state
        state = nxt


def random_fill(rnd: random.Random, empties: int) -> ReversiState:
    """A random board (not necessarily reachable), one colour often far more frequent than
    the other: passes and games ending with empty squares are frequent."""
    squares = list(range(64))
    rnd.shuffle(squares)
    black = white = 0
    share = rnd.choice((0.05, 0.15, 0.5, 0.85, 0.95))
    for sq in squares[empties:]:
        if rnd.random() < share:
            black |= 1 << sq
        else:
            white |= 1 << sq
    return ReversiState(black, white, rnd.randrange(2), {})


def check_against_minimax(state: ReversiState) -> str:
    """Assert the solver's score and move against the reference; returns the case's kind."""
    p, o = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
    if state.is_over:
        with pytest.raises(ValueError, match="game is over"):
            endgame.Solver().solve(p, o)
        return "over"
    sol = endgame.Solver().solve(p, o)
    assert sol.score == minimax(state), state.board_rows()
    move = PASS if sol.move < 0 else sol.move
    assert move in list(state.legal_moves())
    child = state.child(move)
    after = minimax(child) if child.turn == state.turn else -minimax(child)
    assert after == sol.score, ("the move does not reach the score", state.board_rows(), move)
    return "pass" if move == PASS else "move"


def test_solver_agrees_with_brute_force_minimax_on_played_positions():
    rnd = random.Random(29)
    for empties in (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10):
        for _ in range(3 if empties <= 8 else 1):
            check_against_minimax(random_position(rnd, empties))


def test_solver_agrees_with_brute_force_minimax_on_random_boards_with_passes():
    """Random fills: root passes, passes deep in the tree and games ending with empties."""
    rnd = random.Random(3)
    kinds: dict[str, int] = {}
    for i in range(150):
        kind = check_against_minimax(random_fill(rnd, 1 + i % 8))
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds.get("pass", 0) >= 5 and kinds.get("over", 0) >= 3 and kinds["move"] >= 50, kinds


def test_fast_flips_agree_with_bitboard_flips():
    rnd = random.Random(11)
    for _ in range(300):
        occ = [rnd.choice((0, 1, 1, 2, 2)) for _ in range(64)]
        p = sum(1 << i for i, v in enumerate(occ) if v == 1)
        o = sum(1 << i for i, v in enumerate(occ) if v == 2)
        for sq in range(64):
            if not (p | o) >> sq & 1:
                assert endgame.flips(p, o, sq) == bb.flips(p, o, sq), (p, o, sq)


def test_standard_scoring_gives_empties_to_the_winner_and_keeps_the_games_winner():
    """The solver's score and the game's own result agree on who wins, on finished random
    boards with empty squares; only the margin differs (the empties)."""
    rnd = random.Random(8)
    seen = 0
    for _ in range(2000):
        state = random_fill(rnd, rnd.randrange(1, 12))
        if not state.is_over:
            continue
        seen += 1
        b, w = state.counts()
        score = endgame.final_score(state.black, state.white)
        assert score == standard_score(state)
        assert abs(score) == (0 if b == w else abs(b - w) + 64 - b - w)
        ranks = state.outcome.ranks if state.outcome else None
        assert ranks is not None
        assert (score > 0) == (ranks[0] < ranks[1]) and (score == 0) == (ranks[0] == ranks[1])
    assert seen >= 20


# ---- FFO positions ------------------------------------------------------------------------
FAST = (5, 7, 17, 6)  # the fastest of #1-#19 (10-35 k nodes each)


@pytest.mark.parametrize("number", FAST)
def test_ffo_position_is_solved_exactly(number):
    pos = parse_obf(FFO_LINES[number - 1])
    sol = endgame.Solver().solve(*pos.mover)
    best_score = pos.annotations[0][1]
    assert sol.score == best_score == pos.expected
    best_moves = {m for m, s in pos.annotations if s == best_score}
    assert f"{'abcdefgh'[sol.move % 8]}{sol.move // 8 + 1}" in best_moves


def test_ffo_every_annotated_move_score_is_reproduced():
    """Not only the best: each listed move of #5 solved on its own gives the file's score."""
    pos = parse_obf(FFO_LINES[4])
    p, o = pos.mover
    solver = endgame.Solver()
    for move, score in pos.annotations:
        sq = parse_square(move)
        f = endgame.flips(p, o, sq)
        assert -solver.solve(o ^ f, p | f | 1 << sq).score == score, move


# ---- the command ----------------------------------------------------------------------------
def run(*args: str, input: str | None = None):
    return runner.invoke(app, ["solve", "reversi", *args], input=input)


def test_cli_solves_a_position_given_as_an_argument():
    res = run("--json", "--", FFO_LINES[4])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["score"] == 32 and out["best_move"] == "g8" and out["agrees"] is True
    assert out["empties"] == 14 and out["to_move"] == "X" and out["nodes"] > 0


def test_cli_board_and_side_as_two_arguments_with_dots():
    board, side = FFO_LINES[6].split()[:2]
    res = run(board.replace("-", "."), side.rstrip(";"))
    assert res.exit_code == 0, res.output
    assert "best move a6, final disc difference +8 for X (exact)" in res.stdout


def test_cli_reads_a_file_and_stdin(tmp_path):
    f = tmp_path / "few.obf"
    f.write_text("% two fast ones\n\n" + FFO_LINES[4] + "\n" + FFO_LINES[16] + "\n")
    res = run("--json", str(f))
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.stdout.splitlines()]
    assert [(r["line"], r["score"], r["agrees"]) for r in rows] == [(3, 32, True), (4, 8, True)]
    res = run("--json", "-", input=FFO_LINES[16] + "\n")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["score"] == 8


def test_cli_exit_status_1_when_the_annotation_disagrees():
    wrong = FFO_LINES[4].replace("G8:+32", "G8:+30")
    res = run("--", wrong)
    assert res.exit_code == 1
    assert "DISAGREES with the annotation +30" in res.stdout


def test_cli_root_pass():
    # X has no move, O has: the best "move" is the pass and the score is X's
    state = GAME.new_game()
    rnd = random.Random(1)
    for _ in range(400):
        state = random_fill(rnd, 6)
        p, o = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        if not bb.legal_mask(p, o) and bb.legal_mask(o, p):
            break
    else:
        pytest.fail("no pass position found")
    board = "".join("X" if state.black >> i & 1 else "O" if state.white >> i & 1 else "."
                    for i in range(64))
    res = run("--json", board, "XO"[state.turn])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["best_move"] == "pass" and out["score"] == minimax(state)


GOOD = FFO_LINES[4]
BOARD = GOOD[:64]


@pytest.mark.parametrize("args, reason, words", [
    ([BOARD[:63] + " X;"], "length", "63 squares"),
    ([BOARD + "X;"], "length", "stuck to the board"),
    (["nosuchfile.obf"], "length", "no file named 'nosuchfile.obf'"),
    ([BOARD[:10] + "Z" + BOARD[11:] + " X;"], "square", "'Z' at square c2"),
    ([BOARD], "side", "no side to move"),
    ([BOARD + " B;"], "side", "'B' is not a side"),
    ([BOARD + " X; G8+32;"], "annotation", "'G8+32' is not an annotation"),
    ([BOARD + " X G8:+32;"], "annotation", "annotations follow a ';'"),
    ([BOARD + " X; A1:+32;"], "annotation", "not legal for X"),
    ([BOARD + " X; G8:+90;"], "annotation", "outside"),
    (["X" * 40 + "O" * 24 + " X"], "game_over", "already over (X 40, O 24"),
    (["X" * 10 + "-" * 54 + " O"], "game_over", "already over"),
])
def test_cli_refuses_garbled_positions(args, reason, words):
    res = run("--", *args)
    assert res.exit_code == 2, res.output
    assert f"error: bad_position ({reason})" in res.stderr and words in res.stderr, res.stderr
    assert res.stdout == ""  # nothing solved
    res = run("--json", "--", *args)
    assert res.exit_code == 2
    err = json.loads(res.stdout)["error"]
    assert err["code"] == "bad_position" and err["reason"] == reason


def test_cli_one_bad_line_in_a_file_solves_nothing(tmp_path):
    f = tmp_path / "mixed.obf"
    f.write_text(GOOD + "\n" + BOARD + " Q;\n")
    res = run(str(f))
    assert res.exit_code == 2
    assert "(side) (line 2)" in res.stderr and res.stdout == ""


def test_cli_empty_input_is_refused():
    res = run("-", input="\n# only a comment\n")
    assert res.exit_code == 2 and "no_position" in res.stderr
    with pytest.raises(PositionError) as exc:
        read_positions([], stdin_text="")
    assert exc.value.reason == "no_position"


# ---- win/loss/draw only, and the deadline (level 7's endgame step) -----------------------
def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def test_outcome_is_the_sign_of_the_exact_score_and_its_move_reaches_it():
    rnd = random.Random(41)
    seen: set[int] = set()
    for empties in (7, 8, 9, 10, 11, 12, 13, 14) * 3:
        state = random_position(rnd, empties)
        p, o = (state.black, state.white) if state.turn == 0 else (state.white, state.black)
        if not bb.legal_mask(p, o):
            with pytest.raises(ValueError, match="no move"):
                endgame.Solver().outcome(p, o)
            continue
        exact = endgame.Solver().solve(p, o).score
        result, square = endgame.Solver().outcome(p, o)
        assert result == sign(exact), state.board_rows()
        seen.add(result)
        if result < 0:
            assert square == -1
            continue
        f = bb.flips(p, o, square)
        assert f  # a legal square
        q, r = o ^ f, p | f | (1 << square)  # the opponent to move
        after = (-endgame.Solver().solve(q, r).score if bb.legal_mask(q, r) or bb.legal_mask(r, q)
                 else -endgame.final_score(q, r))
        assert sign(after) >= result, ("the move does not keep the outcome", state.board_rows())
    assert {-1, 1} <= seen, seen


@pytest.mark.parametrize("number", FAST)
def test_ffo_outcome_is_the_annotated_result(number):
    pos = parse_obf(FFO_LINES[number - 1])
    result, square = endgame.Solver().outcome(*pos.mover)
    assert result == sign(pos.expected)
    move = f"{'abcdefgh'[square % 8]}{square // 8 + 1}"
    assert sign(dict(pos.annotations)[move]) == result


def test_a_solve_past_its_deadline_stops_and_an_untimed_one_does_not():
    pos = parse_obf(FFO_LINES[FAST[0] - 1])
    solver = endgame.Solver(deadline=0.0)  # long past
    with pytest.raises(endgame.OutOfTime):
        solver.outcome(*pos.mover)
    with pytest.raises(endgame.OutOfTime):
        solver.solve(*pos.mover)
    assert endgame.Solver().outcome(*pos.mover)[0] == sign(pos.expected)
