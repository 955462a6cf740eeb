"""Hand-made positions, one per rule of docs/rules/reverstargo.md (seed 004 and the app's
behaviour in REFERENCE § ReverStarGo)."""

from __future__ import annotations

import pytest

from asobiba.core import AmbiguousMoveError, IllegalMoveError, MalformedMoveError
from asobiba.games import get
from asobiba.games.reverstargo.board import INDEX, INTERIOR_CELLS, LABELS, NEIGHBOURS
from asobiba.games.reverstargo.game import MAX_ENTRIES, board_text, position
from asobiba.games.reverstargo.rules import BLACK, WHITE, resolve

GAME = get("reverstargo")


def bb(*labels: str) -> int:
    return sum(1 << INDEX[x] for x in labels)


def stones(state, colour: str) -> set[str]:
    return {LABELS[i] for i, ch in enumerate(board_text(state.black, state.white))
            if ch == colour}


# Sequences of moves found in random games, replayed here to reach each ko situation.
ONE_COLOUR = "B1 B3 B9 BQ BJ B8 B6 BX B4 CQ C8 B2 C3 B5 DQ D2[W] A3".split()
KO_BLOCKED = "B2 BQ B5 C3 CQ B6 BJ[W] C5 B7 C8 B4 B1[B] B8 B9[W] C2[B] A1[B] A5".split()
EXCEPTION = "BQ BJ CJ B7 BX B2 B3 B1 B9 B4 B5 C5 C1 B6 C7[B] D6 C4 C6 B8 A1[B]".split()
KO_END = ("B4 B7 B1 BJ BX C4 B9 CJ CX B2 CQ C1 B3[W] C3 B5 B6 C5 BQ C8 B8 D2 C7 D6 DQ "
          "C6[W] C9[W] C2 DX D4 A9 A5").split()


def test_rule_board_is_37_cells_with_13_interior():
    assert len(LABELS) == 37 and LABELS[0] == "CP"
    assert sorted(LABELS[i] for i in INTERIOR_CELLS) == sorted(
        ["CP", "A1", "A3", "A5", "A7", "A9", "AJ", "BQ", "B2", "B4", "B6", "B8", "BX"])
    assert [LABELS[j] for j in NEIGHBOURS[INDEX["BQ"]]] == ["C1", "B1", "A1", "AJ", "BJ", "CQ"]


def test_rule_setup_three_each_around_cp_black_first_with_nine_moves():
    s = GAME.new_game()
    assert stones(s, "B") == {"A3", "A7", "AJ"} and stones(s, "W") == {"A1", "A5", "A9"}
    assert s.to_move == BLACK
    assert sorted(s.legal_moves().texts()) == sorted(
        ["BQ", "B2", "B4", "B6", "B8", "BX", "B1", "B5", "B9"])


def test_rule_a_cell_playable_only_by_calling_the_opponents_colour():
    """The CP read as the opponent's colour is flanked by one's own A stone opposite."""
    s = position(black=["A7"], white=["B2"])
    assert s.legal_moves().texts() == ["A1"]
    assert s.indicators()["A1"]["colours"] == ["W"]
    after = s.play("A1")
    assert stones(after, "B") == {"A1", "A7"} and after.entries[-1].colour == WHITE
    assert board_text(after.black, after.white)[0] == "."


def test_rule_cp_read_as_own_colour_closes_the_run():
    s = position(black=["B5"], white=["A1", "C5"])
    # B1 -> A1 (white) -> CP: only a Black call closes the run; A7 is empty
    opt = s.spot(INDEX["B1"]).option
    assert opt.valid == (BLACK,)
    after = s.play("B1")
    assert "A1" in stones(after, "B") and after.entries[-1].colour == BLACK


def test_rule_flank_through_cp_in_each_reading_makes_the_call_matter():
    s = position(black=["B7"], white=["A1", "A7"])
    # B1: with Black called, A1 alone flips; with White called, A1, the CP and A7 flip
    assert s.legal_moves().texts() == ["B1[B]", "B1[W]"]
    assert stones(s.play("B1[B]"), "W") == {"A7"}
    assert stones(s.play("B1[W]"), "W") == set()
    assert stones(s.play("B1[W]"), "B") == {"B1", "A1", "A7", "B7"}


