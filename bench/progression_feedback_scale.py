"""Fit the logistic scale that turns a game's evaluations into winning chances.

Plays bot games (four levels against each other, seeded), takes the feedback evaluator's best
value for the side to move at each position of the middle of the game (from 15 % to 70 % of
its length), and finds by maximum likelihood the ``scale`` for which 1/(1+e^(−v/scale)) best
predicts the final result (win 1, draw ½, loss 0). Prints the fit and the log-loss next to
the value in the game's ``thresholds`` hook (``asobiba/games/<game>/progression.py``) and next to a coin flip (0.693).

    nice -n 10 .venv/bin/python bench/progression_feedback_scale.py [game] [games]

Games: reversi, reverstargo, flipflop (the 5×5 board: 3×3 values are exact), memory_matrix
(two players, 8×8). Algo and Patapata value single decisions, not positions, so their scales
are argued in docs/progression.md rather than fitted. Values are taken as the evaluator
gives them to the mover (for Memory Matrix: from the mover's views only).
"""

from __future__ import annotations

import math
import sys
import time

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.feedback import evaluator_for, thresholds_for, values_for

LEVELS = {"reversi": ["1", "2", "3", "4"],
          "reverstargo": ["intermediate", "advanced", "formidable", "max"],
          "flipflop": ["2", "3", "4", "4"],
          "memory_matrix": ["1", "2", "3", "3"]}
OPTIONS = {"flipflop": {"board": "5x5"}, "memory_matrix": {"players": 2}}


def main(game_id: str = "reversi", games: int = 24) -> None:
    game = get(game_id)
    options = OPTIONS.get(game_id, {})
    ev = evaluator_for(game_id, game.validate_options(options))
    assert ev is not None, f"{game_id} has no evaluator"
    th = thresholds_for(game_id, options)
    levels = LEVELS[game_id]
    samples: list[tuple[float, float]] = []
    t0 = time.perf_counter()
    for i in range(games):
        a, b = levels[i % 4], levels[(i // 4 + i) % 4]
        res = play_game(game, [game.make_bot(a, i), game.make_bot(b, 1000 + i)], options, i)
        outcome = res.states[-1].outcome
        assert outcome is not None
        n = len(res.states) - 1
        for ply, state in enumerate(res.states[:-1]):
            if not 0.15 * n <= ply <= 0.70 * n or len(state.legal_moves()) < 2:
                continue
            seat = state.to_move
            assert seat is not None
            best = max(values_for(ev, res.states[: ply + 1], seat).values())
            if abs(best) >= th.win_value:
                continue
            samples.append((best, outcome.points(seat)))
    secs = time.perf_counter() - t0

    def logloss(scale: float) -> float:
        total = 0.0
        for v, y in samples:
            p = min(max(1.0 / (1.0 + math.exp(-v / scale)), 1e-9), 1 - 1e-9)
            total -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return total / len(samples)

    lo, hi = 1.0, 5000.0
    for _ in range(80):  # golden-section search on log-loss
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if logloss(m1) < logloss(m2):
            hi = m2
        else:
            lo = m1
    fit = (lo + hi) / 2
    print(f"{game_id}: games {games}, positions {len(samples)}, {secs:.1f} s")
    print(f"fitted scale {fit:.1f}: log-loss {logloss(fit):.4f}")
    print(f"current scale {th.scale:.1f}: log-loss {logloss(th.scale):.4f}")
    print(f"coin flip: log-loss {math.log(2):.4f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "reversi", int(args[1]) if len(args) > 1 else 24)
