"""The score of a paired-openings match, shared by the learned-against-top benchmarks.

Each opening is played twice with the colours swapped; the two games are one pair and the
pairs are the independent samples: the score is the mean of the pairs' means and its 95 %
interval is 1.96 standard errors of that mean (a normal approximation over the pairs, not
over the games, since a pair's two games share their opening).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Row = dict[str, Any]


@dataclass(frozen=True)
class PairedScore:
    """Wins, draws and losses over whole pairs, the score and its 95 % interval."""

    wins: int
    draws: int
    losses: int
    pairs: int
    score: float
    low: float
    high: float

    @classmethod
    def of(cls, pairs: Sequence[Sequence[Row]]) -> PairedScore:
        """Score the pairs (each a sequence of two rows, each row with ``points`` 1, ½ or 0)."""
        means = [statistics.fmean(float(r["points"]) for r in p) for p in pairs]
        points = [float(r["points"]) for p in pairs for r in p]
        n = len(means)
        score = statistics.fmean(means) if means else math.nan
        half = 1.96 * statistics.stdev(means) / math.sqrt(n) if n > 1 else math.nan
        wins, draws = points.count(1.0), points.count(0.5)
        return cls(wins, draws, len(points) - wins - draws, n, score, score - half,
                   score + half)

    def line(self, title: str) -> str:
        return (f"{title}: {self.wins} wins, {self.draws} draws, {self.losses} losses in "
                f"{self.wins + self.draws + self.losses} games; score {self.score:.3f} "
                f"(95 % interval {self.low:.3f} .. {self.high:.3f}, over {self.pairs} "
                f"opening pairs)")

    def verdict(self, target: float) -> str:
        return (f"target {target:.2f}: {'met' if self.score >= target else 'NOT met'}; "
                f"ladder floor 0.60: {'kept' if self.score >= 0.60 else 'NOT kept'}")


def pairs_by(rows: Sequence[Row], key: str) -> list[list[Row]]:
    """The rows grouped by ``key`` (an opening's name or number), whole pairs only."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(str(r[key]), []).append(r)
    return [v for v in groups.values() if len(v) == 2]


def cost_line(rows: Sequence[Row], learned: str, top: str) -> str:
    """The moves' CPU of each side, and, where the rows carry them, seconds a move and the
    mean depth reached."""
    lc = sum(float(r["learned_cpu"]) for r in rows)
    tc = sum(float(r["top_cpu"]) for r in rows)
    text = f"moves' CPU: {learned} {lc:.1f} s, {top} {tc:.1f} s"
    if rows and "learned_s_move" in rows[0]:
        text += (f"; s/move (mean of games) "
                 f"{statistics.fmean(float(r['learned_s_move']) for r in rows):.2f} vs "
                 f"{statistics.fmean(float(r['top_s_move']) for r in rows):.2f}, longest "
                 f"{max(float(r['learned_max_s']) for r in rows):.2f} vs "
                 f"{max(float(r['top_max_s']) for r in rows):.2f}")
    if rows:
        text += (f"; mean depth "
                 f"{statistics.fmean(float(r['learned_depth']) for r in rows):.2f} vs "
                 f"{statistics.fmean(float(r['top_depth']) for r in rows):.2f}")
    return text
