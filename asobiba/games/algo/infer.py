"""Exact deduction: the probability of every number for every face-down card a seat
cannot see, by counting *all* deals consistent with what that seat has seen.

Why a dynamic programme works: every row is sorted, so if we hand out the unknown cards in
ascending key order, each row is filled left to right and a partial deal is summarised by
one pointer per row (how many of its hidden cards are filled). Card uniqueness couples the
rows: each key is handed to at most as many slots as copies remain. A forward sweep counts
the ways to reach each pointer vector, a backward sweep the ways to finish from it, and a
slot's marginal is the sum over the transitions that fill it. Never sampling.

Weights: deals are uniform over the physical cards. With two sets, giving ``u`` slots a
key of which ``r`` copies are unseen can be done in ``r·(r-1)…(r-u+1)`` ways; the pile and
other seats' in-hand cards take the rest in a number of ways that does not depend on the
choice (their colours are known), so it cancels.

Jokers (every 6 when the rule is on) may sit anywhere: a run of hidden cards right after a
regular card (or at the row start) may be declared jokers at that moment, which gives each
arrangement exactly one path. Usage of each joker key joins the state.

Model: all consistent deals equally likely — players' choices (what they named, where they
put a joker) are not read as evidence about their cards. See docs/rules/algo.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ...core.jsontypes import JSONMapping
from .cards import COLOUR_LETTERS, JOKER_NUMBER, NUMBERS
from .views import algo_view


@dataclass(frozen=True)
class SlotInfo:
    """A card in a row as one seat knows it: ``key`` is None when the number is unknown;
    ``fails`` is a bitmask of numbers named there and missed."""

    sid: int
    colour: int
    key: int | None = None
    fails: int = 0


@dataclass
class Knowledge:
    """Everything one seat knows that bears on the hidden numbers."""

    colours: int = 2
    sets: int = 1
    jokers: bool = False
    numbers: int = NUMBERS
    rows: list[list[SlotInfo]] = field(default_factory=list)
    extra_known: list[int] = field(default_factory=list)
    """Keys the seat knows that are in no row (its drawn card, a card it is placing)."""

    @classmethod
    def from_view(cls, view: JSONMapping) -> Knowledge:
        view = algo_view(view)
        rules = view["rules"]
        c = int(rules["colours"])
        rows = []
        for row in view["rows"]:
            out = []
            for s in row:
                colour = COLOUR_LETTERS.index(s["colour"])
                key = s["number"] * c + colour if "number" in s else None
                fails = sum(1 << v for v in s.get("not", ()))
                out.append(SlotInfo(int(s["id"]), colour, key, fails))
            rows.append(out)
        extra = []
        for part in (view.get("hand"), view.get("placing")):
            if part and "number" in part:
                extra.append(part["number"] * c + COLOUR_LETTERS.index(part["colour"]))
        for name in view.get("my_setup", ()):
            extra.append(int(name[1:]) * c + COLOUR_LETTERS.index(name[0]))
        return cls(c, int(rules["sets"]), bool(rules["jokers"]), NUMBERS, rows, extra)

    def joker_keys(self) -> list[int]:
        if not self.jokers:
            return []
        return [JOKER_NUMBER * self.colours + c for c in range(self.colours)]

    def is_joker(self, key: int) -> bool:
        return self.jokers and key // self.colours == JOKER_NUMBER

    def remaining(self) -> list[int]:
        """Unseen copies of every key."""
        r = [self.sets] * (self.numbers * self.colours)
        for row in self.rows:
            for s in row:
                if s.key is not None:
                    r[s.key] -= 1
        for k in self.extra_known:
            r[k] -= 1
        if min(r, default=0) < 0:
            raise ValueError("knowledge holds more copies of a card than the game has")
        return r


@dataclass
class Inference:
    """Exact counts: ``total`` consistent deals (up to the common factor) and, per hidden
    slot id, the number of them giving the slot each key."""

    knowledge: Knowledge
    total: int
    counts: dict[int, dict[int, int]]

    def prob(self, sid: int, number: int) -> float:
        c = self.knowledge.colours
        cnt = self.counts[sid]
        return sum(v for k, v in cnt.items() if k // c == number) / self.total

    def exact(self, sid: int) -> dict[int, Fraction]:
        return {k: Fraction(v, self.total) for k, v in self.counts[sid].items() if v}

    def numbers(self, sid: int) -> dict[int, float]:
        """Number → probability for one hidden card (its colour is known)."""
        c = self.knowledge.colours
        return {k // c: v / self.total for k, v in sorted(self.counts[sid].items()) if v}

    def best(self) -> list[tuple[float, int, int]]:
        """(probability, slot id, number) for every hidden slot's likeliest number."""
        out = []
        for sid in self.counts:
            nums = self.numbers(sid)
            if nums:
                number, p = max(nums.items(), key=lambda kv: (kv[1], -kv[0]))
                out.append((p, sid, number))
        return sorted(out, key=lambda t: (-t[0], t[1], t[2]))

    def to_json(self) -> dict[str, dict[str, float]]:
        return {str(sid): {str(n): round(p, 6) for n, p in self.numbers(sid).items()}
                for sid in self.counts}