def test_rule_bare_cell_that_needs_a_call_is_ambiguous():
    s = position(black=["B7"], white=["A1", "A7"])
    with pytest.raises(AmbiguousMoveError, match=r"B1\[B\] and B1\[W\]"):
        s.play("B1")


def test_rule_call_that_makes_no_difference_is_accepted_and_normalised():
    s = GAME.new_game()
    # B1 flips A1 either way (CP Black closes; CP White is flanked by A7): same position
    assert s.play("B1[B]").to_json() == s.play("B1").to_json() == s.play("b1 [w]").to_json()
    assert s.play("B1[B]").entries[-1].colour == WHITE  # automatic: more flips (CP counted)


def test_rule_call_changes_a_capture_without_any_line_through_the_cp():
    """C1 flips BQ (no line through the CP). CP Black: A1 is enclosed and taken. CP White:
    A1 joins the CP and A5, which has liberties, so nothing is taken."""
    s = position(black=["B1", "B2", "A3", "AJ"], white=["A1", "BQ", "A5"])
    assert "C1[B]" in s.legal_moves() and "C1[W]" in s.legal_moves()
    assert s.indicators()["C1"]["call"]
    took = s.play("C1[B]")
    assert took.captured == (1, 0) and "A1" not in stones(took, "W")
    kept = s.play("C1[W]")
    assert kept.captured == (0, 0) and "A1" in stones(kept, "W")


def test_rule_a_capture_next_to_the_edge_must_not_happen():
    """B1 touches the edge: five Black neighbours never enclose it (seed §4③)."""
    s = position(black=["C2", "B2", "C1", "BQ", "A7"], white=["B1"])
    after = s.play("A1")
    assert "B1" in stones(after, "W") and after.captured == (0, 0)


def test_rule_a_group_already_surrounded_is_protected():
    """A1 is enclosed by Black except for the CP; B3 far away (CP called Black) completes
    nothing new, so A1 stays (seed §4④)."""
    s = position(black=["B1", "B2", "A3", "AJ", "BQ", "D4"], white=["A1", "C4"])
    after = s.play("B3")
    assert after.entries[-1].colour == BLACK
    assert "A1" in stones(after, "W") and after.captured == (0, 0)


def test_rule_a_move_changing_a_bordering_cell_captures():
    s = position(black=["B1", "B2", "A3", "AJ", "C1"], white=["A1", "BQ", "A5", "A7", "A9"])
    # BJ flips BQ along BJ-BQ-B1, a cell bordering A1: with the CP called Black the
    # enclosure is new and A1 is taken
    after = s.play("BJ[B]")
    assert "A1" not in stones(after, "W") and after.captured == (1, 0)


def test_rule_cp_ring_scores_plus_one_and_calling_own_colour_gives_it_up():
    s = position(black=["A3", "A5", "A7", "A9", "AJ"], white=["A1"])
    after = s.play("BQ")  # flips A1: the six A cells ring the CP
    assert after.captured == (1, 0) and after.entries[-1].colour == WHITE
    assert after.score() == (8, 0)
    me, op = s.black, s.white
    assert resolve(me, op, INDEX["BQ"], cp_mine=False).captured == 1
    assert resolve(me, op, INDEX["BQ"], cp_mine=True).captured == 0
    # the app never asks here (same position either way): an explicit [B] is normalised
    assert s.play("BQ[B]").captured == (1, 0)


def test_rule_an_old_ring_never_scores_again():
    s = position(black=["A1", "A3", "A5", "A7", "A9", "AJ", "D4"], white=["C4"])
    after = s.play("B3")  # CP called White would be enclosed, but no ring cell changed
    assert after.captured == (0, 0)


