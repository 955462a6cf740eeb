"""Retrograde analysis of 3×3 FlipFlop: the value of every position reachable from the start.

Positions are taken *relative to the side to move* (its first row at the bottom) and up to
the left↔right mirror, which the rules respect; each is a 27-bit key
``mine | theirs << 9 | bishops << 18``. The side to move attacks square b3 (7) and defends b1.

The solver first enumerates the reachable positions forward, then propagates results
backward from the terminal ones in order of distance: a position is a WIN in d+1 plies if
some move reaches a LOSS in d (the first, hence fastest, one found), and a LOSS in d+1 once
every move reaches a WIN, the last of them in d (slowest). Positions never resolved are
DRAWs: neither side can force a win, so play can go on until the repetition rule ends it.

Repetition: this table values a position *ignoring its history* (infinite play = draw). The
actual rule (third occurrence = draw) can only turn a result into a draw when some position
of the game has already occurred twice; :func:`solve_with_history` re-solves with those
positions as draws, which is exact (see docs/rules/flipflop.md, "Solver and repetition").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import board as bd

N = 3
ATTACK = 7   # b3 relative to the side to move
HOME = 1     # b1
DRAW, WIN, LOSS = 0, 1, 2
VALUE_NAMES = {DRAW: "draw", WIN: "win", LOSS: "loss"}


def _table(fn: Callable[[int], int]) -> list[int]:
    return [fn(m) for m in range(512)]


FLIP = _table(lambda m: bd.flip_ranks(N, m))
MIRROR = _table(lambda m: bd.mirror_mask(N, m))
FLIP_MIRROR = [MIRROR[FLIP[m]] for m in range(512)]
_GEO = bd.GEOMETRY[N]
GOALS = _GEO.goals_mask


def _dest_table() -> list[list[list[list[tuple[int, int, bool]]]]]:
    """DEST[face][sq][occ] = (to, to_bit, blocked) steps; ``blocked`` marks an occupied
    goal square ending a ray (a capture if the piece there is the opponent's)."""
    out: list[list[list[list[tuple[int, int, bool]]]]] = []
    for rays_all in (_GEO.rook_rays, _GEO.bishop_rays):
        per_sq: list[list[list[tuple[int, int, bool]]]] = []
        for sq in range(9):
            per_occ: list[list[tuple[int, int, bool]]] = []
            for occ in range(512):
                steps: list[tuple[int, int, bool]] = []
                for ray in rays_all[sq]:
                    for t in ray:
                        if occ >> t & 1:
                            if GOALS >> t & 1:
                                steps.append((t, 1 << t, True))
                            break
                        steps.append((t, 1 << t, False))
                per_occ.append(steps)
            per_sq.append(per_occ)
        out.append(per_sq)
    return out


DEST = _dest_table()


def canonical(key: int) -> int:
    m = MIRROR
    mirrored = m[key & 511] | m[key >> 9 & 511] << 9 | m[key >> 18] << 18
    return key if key <= mirrored else mirrored


def relative_key(white: int, black: int, bishops: int, turn: int) -> int:
    """The relative (not yet canonical) key of an absolute 3×3 position."""
    if turn == bd.WHITE:
        return white | black << 9 | bishops << 18
    return FLIP[black] | FLIP[white] << 9 | FLIP[bishops] << 18


def relative_children(key: int) -> list[int] | None:
    """Relative keys after each legal move, or None if the side to move already holds
    the goal (a terminal win). An empty list: no legal move (a loss)."""
    mine, theirs, bish = key & 511, key >> 9 & 511, key >> 18
    if mine >> ATTACK & 1:
        return None
    occ = mine | theirs
    out = []
    m = mine
    dest0, dest1 = DEST
    flip = FLIP
    while m:
        fb = m & -m
        m ^= fb
        frm = fb.bit_length() - 1
        is_b = bish & fb
        for _t, tb, blocked in (dest1 if is_b else dest0)[frm][occ]:
            if blocked and mine & tb:
                continue
            nm = (mine ^ fb) | tb
            nt = theirs & ~tb
            nb = (bish & ~fb & ~tb) | (0 if is_b else tb)
            out.append(flip[nt] | flip[nm] << 9 | flip[nb] << 18)
    return out


@dataclass
class Solution:
    """Value (for the side to move) and distance in plies of every reachable position."""

    index: dict[int, int]
    value: bytearray
    dist: list[int]
    positions: int = 0
    seconds: float = 0.0
    blocked: frozenset[int] = field(default_factory=frozenset)

    def lookup(self, key: int) -> tuple[int, int]:
        i = self.index.get(key)
        if i is None:
            raise KeyError(f"position key {key} is not in the solved set")
        return self.value[i], self.dist[i]


def _retrograde(keys: list[int], children: list[list[int] | None], fixed_draw: Iterable[int]
                ) -> tuple[bytearray, list[int]]:
    """Backward induction by distance over an explicit graph (children as indices;
    None = the side to move holds the goal, [] = no legal move)."""
    size = len(keys)
    value = bytearray(size)
    dist = [-1] * size
    parents: list[list[int]] = [[] for _ in range(size)]
    left = [0] * size
    frontier = []
    blocked = set(fixed_draw)
    for p, kids in enumerate(children):
        if p in blocked:
            continue
        if kids is None:
            value[p], dist[p] = WIN, 0
            frontier.append(p)
            continue
        if not kids:
            value[p], dist[p] = LOSS, 0
            frontier.append(p)
            continue
        left[p] = len(kids)
        for c in kids:
            parents[c].append(p)
    d = 0
    while frontier:
        nxt = []
        for c in frontier:
            if value[c] == LOSS:
                for p in parents[c]:
                    if dist[p] < 0:
                        value[p], dist[p] = WIN, d + 1
                        nxt.append(p)
            else:
                for p in parents[c]:
                    if dist[p] < 0:
                        left[p] -= 1
                        if left[p] == 0:
                            value[p], dist[p] = LOSS, d + 1
                            nxt.append(p)
        frontier = nxt
        d += 1
    return value, dist


def solve(root: int | None = None) -> Solution:
    """Solve every position reachable from ``root`` (default: the start).

    The forward pass inlines :func:`relative_children` and the mirror canonicalisation
    (two table lookups per mask) because it is most of the solve's time."""
    t0 = time.perf_counter()
    if root is None:
        root = relative_key(*bd.start_position(N))
    root = canonical(root)
    index = {root: 0}
    keys = [root]
    children: list[list[int] | None] = []
    flip, flip_mirror = FLIP, FLIP_MIRROR
    dest0, dest1 = DEST
    i = 0
    while i < len(keys):
        key = keys[i]
        i += 1
        mine, theirs, bish = key & 511, key >> 9 & 511, key >> 18
        if mine >> ATTACK & 1:
            children.append(None)
            continue
        occ = mine | theirs
        ids = []
        m = mine
        while m:
            fb = m & -m
            m ^= fb
            is_b = bish & fb
            keep_b = bish & ~fb
            for _t, tb, blocked in (dest1 if is_b else dest0)[fb.bit_length() - 1][occ]:
                if blocked and mine & tb:
                    continue
                nm = (mine ^ fb) | tb
                nt = theirs & ~tb
                nb = (keep_b & ~tb) | (0 if is_b else tb)
                k = flip[nt] | flip[nm] << 9 | flip[nb] << 18
                mk = flip_mirror[nt] | flip_mirror[nm] << 9 | flip_mirror[nb] << 18
                if mk < k:
                    k = mk
                j = index.get(k)
                if j is None:
                    j = index[k] = len(keys)
                    keys.append(k)
                ids.append(j)
        children.append(ids)
    value, dist = _retrograde(keys, children, ())
    return Solution(index, value, dist, len(keys), time.perf_counter() - t0)


def solve_with_history(white: int, black: int, bishops: int, turn: int,
                       blocked_abs: Iterable[int]) -> Solution:
    """Exact values under the real repetition rule from the given position, where
    ``blocked_abs`` are absolute position keys already seen twice (a third visit draws).

    Works on absolute keys (no symmetry: a blocked position and its mirror differ)."""
    t0 = time.perf_counter()
    blocked_set = set(blocked_abs)
    root = bd.position_key(white, black, bishops, turn)
    # node 0 is the position now; a later visit to it is a separate node (maybe blocked)
    index = {} if root in blocked_set else {root: 0}
    keys = [root]
    children: list[list[int] | None] = []
    geo = _GEO
    i = 0
    while i < len(keys):
        key = keys[i]
        w, b, x, t = bd.unpack_key(key)
        i += 1
        if i > 1 and key in blocked_set:
            children.append([])   # never expanded: a fixed draw
            continue
        if bd.holds_goal(geo, w, b, t):
            children.append(None)
            continue
        ids = []
        for frm, to in bd.legal_moves(geo, w, b, x, t):
            k = bd.position_key(*bd.apply_move(w, b, x, t, frm, to))
            j = index.get(k)
            if j is None:
                j = index[k] = len(keys)
                keys.append(k)
            ids.append(j)
        children.append(ids)
    fixed = [index[k] for k in blocked_set if k in index and index[k] != 0]
    value, dist = _retrograde(keys, children, fixed)
    index.setdefault(root, 0)
    return Solution(index, value, dist, len(keys), time.perf_counter() - t0,
                    frozenset(blocked_set))


_CACHE: dict[str, Solution] = {}


def table() -> Solution:
    """The full 3×3 solution, computed once per process (about a second)."""
    if "full" not in _CACHE:
        _CACHE["full"] = solve()
    return _CACHE["full"]


_EXTRA: list[Solution] = []


def value_of(white: int, black: int, bishops: int, turn: int) -> tuple[int, int]:
    """(value, distance) of an absolute 3×3 position for the side to move, ignoring history.

    Positions that cannot arise from the start (set up by hand) are solved on demand from
    themselves, so perfect play works from any position."""
    key = canonical(relative_key(white, black, bishops, turn))
    for sol in (table(), *_EXTRA):
        i = sol.index.get(key)
        if i is not None:
            return sol.value[i], sol.dist[i]
    if len(_EXTRA) > 16:
        _EXTRA.clear()
    extra = solve(key)
    _EXTRA.append(extra)
    return extra.lookup(key)
