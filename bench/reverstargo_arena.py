"""ReverStarGo ladder: reverse matches between consecutive levels; as reference rows, the
app's one-ply Formidable (``app-formidable``) against Advanced and our level 5, and our MAX
and FINAL against a rebuild of the app's FINAL (6-ply alpha-beta with the app's evaluation).

Each match is two games from the same random 3-ply opening, colours swapped; the winner has
the higher summed total (ties: summed captures). Prints a markdown table, with the higher
bot's mean and longest seconds per move (its ``choose`` calls, the machine's load included).

    .venv/bin/python bench/reverstargo_arena.py [matches] [--from N] [pair ...]

``pair`` is ``high:low`` (e.g. ``final:app-final``); default: the whole ladder. ``--from N``
starts at match N (openings are seeded by match number), to extend an earlier run.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from typing import Any

from asobiba.core import Bot
from asobiba.games.reverstargo.arena import reverse_match
from asobiba.games.reverstargo.bots import make_bot

LADDER = [("beginner", "entry"), ("intermediate", "beginner"), ("advanced", "intermediate"),
          ("formidable", "advanced"), ("max", "formidable"), ("final", "max"),
          # reference rows: the app's one-ply Formidable, our MAX and FINAL against the app's
          ("app-formidable", "advanced"), ("formidable", "app-formidable"),
          ("max", "app-final"), ("final", "app-final")]


class Timed:
    """Seconds spent in the ``choose`` calls of the bots made through it."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.times: list[float] = []

    def __call__(self, seed: int) -> Bot:
        bot = make_bot(self.level, seed)
        choose = bot.choose

        def timed(view: Mapping[str, Any]) -> str:
            t = time.perf_counter()
            text = choose(view)
            self.times.append(time.perf_counter() - t)
            return text

        bot.choose = timed  # type: ignore[method-assign]
        return bot


def run(high: str, low: str, matches: int, first: int = 0) -> str:
    start = time.perf_counter()
    cpu = time.process_time()
    points = 0.0
    wins = draws = 0
    margin = 0
    timed = Timed(high)
    for i in range(matches):
        r = reverse_match(timed, lambda s: make_bot(low, s), 10_000 + first + i).result
        points += r.points(0)
        wins += r.winner == 0
        draws += r.winner is None
        margin += r.totals[0] - r.totals[1]
    secs = time.perf_counter() - start
    cpu = time.process_time() - cpu
    per_move = sum(timed.times) / max(1, len(timed.times))
    line = (f"| {high} vs {low} | {matches} | {wins}-{draws}-{matches - wins - draws} | "
            f"{100 * points / matches:.0f}% | {margin / matches:+.1f} | {secs:.0f} s (CPU {cpu:.0f} s, "
            f"load {os.getloadavg()[0]:.1f}) | {per_move:.2f} / {max(timed.times, default=0.0):.2f} s |")
    print(line, flush=True)
    return line


def main() -> None:
    args = sys.argv[1:]
    matches = int(args.pop(0)) if args else 100
    first = 0
    if args[:1] == ["--from"]:
        first = int(args[1])
        args = args[2:]
    pairs = [tuple(p.split(":")) for p in args] or LADDER
    print("| pair (higher vs lower) | reverse matches | W-D-L | score | mean margin | time (CPU, load at the end) "
          "| higher's s/move (mean / longest) |")
    print("|---|---|---|---|---|---|---|", flush=True)
    for high, low in pairs:
        run(high, low, matches, first)


if __name__ == "__main__":
    main()
