"""5×5 FlipFlop search speed at the top level: nodes/s of the game's own alpha-beta, and
of the project's generic ``asobiba.search.alphabeta`` on the same positions and depth
(a baseline in the same run), plus the depth the top level reaches in its time limit.

    .venv/bin/python bench/flipflop_search.py [--depth 5] [--positions 6]
"""

from __future__ import annotations

import argparse
import os
import time

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop.bots import PLANS
from asobiba.games.flipflop.search import WIN, Searcher, Weights
from asobiba.search.adapter import HasPlayer, Terminates


class GenericAdapter(HasPlayer, Terminates):
    """The same rules and evaluation behind the generic adapter interface."""

    def __init__(self) -> None:
        self.s = Searcher(5, Weights())
        self.geo = bd.GEOMETRY[5]

    def moves(self, pos):
        return bd.legal_moves(self.geo, *pos)

    def play(self, pos, move):
        return bd.apply_move(*pos, move[0], move[1])

    def player(self, pos):
        return pos[3]

    def is_terminal(self, pos):
        return bd.holds_goal(self.geo, pos[0], pos[1], pos[3]) or not self.moves(pos)

    def terminal_value(self, pos):
        return WIN if bd.holds_goal(self.geo, pos[0], pos[1], pos[3]) else -WIN

    def evaluate(self, pos):
        return self.s.evaluate(*pos)

    def key(self, pos):
        return bd.position_key(*pos)


def positions(count: int) -> list[tuple[int, int, int, int]]:
    """Middle-game positions: random plies from the start, not yet decided."""
    game = get("flipflop")
    rng = Rng(5, "bench")
    out = []
    while len(out) < count:
        s = game.new_game({"board": "5x5"})
        for _ in range(6 + rng.below(10)):
            if s.is_over:
                break
            s = s.play(rng.choice(list(s.legal_moves())))
        if not s.is_over:
            out.append(s.tuple4())
    return out


def main() -> None:
    from asobiba.search.alphabeta import AlphaBeta

    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--positions", type=int, default=6)
    args = ap.parse_args()
    pos = positions(args.positions)
    own_nodes = own_time = gen_nodes = gen_time = 0.0
    for p in pos:
        s = Searcher(5, Weights())
        t0 = time.process_time()
        r = s.search(p, args.depth)
        own_time += time.process_time() - t0
        own_nodes += r.nodes
        ab = AlphaBeta(GenericAdapter())
        t0 = time.process_time()
        g = ab.search(p, args.depth)
        gen_time += time.process_time() - t0
        gen_nodes += g.nodes
    print(f"{len(pos)} positions, depth {args.depth}; CPU seconds (load average "
          f"{os.getloadavg()[0]:.1f})")
    print(f"flipflop searcher: {own_nodes:,.0f} nodes in {own_time:.2f} s = "
          f"{own_nodes / own_time:,.0f} nodes/s")
    print(f"generic alphabeta: {gen_nodes:,.0f} nodes in {gen_time:.2f} s = "
          f"{gen_nodes / gen_time:,.0f} nodes/s")
    print(f"ratio: {gen_time / own_time:.1f}× less time to the same depth, "
          f"{(own_nodes / own_time) / (gen_nodes / gen_time):.2f}× nodes/s")
    plan = PLANS[5]["5"]
    depths, nodes, secs, cpu = [], 0, 0.0, 0.0
    for p in pos:
        s = Searcher(5, plan.weights)
        c0 = time.process_time()
        r = s.search(p, plan.depth, plan.time_limit)
        cpu += time.process_time() - c0
        depths.append(r.depth)
        nodes += r.nodes
        secs += r.seconds
    print(f"top level ({plan.time_limit} s wall-clock limit): depths reached {depths}, "
          f"{nodes / cpu:,.0f} nodes per CPU second, {secs / len(pos):.2f} s/move wall, "
          f"{cpu / len(pos):.2f} s/move CPU")


if __name__ == "__main__":
    main()
