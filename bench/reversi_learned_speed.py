"""Reversi level 7's search speed against level 6's at a fixed depth (issue 31 item 1): the
same alpha-beta, the learned evaluation (level 7's adapter) or the hand-written one (levels
1–6), from the same midgame positions, no time limit. Prints each side's nodes, CPU seconds
and nodes per CPU second (the figure that decides how deep a side gets in its second a move),
and the load average beside them.

Positions: the 4-ply openings of ``bench/learned_vs_top.py``, each played on by level 2 (a
fixed, deterministic search) for ``--plies`` more moves.

    nice -n 5 .venv/bin/python bench/reversi_learned_speed.py --positions 12 --depth 5

Needs the ``learned`` extra (NumPy).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.games.reversi.bots import AlphaBetaBot, ReversiAdapter  # noqa: E402
from asobiba.games.reversi.game import GAME  # noqa: E402
from asobiba.games.reversi.learned import WEIGHTS, LearnedAdapter  # noqa: E402
from asobiba.learn.ntuple import NTuple  # noqa: E402
from asobiba.search.alphabeta import AlphaBeta  # noqa: E402
from bench.learned_vs_top import openings  # noqa: E402


def positions(count: int, plies: int) -> list[tuple[int, int, int]]:
    out = []
    for opening in openings(count):
        state = GAME.new_game()
        for text in opening:
            state = state.play(text)
        bot = AlphaBetaBot(2, 0)
        for _ in range(plies):
            if state.is_over:
                break
            seat = state.to_move
            assert seat is not None
            bot.reset(seat, state.options)
            state = state.play(bot.choose(state.view(seat)))
        if state.is_over or state.to_move is None:
            continue
        mine, theirs = (state.black, state.white) if state.to_move == 0 else (
            state.white, state.black)
        out.append((mine, theirs, state.to_move))
    return out


def run(adapter: object, start: list[tuple[int, int, int]], depth: int) -> tuple[int, float]:
    nodes, cpu = 0, 0.0
    for pos in start:
        searcher = AlphaBeta(adapter)  # type: ignore[arg-type]
        c0 = time.process_time()
        result = searcher.search(pos, depth)
        cpu += time.process_time() - c0
        nodes += result.nodes
    return nodes, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--plies", type=int, default=16, help="moves played after the opening")
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--weights", type=Path, default=WEIGHTS)
    args = ap.parse_args()
    start = positions(args.positions, args.plies)
    model = NTuple.load(args.weights)
    learned = LearnedAdapter(model)
    learned.evaluate(start[0])  # build the byte tables outside the timing
    load = os.getloadavg()
    print(f"{len(start)} positions, depth {args.depth}; load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f}")
    for name, adapter in (("level 6's evaluation", ReversiAdapter()),
                          (f"level 7's ({args.weights.name})", learned)):
        nodes, cpu = run(adapter, start, args.depth)
        print(f"  {name:<34} {nodes:>8} nodes  CPU {cpu:6.2f} s  {nodes / cpu:8.0f} nodes/s")
    load = os.getloadavg()
    print(f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
