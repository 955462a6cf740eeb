"""Fit the logistic scale that turns Reversi evaluations into winning chances.

Plays bot games (levels 1–4 against each other, seeded), takes the evaluator's best value for
the side to move at each position of the midgame (plies 10–44), and finds by maximum
likelihood the ``scale`` for which 1/(1+e^(−v/scale)) best predicts the final result (win 1,
draw ½, loss 0). Prints the fit and the log-loss next to the value in
``asobiba.progression.feedback.THRESHOLDS`` and next to a coin flip (0.693).

    nice -n 10 .venv/bin/python bench/progression_feedback_scale.py [games]
"""

from __future__ import annotations

import math
import sys
import time

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.feedback import THRESHOLDS, ReversiEvaluator


def main(games: int = 24) -> None:
    game = get("reversi")
    ev = ReversiEvaluator(depth=3)
    samples: list[tuple[float, float]] = []
    t0 = time.perf_counter()
    levels = ["1", "2", "3", "4"]
    for i in range(games):
        a, b = levels[i % 4], levels[(i // 4 + i) % 4]
        res = play_game(game, [game.make_bot(a, i), game.make_bot(b, 1000 + i)], {}, i)
        outcome = res.states[-1].outcome
        assert outcome is not None
        for ply, state in enumerate(res.states[:-1]):
            if not 10 <= ply <= 44 or len(state.legal_moves()) < 2:
                continue
            values = ev.move_values(state)
            best = max(values.values())
            if abs(best) >= 50_000:
                continue
            samples.append((best, outcome.points(state.to_move)))
    secs = time.perf_counter() - t0

    def logloss(scale: float) -> float:
        total = 0.0
        for v, y in samples:
            p = min(max(1.0 / (1.0 + math.exp(-v / scale)), 1e-9), 1 - 1e-9)
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return total / len(samples)

    lo, hi = 5.0, 2000.0
    for _ in range(80):  # golden-section search on log-loss
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if logloss(m1) < logloss(m2):
            hi = m2
        else:
            lo = m1
    fit = (lo + hi) / 2
    current = THRESHOLDS["reversi"].scale
    print(f"games {games}, positions {len(samples)}, {secs:.1f} s")
    print(f"fitted scale {fit:.1f}: log-loss {logloss(fit):.4f}")
    print(f"current scale {current:.1f}: log-loss {logloss(current):.4f}")
    print(f"coin flip: log-loss {math.log(2):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 24)
