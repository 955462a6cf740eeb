"""Reverse match scoring (seed §8): two games with colours swapped; the higher sum of both
games' totals wins, equal sums are broken by summed captured stones, then it is a draw.

Pure functions over finished games, for the CLI now and the web app later."""

from __future__ import annotations

from dataclasses import dataclass

from ...play.reverse import reverse_winner
from .game import ReverStarGoState


@dataclass(frozen=True)
class GameScore:
    """One finished game's totals and captures, by seat (0 Black, 1 White)."""

    totals: tuple[int, int]
    captured: tuple[int, int]

    @classmethod
    def of(cls, state: ReverStarGoState) -> GameScore:
        if not state.is_over:
            raise ValueError("a reverse match is scored from finished games only")
        return cls(state.score(), state.captured)


@dataclass(frozen=True)
class ReverseMatchResult:
    """By player: ``A`` is Black in the first game and White in the second."""

    totals: tuple[int, int]
    captured: tuple[int, int]
    winner: int | None  # 0 = A, 1 = B, None = draw

    def points(self, player: int) -> float:
        return 0.5 if self.winner is None else float(self.winner == player)


def score_reverse_match(first: GameScore, second: GameScore) -> ReverseMatchResult:
    """Player A had Black in ``first`` and White in ``second``; decided by the platform's
    one reverse-match scorer (``play.reverse.reverse_winner``: totals, then captures)."""
    totals = (first.totals[0] + second.totals[1], first.totals[1] + second.totals[0])
    captured = (first.captured[0] + second.captured[1], first.captured[1] + second.captured[0])
    return ReverseMatchResult(totals, captured, reverse_winner(totals, captured))


def first_colour(set_index: int) -> int:
    """The colour player A takes in the first game of set ``set_index`` (0-based): colours
    keep alternating across sets, so set 1 is Black→White, set 2 White→Black, ..."""
    return set_index % 2
