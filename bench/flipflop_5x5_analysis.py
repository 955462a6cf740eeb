"""What exact analysis of 5×5 FlipFlop is within reach, and what it proves.

1. The state-space upper bound (5×5 and, for scale, 3×3).
2. Bounded proofs from the start: for d = 1, 2, ... (until the time budget), whether either
   side can force a win within d plies (an exact AND/OR search, repetition ignored — which
   only adds draws, so "no forced win within d" also holds under the real rule).
3. A complete retrograde solve of every position with at most 3 pieces on the board.

    .venv/bin/python bench/flipflop_5x5_analysis.py [--max-depth 13] [--budget 600]
"""

from __future__ import annotations

import argparse

from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop.analysis import (
    bounded_proof,
    solve_endgames,
    state_space_upper_bound,
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-depth", type=int, default=13)
    ap.add_argument("--budget", type=float, default=600.0)
    ap.add_argument("--pieces", type=int, default=3)
    args = ap.parse_args()
    print(f"state-space upper bound: 5×5 {state_space_upper_bound(5):.3e}, "
          f"3×3 {state_space_upper_bound(3):,}")
    proof = bounded_proof(5, bd.start_position(5), args.max_depth, args.budget)
    print(f"bounded proof from the start (max depth {args.max_depth}, budget "
          f"{args.budget:.0f} s): {proof}", flush=True)
    end = solve_endgames(5, args.pieces)
    print(f"endgames with ≤{args.pieces} pieces: {end}")


if __name__ == "__main__":
    main()
