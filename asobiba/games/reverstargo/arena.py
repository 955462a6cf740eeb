"""Reverse matches between bots, from shared random openings (so deterministic searchers
still meet varied positions, and both games of a match start alike)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...core import Bot, Rng
from ...play.runner import play_game
from .game import GAME, ReverStarGoState
from .match import GameScore, ReverseMatchResult, score_reverse_match


def opening(seed: int, plies: int) -> list[str]:
    """``plies`` uniformly random legal moves from the start."""
    state = GAME.new_game()
    rng = Rng(seed, "reverstargo-opening")
    moves: list[str] = []
    for _ in range(plies):
        if state.is_over:
            break
        legal = state.legal_moves().texts()
        text = legal[rng.below(len(legal))]
        moves.append(text)
        state = state.play(text)
    return moves


def play_out(bots: tuple[Bot, Bot], moves: list[str]) -> ReverStarGoState:
    """Play a game after the opening ``moves`` (the one game loop, ``play_game``); bots
    (Black first) see views only."""
    final = play_game(GAME, bots, {}, 0, opening=moves).states[-1]
    assert isinstance(final, ReverStarGoState)
    return final


@dataclass
class MatchRecord:
    result: ReverseMatchResult
    games: tuple[ReverStarGoState, ReverStarGoState]


def reverse_match(make_a: Callable[[int], Bot], make_b: Callable[[int], Bot], seed: int,
                  opening_plies: int = 3) -> MatchRecord:
    """A plays Black then White against B, from the same opening."""
    moves = opening(seed, opening_plies)
    first = play_out((make_a(seed), make_b(seed + 1)), moves)
    second = play_out((make_b(seed + 2), make_a(seed + 3)), moves)
    return MatchRecord(score_reverse_match(GameScore.of(first), GameScore.of(second)),
                       (first, second))
