"""The NumPy builder of the 5×5 endgame tables (:mod:`.tables` explains the layout).

Every position of a material signature is generated in index order; moves are generated
for all positions at once (per piece, direction and distance); children are indexed,
mirror-folded and mapped to slots; then values are iterated to the fixed point: each
round, a position's score is the best over its children (win in d = SCALE - d, loss in d =
d - SCALE, draw/unknown 0). Round k is the value of the k-ply game with unknown = 0, exact
for every win or loss within k plies; distances are contiguous, so the first round that
changes nothing is the fixed point, and what is still 0 is a draw.
"""

from __future__ import annotations

import resource
import sys
import time
from collections.abc import Iterator
from itertools import combinations
from math import comb

import numpy as np
from numpy.typing import NDArray

from .tables import (
    ATTACK,
    DIRECTIONS,
    FLIP_SQ,
    HOME,
    LOSS_BASE,
    MIRROR_SQ,
    SCALE,
    SQUARES,
    Tables,
    offsets,
    signature_size,
    signatures,
)

I64 = NDArray[np.int64]


def _colex_rows(k: int, n: int) -> I64:
    """All k-subsets of range(n) as rows sorted ascending, in colex-rank order."""
    rows = np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    ranks = sum(np.array([comb(int(s), j + 1) for s in range(n)])[rows[:, j]]
                for j in range(k))
    out = np.empty_like(rows)
    out[ranks] = rows
    return out


