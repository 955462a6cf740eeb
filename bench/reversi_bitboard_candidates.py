"""Candidate speed-ups for ``asobiba.games.reversi.bitboard``, checked and timed against the
engine (and OpenSpiel, in the same run). Nothing here is imported by the engine: a candidate
that wins is proposed to the engine's owner with the numbers this script prints.

1. ``legal_mask_loop`` — a drop-in ``legal_mask`` that floods each direction only while a run
   continues, instead of a fixed number of steps. Measured 1.5× per call and adopted into the
   engine on 2026-11-29 (it is now ``bitboard.legal_mask``), so it is no longer repeated here.

2. ``perft_batched`` — perft only. At two plies from the end it builds all children of a
   position at once, each in its own 80-bit lane of one Python integer ("SWAR"): the flips of
   every child by flooding from the placed discs and intersecting with the floods from the
   mover's discs the other way, then every child's legal moves in one ``legal_mask`` over the
   lanes, counted with one ``bit_count`` (a lane with no move counts 1: a forced pass or a
   finished game at the last ply is one leaf). Same leaf counts; it still counts each child's
   legal moves, but it does not visit the children one by one, so it is labelled separately.

    .venv/bin/python bench/reversi_bitboard_candidates.py                 # depth 8 (~20 s)
    .venv/bin/python bench/reversi_bitboard_candidates.py --depths 8 9 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reversi_perft import LEAVES, measure_round_robin, openspiel_counted, pyspiel  # noqa: E402

from asobiba.games.reversi import bitboard as bb  # noqa: E402

FULL, INNER = bb.FULL, bb.INNER


# ---- 2. batched last ply (SWAR over 80-bit lanes) ------------------------------------------
LANE = 80  # 64 board bits + room for a shift of up to 9 either way without touching a neighbour
_R: list[int] = [0]  # _R[n]: 1 at the bottom of each of n lanes


def _lanes(n: int) -> int:
    while len(_R) <= n:
        _R.append(_R[-1] | 1 << (LANE * (len(_R) - 1)))
    return _R[n]


# (shift, shifts left?, wraps across files?) for the eight directions, opposites paired 2k, 2k+1
_DIRS = ((1, True, True), (1, False, True), (8, True, False), (8, False, False),
         (7, True, True), (7, False, True), (9, True, True), (9, False, True))


def _runs(p: int, o: int, inner: int = INNER) -> list[int]:
    """Per direction: the ``o`` discs reachable from ``p`` through ``o`` going that way."""
    h = o & inner
    out = []
    for s, left, wraps in _DIRS:
        m = h if wraps else o
        run = 0
        f = m & (p << s if left else p >> s)
        while f:
            run |= f
            f = m & (f << s if left else f >> s)
        out.append(run)
    return out


def _legal_mask_lanes(p: int, o: int, full: int, inner: int) -> int:
    """``bitboard.legal_mask`` over lanes: masks have zero padding, so nothing leaks between."""
    h = o & inner
    moves = 0
    for s, left, wraps in _DIRS:
        m = h if wraps else o
        f = m & (p << s if left else p >> s)
        while f:
            f = f << s if left else f >> s
            moves |= f
            f &= m
    return moves & ~(p | o) & full


def _count_children(p: int, o: int, moves: int) -> int:
    """Sum over the children of (p, o) of their legal-move counts, a child with none being 1."""
    n = moves.bit_count()
    r = _lanes(n)
    placed = 0  # the placed disc of child k in lane k
    k = 0
    m = moves
    while m:
        low = m & -m
        m ^= low
        placed |= low << (LANE * k)
        k += 1
    full, inner = FULL * r, INNER * r
    back = _runs(p, o)  # o discs that a p disc closes, per direction
    o_all = o * r
    h = o_all & inner
    flipped = 0
    for i, (s, left, wraps) in enumerate(_DIRS):
        closed = back[i ^ 1]  # a run going this way is closed by a p disc beyond it
        if not closed:
            continue
        mask = h if wraps else o_all
        run = 0
        f = mask & (placed << s if left else placed >> s)
        while f:
            run |= f
            f = mask & (f << s if left else f >> s)
        flipped |= run & closed * r
    child_p = o_all ^ flipped  # the opponent moves next in every child
    child_o = p * r | flipped | placed
    counts = _legal_mask_lanes(child_p, child_o, full, inner)
    nonempty = ((counts + full) & (full + r)).bit_count()  # a lane > 0 carries into bit 64
    return counts.bit_count() + (n - nonempty)


def perft_batched(p: int, o: int, depth: int, passed: bool = False) -> int:
    moves = bb.legal_mask(p, o)
    if not moves:
        if passed:
            return 1
        if depth == 1:
            return 1
        return perft_batched(o, p, depth - 1, True)
    if depth == 1:
        return moves.bit_count()
    if depth == 2:
        return _count_children(p, o, moves)
    total = 0
    flips = bb.flips
    while moves:
        low = moves & -moves
        moves ^= low
        f = flips(p, o, low.bit_length() - 1)
        total += perft_batched(o ^ f, p | f | low, depth - 1, False)
    return total


# ---- checks and timings --------------------------------------------------------------------
def game_positions(games: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        p, o = bb.BLACK_START, bb.WHITE_START
        while True:
            m = bb.legal_mask(p, o)
            if not m:
                if not bb.legal_mask(o, p):
                    break
                p, o = o, p
                continue
            out.append((p, o))
            sq = rng.choice(bb.squares(m))
            f = bb.flips(p, o, sq)
            p, o = o ^ f, p | f | (1 << sq)
    return out


def check(positions: list[tuple[int, int]], seed: int) -> None:
    rng = random.Random(seed)
    boards = [(a, rng.getrandbits(64) & ~a) for a in (rng.getrandbits(64) for _ in range(20_000))]
    for p, o in boards[:2000]:
        assert _legal_mask_lanes(p, o, FULL, INNER) == bb.legal_mask(p, o), (hex(p), hex(o))
    for p, o in positions[::7]:
        moves = bb.legal_mask(p, o)
        expected = 0
        for sq in bb.squares(moves):
            f = bb.flips(p, o, sq)
            expected += max(1, bb.legal_mask(o ^ f, p | f | (1 << sq)).bit_count())
        assert not moves or _count_children(p, o, moves) == expected, (hex(p), hex(o))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depths", type=int, nargs="+", default=[8])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    positions = game_positions(200, seed=1)
    check(positions, seed=2)
    print(f"lane move generation == legal_mask on 2,000 random boards; batched child counts "
          f"checked on {len(positions[::7]):,} game positions")

    rows = [
        ("engine perft", lambda d: (bb.perft(bb.BLACK_START, bb.WHITE_START, d), 0)),
        ("perft_batched", lambda d: (perft_batched(bb.BLACK_START, bb.WHITE_START, d), 0)),
    ]
    if pyspiel is not None:
        rows.append(("OpenSpiel othello", openspiel_counted))
    ok = True
    print(f"\nperft, counted at the last ply; best of {args.repeat} interleaved rounds")
    print(f"{'engine':18s} {'depth':>5s} {'leaves':>11s} {'seconds':>8s} {'leaves/s':>11s} "
          f"{'vs engine':>9s} {'vs OpenSpiel':>12s}")
    for depth in args.depths:
        res = measure_round_robin(rows, depth, args.repeat)
        base = res["engine perft"][0] / res["engine perft"][2]
        peer = res["OpenSpiel othello"][0] / res["OpenSpiel othello"][2] if pyspiel else None
        for name, _ in rows:
            leaves, _, secs = res[name]
            ok &= leaves == LEAVES[depth]
            rate = leaves / secs
            vs_peer = f"{rate / peer:11.2f}x" if peer else f"{'n/a':>12s}"
            print(f"{name:18s} {depth:5d} {leaves:11,d} {secs:8.2f} {rate:11,.0f} "
                  f"{rate / base:8.2f}x {vs_peer}"
                  + ("" if leaves == LEAVES[depth] else "  WRONG"), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
