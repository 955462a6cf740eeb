"""The paired-openings score the learned-against-top benchmarks share (bench/paired.py)."""

from __future__ import annotations

import math

from bench.paired import PairedScore, cost_line, pairs_by


def _row(opening: int, points: float) -> dict[str, object]:
    return {"opening": opening, "points": points, "learned_cpu": 2.0, "top_cpu": 1.0,
            "learned_depth": 6, "top_depth": 4}


def test_pairs_are_the_samples_and_a_lone_game_is_left_out() -> None:
    rows = [_row(0, 1.0), _row(0, 1.0), _row(1, 1.0), _row(1, 0.0), _row(2, 0.5),
            _row(2, 0.5), _row(3, 1.0)]   # opening 3 lost its second game: not a pair
    whole = pairs_by(rows, "opening")
    assert [len(p) for p in whole] == [2, 2, 2]
    result = PairedScore.of(whole)
    assert (result.wins, result.draws, result.losses, result.pairs) == (3, 2, 1, 3)
    means = [1.0, 0.5, 0.5]
    mean = sum(means) / 3
    sd = math.sqrt(sum((m - mean) ** 2 for m in means) / 2)
    assert math.isclose(result.score, mean)
    assert math.isclose(result.high - result.score, 1.96 * sd / math.sqrt(3))
    assert math.isclose(result.score - result.low, 1.96 * sd / math.sqrt(3))
    assert "3 wins, 2 draws, 1 losses in 6 games" in result.line("x")
    assert result.verdict(0.70) == "target 0.70: NOT met; ladder floor 0.60: kept"


def test_one_pair_has_no_interval_and_the_costs_are_summed() -> None:
    rows = [_row(0, 1.0), _row(0, 0.0)]
    result = PairedScore.of(pairs_by(rows, "opening"))
    assert result.score == 0.5 and math.isnan(result.low)
    assert result.verdict(0.5) == "target 0.50: met; ladder floor 0.60: NOT kept"
    assert cost_line(rows, "new", "old") == "moves' CPU: new 4.0 s, old 2.0 s; mean depth 6.00 vs 4.00"
