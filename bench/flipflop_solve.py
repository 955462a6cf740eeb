"""3×3 FlipFlop retrograde solve: seconds and positions/s (CPU time, so that other
programs on a shared machine do not distort it; the wall clock is printed too).

Two solvers in the same run: the table used by the bots (positions relative to the side to
move, mirror-reduced, table-driven move generation) and the plain absolute-position solve
used when the game history matters (no symmetry). Prints both and the speed ratio.

    .venv/bin/python bench/flipflop_solve.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import time

from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import solver3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    best_fast = best_plain = wall_fast = float("inf")
    for _ in range(args.repeat):
        t0, w0 = time.process_time(), time.perf_counter()
        fast = solver3.solve()
        best_fast = min(best_fast, time.process_time() - t0)
        wall_fast = min(wall_fast, time.perf_counter() - w0)
        t0 = time.process_time()
        plain = solver3.solve_with_history(*bd.start_position(3), [])
        best_plain = min(best_plain, time.process_time() - t0)
    load = os.getloadavg()[0]
    start = fast.lookup(solver3.canonical(solver3.relative_key(*bd.start_position(3))))
    print(f"start: {solver3.VALUE_NAMES[start[0]]} in {start[1]} plies for White")
    print(f"(CPU seconds of this process, best of {args.repeat}; load average {load:.1f})")
    print(f"table solve (relative + mirror): {fast.positions:,} positions in {best_fast:.3f} s "
          f"= {fast.positions / best_fast:,.0f} positions/s; wall clock {wall_fast:.3f} s")
    print(f"plain absolute solve:            {plain.positions:,} positions in "
          f"{best_plain:.3f} s = {plain.positions / best_plain:,.0f} positions/s")
    print(f"ratio: table solve is {best_plain / best_fast:.1f}× faster end to end, "
          f"{(fast.positions / best_fast) / (plain.positions / best_plain):.2f}× per position")


if __name__ == "__main__":
    main()
