"""Algo level 5 (information-set MCTS, ``games/algo/search.py``) against level 4, the
previous top level. Seats alternate (two players) or rotate (four players); game seeds are
``first .. first+n-1``; level 5 runs a fixed number of iterations per decision (no clock), so
the result does not depend on the machine's load. Prints the score with a 95% interval
(normal approximation of the mean of the per-game points), CPU seconds beside wall seconds,
and the load average.

Level 5 plays level 4's moves except where its search overrules level 4's continue-or-stay
rule, so the same games are also played with level 4 in the hero's seat (same seeds, same
bot seeds): the *paired* difference (level-5 game minus level-4 game, per seed) measures
what the search's decisions are worth, without the seat-and-deal noise both share.

Usage: python bench/algo_search_arena.py [games=200] [players=2] [iterations=400] [first=0]
    [gate=Z_GATE]
"""

from __future__ import annotations

import math
import os
import sys
import time

from asobiba.core import Bot
from asobiba.games import get
from asobiba.games.algo.search import Z_GATE, AlgoSearchBot
from asobiba.play.runner import play_game

GAME = get("algo")


def interval(points: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    n = len(points)
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def one(i: int, players: int, hero: Bot) -> float:
    me = i % players
    bots: list[Bot] = [hero if s == me else GAME.make_bot("4", i * 10 + s)
                       for s in range(players)]
    outcome = play_game(GAME, bots, {"players": players}, seed=i).states[-1].outcome
    assert outcome is not None
    return outcome.points(me)


def match(games: int, players: int, iterations: int, first: int, gate: float
          ) -> tuple[list[float], list[float], int, int]:
    """Per-game points of the level-5 seat and of level 4 in its place, the searches, and
    how often the search overruled level 4's continue-or-stay rule."""
    points, base = [], []
    searches = overrides = 0
    for i in range(first, first + games):
        hero = AlgoSearchBot(i * 10 + i % players, time_limit=None, iterations=iterations,
                             gate=gate)
        points.append(one(i, players, hero))
        base.append(one(i, players, GAME.make_bot("4", i * 10 + i % players)))
        searches += hero.searches
        overrides += hero.overrides
    return points, base, searches, overrides


def main() -> None:
    args = [int(a) for a in sys.argv[1:5]]
    games, players, iterations, first = (args + [200, 2, 400, 0][len(args):])[:4]
    gate = float(sys.argv[5]) if len(sys.argv) > 5 else Z_GATE
    cpu, wall = time.process_time(), time.perf_counter()
    points, base, searches, overrides = match(games, players, iterations, first, gate)
    mean, half = interval(points)
    bmean, bhalf = interval(base)
    dmean, dhalf = interval([a - b for a, b in zip(points, base, strict=True)])
    differ = sum(1 for a, b in zip(points, base, strict=True) if a != b)
    wins = sum(1 for p in points if p == 1.0)
    print(f"{players} players, level 5 ({iterations} iterations, gate {gate}) vs level 4: "
          f"score {mean:.3f} ± {half:.3f} (95%), {wins} wins of {games} games, "
          f"seeds {first}..{first + games - 1} (fair share {1 / players:.3f}); "
          f"{searches} searches, {overrides} overruled level 4's rule")
    print(f"same games, level 4 in its seat: score {bmean:.3f} ± {bhalf:.3f}; paired "
          f"difference {dmean:+.3f} ± {dhalf:.3f} (95%); {differ} games ended differently")
    print(f"cpu {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
