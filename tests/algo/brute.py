"""Brute-force deduction: enumerate every assignment of keys to the hidden slots.
The slow reference the exact dynamic programme is checked against."""

from __future__ import annotations

import itertools
from fractions import Fraction

from asobiba.games.algo.infer import Knowledge


def brute_deals(kn: Knowledge) -> dict[tuple[int, ...], int]:
    """Every consistent assignment of keys to the hidden slots (in row order) with its
    weight (the number of physical deals behind it)."""
    out: dict[tuple[int, ...], int] = {}
    _enumerate(kn, out)
    return out


def brute_marginals(kn: Knowledge) -> tuple[int, dict[int, dict[int, Fraction]]]:
    return _enumerate(kn, None)


def _enumerate(kn: Knowledge, deals: dict[tuple[int, ...], int] | None
               ) -> tuple[int, dict[int, dict[int, Fraction]]]:
    c = kn.colours
    r = kn.remaining()
    hidden = [(ri, i, s) for ri, row in enumerate(kn.rows) for i, s in enumerate(row)
              if s.key is None]
    cands = []
    for _, _, s in hidden:
        cands.append([k for k in range(kn.numbers * c)
                      if k % c == s.colour and r[k] > 0 and not s.fails >> (k // c) & 1])
    total = 0
    tallies: dict[int, dict[int, int]] = {s.sid: {} for _, _, s in hidden}
    for combo in itertools.product(*cands):
        used: dict[int, int] = {}
        for k in combo:
            used[k] = used.get(k, 0) + 1
        if any(u > r[k] for k, u in used.items()):
            continue
        rows = [[s.key for s in row] for row in kn.rows]
        for (ri, i, _), k in zip(hidden, combo):
            rows[ri][i] = k
        ok = True
        for row in rows:
            regular = [k for k in row if k is not None and not kn.is_joker(k)]
            if regular != sorted(regular):
                ok = False
                break
        if not ok:
            continue
        w = 1
        for k, u in used.items():
            for t in range(u):
                w *= r[k] - t
        total += w
        if deals is not None:
            deals[combo] = deals.get(combo, 0) + w
        for (_, _, s), k in zip(hidden, combo):
            tallies[s.sid][k] = tallies[s.sid].get(k, 0) + w
    return total, {sid: {k: Fraction(v, total) for k, v in d.items()}
                   for sid, d in tallies.items()}