class Builder:
    def __init__(self, pieces: int) -> None:
        self.pieces = pieces
        self.sigs = signatures(pieces)
        self.offsets = offsets(pieces)
        self.size = sum(signature_size(*s) for s in self.sigs)
        self.comb = np.array([[comb(n, k) for k in range(7)] for n in range(SQUARES + 1)],
                             dtype=np.int64)
        self.flip = np.array(FLIP_SQ, dtype=np.int64)
        self.mirror = np.array(MIRROR_SQ, dtype=np.int64)

    def positions(self, sig: tuple[int, int]) -> tuple[I64, I64, I64, I64]:
        """Squares and faces of every position of a signature, in index order."""
        m, t = sig
        mrows = _colex_rows(m, SQUARES)
        trows = _colex_rows(t, SQUARES - m)
        nm, nt, nf = len(mrows), len(trows), 1 << (m + t)
        mi = np.repeat(np.arange(nm), nt * nf)
        ti = np.tile(np.repeat(np.arange(nt), nf), nm)
        fi = np.tile(np.arange(nf), nm * nt)
        ms = mrows[mi]
        # free squares of each mover placement, then the opponent's chosen among them
        free = np.array([[s for s in range(SQUARES) if s not in set(r.tolist())]
                         for r in mrows], dtype=np.int64)
        ts = free[mi[:, None], trows[ti]]
        fm = ((fi[:, None] >> np.arange(m)) & 1).astype(np.int64)
        ft = ((fi[:, None] >> (m + np.arange(t))) & 1).astype(np.int64)
        return ms, ts, fm, ft

    def encode(self, ms: I64, ts: I64, fm: I64, ft: I64) -> I64:
        """Full indices of unsorted rows (vectorised :func:`encode`)."""
        m, t = ms.shape[1], ts.shape[1]
        o = np.argsort(ms, axis=1)
        ms, fm = np.take_along_axis(ms, o, 1), np.take_along_axis(fm, o, 1)
        o = np.argsort(ts, axis=1)
        ts, ft = np.take_along_axis(ts, o, 1), np.take_along_axis(ft, o, 1)
        c = self.comb
        mi = np.zeros(len(ms), dtype=np.int64)
        for j in range(m):
            mi += c[ms[:, j], j + 1]
        ti = np.zeros(len(ms), dtype=np.int64)
        for j in range(t):
            comp = ts[:, j] - (ms < ts[:, j:j + 1]).sum(axis=1)
            ti += c[comp, j + 1]
        faces = np.zeros(len(ms), dtype=np.int64)
        for j in range(m):
            faces |= fm[:, j].astype(np.int64) << j
        for j in range(t):
            faces |= ft[:, j].astype(np.int64) << (m + j)
        local = ((mi * comb(SQUARES - m, t) + ti) << (m + t)) | faces
        out: I64 = self.offsets[(m, t)] + local
        return out

    def canonical_index(self, ms: I64, ts: I64, fm: I64, ft: I64) -> I64:
        return np.minimum(self.encode(ms, ts, fm, ft),
                          self.encode(self.mirror[ms], self.mirror[ts], fm, ft))

    def build(self, log: bool = True) -> tuple[Tables, dict[str, int | float]]:
        t0 = time.process_time()
        wall0 = time.perf_counter()
        canon = np.zeros(self.size, dtype=bool)
        per_sig = {}
        for sig in self.sigs:
            ms, ts, fm, ft = self.positions(sig)
            full = self.encode(ms, ts, fm, ft)
            assert (full == self.offsets[sig] + np.arange(len(full))).all()
            mir = self.encode(self.mirror[ms], self.mirror[ts], fm, ft)
            canon[full[full <= mir]] = True
            per_sig[sig] = (ms, ts, fm, ft, full <= mir)
        slot_of = (np.cumsum(canon) - 1).astype(np.int64)
        count = int(canon.sum())
        lost_slot = count          # "a side has no piece left": lost for its side to move
        fixed = np.zeros(count + 1, dtype=bool)
        value = np.zeros(count + 1, dtype=np.int64)
        value[lost_slot], fixed[lost_slot] = -SCALE, True
        parents, childs = [], []
        for sig in self.sigs:
            ms, ts, fm, ft, keep = per_sig.pop(sig)
            ms, ts, fm, ft = ms[keep], ts[keep], fm[keep], ft[keep]
            slots = slot_of[self.encode(ms, ts, fm, ft)]
            holds = (ms == ATTACK).any(axis=1)
            value[slots[holds]], fixed[slots[holds]] = SCALE, True
            live = ~holds
            ms, ts, fm, ft, slots = ms[live], ts[live], fm[live], ft[live], slots[live]
            par, chi = self._moves(ms, ts, fm, ft, slots, slot_of, lost_slot)
            parents.extend(par)
            childs.extend(chi)
            if log:
                print(f"  signature {sig}: {int(keep.sum()):,} canonical positions, "
                      f"{sum(len(p) for p in par):,} moves", file=sys.stderr, flush=True)
        parent = np.concatenate(parents)
        child = np.concatenate(childs)
        del parents, childs
        order = np.argsort(parent, kind="stable")
        parent, child = parent[order], child[order]
        del order
        has_moves = np.zeros(count + 1, dtype=bool)
        has_moves[parent] = True
        stuck = ~has_moves & ~fixed
        value[stuck], fixed[stuck] = -SCALE, True
        starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
        heads = parent[starts]
        iterations = 0
        while True:
            iterations += 1
            cv = value[child]
            g = (-cv + np.sign(cv)).astype(np.int16)
            best = np.maximum.reduceat(g, starts)
            changed = value[heads] != best
            if not changed.any():
                break
            value[heads] = best
        value = value[:count].astype(np.int32)
        codes = np.zeros(count, dtype="<u2")
        win = value > 0
        loss = value < 0
        codes[win] = 1 + (SCALE - value[win])
        codes[loss] = LOSS_BASE + (SCALE + value[loss])
        # counts over every absolute position (both colours to move, mirror images apart)
        weight = self._weights(slot_of=slot_of, count=count)
        stats = {
            "pieces": self.pieces, "canonical_positions": count,
            "absolute_positions": int(weight.sum()),
            "win": int(weight[win].sum()), "loss": int(weight[loss].sum()),
            "draw": int(weight[~win & ~loss].sum()),
            "longest_win_plies": int((SCALE - value[win]).max(initial=0)),
            "longest_loss_plies": int((SCALE + value[loss]).max(initial=0)),
            "moves": int(len(child)), "iterations": iterations,
            "cpu_seconds": round(time.process_time() - t0, 1),
            "wall_seconds": round(time.perf_counter() - wall0, 1),
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        }
        bits = np.packbits(np.r_[canon, np.zeros((-self.size) % 64, dtype=bool)],
                           bitorder="little").tobytes()
        return Tables(self.pieces, bits, codes.tobytes(), stats), stats

    def _weights(self, slot_of: I64, count: int) -> I64:
        """How many absolute positions each canonical slot stands for: 2 colours × (1 if
        the position is its own mirror image, else 2)."""
        weight = np.zeros(count, dtype=np.int64)
        for sig in self.sigs:
            ms, ts, fm, ft = self.positions(sig)
            full = self.encode(ms, ts, fm, ft)
            mir = self.encode(self.mirror[ms], self.mirror[ts], fm, ft)
            keep = full <= mir
            weight[slot_of[full[keep]]] = np.where(full[keep] == mir[keep], 2, 4)
        return weight

    def _moves(self, ms: I64, ts: I64, fm: I64, ft: I64, slots: I64, slot_of: I64,
               lost_slot: int) -> tuple[list[I64], list[I64]]:
        """Every move of every (live) position: parallel arrays (parent slot, child slot)."""
        out_p: list[I64] = []
        out_c: list[I64] = []
        for i, dest, empty, capture in ray_steps(ms, ts, fm):
            for rows, is_capture in ((empty, False), (capture, True)):
                idx = np.flatnonzero(rows)
                if len(idx):
                    self._children(idx, i, dest[idx], is_capture, ms, ts, fm,
                                   ft, slots, slot_of, lost_slot, out_p, out_c)
        return out_p, out_c

    def _children(self, idx: I64, i: int, dest: I64, capture: bool, ms: I64, ts: I64,
                  fm: I64, ft: I64, slots: I64, slot_of: I64, lost_slot: int,
                  out_p: list[I64], out_c: list[I64]) -> None:
        moved = ms[idx].copy()
        moved[:, i] = dest
        mfaces = fm[idx].copy()
        mfaces[:, i] ^= 1
        tsq, tfa = ts[idx], ft[idx]
        if not capture:
            groups = [(np.arange(len(idx)), tsq, tfa)]
        else:
            groups = []
            t = tsq.shape[1]
            for j in range(t):
                rows = np.flatnonzero(tsq[:, j] == dest)
                keep = [k for k in range(t) if k != j]
                groups.append((rows, tsq[rows][:, keep], tfa[rows][:, keep]))
        for rows, tq, tf in groups:
            if not len(rows):
                continue
            out_p.append(slots[idx[rows]])
            if tq.shape[1] == 0:  # their last piece taken: they cannot move
                out_c.append(np.full(len(rows), lost_slot, dtype=np.int64))
                continue
            # the child, seen from the opponent: their pieces are the mover's now
            cm, cmf = self.flip[tq], tf
            ct, ctf = self.flip[moved[rows]], mfaces[rows]
            out_c.append(slot_of[self.canonical_index(cm, ct, cmf, ctf)])


