"""Algo rules, one test per rule (names follow docs/rules/algo.md)."""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.core import IllegalMoveError, MalformedMoveError, NotYourTurnError, OptionError
from asobiba.games import get
from asobiba.games.algo.state import ATTACK, PASS, PLACE, SETUP, SHOW, USE
from tests.algo.helpers import dealt, names
from tests.conformance import check_random_games

GAME = get("algo")


def test_conformance_all_variants() -> None:
    check_random_games("algo", [{}, {"players": 3}, {"players": 4}, {"variant": "pair"},
                                {"players": 6}], games=3, probe_every=7)
    check_random_games("algo", [{"players": 7}, {"jokers": True, "players": 3},
                                {"colours": 3}, {"sets": 2}, {"chips": True, "jokers": True}],
                       games=2, probe_every=9)


@pytest.mark.parametrize("players,hand,pile", [(2, 4, 16), (3, 4, 12), (4, 3, 12),
                                                (5, 1, 19), (6, 1, 18), (7, 3, 27),
                                                (8, 3, 24)])
def test_rule_deal_sizes_by_player_count(players: int, hand: int, pile: int) -> None:
    s = GAME.new_game({"players": players}, 3)
    assert all(len(r) == hand for r in s.rows)
    # the first player has drawn one card already
    assert s.pile_left() + (1 if s.hand >= 0 else 0) == pile
    assert s.options["sets"] == (2 if players >= 7 else 1)


def test_rule_pair_play_six_each_no_pile() -> None:
    s = GAME.new_game({"variant": "pair"}, 1)
    assert [len(r) for r in s.rows] == [6, 6, 6, 6]
    assert s.pile_left() == 0 and s.phase == PASS


@pytest.mark.parametrize("raw", [
    {"players": 8, "sets": 1},            # 3 each deal all 24 cards
    {"players": 2, "hand": 12},           # 12 each deal all 24 cards
    {"players": 6, "hand": 4},            # 6 x 4 = 24
    {"players": 3, "hand": 12, "colours": 3},  # 36 of 36
    {"players": 8, "hand": 6},            # 48 of the two sets
])
def test_rule_basic_game_needs_a_pile_options_that_deal_every_card_are_refused(
        raw: dict[str, Any]) -> None:
    # rule (docs/rules/algo.md § 2): every basic turn draws from the pile; only pair play
    # is dealt without one
    with pytest.raises(OptionError, match=r"option 'hand'.*leave no pile.*rule: the pile"):
        GAME.new_game(raw, 1)
    with pytest.raises(OptionError, match="no pile"):
        GAME.validate_options(raw)


def test_rule_the_largest_deal_that_keeps_a_pile_is_accepted() -> None:
    # 11 each leave 2 cards: the first turn draws one, one is left (rule: the pile)
    s = GAME.new_game({"players": 2, "hand": 11}, 1)
    assert s.pile_left() == 1 and [len(r) for r in s.rows] == [11, 11] and s.hand >= 0
    s = GAME.new_game({"players": 8, "sets": 1, "hand": 2}, 1)
    assert s.pile_left() == 24 - 16 - 1
    # the refusal names what would work instead
    with pytest.raises(OptionError, match=r"at most 2 each, or use two sets \(sets=2\)"):
        GAME.new_game({"players": 8, "sets": 1}, 1)


def test_rule_pair_play_is_dealt_without_a_pile_and_stays_allowed() -> None:
    # seed: 「４人に６枚ずつ配るので「山」に積むカードはありません」
    for colours in (2, 3):
        s = GAME.new_game({"variant": "pair", "colours": colours}, 3)
        assert s.pile_left() == 0 and s.phase == PASS


def test_rule_rows_sorted_black_before_white() -> None:
    s = dealt(["w3 b3 w0 b11", "b0 w1 w11 b5"])
    assert names(s, 0) == ["w0", "b3", "w3", "b11"]
    assert names(s, 1) == ["b0", "w1", "b5", "w11"]


def test_rule_three_colours_order_black_white_red() -> None:
    s = dealt(["r3 w3 b3 r0", "b0 w1 w11 b5"], colours=3)
    assert names(s, 0) == ["r0", "b3", "w3", "r3"]


def test_rule_hit_turns_target_up_and_attacker_may_continue_or_stay() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w1 w2 w3"], "b4 b5")
    assert s.turn == 0 and s.phase == ATTACK and s.hand >= 0
    assert "stay" not in s.legal_moves()          # at least one attack per turn
    s = s.play("attack B1=0")
    assert names(s, 1) == ["W0", "w1", "w2", "w3"] and s.turn == 0
    assert "stay" in s.legal_moves()
    stayed = s.play("stay")
    assert names(stayed, 0) == ["b0", "b1", "b2", "b3", "b4"]   # drawn card face down
    assert stayed.turn == 1


