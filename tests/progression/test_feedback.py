"""Move-quality feedback and the post-game review."""

from __future__ import annotations

import math

import pytest

from asobiba.core import IllegalMoveError
from asobiba.games import get
from asobiba.progression.feedback import (
    Thresholds,
    classify,
    move_feedback,
    review,
    thresholds_for,
    win_chance,
)

TH = Thresholds(scale=50.0, win_value=1000.0)


def test_classifier_bands_follow_the_drop_in_winning_chance() -> None:
    assert classify(0.6, 0.6, TH, True) == "best"
    assert classify(0.6, 0.59, TH, False) == "good"
    assert classify(0.6, 0.45, TH, False) == "inaccuracy"
    assert classify(0.6, 0.35, TH, False) == "mistake"
    assert classify(0.9, 0.2, TH, False) == "blunder"


def test_win_chance_is_monotone_and_exact_results_are_certain() -> None:
    values = [-2000, -100, -10, 0, 10, 100, 2000]
    chances = [win_chance(v, TH) for v in values]
    assert chances == sorted(chances) and chances[0] == 0.0 and chances[-1] == 1.0
    assert chances[3] == 0.5


def test_reversi_feedback_marks_handing_over_a_corner_as_a_blunder() -> None:
    """Black to move: a2 lets White take the a1 corner; the search sees it."""
    game = get("reversi")
    rows = ["........", "........", "........", "...BW...",
            "...WB...", "..BWW...", ".WB.....", "........"]
    state = game.state_from_view({"board": rows, "turn": "black"})
    assert "a1" in state.play("a2").legal_moves()  # White may now take the corner
    bad = move_feedback(state, "a2", ply=7)
    assert bad.quality == "blunder" and bad.ply == 7 and bad.seat == 0
    assert bad.chance_before - bad.chance_after >= thresholds_for("reversi").blunder
    best = move_feedback(state, bad.best_move)
    assert best.quality == "best" and best.value == bad.best_value
    others = {m: move_feedback(state, m).quality for m in state.legal_moves().texts()}
    assert list(others.values()).count("blunder") == 1


def test_feedback_refuses_an_illegal_move_with_the_games_error() -> None:
    state = get("reversi").new_game()
    with pytest.raises(IllegalMoveError):
        move_feedback(state, "a1")


def test_review_marks_a_losing_blunder_as_a_turning_point() -> None:
    """A game where Black had a won endgame and threw it away: the review finds that move."""
    game = get("reversi")
    from asobiba.play.runner import play_game

    res = play_game(game, [game.make_bot("1", 1), game.make_bot("3", 2)], {}, 0)
    moves = [(m.seat, m.move) for m in res.moves]
    rv = review("reversi", moves)
    assert len(rv.moves) == len(moves)
    assert sum(sum(c.values()) for c in rv.counts.values()) == len(moves)
    for ply in rv.turning_points:
        fb = rv.moves[ply - 1]
        assert fb.quality in ("mistake", "blunder")
        assert fb.chance_before >= 0.5 > fb.chance_after
    # the stronger side (level 3, White) won; the loser made the game's turning point
    assert res.states[-1].outcome.winners == (1,)
    assert rv.turning_points and all(rv.moves[p - 1].seat == 0 for p in rv.turning_points)
    assert rv.counts[0]["blunder"] + rv.counts[0]["mistake"] >= 1


def test_thresholds_are_data_per_game() -> None:
    th = thresholds_for("reversi")
    assert th.inaccuracy < th.mistake < th.blunder


def test_flipflop_3x3_exact_feedback_throwing_away_a_won_game_is_a_blunder() -> None:
    """From the start White wins with perfect play (solved table); Rb1-b2 loses."""
    state = get("flipflop").new_game()
    fb = {m: move_feedback(state, m) for m in state.legal_moves().texts()}
    assert fb["Rb1-b2"].quality == "blunder" and fb["Rb1-b2"].chance_after == 0.0
    assert fb["Rb1xb3"].quality == "best" and fb["Rb1xb3"].chance_before == 1.0
    assert fb["Ra1-a2"].quality == "best"  # a slower win is still a win
    assert fb["Ra1-a2"].value < fb["Rb1xb3"].value


def test_every_game_has_feedback_and_an_unknown_game_has_none() -> None:
    from asobiba.progression.feedback import has_feedback

    for game_id, options in [("reversi", {}), ("flipflop", {"board": "3x3"}),
                             ("flipflop", {"board": "5x5"}), ("reverstargo", {}),
                             ("memory_matrix", {}), ("algo", {}), ("patapata", {})]:
        assert has_feedback(game_id, options), (game_id, options)
    assert not has_feedback("no_such_game")


def test_reverstargo_feedback_values_every_legal_move_with_its_call() -> None:
    """Both CP calls of a cell are separate moves, valued separately (seed §5)."""
    from asobiba.progression.tutorials import tutorial

    state = tutorial("reverstargo").step("call").start()  # B1[B] or B1[W]
    fb_w = move_feedback(state, "B1[W]")
    fb_b = move_feedback(state, "B1[B]")
    assert fb_w.best_move == fb_b.best_move == "B1[W]"  # flipping both stones is better
    assert fb_w.quality == "best" and fb_b.value < fb_w.value


def test_reverstargo_review_of_a_bot_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    game = get("reverstargo")
    from asobiba.play.runner import play_game

    # MAX's endgame is bounded by time as well as nodes: a frozen clock keeps its game the
    # same whatever the machine's load
    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)
    res = play_game(game, [game.make_bot("beginner", 1), game.make_bot("max", 2)], {}, 0)
    rv = review("reverstargo", [(m.seat, m.move) for m in res.moves])
    assert len(rv.moves) == len(res.moves)
    # the random mover (seat 0) gives away more winning chance than the searcher (seat 1)
    lost = {s: sum(m.chance_before - m.chance_after for m in rv.moves
                   if m.seat == s and not math.isnan(m.chance_before)) for s in (0, 1)}
    assert lost[0] > 2 * lost[1]
    assert res.states[-1].outcome.winners == (1,)