def ray_steps(ms: I64, ts: I64, fm: I64) -> Iterator[tuple[int, I64, I64, I64]]:
    """The moves of a block of positions (the mover's squares ``ms`` and faces ``fm``, the
    other side's squares ``ts``), one ray step at a time: for piece ``i``, the destination
    of every position's step and which positions step onto an empty square (and may go on)
    or capture there (onto the other side's piece on a home or attack square). Shared by
    the whole-table builder and the per-count layer builder."""
    m = ms.shape[1]
    bit = np.int64(1) << np.arange(SQUARES, dtype=np.int64)
    occ = bit[ms].sum(axis=1) + bit[ts].sum(axis=1)
    theirs = bit[ts].sum(axis=1)
    for i in range(m):
        r0, f0 = ms[:, i] // 5, ms[:, i] % 5
        for face, steps in DIRECTIONS:
            for dr, df in steps:
                alive = fm[:, i] == face
                for s in range(1, 5):
                    r, f = r0 + s * dr, f0 + s * df
                    alive = alive & (r >= 0) & (r < 5) & (f >= 0) & (f < 5)
                    if not alive.any():
                        break
                    dest = np.where(alive, r * 5 + f, 0)
                    hit = ((occ >> dest) & 1) == 1
                    empty = alive & ~hit
                    capture = alive & hit & (((theirs >> dest) & 1) == 1) & (
                        (dest == HOME) | (dest == ATTACK))
                    yield i, dest, empty, capture
                    alive = empty
