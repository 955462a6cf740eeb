"""FlipFlop rules, one test per rule (names say which), on both boards."""

from __future__ import annotations

import pytest

from asobiba.core import IllegalMoveError, MalformedMoveError, NotYourTurnError
from asobiba.games import get
from asobiba.games.flipflop import board as bd
from tests.conformance import check_random_games

GAME = get("flipflop")
S3 = {"board": "3x3"}
S5 = {"board": "5x5"}
SAMPLE_GAME = ["Rb1xb3", "Ra3xb3", "Ra1-a2", "Bb3-c2", "Rc1-a1", "Rc2-b2", "Ba2-b3", "Rc3xb3"]


def texts(state):
    return sorted(state.legal_moves().texts())


def test_conformance_both_boards():
    check_random_games("flipflop", [S3], games=12)
    check_random_games("flipflop", [S5], games=4, probe_every=5)


@pytest.mark.parametrize("options,n", [(S3, 3), (S5, 5)])
def test_rule_start_all_pieces_on_first_row_showing_rook(options, n):
    s = GAME.new_game(options)
    assert s.view(None)["board"][0] == "r" * n and s.view(None)["board"][-1] == "R" * n
    assert s.to_move == 0 and s.bishops == 0
    assert s.white.bit_count() == s.black.bit_count() == n


def test_rule_default_board_is_3x3_and_variants_name_boards():
    assert GAME.new_game().n == 3
    assert GAME.new_game({"variant": "5x5"}).n == 5


def test_rule_rook_moves_orthogonally_any_distance_without_jumping():
    s = GAME.from_position("r1r/3/R2 w")
    assert texts(s) == ["Ra1-a2", "Ra1-b1", "Ra1-c1"]   # a3 is an enemy off the goals
    s = GAME.from_position("5/5/5/5/R1R2 w")
    assert "Ra1-a5" in texts(s) and "Ra1-b1" in texts(s)
    assert "Ra1-d1" not in texts(s)   # c1 is in the way: no jumping


def test_rule_bishop_moves_diagonally_any_distance():
    s = GAME.from_position("2r/3/B2 w")
    assert texts(s) == ["Ba1-b2"]   # c3 holds an enemy that is not on a goal square
    s = GAME.from_position("3/3/B2 w")
    assert texts(s) == ["Ba1-b2", "Ba1-c3"]


def test_rule_moved_piece_flips_rook_to_bishop_and_back():
    s = GAME.new_game(S3).play("Ra1-a2")
    assert s.view(None)["board"][1] == "B.."
    s = s.play("Rc3-c2").play("Ba2xb3")   # the bishop moves diagonally, then shows + again
    assert s.view(None)["board"][0] == "rR."


def test_rule_passing_is_not_allowed():
    s = GAME.new_game(S3)
    with pytest.raises(MalformedMoveError):
        s.play("pass")
    with pytest.raises(IllegalMoveError, match="passing is not allowed"):
        s.play("Ra1-a1")


def test_rule_capture_on_own_home_centre_as_in_the_sample_game():
    s = GAME.new_game(S3)
    assert "Rb1xb3" in s.legal_moves()     # Black's starting centre piece can be taken
    s5 = GAME.new_game(S5)
    assert "Rc1xc5" in s5.legal_moves()


def test_rule_capture_only_on_goal_squares():
    # Black rook on a2 (not a goal) blocks White's a1 rook: no capture there
    s = GAME.from_position("1r1/r2/R2 w")
    assert "Ra1xa2" not in s.legal_moves()
    with pytest.raises(IllegalMoveError, match="only pieces on the goal squares b1 and b3"):
        s.play("Ra1xa2")
    # a Black piece on White's own home centre b1 can be taken
    s = GAME.from_position("1r1/3/Rr1 w")
    assert "Ra1xb1" in s.legal_moves()


def test_rule_no_capture_of_own_piece():
    s = GAME.new_game(S3)
    with pytest.raises(IllegalMoveError, match="your own piece"):
        s.play("Ra1-b1")


def test_rule_win_by_holding_the_goal_through_the_reply():
    s = GAME.new_game(S3).play("Rb1xb3")
    assert not s.is_over and s.view(1)["threat"] == "b3"
    # the defender keeps every legal move, not only the retakes
    assert "Rc3-c2" in s.legal_moves() and "Ra3xb3" in s.legal_moves()
    lost = s.play("Rc3-c2")
    assert lost.is_over and lost.outcome.winners == (0,)
    assert "not taken back" in lost.outcome.reason


def test_rule_retaking_the_goal_stops_the_win():
    s = GAME.new_game(S3).play("Rb1xb3").play("Ra3xb3")
    assert not s.is_over and s.to_move == 0


def test_rule_win_when_opponent_has_no_legal_move_seed_sample_game():
    """The seed's 3×3 sample game: '先手は動けないので、後手の勝ち!'"""
    for first_retake, last_retake in (("Ra3xb3", "Rc3xb3"), ("Rc3xb3", "Ra3xb3")):
        moves = list(SAMPLE_GAME)
        moves[1], moves[7] = first_retake, last_retake
        if first_retake == "Rc3xb3":   # the mirror line: Black leaves from the other side
            moves[3], moves[5] = "Bb3-c2", "Rc2-b2"
        states = GAME.replay(moves, S3)
        final = states[-1]
        assert all(not st.is_over for st in states[:-1])
        assert final.is_over and final.outcome.winners == (1,)
        assert final.outcome.reason == "White has no legal move"


