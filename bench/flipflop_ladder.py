"""FlipFlop bot ladder: each level against the level below, colours alternating.

Uses the same arena as ``asobiba arena flipflop --bot A --bot B --games N``. Prints one
markdown row per pair (wins/draws/losses of the upper level, its score, plies per game and
seconds per move of each side) so the table can go straight into docs/benchmarks.md.

    .venv/bin/python bench/flipflop_ladder.py --board 3x3 --games 100
    .venv/bin/python bench/flipflop_ladder.py --board 5x5 --games 100 --pairs 5-4
"""

from __future__ import annotations

import argparse
import json
import time

from asobiba.cli.arena import run_arena
from asobiba.games import get
from asobiba.games.flipflop.bots import make_bot


class TimedBot:
    """Wraps a bot to measure its thinking time per move (the arena only sees choose)."""

    reads_state = False  # the game loop asks every bot this; the wrapper chooses from views

    def __init__(self, bot, sink):
        self.bot, self.sink = bot, sink
        self.name = bot.name
        self.level = bot.level

    def reset(self, seat, options):
        self.bot.reset(seat, options)

    def observe(self, view):
        self.bot.observe(view)

    def choose(self, view):
        t0 = time.perf_counter()
        move = self.bot.choose(view)
        dt = time.perf_counter() - t0
        self.sink.setdefault(self.bot.level, []).append(dt)
        return move


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", default="3x3", choices=("3x3", "5x5"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--pairs", default="2-1,3-2,4-3,5-4")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also append results to this file")
    ap.add_argument("--tables", type=int, default=None, choices=(4, 5),
                    help="5×5: the endgame tables level 5 reads (default: all on disk; 4 "
                         "plays level 5 as it was before the 5-piece layer, for an A/B)")
    args = ap.parse_args()
    if args.tables is not None:
        from asobiba.games.flipflop import tables

        only = tables.load(args.tables)
        tables.load = lambda pieces=None: only  # type: ignore[assignment]
    game = get("flipflop")
    print("| board | pair | games | wins | draws | losses | score | plies/game | "
          "s/move (upper, lower) | max s/move (upper) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        upper, lower = pair.split("-")
        times: dict[str, list[float]] = {}
        t0 = time.perf_counter()
        result = run_arena(game, [upper, lower],
                           lambda spec, seed, sink=times: TimedBot(make_bot(spec, seed), sink),
                           args.games, args.seed, {"board": args.board})
        up = result["bots"][0]
        moves = sum(len(v) for v in times.values())
        mean = {k: sum(v) / len(v) for k, v in times.items()}
        print(f"| {args.board} | L{upper} vs L{lower} | {up['games']} | {up['wins']} | "
              f"{up['draws']} | {up['losses']} | {up['mean_points']:.0%} | "
              f"{moves / up['games']:.1f} | {mean.get(upper, 0):.3f}, {mean.get(lower, 0):.3f} "
              f"| {max(times.get(upper, [0])):.2f} |", flush=True)
        if args.json:
            with open(args.json, "a") as fh:
                fh.write(json.dumps({"board": args.board, "pair": pair, "result": result,
                                     "seconds": time.perf_counter() - t0,
                                     "mean_move_s": mean}) + "\n")


if __name__ == "__main__":
    main()
