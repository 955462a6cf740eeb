"""ReverStarGo speed: random playouts per second (through the protocol's State API, which
computes ko and move indicators, and on raw bitboards as the search sees them), and the
nodes per second of the FINAL search and of the app's 6-ply reference, side by side.

    .venv/bin/python bench/reverstargo_perf.py [seconds-per-figure]
"""

from __future__ import annotations

import sys
import time

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.reverstargo.bots import make_bot
from asobiba.games.reverstargo.search import AlphaBeta, our_evaluation


def state_playouts(budget: float) -> tuple[float, float]:
    game = get("reverstargo")
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        s = game.new_game()
        rng = Rng(games, "bench")
        while not s.is_over:
            moves = s.legal_moves()
            s = s.child(moves[rng.below(len(moves))])
            plies += 1
        games += 1
    dt = time.perf_counter() - start
    return games / dt, plies / dt


def raw_playouts(budget: float) -> tuple[float, float]:
    engine = AlphaBeta(our_evaluation)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        node = get("reverstargo").new_game()
        n = (node.black, node.white, 0, 0, 0)
        rng = Rng(games, "bench-raw")
        passed = False
        for _ in range(81):
            engine.kids.clear()  # no reuse: a playout meets new boards
            kids = engine.children(n)
            if not kids:
                if passed:
                    break
                n = (n[0], n[1], n[2], n[3], 1 - n[4])
                passed = True
                continue
            passed = False
            n = kids[rng.below(len(kids))][1]
            plies += 1
        games += 1
    dt = time.perf_counter() - start
    return games / dt, plies / dt


def search_speed(level: str, positions: int) -> tuple[float, float, float, float]:
    """Nodes per second, mean depth, mean and longest seconds per move over midgame
    positions (the whole ``choose``: view → state → search → text)."""
    game = get("reverstargo")
    nodes = 0
    secs = 0.0
    depth = 0
    longest = 0.0
    for seed in range(positions):
        s = game.new_game()
        rng = Rng(seed, "bench-search")
        for _ in range(8 + seed % 10):
            if s.is_over:
                break
            moves = s.legal_moves()
            s = s.child(moves[rng.below(len(moves))])
        if s.is_over:
            continue
        bot = make_bot(level, seed)
        t = time.perf_counter()
        bot.choose(s.view(s.turn))
        took = time.perf_counter() - t
        secs += took
        longest = max(longest, took)
        last = getattr(bot, "last", None)
        if last is not None:
            nodes += last.nodes
            depth += last.depth
    return nodes / secs, depth / positions, secs / positions, longest


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    g, p = state_playouts(budget)
    print(f"random playouts, State API (ko, indicators): {g:8.1f} games/s {p:9.0f} plies/s")
    g2, p2 = raw_playouts(budget)
    print(f"random playouts, raw bitboards:              {g2:8.1f} games/s {p2:9.0f} plies/s")
    for level, n in (("final", 6), ("app-final", 12), ("max", 12)):
        nps, depth, per_move, longest = search_speed(level, n)
        print(f"{level:>9}: {nps:8.0f} nodes/s, mean depth {depth:4.1f}, "
              f"{per_move:5.2f} s/move (longest {longest:4.2f} s) over {n} midgame positions")


if __name__ == "__main__":
    main()
