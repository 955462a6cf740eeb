"""Classic Reversi: rules (docs/rules/reversi.md), perft, notation, views, bots."""

from __future__ import annotations

import random

import pytest

from asobiba.core import IllegalMoveError, MalformedMoveError
from asobiba.games import get
from asobiba.games.reversi import bitboard as bb
from asobiba.games.reversi.game import ReversiState, parse_square, square_name
from tests.conformance import check_random_games, property_test

GAME = get("reversi")

# REFERENCE.md: leaves from the standard start, pass = one ply, finished game = one leaf
PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}


@pytest.mark.parametrize("depth, leaves", sorted(PERFT.items()))
def test_perft_matches_reference_table(depth, leaves):
    assert GAME.perft(depth) == leaves


def test_generic_perft_through_the_protocol_agrees():
    from asobiba.cli.main import generic_perft

    assert generic_perft(GAME.new_game(), 5) == PERFT[5]


def _slow_flips(black, white, turn, sq):
    """Reference implementation: walk each direction square by square."""
    mine, theirs = (black, white) if turn == 0 else (white, black)
    if (mine | theirs) >> sq & 1:
        return 0
    r0, c0 = divmod(sq, 8)
    total = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            run = 0
            r, c = r0 + dr, c0 + dc
            while 0 <= r < 8 and 0 <= c < 8 and theirs >> (8 * r + c) & 1:
                run |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < 8 and 0 <= c < 8 and mine >> (8 * r + c) & 1:
                total |= run
    return total


def test_bitboards_agree_with_slow_reference_on_random_positions():
    """The fast shift-and-mask move generator equals a square-by-square walk."""
    rnd = random.Random(5)
    for _ in range(400):
        occ = [rnd.choice((0, 0, 1, 2)) for _ in range(64)]
        black = sum(1 << i for i, v in enumerate(occ) if v == 1)
        white = sum(1 << i for i, v in enumerate(occ) if v == 2)
        for turn in (0, 1):
            mine, theirs = (black, white) if turn == 0 else (white, black)
            legal = bb.legal_mask(mine, theirs)
            for sq in range(64):
                slow = _slow_flips(black, white, turn, sq)
                assert bool(legal >> sq & 1) == bool(slow), (black, white, turn, sq)
                if slow:
                    assert bb.flips(mine, theirs, sq) == slow


def test_rule_start_position_and_black_first():
    s = GAME.new_game()
    assert s.to_move == 0
    board = s.view(None)["board"]  # rank 8 first
    assert board[3] == "...BW..."  # rank 5: d5 Black, e5 White
    assert board[4] == "...WB..."  # rank 4: d4 White, e4 Black
    assert sorted(s.legal_moves().texts()) == ["c4", "d3", "e6", "f5"]


def test_rule_flip_every_bracketed_line():
    # after d3 c3? construct: black plays to flip in two directions at once
    s = GAME.replay(["f5", "f6", "e6", "f4"])[-1]
    before = s.view(None)["counts"]
    t = s.play("e3")
    flipped = t.view(None)["flipped"]
    assert len(flipped) >= 1
    after = t.view(None)["counts"]
    assert after["black"] == before["black"] + 1 + len(flipped)
    assert after["white"] == before["white"] - len(flipped)


def test_rule_pass_only_when_no_placement_and_game_end():
    # a position where white has no move but black does: white must pass
    black = (1 << 0) | (1 << 1)
    white = 1 << 2
    s = ReversiState(black, white, 1, {})
    assert s.legal_moves().texts() == ["pass"]
    with pytest.raises(IllegalMoveError, match="must pass"):
        s.play("d4")
    s2 = s.play("pass")
    assert s2.to_move == 0
    # neither side can move -> over, most discs wins
    end = ReversiState((1 << 0) | (1 << 1), 0, 1, {})
    assert end.is_over and end.outcome.winners == (0,)
    assert end.outcome.scores == (2, 0)


def test_rule_draw_on_equal_discs():
    end = ReversiState(1 << 0, 1 << 63, 0, {})
    assert end.is_over and end.outcome.is_draw


def test_notation_round_trip_and_errors():
    for sq in range(64):
        assert parse_square(square_name(sq)) == sq
    s = GAME.new_game()
    for bad in ("i1", "a9", "", "d", "d33", "pas"):
        with pytest.raises((MalformedMoveError, IllegalMoveError)):
            s.play(bad)
    assert s.play("D3").to_json() == s.play("d3").to_json()


def test_conformance_random_games():
    check_random_games("reversi", [{}], games=6, probe_every=7)


def test_view_is_complete_and_state_rebuilds():
    """Perfect information: every seat and spectators see the same board; the bot's
    rebuild from the view equals the state."""
    s = GAME.replay(["d3", "c5", "f6", "f5"])[-1]
    assert s.view(0)["board"] == s.view(1)["board"] == s.view(None)["board"]
    rebuilt = GAME.state_from_view(s.view(0))
    assert (rebuilt.black, rebuilt.white, rebuilt.turn) == (s.black, s.white, s.turn)


def test_bot_levels_search_deeper_and_solve_endgames():
    from asobiba.games.reversi.bots import ReversiAdapter
    from asobiba.search.alphabeta import AlphaBeta

    # an endgame with 8 empties is solved exactly (result marked complete)
    s = GAME.new_game()
    rnd = random.Random(3)
    while (s.black | s.white).bit_count() < 56 and not s.is_over:
        s = s.play(rnd.choice(s.legal_moves().texts()))
    mine, theirs = (s.black, s.white) if s.turn == 0 else (s.white, s.black)
    res = AlphaBeta(ReversiAdapter()).search((mine, theirs, s.turn), 20)
    assert res.complete
    # exact value equals a plain minimax over the protocol (slow reference)
    def minimax(st):
        if st.is_over:
            o = st.outcome
            me = 0
            return o.scores[me] - o.scores[1 - me]
        vals = [minimax(st.child(m)) for m in st.legal_moves()]
        return max(vals) if st.to_move == 0 else min(vals)
    exact = minimax(s)
    value = res.value if s.turn == 0 else -res.value
    diff = value - (100_000 if value > 1000 else -100_000 if value < -1000 else 0)
    assert diff == exact


def test_higher_level_beats_lower():
    from asobiba.cli.arena import run_arena

    result = run_arena(GAME, ["3", "1"], GAME.make_bot, games=6, seed=1)
    assert result["bots"][0]["points"] > result["bots"][1]["points"]


def test_bot_sees_only_views_and_plays_legal_moves():
    bot = GAME.make_bot("2", 0)
    s = GAME.replay(["d3"])[-1]
    bot.reset(1, s.options)
    move = bot.choose(s.view(1))
    assert move in s.legal_moves(1)
    with pytest.raises(ValueError, match="levels"):
        GAME.make_bot("99")


test_property_random_games = property_test("reversi", [{}], max_examples=8)
