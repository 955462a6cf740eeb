"""Algo bot arena: level 4 against level 2 (2 and 4 players), the level ladder, pair play.
Seats alternate so no level keeps the first move. Usage: python bench/algo_arena.py [n=400]
"""

from __future__ import annotations

import sys
import time

from asobiba.games import get
from asobiba.play.runner import play_game

GAME = get("algo")


def duel(a: str, b: str, games: int) -> float:
    """Points of level ``a`` against ``b`` in two-player games."""
    pts = 0.0
    for i in range(games):
        me = i % 2
        bots = [GAME.make_bot(a if s == me else b, i * 10 + s) for s in range(2)]
        outcome = play_game(GAME, bots, {}, seed=i).states[-1].outcome
        assert outcome is not None
        pts += outcome.points(me)
    return pts / games


def one_vs_three(a: str, b: str, games: int) -> float:
    """Share of four-player games won by one level-``a`` bot against three level-``b``."""
    wins = 0
    for i in range(games):
        me = i % 4
        bots = [GAME.make_bot(a if s == me else b, i * 10 + s) for s in range(4)]
        outcome = play_game(GAME, bots, {"players": 4}, seed=i).states[-1].outcome
        assert outcome is not None
        wins += outcome.ranks[me] == 1
    return wins / games


def pairs(a: str, b: str, games: int) -> float:
    wins = 0
    for i in range(games):
        team = i % 2
        bots = [GAME.make_bot(a if s % 2 == team else b, i * 10 + s) for s in range(4)]
        outcome = play_game(GAME, bots, {"variant": "pair"}, seed=i).states[-1].outcome
        assert outcome is not None
        wins += outcome.ranks[team] == 1
    return wins / games


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    t = time.time()
    r = duel("4", "2", n)
    print(f"2 players, level 4 vs level 2: {r:.1%} of {n} games (target >= 65%)")
    r = one_vs_three("4", "2", n)
    print(f"4 players, level 4 vs three level 2: wins {r:.1%} of {n} games (target >= 40%; "
          "a fair share is 25%)")
    r3 = one_vs_three("3", "2", n)
    print(f"4 players, level 3 vs three level 2: wins {r3:.1%} of {n} games (reference)")
    ladder = [(b, a, duel(a, b, n // 2)) for a, b in (("2", "1"), ("3", "2"), ("4", "3"))]
    for lo, hi, score in ladder:
        print(f"ladder: level {hi} vs level {lo}: {score:.1%} of {n // 2} games")
    print("ladder monotone:", all(score > 0.5 for _, _, score in ladder))
    p = pairs("4", "2", n // 4)
    print(f"pair play, level-4 pair vs level-2 pair: {p:.1%} of {n // 4} games")
    print(f"({time.time() - t:.0f} s)")


if __name__ == "__main__":
    main()