def test_rule_miss_inserts_drawn_card_face_up_and_ends_turn() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w1 w2 w3"], "b4 b5")
    s = s.play("attack B2=5")
    assert names(s, 0) == ["b0", "b1", "b2", "b3", "B4"]
    assert s.turn == 1 and s.view(1)["hand"]["number"] == 5
    assert s.view(None)["rows"][1][1]["not"] == [5]


def test_rule_empty_pile_attack_with_own_card_turned_up_on_miss() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w1 w2 w3"], "", hand=4)
    # exhaust the pile quickly: play misses until the pile is empty
    while s.pile_left() or s.hand >= 0:
        seat = s.turn
        target = 1 - seat
        pos = next(p for p, sl in enumerate(s.rows[target]) if not sl[2])
        s = s.play(f"attack {'AB'[target]}{pos + 1}=11", seat)
    assert s.phase == USE
    before = sum(1 for sl in s.rows[s.turn] if sl[2])
    pos = next(p for p, sl in enumerate(s.rows[s.turn]) if not sl[2])
    s2 = s.play(f"use {pos + 1}")
    assert s2.phase == ATTACK and s2.view(None)["rows"][s.turn][pos]["held"]
    tgt = 1 - s.turn
    tpos = next(p for p, sl in enumerate(s2.rows[tgt]) if not sl[2])
    s3 = s2.play(f"attack {'AB'[tgt]}{tpos + 1}=11")
    assert sum(1 for sl in s3.rows[s.turn] if sl[2]) == before + 1
    assert s3.rows[s.turn][pos][2]


def test_rule_player_with_all_cards_up_is_out_and_last_one_wins() -> None:
    s = dealt(["b0", "w0", "b1"], "b5", hand=1)
    s = s.play("attack B1=0")
    assert s.is_out(1) and not s.is_over
    s = s.play("attack C1=1")
    assert s.is_over and s.outcome is not None
    assert s.outcome.winners == (0,)
    assert s.outcome.ranks == (1, 3, 2)     # B went out first


def test_rule_turn_passes_to_the_right_skipping_players_out() -> None:
    s = dealt(["b0", "w0", "b1", "w1"], "b5 b6 b7", hand=1)
    s = s.play("attack C1=1")             # A knocks out C
    s = s.play("attack D1=1")             # A knocks out D
    s = s.play("stay")
    assert s.turn == 1                     # B is A's right-hand neighbour
    s = s.play("attack A1=11")             # B misses
    assert s.turn == 0                     # C and D are out: skipped


def test_rule_bad_moves_are_refused_with_typed_errors() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w1 w2 w3"], "b4")
    with pytest.raises(MalformedMoveError):
        s.play("guess 7")
    with pytest.raises(IllegalMoveError, match="not your own"):
        s.play("attack A1=3")
    with pytest.raises(IllegalMoveError, match="only 4 cards"):
        s.play("attack B9=3")
    with pytest.raises(IllegalMoveError, match="at least one hit"):
        s.play("stay")
    with pytest.raises(NotYourTurnError):
        s.play("attack A1=0", 1)
    with pytest.raises(OptionError, match="pair play needs exactly 4"):
        GAME.new_game({"mode": "pair", "players": 3})
    with pytest.raises(OptionError, match="hand"):
        GAME.new_game({"players": 8, "hand": 7})


def test_rule_pair_play_pass_show_use_enemies_only() -> None:
    s = GAME.new_game({"variant": "pair"}, 4)
    assert s.acting_seats == (0,) and s.legal_moves().texts() == ["pass!"]
    s = s.play("pass!")
    assert s.phase == SHOW and s.acting_seats == (2,)        # the partner chooses
    s = s.play("show 3", 2)
    sid = s.rows[2][2][0]
    number = s.rows[2][2][1] // 2
    assert s.view(0)["rows"][2][2]["number"] == number         # attacker sees it
    for other in (1, 3, None):
        assert "number" not in s.view(other)["rows"][2][2]    # enemies do not
    assert s.phase == USE
    s = s.play("use 1")
    with pytest.raises(IllegalMoveError, match="never your partner"):
        s.play("attack C1=0")
    targets = {t.split()[1][0] for t in s.legal_moves().texts() if t.startswith("attack")}
    assert targets == {"B", "D"}
    s = s.play("attack B1=11") if s.rows[1][0][1] // 2 != 11 else s.play("attack B1=10")
    if s.turn == 1:                      # missed: the next enemy (right-hand) plays
        assert s.phase == PASS
    assert sid in s.seen[0]


