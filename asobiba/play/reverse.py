"""Reverse matches (seed §8): two games with the seats swapped; the higher sum of both games'
scores wins, equal sums go to the higher sum of the game's tie-break (ReverStarGo: captured
stones: the one hook ``GameProgression.view_tiebreak``, read through
:meth:`asobiba.core.Game.match_tiebreak`), then it is a draw.

:func:`reverse_winner` is the one scorer: the arena, bot matches and sets
(``progression/matches.py``) and ReverStarGo's match scoring all decide through it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core import Bot, Game, State
from ..core.jsontypes import JSONMapping
from .runner import GameResult, play_game

A, B = 0, 1


def reverse_winner(totals: Sequence[float], tiebreaks: Sequence[float]) -> int | None:
    """The player (``A`` = 0, ``B`` = 1) ahead on (summed score, summed tie-break), or None."""
    ka, kb = (totals[0], tiebreaks[0]), (totals[1], tiebreaks[1])
    return None if ka == kb else (A if ka > kb else B)


@dataclass(frozen=True)
class ReverseResult:
    """By player: ``totals``/``tiebreaks`` summed over both games; ``winner`` 0 (A), 1 (B) or
    None (a draw)."""

    totals: tuple[float, float]
    tiebreaks: tuple[float, float]
    winner: int | None

    def points(self, player: int) -> float:
        return 0.5 if self.winner is None else float(self.winner == player)


def score_reverse(game: Game, finals: Sequence[tuple[State, int]]) -> ReverseResult:
    """Score finished games given as (final state, seat of player A) — normally two, with A
    in each seat once."""
    totals, breaks = [0.0, 0.0], [0.0, 0.0]
    for final, seat_a in finals:
        outcome = final.outcome
        if outcome is None:
            raise ValueError("a reverse match is scored from finished games only")
        for player, seat in ((A, seat_a), (B, 1 - seat_a)):
            totals[player] += float(outcome.scores[seat])
            breaks[player] += game.match_tiebreak(final, seat)
    return ReverseResult((totals[0], totals[1]), (breaks[0], breaks[1]),
                         reverse_winner(totals, breaks))


def play_reverse(game: Game, make_a: Callable[[int, int], Bot], make_b: Callable[[int, int], Bot],
                 options: JSONMapping | None = None, seed: int = 0, first_seat_a: int = 0,
                 opening: Sequence[tuple[int, str] | str] = ()
                 ) -> tuple[ReverseResult, list[GameResult]]:
    """Play a reverse match: A in seat ``first_seat_a`` first, then in the other seat, both
    games from ``seed`` (the same deal) and the same ``opening``. ``make_x(leg, seat)`` builds
    a fresh bot for each game."""
    results, finals = [], []
    for leg in range(2):
        seat_a = first_seat_a if leg == 0 else 1 - first_seat_a
        bots = [make_a(leg, seat_a), make_b(leg, 1 - seat_a)]
        if seat_a == 1:
            bots.reverse()
        result = play_game(game, bots, options, seed, opening=opening)
        results.append(result)
        finals.append((result.states[-1], seat_a))
    return score_reverse(game, finals), results
