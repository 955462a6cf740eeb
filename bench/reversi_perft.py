"""Reversi perft speed: asobiba's bitboards against OpenSpiel's ``othello`` in the same run.

Target (issue): asobiba perft leaves/s >= 1.5x OpenSpiel's ``othello`` driven from Python with
the same algorithm, at depths 8 and 9.

"Same algorithm" means: recurse over children (OpenSpiel: ``state.child(action)``) and, at the
last ply, count the legal moves instead of playing them ("counted"). A forced pass is one ply
and a finished game is one leaf (the REFERENCE convention, Aart Bik / Egaroucid "mode 1"):
OpenSpiel's explicit pass action (64) is one ply, and a terminal OpenSpiel state is one leaf.
Every leaf count is checked against the published table; the script exits 1 on a mismatch.

Rows measured, each with leaves/s:

* ``asobiba bitboard`` — ``asobiba.games.reversi.bitboard.perft`` (what the target is about).
* ``OpenSpiel othello`` — the C++ game driven from Python with ``child()``.
* ``asobiba protocol`` — ``ReversiState.child`` through the public game protocol (every state a
  full object; its legal moves computed on first use, so leaves never pay for them). Target
  (issue 17 item 7): every leaf played, >= 2x OpenSpiel at depth 8.

``--played`` modes also play every leaf (no bulk counting): for OpenSpiel every leaf is a
``child()``; for asobiba every leaf is a ``flips`` + new bitboards; nodes/s there counts every
position created (interior + leaves).

    .venv/bin/python bench/reversi_perft.py        # counted at 8 and 9, played at 8 (~1 min)
    .venv/bin/python bench/reversi_perft.py --played-depths 8 9     # as recorded (~3 min)
    .venv/bin/python bench/reversi_perft.py --depths 6 7 --played-depths 6 --repeat 1

Needs the optional ``bench`` extra for the OpenSpiel rows (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.games.reversi import bitboard as bb  # noqa: E402
from asobiba.games.reversi.game import GAME  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover - optional peer
    pyspiel = None

sys.setrecursionlimit(10_000)

# REFERENCE.md: leaves at depth N from the standard start (pass = one ply, game over = one leaf)
LEAVES = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1_396, 6: 8_200, 7: 55_092, 8: 390_216,
          9: 3_005_288, 10: 24_571_284, 11: 212_258_800}


_GAMES: dict[str, object] = {}


def _othello():
    """Loaded once, outside the timed runs."""
    if "othello" not in _GAMES:
        _GAMES["othello"] = pyspiel.load_game("othello")
    return _GAMES["othello"]


# ---- counted at the last ply (the target's algorithm) --------------------------------------
def asobiba_bitboard(depth: int) -> tuple[int, int]:
    return bb.perft(bb.BLACK_START, bb.WHITE_START, depth), 0


def openspiel_counted(depth: int) -> tuple[int, int]:
    def rec(s, d: int) -> int:
        if s.is_terminal():
            return 1  # a finished game is one leaf
        actions = s.legal_actions()  # [64] when the player must pass: one ply
        if d == 1:
            return len(actions)
        total = 0
        for a in actions:
            total += rec(s.child(a), d - 1)
        return total

    return rec(_othello().new_initial_state(), depth), 0


def asobiba_protocol_counted(depth: int) -> tuple[int, int]:
    def rec(s, d: int) -> int:
        if s.is_over:
            return 1
        moves = s.legal_moves()  # ("pass",) when the player must pass: one ply
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            total += rec(s.child(m), d - 1)
        return total

    return rec(GAME.new_game(), depth), 0


# ---- every leaf played: returns (leaves, nodes created) --------------------------------------
def asobiba_bitboard_played(depth: int) -> tuple[int, int]:
    legal_mask, flips = bb.legal_mask, bb.flips
    nodes = 0

    def rec(p: int, o: int, d: int) -> int:
        nonlocal nodes
        nodes += 1
        if d == 0:
            return 1
        moves = legal_mask(p, o)
        if not moves:
            if not legal_mask(o, p):
                return 1  # game over: one leaf
            return rec(o, p, d - 1)  # forced pass: one ply
        total = 0
        while moves:
            low = moves & -moves
            moves ^= low
            f = flips(p, o, low.bit_length() - 1)
            total += rec(o ^ f, p | f | low, d - 1)
        return total

    return rec(bb.BLACK_START, bb.WHITE_START, depth), nodes


def openspiel_played(depth: int) -> tuple[int, int]:
    nodes = 0

    def rec(s, d: int) -> int:
        nonlocal nodes
        nodes += 1
        if d == 0 or s.is_terminal():
            return 1
        total = 0
        for a in s.legal_actions():
            total += rec(s.child(a), d - 1)
        return total

    return rec(_othello().new_initial_state(), depth), nodes


def asobiba_protocol_played(depth: int) -> tuple[int, int]:
    nodes = 0

    def rec(s, d: int) -> int:
        nonlocal nodes
        nodes += 1
        if d == 0 or s.is_over:
            return 1
        total = 0
        for m in s.legal_moves():
            total += rec(s.child(m), d - 1)
        return total

    return rec(GAME.new_game(), depth), nodes


def measure_round_robin(rows: list[tuple[str, Callable[[int], tuple[int, int]]]], depth: int,
                        repeat: int) -> dict[str, tuple[int, int, float, float]]:
    """Best of ``repeat`` runs per engine: (leaves, nodes, CPU seconds, wall seconds), the
    engines taking turns in each round so that a burst of other load on the machine hits them
    alike; the run with the least CPU time is the least disturbed. Rates use CPU time (this
    process's own), which other processes on a shared machine do not inflate as they do the
    wall clock."""
    best: dict[str, tuple[int, int, float, float]] = {}
    for _ in range(repeat):
        for name, fn in rows:
            t0, c0 = time.perf_counter(), time.process_time()
            leaves, nodes = fn(depth)
            cpu, secs = time.process_time() - c0, time.perf_counter() - t0
            if name not in best or cpu < best[name][2]:
                best[name] = (leaves, nodes, cpu, secs)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depths", type=int, nargs="+", default=[8, 9])
    ap.add_argument("--repeat", type=int, default=3,
                    help="rounds for the counted rows; the best time of each engine counts")
    ap.add_argument("--played-depths", type=int, nargs="*", default=[8],
                    help="depths for the every-leaf-played rows (default 8; 9 takes a minute)")
    ap.add_argument("--played-repeat", type=int, default=1,
                    help="rounds for the every-leaf-played rows")
    ap.add_argument("--no-played", action="store_true", help="skip the every-leaf-played rows")
    ap.add_argument("--no-protocol", action="store_true", help="skip the protocol-level rows")
    args = ap.parse_args(argv)
    for d in args.depths + args.played_depths:
        if d not in LEAVES:
            ap.error(f"no reference leaf count for depth {d}; depths: {min(LEAVES)}..{max(LEAVES)}")

    if pyspiel is None:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): asobiba rows only")
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"OpenSpiel {getattr(pyspiel, '__version__', 'n/a') if pyspiel else 'missing'}; "
          f"best of {args.repeat} (played: {args.played_repeat}) interleaved rounds; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))

    counted = [("asobiba bitboard", asobiba_bitboard)]
    played = [("asobiba bitboard", asobiba_bitboard_played)]
    if pyspiel is not None:
        _othello()
        counted.append(("OpenSpiel othello", openspiel_counted))
        played.append(("OpenSpiel othello", openspiel_played))
    if not args.no_protocol:
        counted.append(("asobiba protocol", asobiba_protocol_counted))
        played.append(("asobiba protocol", asobiba_protocol_played))
    modes = [("counted", counted, args.depths)]
    if not args.no_played and args.played_depths:
        modes.append(("played", played, args.played_depths))

    ok = True
    rates: dict[tuple[str, str, int], float] = {}
    header = f"{'mode':8s} {'engine':18s} {'depth':>5s} {'leaves':>11s} {'CPU s':>8s} " \
             f"{'wall s':>8s} {'leaves/s':>11s} {'nodes/s':>11s}"
    print(header)
    print("-" * len(header))
    for mode, rows, depths in modes:
        for depth in depths:
            repeat = args.repeat if mode == "counted" else args.played_repeat
            results = measure_round_robin(rows, depth, repeat)
            for name, _ in rows:
                leaves, nodes, secs, wall = results[name]
                good = leaves == LEAVES[depth]
                ok &= good
                rates[(mode, name, depth)] = leaves / secs
                nodes_s = f"{nodes / secs:11,.0f}" if nodes else f"{'':11s}"
                print(f"{mode:8s} {name:18s} {depth:5d} {leaves:11,d} {secs:8.2f} {wall:8.2f} "
                      f"{leaves / secs:11,.0f} {nodes_s}"
                      + ("" if good else f"   WRONG: expected {LEAVES[depth]:,}"), flush=True)

    if pyspiel is not None:
        print()
        target_met = True
        for mode, _, depths in modes:
            for depth in depths:
                peer = rates[(mode, "OpenSpiel othello", depth)]
                parts = [f"bitboard {rates[(mode, 'asobiba bitboard', depth)] / peer:.2f}x"]
                if not args.no_protocol:
                    parts.append(f"protocol {rates[(mode, 'asobiba protocol', depth)] / peer:.2f}x")
                print(f"ratio vs OpenSpiel, {mode}, depth {depth}: " + ", ".join(parts))
                if mode == "counted" and depth in (8, 9):
                    target_met &= rates[(mode, "asobiba bitboard", depth)] >= 1.5 * peer
        if {8, 9} & set(args.depths):
            print(f"target (bitboard counted >= 1.5x OpenSpiel at depths 8 and 9 measured): "
                  f"{'MET' if target_met else 'NOT MET'}")
        if 8 in args.played_depths and not args.no_played and not args.no_protocol:
            ratio = rates[("played", "asobiba protocol", 8)] / \
                rates[("played", "OpenSpiel othello", 8)]
            print(f"target (protocol, every leaf played, >= 2x OpenSpiel at depth 8): "
                  f"{ratio:.2f}x {'MET' if ratio >= 2 else 'NOT MET'}")
        print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if not ok:
        print("LEAF COUNTS WRONG", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
