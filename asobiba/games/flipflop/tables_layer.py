"""The per-count builder of the 5×5 endgame tables: one piece count (a *layer*) at a time.

Captures only remove pieces, so a move from a position with ``k`` pieces leads either to
another ``k``-piece position (a plain move) or to a ``k - 1``-piece one (a capture), whose
value is already known: it is read from the finished lower table (on disk), never rebuilt.
Memory holds one layer: its values (2 bytes per index), its canonical bitmap, and the plain
moves of one *component* at a time — a plain move from the mover's ``(m, t)`` pieces leads
to the opponent's ``(t, m)``, so ``{(1,4), (4,1)}`` and ``{(2,3), (3,2)}`` are solved apart.

The values are the same as :mod:`.tables_build`'s (the ≤ 4 builder, kept for the shipped
file): round ``r`` gives each undecided position the best of its children's values of
round ``r - 1`` (win in d = SCALE - d, loss in d = d - SCALE, unknown 0). A capture's child
of the lower layer decided in ``d`` plies is seen from round ``d + 1`` on, exactly when it
would be seen if the lower layer were iterated alongside — so round ``r`` is the value of
the ``r``-ply game with unknown = 0, exact for every win and loss within ``r`` plies, and a
position that has a value keeps it (it is dropped from the iteration: the rounds get
cheaper as positions are decided). The iteration stops at the first round that decides
nothing once no lower-layer value can appear any more; what is left undecided is a draw.
Tests: the layers 2, 3 and 4 rebuilt this way equal the ≤ 4 builder's file.

**Big layers** (6 pieces: 702,732,800 indices): given a ``work`` directory the builder
writes each component's plain moves to a file there and reads them back mapped (the
moves of the largest component, ≈ 1.5 G child indices, are never held twice in memory),
drops decided positions block by block, and saves each solved component's values, so an
interrupted build resumes at the first component not yet saved.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from math import comb
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .tables import (
    ATTACK,
    FLIP_SQ,
    LOSS_BASE,
    MIRROR_SQ,
    SCALE,
    SQUARES,
    Tables,
    signature_size,
    signatures,
)
from .tables_build import _colex_rows, ray_steps

I64 = NDArray[np.int64]
I32 = NDArray[np.int32]
I16 = NDArray[np.int16]
SENTINEL = 32767
"""Value of the extra slot a position with only captures points at: g = -32766 (no move)."""
NO_WIN = 32767
CHUNK = 400_000
BLOCK = 20_000_000


def _encode(c: I64, ms: I64, ts: I64, fm: I64, ft: I64, off: int) -> I64:
    """Full indices of (unsorted) rows of squares and faces, signature (m, t) at ``off``."""
    m, t = ms.shape[1], ts.shape[1]
    if m > 1:
        o = np.argsort(ms, axis=1)
        ms, fm = np.take_along_axis(ms, o, 1), np.take_along_axis(fm, o, 1)
    if t > 1:
        o = np.argsort(ts, axis=1)
        ts, ft = np.take_along_axis(ts, o, 1), np.take_along_axis(ft, o, 1)
    mi = np.zeros(len(ms), dtype=np.int64)
    for j in range(m):
        mi += c[ms[:, j], j + 1]
    ti = np.zeros(len(ms), dtype=np.int64)
    for j in range(t):
        comp = ts[:, j] - (ms < ts[:, j:j + 1]).sum(axis=1)
        ti += c[comp, j + 1]
    faces = fm @ (np.int64(1) << np.arange(m, dtype=np.int64))
    faces += ft @ (np.int64(1) << np.arange(m, m + t, dtype=np.int64))
    out: I64 = off + (((mi * comb(SQUARES - m, t) + ti) << (m + t)) | faces)
    return out


def layer_signatures(pieces: int) -> list[tuple[int, int]]:
    return signatures(pieces, pieces)


class LayerBuilder:
    def __init__(self, pieces: int, lower: Tables | None, work: Path | None = None) -> None:
        if pieces < 2:
            raise ValueError("a layer has at least 2 pieces")
        self.k = pieces
        self.sigs = layer_signatures(pieces)
        self.offsets: dict[tuple[int, int], int] = {}
        at = 0
        for sig in self.sigs:
            self.offsets[sig] = at
            at += signature_size(*sig)
        self.size = at
        self.comb = np.array([[comb(n, k) for k in range(7)] for n in range(SQUARES + 1)],
                             dtype=np.int64)
        self.flip = np.array(FLIP_SQ, dtype=np.int64)
        self.mirror = np.array(MIRROR_SQ, dtype=np.int64)
        self.low_off: dict[tuple[int, int], int] = {}
        self.low_slot: I64 = np.zeros(0, dtype=np.int64)
        self.low_canon: NDArray[np.bool_] = np.zeros(0, dtype=bool)
        self.low_score: I16 = np.zeros(0, dtype=np.int16)
        if pieces > 2:
            if lower is None or not lower.low <= pieces - 1 <= lower.pieces:
                raise ValueError(f"the {pieces}-piece layer needs a table of {pieces - 1}")
            self.low_off = {s: lower.offsets[s] for s in layer_signatures(pieces - 1)}
            raw = np.frombuffer(lower._bits, dtype=np.uint8)
            bits = np.unpackbits(raw, bitorder="little")[:lower.size]
            self.low_canon = bits.astype(bool)
            self.low_slot = np.cumsum(bits, dtype=np.int64) - 1
            codes = np.frombuffer(lower._values, dtype="<u2").astype(np.int32)
            score = np.zeros(len(codes), dtype=np.int32)
            win = (codes > 0) & (codes < LOSS_BASE)
            loss = codes >= LOSS_BASE
            score[win] = SCALE - (codes[win] - 1)
            score[loss] = (codes[loss] - LOSS_BASE) - SCALE
            self.low_score = score.astype(np.int16)
        self.value: I16 = np.zeros(self.size + 1, dtype=np.int16)
        self.value[self.size] = SENTINEL
        self.canon = np.zeros(self.size, dtype=bool)
        self.selfmirror = np.zeros(self.size, dtype=bool)
        self.moves = 0
        self.work = work
        if work is not None:
            work.mkdir(parents=True, exist_ok=True)

    # ---- positions ---------------------------------------------------------------------
    def canonical(self, ms: I64, ts: I64, fm: I64, ft: I64, off: int) -> I64:
        c = self.comb
        out: I64 = np.minimum(_encode(c, ms, ts, fm, ft, off),
                              _encode(c, self.mirror[ms], self.mirror[ts], fm, ft, off))
        return out

    def chunks(self, sig: tuple[int, int]) -> Iterator[tuple[I64, I64, I64, I64, I64]]:
        """(full indices, ms, ts, fm, ft) of every position of ``sig``, in index order, in
        chunks of about CHUNK positions."""
        m, t = sig
        mrows = _colex_rows(m, SQUARES)
        trows = _colex_rows(t, SQUARES - m)
        free = np.array([[s for s in range(SQUARES) if s not in set(r.tolist())]
                         for r in mrows], dtype=np.int64)
        nt, nf = len(trows), 1 << (m + t)
        per = nt * nf
        step = max(1, CHUNK // per)
        for lo in range(0, len(mrows), step):
            hi = min(len(mrows), lo + step)
            base = np.arange((hi - lo) * per, dtype=np.int64)
            mi = lo + base // per
            ti = (base // nf) % nt
            fi = base % nf
            ms = mrows[mi]
            ts = free[mi[:, None], trows[ti]]
            fm = (fi[:, None] >> np.arange(m)) & 1
            ft = (fi[:, None] >> (m + np.arange(t))) & 1
            yield self.offsets[sig] + lo * per + base, ms, ts, fm, ft

    # ---- moves -------------------------------------------------------------------------
    def _moves(self, ms: I64, ts: I64, fm: I64, ft: I64
               ) -> tuple[list[I64], list[I64], list[I64], list[I64]]:
        """Plain moves (row, child index in this layer) and captures (row, child score)."""
        pp: list[I64] = []
        pc: list[I64] = []
        cp: list[I64] = []
        cs: list[I64] = []
        for i, dest, empty, capture in ray_steps(ms, ts, fm):
            idx = np.flatnonzero(empty)
            if len(idx):
                pp.append(idx)
                pc.append(self._plain(idx, i, dest[idx], ms, ts, fm, ft))
            idx = np.flatnonzero(capture)
            if len(idx):
                rows, scores = self._captures(idx, i, dest[idx], ms, ts, fm, ft)
                cp.append(rows)
                cs.append(scores)
        return pp, pc, cp, cs

    def _moved(self, idx: I64, i: int, dest: I64, ms: I64, fm: I64) -> tuple[I64, I64]:
        moved = ms[idx].copy()
        moved[:, i] = dest
        faces = fm[idx].copy()
        faces[:, i] ^= 1
        return moved, faces

    def _plain(self, idx: I64, i: int, dest: I64, ms: I64, ts: I64, fm: I64, ft: I64
               ) -> I64:
        """Children of plain moves, seen from the opponent: canonical index in the layer."""
        moved, faces = self._moved(idx, i, dest, ms, fm)
        m, t = ms.shape[1], ts.shape[1]
        return self.canonical(self.flip[ts[idx]], self.flip[moved], ft[idx], faces,
                              self.offsets[(t, m)])

    def _captures(self, idx: I64, i: int, dest: I64, ms: I64, ts: I64, fm: I64, ft: I64
                  ) -> tuple[I64, I64]:
        """Children of captures (one piece fewer): their score from the lower table."""
        moved, faces = self._moved(idx, i, dest, ms, fm)
        m, t = ms.shape[1], ts.shape[1]
        rows_out, score_out = [], []
        for j in range(t):
            sel = np.flatnonzero(ts[idx, j] == dest)
            if not len(sel):
                continue
            rows_out.append(idx[sel])
            if t == 1:  # their last piece taken: they have lost
                score_out.append(np.full(len(sel), -SCALE, dtype=np.int64))
                continue
            keep = [q for q in range(t) if q != j]
            tq = ts[idx[sel]][:, keep]
            tf = ft[idx[sel]][:, keep]
            ci = self.canonical(self.flip[tq], self.flip[moved[sel]], tf, faces[sel],
                                self.low_off[(t - 1, m)])
            if not self.low_canon[ci].all():
                raise AssertionError("a capture's child is not a canonical lower entry")
            score_out.append(self.low_score[self.low_slot[ci]].astype(np.int64))
        return np.concatenate(rows_out), np.concatenate(score_out)

    # ---- one component ------------------------------------------------------------------
    def _generate(self, comp: list[tuple[int, int]], log: bool
                  ) -> tuple[I32, I16, I32, I16, I16, NDArray[np.bool_]]:
        """Every live canonical position of ``comp`` with its plain moves (CSR) and the
        summary of its captures: fastest winning capture, slowest losing one, a drawn one.
        With a work directory the moves go to a file there and come back mapped."""
        parents: list[I32] = []
        counts: list[I16] = []
        childs: list[I32] = []
        spill_path = self._path(comp, "moves.i32")
        spill = open(spill_path, "wb") if spill_path is not None else None
        win_d: list[I16] = []
        loss_d: list[I16] = []
        draw: list[NDArray[np.bool_]] = []
        for sig in comp:
            t0 = time.process_time()
            n_before = sum(len(p) for p in parents)
            for full, ms, ts, fm, ft in self.chunks(sig):
                mir = _encode(self.comb, self.mirror[ms], self.mirror[ts], fm, ft,
                              self.offsets[sig])
                keep = full <= mir
                self.canon[full[keep]] = True
                self.selfmirror[full[full == mir]] = True
                rows = np.flatnonzero(keep)
                holds = (ms[rows] == ATTACK).any(axis=1)
                self.value[full[rows[holds]]] = SCALE
                rows = rows[~holds]
                ms, ts, fm, ft, full = ms[rows], ts[rows], fm[rows], ft[rows], full[rows]
                pp, pc, cp, cs = self._moves(ms, ts, fm, ft)
                n = len(rows)
                p = np.concatenate(pp) if pp else np.zeros(0, dtype=np.int64)
                c = np.concatenate(pc) if pc else np.zeros(0, dtype=np.int64)
                capp = np.concatenate(cp) if cp else np.zeros(0, dtype=np.int64)
                caps = np.concatenate(cs) if cs else np.zeros(0, dtype=np.int64)
                self.moves += len(p) + len(capp)
                g = -caps + np.sign(caps)
                d = np.where(g > 0, SCALE - g, g + SCALE)
                wd = np.full(n, NO_WIN, dtype=np.int16)
                np.minimum.at(wd, capp[g > 0], d[g > 0].astype(np.int16))
                ld = np.full(n, -1, dtype=np.int16)
                np.maximum.at(ld, capp[g < 0], d[g < 0].astype(np.int16))
                dr = np.zeros(n, dtype=bool)
                dr[capp[g == 0]] = True
                has_cap = np.bincount(capp, minlength=n) > 0
                cnt = np.bincount(p, minlength=n)
                stuck = (cnt == 0) & ~has_cap
                self.value[full[stuck]] = -SCALE
                lone = np.flatnonzero((cnt == 0) & has_cap)
                p = np.concatenate([p, lone])
                c = np.concatenate([c, np.full(len(lone), self.size, dtype=np.int64)])
                cnt[lone] = 1
                order = np.argsort(p, kind="stable")
                live = ~stuck
                parents.append(full[live].astype(np.int32))
                counts.append(cnt[live].astype(np.int16))
                if spill is not None:
                    c[order].astype(np.int32).tofile(spill)
                else:
                    childs.append(c[order].astype(np.int32))
                win_d.append(wd[live])
                loss_d.append(ld[live])
                draw.append(dr[live])
            if log:
                n_sig = sum(len(p) for p in parents) - n_before
                print(f"  layer {self.k} signature {sig}: {n_sig:,} live canonical "
                      f"positions, {self.moves:,} moves so far, "
                      f"{time.process_time() - t0:.0f} s CPU, load {os.getloadavg()[0]:.1f}",
                      file=sys.stderr, flush=True)
        child: I32
        if spill is not None and spill_path is not None:
            spill.close()
            size = spill_path.stat().st_size
            child = (np.memmap(spill_path, dtype=np.int32, mode="r") if size
                     else np.zeros(0, dtype=np.int32))
        else:
            child = np.concatenate(childs) if childs else np.zeros(0, dtype=np.int32)
        return (np.concatenate(parents), np.concatenate(counts), child,
                np.concatenate(win_d), np.concatenate(loss_d), np.concatenate(draw))

    def _path(self, comp: list[tuple[int, int]], what: str) -> Path | None:
        if self.work is None:
            return None
        m, t = comp[0]
        return self.work / f"layer{self.k}-{m}-{t}.{what}"

    def _solve(self, comp: list[tuple[int, int]], log: bool) -> int:
        act, cnt, child, win_d, loss_d, draw = self._generate(comp, log)
        value = self.value
        max_cap = int(max(win_d[win_d != NO_WIN].max(initial=0), loss_d.max(initial=0)))
        starts = np.zeros(len(cnt), dtype=np.int64)
        np.cumsum(cnt[:-1], dtype=np.int64, out=starts[1:])
        r = 0
        t0 = time.process_time()
        while len(act):
            r += 1
            best = self._best(child, starts)
            cap = np.full(len(act), -(SENTINEL - 1), dtype=np.int16)
            has_loss = loss_d >= 0
            cap[has_loss & (loss_d <= r)] = (loss_d[has_loss & (loss_d <= r)] - SCALE)
            # a capture whose child is not decided within r - 1 plies counts as unknown (0)
            cap[(has_loss & (loss_d > r)) | draw | ((win_d != NO_WIN) & (win_d > r))] = 0
            won = win_d <= r
            cap[won] = SCALE - win_d[won]
            best = np.maximum(best, cap)
            known = best != 0
            new = known & (value[act] == 0)   # (kept positions decided earlier: same value)
            n_new = int(new.sum())
            if n_new:
                value[act[new]] = best[new]
            elif r >= max_cap:
                break
            if log and (r <= 5 or r % 20 == 0):
                print(f"    round {r}: {n_new:,} decided, {len(act) - int(known.sum()):,} "
                      f"open, {len(child):,} moves kept, {time.process_time() - t0:.0f} s CPU",
                      file=sys.stderr, flush=True)
            if int(known.sum()) * 50 > len(act):   # drop the decided and their moves
                und = ~known
                child = _compact(child, cnt, starts, und)
                act, cnt = act[und], cnt[und]
                win_d, loss_d, draw = win_d[und], loss_d[und], draw[und]
                starts = np.zeros(len(cnt), dtype=np.int64)
                np.cumsum(cnt[:-1], dtype=np.int64, out=starts[1:])
        spill = self._path(comp, "moves.i32")
        if spill is not None:
            del child
            spill.unlink(missing_ok=True)
        return r

    def _best(self, child: I32, starts: I64) -> I16:
        """Each parent's best child score (g = -child + sign(child)), in blocks of about
        BLOCK moves so that the temporaries stay small."""
        out = np.empty(len(starts), dtype=np.int16)
        a = 0
        while a < len(starts):
            b = int(np.searchsorted(starts, starts[a] + BLOCK, side="left"))
            b = max(b, a + 1)
            lo = int(starts[a])
            hi = int(starts[b]) if b < len(starts) else len(child)
            cv = self.value[child[lo:hi]]
            g = -cv + np.sign(cv)
            out[a:b] = np.maximum.reduceat(g, starts[a:b] - lo)
            a = b
        return out

    # ---- the layer -----------------------------------------------------------------------
    def components(self) -> list[list[tuple[int, int]]]:
        out: list[list[tuple[int, int]]] = []
        for m, t in self.sigs:
            if m <= t:
                out.append([(m, t)] if m == t else [(m, t), (t, m)])
        return out

    def _save(self, comp: list[tuple[int, int]], moves: int, rounds: int) -> None:
        """A solved component's values (with a work directory), one file per array in the
        component's folder; ``done.json`` is written last (to a temporary name, then
        renamed), so a half-written folder is never taken for a finished one."""
        folder = self._path(comp, "done")
        if folder is None:
            return
        folder.mkdir(exist_ok=True)
        for m, t in comp:
            lo, n = self.offsets[(m, t)], signature_size(m, t)
            np.save(folder / f"value_{m}_{t}.npy", self.value[lo:lo + n])
            np.save(folder / f"canon_{m}_{t}.npy", np.packbits(self.canon[lo:lo + n]))
            np.save(folder / f"mirror_{m}_{t}.npy", np.packbits(self.selfmirror[lo:lo + n]))
        tmp = folder / "done.json.part"
        tmp.write_text(json.dumps({"moves": moves, "rounds": rounds}))
        tmp.replace(folder / "done.json")

    def _resume(self, comp: list[tuple[int, int]]) -> bool:
        """Take a component's values from the work directory if an earlier run saved them."""
        folder = self._path(comp, "done")
        if folder is None or not (folder / "done.json").exists():
            return False
        for m, t in comp:
            lo, n = self.offsets[(m, t)], signature_size(m, t)
            self.value[lo:lo + n] = np.load(folder / f"value_{m}_{t}.npy")
            self.canon[lo:lo + n] = np.unpackbits(np.load(folder / f"canon_{m}_{t}.npy"))[:n]
            self.selfmirror[lo:lo + n] = np.unpackbits(
                np.load(folder / f"mirror_{m}_{t}.npy"))[:n]
        self.moves += int(json.loads((folder / "done.json").read_text())["moves"])
        return True

    def build(self, log: bool = True) -> tuple[Tables, dict[str, int | float]]:
        t0, wall0 = time.process_time(), time.perf_counter()
        rounds = 0
        resumed = 0
        for comp in self.components():
            if self._resume(comp):
                resumed += 1
                continue
            moves0 = self.moves
            r = self._solve(comp, log)
            rounds = max(rounds, r)
            self._save(comp, self.moves - moves0, r)
        canon = self.canon
        v = self.value[:self.size][canon]
        codes = np.zeros(len(v), dtype="<u2")
        win, loss = v > 0, v < 0
        codes[win] = 1 + (SCALE - v[win].astype(np.int32))
        codes[loss] = LOSS_BASE + (SCALE + v[loss].astype(np.int32))
        mirror_self = self.selfmirror[canon]

        def weighed(mask: NDArray[np.bool_]) -> int:
            """Absolute positions: 4 per canonical entry (both colours to move, a mirror
            pair), 2 for an entry that is its own mirror image."""
            return 4 * int(mask.sum()) - 2 * int((mask & mirror_self).sum())

        stats: dict[str, int | float] = {
            "pieces": self.k, "layer": self.k, "canonical_positions": int(len(v)),
            "absolute_positions": 4 * int(len(v)) - 2 * int(mirror_self.sum()),
            "win": weighed(win), "loss": weighed(loss),
            "draw": weighed(~win & ~loss),
            "longest_win_plies": int((SCALE - v[win].astype(np.int32)).max(initial=0)),
            "longest_loss_plies": int((SCALE + v[loss].astype(np.int32)).max(initial=0)),
            "moves": self.moves, "rounds": rounds, "components_resumed": resumed,
            "cpu_seconds": round(time.process_time() - t0, 1),
            "wall_seconds": round(time.perf_counter() - wall0, 1),
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "load_average": round(os.getloadavg()[0], 1),
        }
        bits = np.packbits(np.r_[canon, np.zeros((-self.size) % 64, dtype=bool)],
                           bitorder="little").tobytes()
        return Tables(self.k, bits, codes.tobytes(), stats, low=self.k), stats


def _compact(child: I32, cnt: I16, starts: I64, keep: NDArray[np.bool_]) -> I32:
    """The moves of the parents kept, block by block (no mask as long as all the moves)."""
    out = np.empty(int(cnt[keep].sum(dtype=np.int64)), dtype=np.int32)
    at = a = 0
    while a < len(starts):
        b = max(int(np.searchsorted(starts, starts[a] + BLOCK, side="left")), a + 1)
        lo = int(starts[a])
        hi = int(starts[b]) if b < len(starts) else len(child)
        part = np.asarray(child[lo:hi])[np.repeat(keep[a:b], cnt[a:b])]
        out[at:at + len(part)] = part
        at += len(part)
        a = b
    return out