Trans = tuple[tuple[int, ...], int, list[tuple[int, int]]]
"""A transition of the general programme: the next state (row pointers, then joker keys
used), its weight, and the (slot id, key) pairs it fills."""
_Partial = tuple[list[int], list[int], int, list[tuple[int, int]], int]
"""A transition being built: row pointers, joker keys used, weight, fills, copies given."""


class Inconsistent(ValueError):
    """No deal agrees with what the seat has seen."""


def infer(kn: Knowledge, fast: bool = True) -> Inference:
    """Exact marginals of every hidden slot (see the module docstring). Games without
    jokers (the common case) take a leaner path; ``fast=False`` forces the general one."""
    c = kn.colours
    r = kn.remaining()
    jkeys = kn.joker_keys()
    jindex = {k: i for i, k in enumerate(jkeys)}
    nkeys = kn.numbers * c
    regular = [k for k in range(nkeys) if not kn.is_joker(k) and r[k] > 0]

    # per row: hidden slots with their allowed regular keys (bitmask) and joker key or -1
    rows: list[list[tuple[int, int, int]]] = []   # (sid, allowed mask, joker key or -1)
    for row in kn.rows:
        hidden = []
        known_regular = [(i, sl.key) for i, sl in enumerate(row)
                         if sl.key is not None and not kn.is_joker(sl.key)]
        for i, sl in enumerate(row):
            if sl.key is not None:
                continue
            lo = max((k for j, k in known_regular if j < i), default=0)
            hi = min((k for j, k in known_regular if j > i), default=nkeys - 1)
            mask = 0
            for k in range(lo, hi + 1):
                if (k % c == sl.colour and not kn.is_joker(k) and r[k] > 0
                        and not sl.fails >> (k // c) & 1):
                    mask |= 1 << k
            jk = -1
            if kn.jokers:
                cand = JOKER_NUMBER * c + sl.colour
                if r[cand] > 0 and not sl.fails >> JOKER_NUMBER & 1:
                    jk = cand
            hidden.append((sl.sid, mask, jk))
        if hidden:
            rows.append(hidden)
    m = len(rows)
    sizes = [len(h) for h in rows]
    counts: dict[int, dict[int, int]] = {sid: {} for h in rows for sid, _, _ in h}
    if m == 0:
        return Inference(kn, 1, counts)
    if fast and kn.sets <= 2 and not kn.jokers:
        return _infer_no_jokers(kn, [[(sid, mask) for sid, mask, _ in h] for h in rows],
                                regular, nkeys, counts, r)
    nj = len(jkeys)

    def joker_runs(state: list[int], row: int, used: list[int], w: int,
                   assigned: list[tuple[int, int]]) -> list[tuple[list[int], list[int], int,
                                                               list[tuple[int, int]]]]:
        """All ways to declare a run of jokers right after the row's pointer."""
        out = [(state, used, w, assigned)]
        if not nj:
            return out
        p, u, ww, a = state, used, w, assigned
        while p[row] < sizes[row]:
            sid, _, jk = rows[row][p[row]]
            if jk < 0:
                break
            ji = jindex[jk]
            left = r[jk] - u[ji]
            if left <= 0:
                break
            p = p.copy()
            p[row] += 1
            u = u.copy()
            u[ji] += 1
            ww = ww * left
            a = a + [(sid, jk)]
            out.append((p, u, ww, a))
        return out

    def start_trans() -> list[Trans]:
        partial: list[tuple[list[int], list[int], int, list[tuple[int, int]]]] = [
            ([0] * m, [0] * nj, 1, [])]
        for row in range(m):
            nxt: list[tuple[list[int], list[int], int, list[tuple[int, int]]]] = []
            for p, u, w, a in partial:
                nxt.extend(joker_runs(p, row, u, w, a))
            partial = nxt
        return [(tuple(p + u), w, a) for p, u, w, a in partial]

    def key_trans(state: tuple[int, ...], k: int) -> list[Trans]:
        copies = r[k]
        bit = 1 << k
        partial: list[_Partial] = [(list(state[:m]), list(state[m:]), 1, [], 0)]
        for row in range(m):
            nxt: list[_Partial] = []

            def take(q: list[int], u: list[int], ww: int, aa: list[tuple[int, int]],
                     t: int, row: int = row, out: list[_Partial] = nxt) -> None:
                """Give key k to the next slot(s) of ``row``; jokers may follow each."""
                out.append((q, u, ww, aa, t))
                if t < copies and q[row] < sizes[row] and rows[row][q[row]][1] & bit:
                    q2 = q.copy()
                    q2[row] += 1
                    base = aa + [(rows[row][q[row]][0], k)]
                    for p2, u2, w2, a2 in joker_runs(q2, row, u, ww * (copies - t), base):
                        take(p2, u2, w2, a2, t + 1)

            for p, u, w, a, taken in partial:
                take(p, u, w, a, taken)
            partial = nxt
        return [(tuple(p + u), w, a) for p, u, w, a, _ in partial]

    # forward: states reachable after the start and after each regular key
    layers: list[dict[tuple[int, ...], list[Trans]]] = []
    frontier: dict[tuple[int, ...], int] = {}
    start = start_trans()
    for s2, w, _ in start:
        frontier[s2] = frontier.get(s2, 0) + w
    # the slot at a row's pointer must still accept a key >= k: prune states that cannot
    max_key = [[(h[1].bit_length() - 1) for h in hs] for hs in rows]
    for idx, k in enumerate(regular):
        layer: dict[tuple[int, ...], list[Trans]] = {}
        nxt: dict[tuple[int, ...], int] = {}
        for s in frontier:
            ts = key_trans(s, k)
            nk = regular[idx + 1] if idx + 1 < len(regular) else nkeys
            keep = []
            for s2, w, a in ts:
                if any(s2[i] < sizes[i] and max_key[i][s2[i]] < nk for i in range(m)):
                    continue
                keep.append((s2, w, a))
                nxt[s2] = nxt.get(s2, 0) + frontier[s] * w
            layer[s] = keep
        layers.append(layer)
        frontier = nxt
    # backward, accumulating marginals
    back: dict[tuple[int, ...], int] = {s: 1 for s in frontier if list(s[:m]) == sizes}
    fwd_cache = _forward_weights(start, layers)
    for idx in range(len(layers) - 1, -1, -1):
        layer = layers[idx]
        fw = fwd_cache[idx]
        prev: dict[tuple[int, ...], int] = {}
        for s, ts in layer.items():
            acc = 0
            f = fw.get(s, 0)
            for s2, w, a in ts:
                b = back.get(s2)
                if not b:
                    continue
                acc += w * b
                if a and f:
                    contrib = f * w * b
                    for sid, key in a:
                        d = counts[sid]
                        d[key] = d.get(key, 0) + contrib
            if acc:
                prev[s] = acc
        back = prev
    total = 0
    for s2, w, a in start:
        b = back.get(s2)
        if not b:
            continue
        total += w * b
        for sid, key in a:
            d = counts[sid]
            d[key] = d.get(key, 0) + w * b
    if total == 0:
        raise Inconsistent("no deal is consistent with what this seat has seen")
    return Inference(kn, total, counts)


def _infer_no_jokers(kn: Knowledge, rows: list[list[tuple[int, int]]], keys: list[int],
                     nkeys: int, counts: dict[int, dict[int, int]], r: list[int]
                     ) -> Inference:
    """No jokers (one or two sets): a key fills at most as many slots as copies remain.
    States are pointer vectors coded as integers; each row's pointer is confined, at each
    key, to the range its slots' effective bounds allow (slot j of a row needs a key no
    lower than slot j-1's lowest possible one and no higher than slot j+1's highest),
    which keeps the frontier small."""
    m = len(rows)
    strict = 1 if kn.sets == 1 else 0
    sizes = [len(h) for h in rows]
    stride = [1] * m
    for i in range(1, m):
        stride[i] = stride[i - 1] * (sizes[i - 1] + 1)
    low: list[list[int]] = []
    high: list[list[int]] = []
    for h in rows:
        lo = [(mask & -mask).bit_length() - 1 if mask else nkeys for _, mask in h]
        hi = [mask.bit_length() - 1 if mask else -1 for _, mask in h]
        for j in range(1, len(h)):
            lo[j] = max(lo[j], lo[j - 1] + strict)
        for j in range(len(h) - 2, -1, -1):
            hi[j] = min(hi[j], hi[j + 1] - strict)
        if any(a > b for a, b in zip(lo, hi, strict=True)):
            raise Inconsistent("no deal is consistent with what this seat has seen")
        low.append(lo)
        high.append(hi)
    final = sum(sizes[i] * stride[i] for i in range(m))
    layers: list[dict[int, int]] = [{0: 1}]
    sids = [[sid for sid, _ in h] for h in rows]
    Mover = tuple[int, int, int, int, list[bool]]   # row, stride, base, size, allow

    def steps(s: int, movers: list[Mover], copies: int
              ) -> list[tuple[int, int, tuple[int, ...]]]:
        """Ways to hand out the current key from pointer state ``s``: to one slot, or (two
        copies left) to two — the next two of one row or the next of two rows."""
        ready = []
        for i, st, base, size, allow in movers:
            p = s // st % base
            if p < size and allow[p]:
                ready.append((i, st, p, size, allow))
        out: list[tuple[int, int, tuple[int, ...]]] = []
        two = copies * (copies - 1)
        for a, (i, st, p, size, allow) in enumerate(ready):
            sid = sids[i][p]
            out.append((s + st, copies, (sid,)))
            if two:
                if p + 1 < size and allow[p + 1]:
                    out.append((s + 2 * st, two, (sid, sids[i][p + 1])))
                for i2, st2, p2, _, _ in ready[a + 1:]:
                    out.append((s + st + st2, two, (sid, sids[i2][p2])))
        return out

    movers_by_key: list[list[Mover]] = []
    for idx, k in enumerate(keys):
        bit = 1 << k
        movers: list[Mover] = []
        for i, h in enumerate(rows):
            allow = [bool(mask & bit) for _, mask in h]
            if any(allow):
                movers.append((i, stride[i], sizes[i] + 1, sizes[i], allow))
        movers_by_key.append(movers)
        copies = min(r[k], 2)
        nk = keys[idx + 1] if idx + 1 < len(keys) else nkeys
        # after keys <= k: row i's pointer lies in [#slots whose high < nk, #slots whose low < nk]
        bounds = [(stride[i], sizes[i] + 1, sum(1 for x in high[i] if x < nk),
                   sum(1 for x in low[i] if x < nk)) for i in range(m)]
        tight = [b for b in bounds if b[2] > 0 or b[3] < b[1] - 1]
        cur = layers[-1]
        nxt: dict[int, int] = {}
        for s, f in cur.items():
            nxt[s] = nxt.get(s, 0) + f
            for s2, w, _ in steps(s, movers, copies):
                nxt[s2] = nxt.get(s2, 0) + f * w
        kept = {}
        for s, f in nxt.items():
            for st, base, least, most in tight:
                p = s // st % base
                if p < least or p > most:
                    break
            else:
                kept[s] = f
        layers.append(kept)
    back: dict[int, int] = {final: 1} if final in layers[-1] else {}
    for idx in range(len(keys) - 1, -1, -1):
        k = keys[idx]
        copies = min(r[k], 2)
        movers = movers_by_key[idx]
        prev: dict[int, int] = {}
        for s, f in layers[idx].items():
            acc = back.get(s, 0)
            for s2, w, filled in steps(s, movers, copies):
                b = back.get(s2)
                if b:
                    acc += w * b
                    contrib = f * w * b
                    for sid in filled:
                        d = counts[sid]
                        d[k] = d.get(k, 0) + contrib
            if acc:
                prev[s] = acc
        back = prev
    total = back.get(0, 0)
    if total == 0:
        raise Inconsistent("no deal is consistent with what this seat has seen")
    return Inference(kn, total, counts)


def _forward_weights(start: Sequence[Trans], layers: Sequence[Mapping[tuple[int, ...],
                                                                     Sequence[Trans]]]
                     ) -> list[dict[tuple[int, ...], int]]:
    """Forward counts before each layer."""
    cur: dict[tuple[int, ...], int] = {}
    for s2, w, _ in start:
        cur[s2] = cur.get(s2, 0) + w
    out = []
    for layer in layers:
        out.append(cur)
        nxt: dict[tuple[int, ...], int] = {}
        for s, ts in layer.items():
            f = cur.get(s, 0)
            if not f:
                continue
            for s2, w, _ in ts:
                nxt[s2] = nxt.get(s2, 0) + f * w
        cur = nxt
    return out


def infer_view(view: JSONMapping) -> Inference:
    return infer(Knowledge.from_view(view))
