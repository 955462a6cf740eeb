"""Milliseconds per move-feedback call, per game, as the server pays them.

For each game a seeded bot game is played; then, for every move of the game (or every
``step``-th), the time of ``Progression.move_feedback`` — the call ``POST
/api/rooms/{room}/feedback`` makes in a worker thread: replay the moves from the seed,
build the mover's views where the game hides something, evaluate — is measured. Prints
mean, median, 90th percentile and maximum per game, and the time of a whole-game review.

    nice -n 10 .venv/bin/python bench/progression_feedback_latency.py [game ...]
"""

from __future__ import annotations

import statistics
import sys
import time

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.feedback import review
from asobiba.progression.service import Progression

CASES = [
    ("reversi", {}, ("2", "3")),
    ("flipflop", {"board": "3x3"}, ("3", "4")),
    ("flipflop", {"board": "5x5"}, ("3", "3")),
    ("reverstargo", {}, ("intermediate", "advanced")),
    ("memory_matrix", {"players": 2}, ("2", "3")),
    ("memory_matrix", {"players": 4}, ("2", "2", "2", "2")),
    ("algo", {}, ("3", "4")),
    ("algo", {"players": 4, "mode": "pair"}, ("3", "4", "3", "4")),
    ("patapata", {"course": "1"}, ("god",)),
    ("patapata", {}, ("god",)),
]


def main(only: list[str]) -> None:
    print(f"{'game':<12} {'options':<28} {'calls':>5} {'mean':>7} {'median':>7} {'p90':>7} "
          f"{'max':>7} {'review s':>9}")
    for game_id, options, levels in CASES:
        if only and game_id not in only:
            continue
        game = get(game_id)
        res = play_game(game, [game.make_bot(lv, 10 + i) for i, lv in enumerate(levels)],
                        options, 11)
        moves = [(m.seat, m.move) for m in res.moves]
        step = max(1, len(moves) // 40)
        times = []
        for k in range(0, len(moves), step):
            seat, text = moves[k]
            if len(res.states[k].legal_moves(seat)) < 2:
                continue
            t0 = time.perf_counter()
            Progression.move_feedback(game_id, moves[:k], text, options, 11, seat)
            times.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        review(game_id, moves, options, 11)
        whole = time.perf_counter() - t0
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"{game_id:<12} {str(options):<28} {len(times):>5} {statistics.mean(times):>7.1f} "
              f"{statistics.median(times):>7.1f} {p90:>7.1f} {times[-1]:>7.1f} {whole:>9.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
