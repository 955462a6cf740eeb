"""Runner overhead: Reversi random playouts through the one game loop (``play_game`` with two
``RandomBot``\\ s) against the raw engine (bitboards, the same random draws) in the same run.
Target (issue 17 item 7): the runner costs at most 2× the raw engine per ply.

Both sides draw each move with ``asobiba.core.Rng.below`` over the legal moves in the same
order, so they play the same games (checked: the ply counts must match). The figure is CPU
time per ply (``time.process_time``), best of ``--repeat`` interleaved rounds; wall time and
the load average are printed beside it.

    .venv/bin/python bench/runner_playouts.py            # 200 games, 3 rounds
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.core import RandomBot, Rng  # noqa: E402
from asobiba.games import get  # noqa: E402
from asobiba.games.reversi import bitboard as bb  # noqa: E402
from asobiba.play.runner import play_game  # noqa: E402


def raw(games: int) -> int:
    """The same playouts on raw bitboards: legal mask, a random square, flips."""
    plies = 0
    for g in range(games):
        rngs = (Rng(2 * g, "bot", "RandomBot"), Rng(2 * g + 1, "bot", "RandomBot"))
        me, other, turn = bb.BLACK_START, bb.WHITE_START, 0
        while True:
            mask = bb.legal_mask(me, other)
            if not mask:
                if not bb.legal_mask(other, me):
                    break
                rngs[turn].below(1)  # a forced pass is the one legal move, drawn like any
                me, other, turn = other, me, 1 - turn
                plies += 1
                continue
            squares = bb.squares(mask)
            sq = squares[rngs[turn].below(len(squares))]
            f = bb.flips(me, other, sq)
            me, other, turn = other ^ f, me | f | (1 << sq), 1 - turn
            plies += 1
    return plies


def runner(games: int) -> int:
    game = get("reversi")
    plies = 0
    for g in range(games):
        result = play_game(game, [RandomBot(2 * g), RandomBot(2 * g + 1)], {}, 0)
        plies += len(result.moves)
    return plies


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"# Reversi random playouts, {args.games} games, best of {args.repeat} rounds; "
          f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, Python "
          f"{platform.python_version()}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    best: dict[str, tuple[float, float, int]] = {}
    for _ in range(args.repeat):
        for name, fn in (("raw engine", raw), ("runner (play_game)", runner)):
            c0, t0 = time.process_time(), time.perf_counter()
            plies = fn(args.games)
            cpu, wall = time.process_time() - c0, time.perf_counter() - t0
            if name not in best or cpu < best[name][0]:
                best[name] = (cpu, wall, plies)
    print(f"{'':20} {'plies':>8} {'CPU s':>7} {'wall s':>7} {'µs CPU/ply':>11}")
    for name, (cpu, wall, plies) in best.items():
        print(f"{name:20} {plies:8d} {cpu:7.2f} {wall:7.2f} {cpu / plies * 1e6:11.1f}")
    (rc, _, rp), (uc, _, up) = best["raw engine"], best["runner (play_game)"]
    if rp != up:
        print(f"MISMATCH: the raw engine played {rp} plies, the runner {up}")
        return 1
    ratio = (uc / up) / (rc / rp)
    print(f"runner / raw engine per ply: {ratio:.2f}x — target ≤ 2x "
          f"{'MET' if ratio <= 2 else 'NOT MET'}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
