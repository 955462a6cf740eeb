"""How long a CPU's *first* move takes in a fresh bot process (issue 15 item 8).

For each case, a fresh bot pool slot (a spawned process, as the server and ``asobiba worker``
use) is started, then one move is asked of it and timed from submission to answer. Two runs
per case: the slot as the server starts it (warmed: games imported and each game's
``warm_caches`` hook run *before* it takes moves), and, as the peer, a cold slot that builds
everything inside its first move. FlipFlop 3×3 level 5 plays from the solved table: the
target is ≤ 0.5 s from its first move on. Prints wall time, the slot's CPU time for the move,
and the load average. Usage: ``python bench/bot_first_move.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from asobiba.games import available, get
from asobiba.server.bots import _warm, choose_move

CASES = [("flipflop", {}, "5"), ("flipflop", {}, "4"), ("reversi", {}, "5")]


def timed_move(game_id: str, options: dict, level: str) -> tuple[str, float]:
    """The first move in this process, with the CPU time it took."""
    t = time.process_time()
    game = get(game_id)
    state = game.new_game(options, 1)
    seat = state.acting_seats[0]
    text = choose_move(game_id, level, 7, seat, options, [state.view(seat)])
    return text, time.process_time() - t


def one(case: tuple[str, dict, str], warm: bool) -> tuple[float, float]:
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as ex:
        if warm:
            ex.submit(_warm, available()).result()
        else:
            ex.submit(int).result()  # started, nothing built
        t = time.perf_counter()
        _text, cpu = ex.submit(timed_move, *case).result()
        return time.perf_counter() - t, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} CPUs; first move of a fresh bot process, best of {args.repeat}")
    print(f"{'game':<10}{'level':>6}{'warmed wall s':>15}{'cpu s':>8}"
          f"{'cold wall s':>13}{'cpu s':>8}{'cold/warm':>11}")
    for case in CASES:
        warm = min((one(case, True) for _ in range(args.repeat)), key=lambda x: x[0])
        cold = min((one(case, False) for _ in range(args.repeat)), key=lambda x: x[0])
        print(f"{case[0]:<10}{case[2]:>6}{warm[0]:>15.3f}{warm[1]:>8.3f}"
              f"{cold[0]:>13.3f}{cold[1]:>8.3f}{cold[0] / warm[0]:>10.1f}x")


if __name__ == "__main__":
    main()
