"""Exact Algo deduction speed: median over random mid-game positions (2 and 4 players).

Positions come from games between level-2 bots, cut at a random move in the middle half of
the game, seen by the seat to act. Each position is timed with the lean no-joker programme
and, as the in-run baseline, with the general programme (same counts, checked).
Usage: python bench/algo_infer.py [positions=1000]
"""

from __future__ import annotations

import statistics
import sys
import time

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.algo.infer import Knowledge, infer
from asobiba.play.runner import play_game


def positions(options: dict, count: int) -> list[Knowledge]:
    game = get("algo")
    out: list[Knowledge] = []
    seed = 0
    while len(out) < count:
        n = game.new_game(options, seed).num_seats
        result = play_game(game, [game.make_bot("2", seed * 10 + s) for s in range(n)],
                           dict(options), seed=seed)
        states = result.states
        rng = Rng(seed, "bench")
        for _ in range(4):
            i = len(states) // 4 + rng.below(max(1, len(states) // 2))
            s = states[i]
            if not s.is_over:
                out.append(Knowledge.from_view(s.view(s.to_move)))
        seed += 1
    return out[:count]


def timed(kns: list[Knowledge], fast: bool) -> tuple[list[float], list[int]]:
    times, totals = [], []
    for kn in kns:
        t = time.perf_counter()
        totals.append(infer(kn, fast=fast).total)
        times.append((time.perf_counter() - t) * 1e3)
    return times, totals


def describe(times: list[float]) -> str:
    q = statistics.quantiles(times, n=100)
    return (f"min {min(times):.2f}  p10 {q[9]:.2f}  median {statistics.median(times):.2f}  "
            f"p90 {q[89]:.2f}  p99 {q[98]:.2f}  max {max(times):.2f} ms")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for label, options, budget in (("2 players", {}, 5.0), ("4 players", {"players": 4}, 50.0)):
        kns = positions(options, count)
        fast, totals = timed(kns, True)
        slow, totals2 = timed(kns, False)
        assert totals == totals2
        med, base = statistics.median(fast), statistics.median(slow)
        print(f"{label}: {count} positions, exact marginals")
        print(f"  lean    : {describe(fast)}")
        print(f"  general : {describe(slow)}")
        print(f"  median {med:.2f} ms (target <= {budget:g} ms: "
              f"{'met' if med <= budget else 'MISSED'}); general/lean = {base / med:.1f}x")
    extra = max(50, count // 10)
    print(f"other variants ({extra} positions each, the path infer() picks):")
    for label, options in (("pair play", {"variant": "pair"}), ("jokers, 2p", {"jokers": True}),
                           ("jokers, 4p", {"jokers": True, "players": 4}),
                           ("three colours", {"colours": 3}), ("two sets, 2p", {"sets": 2}),
                           ("7 players", {"players": 7})):
        kns = positions(options, extra)
        times, _ = timed(kns, True)
        print(f"  {label:14s}: {describe(times)}")


if __name__ == "__main__":
    main()
