"""Issue 14 item 6: move feedback and reviews are finite JSON for every game.

The attack: ``POST /api/review`` answered 500 for Algo and Memory Matrix records — a forced
move's winning chances were NaN, which is not JSON. Property: for random games of all six
(random seeds, options' defaults, random legal moves, random lengths), the review and the
feedback on a random move serialise with ``allow_nan=False``."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asobiba.core import MoveEntry, Record
from asobiba.games import available, get
from asobiba.progression import Progression

GAMES = sorted(available())
MAX_PLIES = {"patapata": 1, "reversi": 64}
"""Reversi's forced moves (passes) come near the end; Patapata's feedback simulates the
course, so its first turn is enough; 40 for the others."""


def random_game(game_id: str, seed: int, cap: int) -> tuple[dict, list[tuple[int, str]]]:
    """Random legal moves from a random deal, up to and including the first forced move
    (one legal move: its chances were NaN) or ``cap`` moves, whichever comes first."""
    game = get(game_id)
    options = game.validate_options({})
    state = game.new_game(options, seed)
    rng = random.Random(seed)
    moves: list[tuple[int, str]] = []
    while not state.is_over and len(moves) < cap:
        seat = state.acting_seats[0]
        legal = state.legal_moves(seat).texts()
        text = legal[rng.randrange(len(legal))]
        moves.append((seat, text))
        state = state.play(text, seat)
        if len(legal) == 1:
            break
    return dict(state.options), moves


def test_all_six_games_are_covered() -> None:
    assert len(GAMES) >= 6


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_property_review_and_feedback_are_finite_json(game_id: str, seed: int) -> None:
    options, moves = random_game(game_id, seed, MAX_PLIES.get(game_id, 40))
    record = Record(game=game_id, options=options, seed=seed,
                    moves=tuple(MoveEntry(s, m) for s, m in moves))
    review = Progression.review(record)
    json.dumps(review, allow_nan=False)  # raises ValueError on NaN / Infinity
    if review is not None:
        assert len(review["moves"]) == len(moves)
        for fb in review["moves"]:
            for key in ("value", "best_value", "chance_before", "chance_after"):
                assert fb[key] is None or isinstance(fb[key], (int, float))
    ply = seed % len(moves)
    fb = Progression.move_feedback(game_id, moves[:ply], moves[ply][1], options, seed,
                                   moves[ply][0])
    json.dumps(fb, allow_nan=False)
