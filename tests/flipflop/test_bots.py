"""FlipFlop bots: every level plays legal moves from views, low levels vary, the searcher's
mate scores agree with the solved 3×3 table, and small ladders order the levels."""

from __future__ import annotations

import pytest

from asobiba.games import get
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import solver3
from asobiba.games.flipflop.bots import LEVELS, make_bot
from asobiba.games.flipflop.search import WIN, Searcher
from asobiba.play.runner import play_game

from .test_solver import random_states

GAME = get("flipflop")
S3, S5 = {"board": "3x3"}, {"board": "5x5"}


def score(board, a, b, games, max_depth=None):
    """Points of level ``a`` against ``b``, colours alternating (``max_depth`` caps the
    upper level so the result does not depend on the machine's speed)."""
    pts = 0.0
    for i in range(games):
        A = make_bot(a, 100 + i, max_depth=max_depth)
        B = make_bot(b, 200 + i)
        bots = [A, B] if i % 2 == 0 else [B, A]
        res = play_game(GAME, bots, board, seed=i)
        pts += res.states[-1].outcome.points(i % 2)
    return pts


def test_levels_declared_and_unknown_level_refused():
    assert [b.level for b in GAME.bot_levels] == list(LEVELS)
    with pytest.raises(ValueError):
        make_bot("9")


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_on_both_boards(level):
    for options in (S3, S5):
        state = GAME.new_game(options)
        bot = make_bot(level, 1, time_limit=0.2)
        bot.reset(0, options)
        for _ in range(6):
            if state.is_over:
                break
            text = bot.choose(state.view(state.to_move))
            assert text in state.legal_moves()
            state = state.play(text)


@pytest.mark.parametrize("level", ["1", "2", "3"])
@pytest.mark.parametrize("options", [S3, S5], ids=["3x3", "5x5"])
def test_low_levels_vary_between_games(level, options):
    lines = set()
    for seed in range(6):
        res = play_game(GAME, [make_bot(level, seed), make_bot(level, seed + 50)], options,
                        seed)
        lines.add(tuple(m.move for m in res.moves[:8]))
    assert len(lines) >= 3


def test_searcher_mate_scores_match_the_solved_table():
    checked = 0
    for state in random_states(300, seed=21):
        value, dist = solver3.value_of(*state.tuple4())
        if dist > 5 or state.repetitions() > 1:
            continue
        s = Searcher(3)
        res = s.search(state.tuple4(), dist + 1)
        assert res.value == (WIN - dist if value == solver3.WIN else -(WIN - dist)), state.fen()
        checked += 1
    assert checked >= 20


def test_searcher_takes_an_undefended_goal_on_5x5():
    # White's rook on c3 can go to c5, and Black's only pieces, bishops on a5 and e5,
    # can never reach c5 from there: a win in two plies
    state = GAME.from_position("b3b/5/2R2/5/R3R w")
    res = Searcher(5).search(state.tuple4(), 4)
    assert state.move_text(next(m for m in state.legal_moves()
                                if (m.frm, m.to) == res.move)) == "Rc3-c5"
    assert res.value == WIN - 2


def test_searcher_must_retake_when_its_goal_is_occupied():
    state = GAME.new_game(S5).play("Rc1xc5")
    res = Searcher(5).search(state.tuple4(), 3)
    assert res.move[1] == bd.GEOMETRY[5].home_centre[1]


def test_top_level_uses_deepening_and_its_table():
    bot = make_bot("5", 3, max_depth=3)
    state = GAME.new_game(S5)
    bot.reset(0, S5)
    bot.choose(state.view(0))
    assert bot.last_info["depth"] == 3 and bot._searcher.tt
    first = bot.last_info["nodes"]
    bot.choose(state.view(0))   # same position again: the kept table saves work
    assert bot.last_info["nodes"] < first


def test_small_ladder_3x3():
    assert score(S3, "2", "1", 10) >= 7
    assert score(S3, "5", "3", 10) >= 7


def test_small_ladder_5x5():
    assert score(S5, "3", "1", 6) >= 5
    assert score(S5, "5", "2", 2, max_depth=4) >= 2
