"""Algo level 5 (information-set MCTS, ``games/algo/search.py``) against level 4, the
previous top level. Seats alternate (two players) or rotate (four players); game seeds are
``first .. first+n-1``; level 5 runs a fixed number of iterations per decision (no clock), so
the result does not depend on the machine's load. Prints the score with a 95% interval
(normal approximation of the mean of the per-game points), CPU seconds beside wall seconds,
and the load average.

Usage: python bench/algo_search_arena.py [games=200] [players=2] [iterations=400] [first=0]
"""

from __future__ import annotations

import math
import os
import sys
import time

from asobiba.core import Bot
from asobiba.games import get
from asobiba.games.algo.search import AlgoSearchBot
from asobiba.play.runner import play_game

GAME = get("algo")


def interval(points: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    n = len(points)
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def match(games: int, players: int, iterations: int, first: int
          ) -> tuple[list[float], int, int]:
    """Per-game points of the level-5 seat, its searches, and how often the search
    overruled level 4's continue-or-stay rule."""
    points = []
    searches = overrides = 0
    for i in range(first, first + games):
        me = i % players
        hero = AlgoSearchBot(i * 10 + me, time_limit=None, iterations=iterations)
        bots: list[Bot] = [hero if s == me else GAME.make_bot("4", i * 10 + s)
                           for s in range(players)]
        outcome = play_game(GAME, bots, {"players": players}, seed=i).states[-1].outcome
        assert outcome is not None
        points.append(outcome.points(me))
        searches += hero.searches
        overrides += hero.overrides
    return points, searches, overrides


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    games, players, iterations, first = (args + [200, 2, 400, 0][len(args):])[:4]
    cpu, wall = time.process_time(), time.perf_counter()
    points, searches, overrides = match(games, players, iterations, first)
    mean, half = interval(points)
    wins = sum(1 for p in points if p == 1.0)
    print(f"{players} players, level 5 ({iterations} iterations) vs level 4: "
          f"score {mean:.3f} ± {half:.3f} (95%), {wins} wins of {games} games, "
          f"seeds {first}..{first + games - 1} (fair share {1 / players:.3f}); "
          f"{searches} searches, {overrides} overruled level 4's rule")
    print(f"cpu {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