def test_interpretation_goal_hold_is_checked_before_no_legal_move():
    """White on b3 survived Black's reply and cannot move: White has already won."""
    s = GAME.from_position("rRr/1r1/3 w")
    assert s.is_over and s.outcome.winners == (0,)


def test_rule_third_repetition_is_a_draw():
    loop = ["Ra1-a2", "Re5-e4", "Ba2-b3", "Be4-d3", "Rb3-b2", "Rd3-d4", "Bb2-a1", "Bd4-e5"]
    states = GAME.replay(loop * 2, S5)
    assert states[8].repetitions() == 2 and not states[8].is_over
    assert all(not st.is_over for st in states[:-1])
    final = states[-1]
    assert final.is_over and final.outcome.is_draw and final.repetitions() == 3
    assert "third time" in final.outcome.reason


def test_rule_repetition_counts_side_to_move():
    s = GAME.from_position("r1r/3/R1R w", history=["r1r/3/R1R b", "r1r/3/R1R b"])
    assert not s.is_over and s.repetitions() == 1


def test_errors_name_the_rule_and_change_nothing():
    s = GAME.new_game(S3)
    before = s.to_json()
    cases = {
        "Ba1-a2": "shows R",
        "Ra1-b2": "orthogonally",
        "Rb1-b3": "written with x",
        "Ra1xa2": "not a capture",
        "Ra3-a2": "White moves only its own",
        "Rb2-b3": "no piece",
    }
    for text, words in cases.items():
        with pytest.raises(IllegalMoveError, match=words):
            s.play(text)
    for bad in ("Rd1-d2", "R a1-a2", "Qa1-a2", "a1a2"):
        with pytest.raises(MalformedMoveError):
            s.play(bad)
    with pytest.raises(NotYourTurnError):
        s.play("Ra3-a2", seat=1)
    assert s.to_json() == before


def test_blocked_path_message():
    s = GAME.from_position("5/5/5/5/R1R2 w")
    with pytest.raises(IllegalMoveError, match="blocked"):
        s.play("Ra1-d1")


def test_notation_is_case_insensitive_and_round_trips():
    s = GAME.new_game(S3)
    assert s.play("rb1xb3").fen() == s.play("Rb1xb3").fen()
    for mv in s.legal_moves():
        assert s.parse(s.move_text(mv)) == mv


def test_fen_round_trip_and_view_rebuilds_the_state():
    states = GAME.replay(SAMPLE_GAME[:5], S3)
    for st in states:
        again = GAME.state_from_view(st.view(0))
        assert again.key == st.key and again.history == st.history
        assert again.legal_moves().texts() == st.legal_moves().texts()
        assert GAME.from_position(st.fen()).fen() == st.fen()


def test_bad_position_is_refused():
    from asobiba.core import OptionError

    for bad in ("rrr/3/RRR x", "rrrr/3/RRR w", "rr/3/RRR w", "rrr/3/RRRR w", "nonsense"):
        with pytest.raises(OptionError):
            GAME.from_position(bad)


def test_views_show_the_same_board_to_everyone():
    s = GAME.new_game(S5).play("Rc1xc5")
    v0, v1, spectator = s.view(0), s.view(1), s.view(None)
    assert v0["board"] == v1["board"] == spectator["board"]
    assert v1["legal_moves"] and not v0["legal_moves"] and not spectator["legal_moves"]
    assert "c5" in GAME.render_view(v1)


def test_geometry_goals():
    g3, g5 = bd.GEOMETRY[3], bd.GEOMETRY[5]
    assert [g3.name(s) for s in g3.home_centre] == ["b1", "b3"]
    assert [g5.name(s) for s in g5.home_centre] == ["c1", "c5"]
    assert g3.name(g3.goal_of(0)) == "b3" and g5.name(g5.goal_of(1)) == "c1"


@pytest.mark.parametrize("n", [3, 5])
def test_search_helpers_agree_with_the_rules_functions(n):
    """The searcher's shortcuts give what the rules functions give on random positions:
    ``play_int`` = ``apply_move`` (move, capture, flip the moved piece), and
    ``reach_counts`` = ``reach_count`` for both sides (who can slide onto a goal)."""
    from asobiba.core import Rng

    geo = bd.GEOMETRY[n]
    game = get("flipflop")
    rng = Rng(n, "helpers")
    seen = 0
    for seed in range(6):
        s = game.new_game({"board": f"{n}x{n}"}, seed)
        while not s.is_over and seen < 400:
            w, b, x, t = pos = s.tuple4()
            occ = w | b
            for sq in range(n * n):
                assert bd.reach_counts(geo, sq, w, b, occ, x) == (
                    bd.reach_count(geo, sq, w, occ, x), bd.reach_count(geo, sq, b, occ, x))
            mine, theirs = (w, b) if t == bd.WHITE else (b, w)
            for m in bd.move_ints(geo, mine, theirs, x):
                assert bd.play_int(pos, m) == bd.apply_move(w, b, x, t, m >> 5, m & 31)
            seen += 1
            moves = list(s.legal_moves())
            s = s.play(moves[rng.below(len(moves))])
    assert seen > 20
