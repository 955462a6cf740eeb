"""Memory Matrix arenas: the perfect-memory top level against three level-2 bots in
4-player games, and each level against the one below in 2-player games (seats rotated).

Run: ``nice -n 10 .venv/bin/python bench/memory_matrix_arena.py [games4] [games2]``.
Prints the tables recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import sys
import time

from asobiba.cli.arena import run_arena
from asobiba.games import get


def table(title: str, result: dict, seconds: float) -> None:
    print(f"\n{title}  ({result['games']} games, {seconds:.0f} s)")
    print("| bot | wins | shared 1st | losses | win % | mean score |")
    print("|---|---|---|---|---|---|")
    for b in result["bots"]:
        pct = 100.0 * b["wins"] / b["games"]
        print(f"| {b['bot']} | {b['wins']} | {b['draws']} | {b['losses']} | {pct:.0f}% "
              f"| {b['mean_score']:.1f} |")


def main() -> None:
    games4 = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    games2 = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    game = get("memory_matrix")
    top = game.bot_levels[-1].level
    start = time.perf_counter()
    res = run_arena(game, [top, "2", "2", "2"], game.make_bot, games4, seed=1,
                    options={"players": 4})
    table(f"4 players: level {top} vs three level 2", res, time.perf_counter() - start)
    levels = game.level_names()
    for low, high in zip(levels, levels[1:]):
        start = time.perf_counter()
        res = run_arena(game, [high, low], game.make_bot, games2, seed=2,
                        options={"players": 2})
        table(f"2 players: level {high} vs level {low}", res, time.perf_counter() - start)


if __name__ == "__main__":
    main()
