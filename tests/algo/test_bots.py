"""Algo bots: every level finishes games of every variant; a small duel still shows the
ladder; level 4's decisions follow from what a miss would reveal."""

from __future__ import annotations

import pytest

from asobiba.games import get
from asobiba.games.algo.bots import AlgoBot, candidates
from asobiba.games.algo.infer import infer_view
from asobiba.play.runner import play_game
from tests.algo.helpers import dealt

GAME = get("algo")


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"variant": "pair"},
                                     {"jokers": True}, {"colours": 3}, {"sets": 2},
                                     {"players": 5}, {"jokers": True, "players": 4}])
def test_every_level_finishes_every_variant(options: dict) -> None:
    n = GAME.new_game(options, 0).num_seats
    levels = ["4", "3", "2", "1"] * 2
    result = play_game(GAME, [GAME.make_bot(levels[s], s) for s in range(n)], options, seed=3)
    assert result.states[-1].is_over


def test_bad_level_is_refused() -> None:
    with pytest.raises(ValueError, match=r"levels are 1, 2, 3, 4, 5, 6 \(and 7, 8: references\)"):
        GAME.make_bot("9")


def test_small_duel_level_4_beats_level_1() -> None:
    wins = 0.0
    for i in range(20):
        me = i % 2
        bots = [GAME.make_bot("4" if s == me else "1", i * 10 + s) for s in range(2)]
        outcome = play_game(GAME, bots, {}, seed=i).states[-1].outcome
        assert outcome is not None
        wins += outcome.points(me)
    assert wins >= 14          # bench/algo_arena.py: ~88% over 400 games


def test_level_2_counts_candidates_between_known_neighbours() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w4 w5 w9"], "b4")
    s = s.play("attack B2=4")                  # hit: B = w0? W4 w5 w9 → known 4
    view = s.view(0)
    # B1 (white) lies below white 4: white 0..3, and white 0 is not excluded by anything
    assert candidates(view, 1, 0) == [0, 1, 2, 3]
    # B3 lies between white 4 and nothing known: 5..11 without numbers seen
    assert candidates(view, 1, 2) == [5, 6, 7, 8, 9, 10, 11]


def test_level_4_attacks_a_certain_card_and_continues_on_it() -> None:
    s = dealt(["b0 b1 b3 b4", "w0 b2 w2 w11"], "b5")
    s = s.play("attack B3=2")                 # hit white 2: B2 is black below it, and
    bot = AlgoBot(4, 0)                        # black 0 and 1 are A's own: B2 = black 2
    bot.reset(0, s.options)
    assert bot.choose(s.view(0)) == "attack B2=2"


def test_level_4_stays_when_a_miss_would_expose_it() -> None:
    s = dealt(["b0 b1 b2 b3", "w0 w4 w8 w11"], "b4")
    s = s.play("attack B1=0")                 # a hit; the rest of B is uncertain
    view = s.view(0)
    bot = AlgoBot(4, 0)
    bot.reset(0, s.options)
    inf = infer_view(view)
    best = max(p for sl in view["rows"][1] if not sl["up"]
               for p in inf.numbers(sl["id"]).values())
    assert best < 0.5
    assert bot.choose(view) == "stay"


def test_level_4_risks_a_card_the_table_can_already_read() -> None:
    """Level 3 stays below 50%; level 4 goes on when a miss would reveal little that the
    table cannot already deduce (found by replaying a level-3 game)."""
    s = GAME.replay(["attack B1=1", "stay", "attack A5=11"], {}, 2)[-1]
    view = s.view(s.turn)
    b3, b4 = AlgoBot(3, 0), AlgoBot(4, 0)
    assert b3.choose(view) == "stay"
    move = b4.choose(view)
    assert move.startswith("attack")
    target = move.split()[1]
    seat = "ABCDEFGH".index(target[0])
    pos, number = target[1:].split("=")
    sid = view["rows"][seat][int(pos) - 1]["id"]
    p = infer_view(view).numbers(sid)[int(number)]
    assert p < 0.5
    delta = b4.miss_cost(view, s.turn)
    assert p > delta / (1 + delta)