def test_rule_ko_one_call_colour_restricted():
    s = GAME.replay(ONE_COLOUR)[-1]
    ind = s.indicators()["AJ"]
    assert ind["mark"] == "one-colour" and ind["colours"] == ["W"]
    assert "AJ[W]" in s.legal_moves() and "AJ[B]" not in s.legal_moves()
    with pytest.raises(IllegalMoveError, match="ko"):
        s.play("AJ[B]")
    assert s.play("AJ").to_json() == s.play("AJ[W]").to_json()


def test_rule_ko_blocked_cell_is_refused_with_the_ko_reason():
    s = GAME.replay(KO_BLOCKED)[-1]
    assert s.indicators()["A1"]["mark"] == "ko-blocked"
    with pytest.raises(IllegalMoveError, match="ko"):
        s.play("A1")
    assert sorted(s.legal_moves().texts()) == ["B3", "C1"]


def test_rule_ko_exception_when_every_playable_cell_is_blocked():
    s = GAME.replay(EXCEPTION)[-1]
    assert s.mode == "exception" and not s.last_exception
    assert {v["mark"] for v in s.indicators().values()} == {"exception"}
    after = s.play("A5")
    assert after.entries[-1].exception and after.last_exception
    # an exception move recreates a position already seen
    assert len(after.history) == len(s.history)


def test_rule_second_consecutive_exception_ends_the_game():
    states = GAME.replay(KO_END)
    last = states[-1]
    assert last.is_over and last.reason.startswith("ko")
    assert last.entries[-1].exception
    assert states[-2].mode == "exception"
    assert last.outcome.scores == last.score()


def test_rule_no_move_may_return_to_the_position_before_the_last_move():
    """The position just before the last move is forbidden even when it is not in the
    history (the start position, here)."""
    s = position(black=["B7"], white=["A1", "A7"])
    after_b = s.play("B1[W]")
    ko = position(black=["B7"], white=["A1", "A7"],
                  previous=board_text(after_b.black, after_b.white))
    assert "B1[W]" not in ko.legal_moves() and "B1[B]" in ko.legal_moves()
    assert ko.indicators()["B1"]["mark"] == "one-colour"


def test_rule_automatic_pass_is_a_record_entry():
    states = GAME.replay(KO_END)
    passes = [e for e in states[-1].entries if e.is_pass]
    assert passes and passes[0].seat == WHITE
    # no voluntary pass
    with pytest.raises(IllegalMoveError, match="automatically"):
        GAME.new_game().play("--")


def test_rule_game_ends_after_81_entries():
    s = position(black=["A7"], white=["B2"], entries=MAX_ENTRIES - 1)
    assert not s.is_over
    after = s.play("A1")
    assert after.is_over and "81" in after.reason


def test_rule_full_board_ends_and_equal_totals_go_to_more_captures():
    labels = [x for x in LABELS if x != "CP"]
    s = position(black=labels[:17], white=labels[17:], captured=(2, 0))
    assert s.is_over and s.reason == "the board is full"
    assert s.score() == (19, 19)
    assert s.outcome.ranks == (1, 2)


def test_rule_equal_totals_and_captures_is_a_draw():
    labels = [x for x in LABELS if x != "CP"]
    s = position(black=labels[:18], white=labels[18:], captured=(1, 1))
    assert s.outcome.is_draw and s.outcome.scores == (19, 19)


def test_rule_cp_and_occupied_cells_cannot_be_played():
    s = GAME.new_game()
    with pytest.raises(IllegalMoveError, match="CP"):
        s.play("CP")
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.play("A1")
    with pytest.raises(IllegalMoveError, match="flanks nothing"):
        s.play("DQ")
    with pytest.raises(MalformedMoveError):
        s.play("Z9")
    with pytest.raises(MalformedMoveError):
        s.play("B2[X]")


def test_rule_state_from_view_rebuilds_ko_history():
    for seq in (ONE_COLOUR, KO_BLOCKED, EXCEPTION):
        s = GAME.replay(seq)[-1]
        for seat in (None, 0, 1):
            r = GAME.state_from_view(s.view(seat))
            assert r.to_json() == s.to_json()