def test_rule_pair_wins_when_both_enemy_rows_up() -> None:
    s = GAME.new_game({"variant": "pair", "hand": 1}, 2)
    s = s.play("pass!").play("show 1", 2).play("use 1")
    b = s.rows[1][0][1] // 2
    s = s.play(f"attack B1={b}")
    d = s.rows[3][0][1] // 2
    s = s.play(f"attack D1={d}")
    assert s.is_over and s.outcome is not None and set(s.outcome.winners) == {0, 2}


def test_rule_jokers_placed_anywhere_and_named_by_six() -> None:
    s = dealt(["b6 b1 b2 b3", "w0 w1 w2 w3"], "w6 b9", jokers=True)
    assert s.phase == SETUP and s.legal_moves().texts() == [f"place {i}" for i in range(1, 5)]
    s = s.play("place 1")                  # 6 before 1: legal only because it is a joker
    assert names(s, 0) == ["b6", "b1", "b2", "b3"]
    assert s.phase == SETUP and s.legal_moves().texts() == ["ready"]   # B has no joker
    s = s.play("ready")
    assert s.phase == ATTACK and s.hand == 13                  # drew the white 6 joker
    s = s.play("attack B1=0")
    s = s.play("stay")
    assert s.phase == PLACE and len(s.legal_moves()) == 5      # a drawn joker goes anywhere
    s = s.play("place 3")
    assert names(s, 0) == ["b6", "b1", "w6", "b2", "b3"]
    # B draws b9; naming 6 on A's first card hits the joker
    s = s.play("attack A1=6")
    assert names(s, 0)[0] == "B6"


def test_rule_two_jokers_placed_in_one_move() -> None:
    s = dealt(["b6 w6 b2 b3", "w0 w1 w2 w3"], "b9", jokers=True)
    moves = s.legal_moves().texts()
    assert len(moves) == 4 * 3 and "place 4 1" in moves       # black joker 4th, white 1st
    s = s.play("place 4 1")
    assert names(s, 0) == ["w6", "b2", "b3", "b6"]
    with pytest.raises(IllegalMoveError, match="each of your jokers"):
        s.play("place 2 2", 1)


def test_rule_non_joker_may_sit_on_either_side_of_a_joker() -> None:
    s = dealt(["b6 b3 b5 b7", "w0 w1 w2 w3"], "b2", jokers=True)
    s = s.play("place 1").play("ready")    # b6 b3 b5 b7 → joker first
    s = s.play("attack B1=0").play("stay")  # keep b2: before or after the joker
    assert s.phase == PLACE and s.legal_moves().texts() == ["place 1", "place 2"]


def test_rule_jokers_every_placement_is_a_decision() -> None:
    """With jokers even a forced place is asked for, so a choice cannot betray a joker."""
    s = dealt(["b1 b3 b5 b7", "w0 w1 w2 w3"], "b9", jokers=True)
    s = s.play("ready").play("ready")
    s = s.play("attack B1=0").play("stay")
    assert s.phase == PLACE and s.legal_moves().texts() == ["place 5"]


def test_rule_two_sets_identical_cards_side_by_side() -> None:
    s = dealt(["b3 b3 b5 b7", "w0 w1 w2 w3"], "b5", sets=2)
    assert names(s, 0) == ["b3", "b3", "b5", "b7"]
    s = s.play("attack B1=0").play("stay")
    assert names(s, 0) == ["b3", "b3", "b5", "b5", "b7"]


def test_rule_chip_scoring() -> None:
    s = dealt(["b0", "w0", "w1"], "b6 b5", hand=1, chips=True)
    s = s.play("attack C1=1")              # a hit made with a 6: 10 + 10 ...
    assert s.view(1)["chips"] == [10, 0, 0]  # ... the 6's 10 stay secret until the end
    s = s.play("attack B1=0")
    assert s.view(1)["chips"] == [40, 0, 0]
    assert s.is_over and s.outcome is not None
    # survivor: 10 per face-down card (b0 and the kept b6) + 10 because a 6 is down
    assert s.outcome.scores == (40 + 30, 0, 0)


def test_rule_round_every_player_deals_once_and_chips_add_up() -> None:
    from asobiba.games.algo.rounds import round_options, round_totals
    from asobiba.play.runner import play_game

    games = round_options({"variant": "pair", "chips": True})
    assert [g["first"] for g in games] == [0, 1, 2, 3]
    outcomes = []
    for i, opts in enumerate(games):
        result = play_game(GAME, [GAME.make_bot("2", 10 * i + s) for s in range(4)], opts, i)
        assert result.states[0].turn == opts["first"]        # the dealer starts
        outcomes.append(result.states[-1].outcome)
    totals = round_totals(outcomes)
    assert totals == [sum(o.scores[s] for o in outcomes) for s in range(4)]
    assert all(t % 10 == 0 for t in totals) and sum(totals) > 0
