"""Exact analysis within reach on 5×5: state-space size, bounded proofs from any position,
and a complete retrograde solve of the endgames with few pieces.

* :func:`state_space_upper_bound` counts every placement of up to n pieces a side with both
  faces and both sides to move: the 5×5 figure (~1.9·10¹²) rules out a full solve here.
* :func:`forced_win_within` is an AND/OR search (memoised on position and depth) that
  decides whether the side to move can force a win within ``d`` plies. It ignores the
  repetition rule, which only ever adds draws, so "no forced win within d" stays true
  under the real rule.
* :func:`solve_endgames` solves every 5×5 position with at most ``pieces`` pieces on the
  board (captures only remove pieces, so this set is closed under moves).
"""

from __future__ import annotations

import time
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from ...core.jsontypes import JSONObject
from . import board as bd
from .solver3 import DRAW, LOSS, WIN, _retrograde

if TYPE_CHECKING:
    from .game import FlipFlopState


def state_space_upper_bound(n: int) -> int:
    """Placements of 0..n pieces a side, each piece + or ×, times two sides to move."""
    squares = n * n
    total = 0
    for w in range(n + 1):
        for b in range(n + 1):
            total += comb(squares, w) * comb(squares - w, b) * 2 ** (w + b) * 2
    return total


def forced_win_within(n: int, pos: tuple[int, int, int, int], depth: int,
                      memo: dict[tuple[int, int], bool] | None = None,
                      counter: list[int] | None = None) -> bool:
    """Can the side to move force a win (goal held, or opponent stuck) within ``depth``
    plies, whatever the opponent does?"""
    geo = bd.GEOMETRY[n]
    memo = {} if memo is None else memo
    counter = [0] if counter is None else counter

    def win(w: int, b: int, x: int, t: int, d: int) -> bool:
        counter[0] += 1
        if bd.holds_goal(geo, w, b, t):
            return True
        if d <= 0:
            return False
        key = (bd.position_key(w, b, x, t), d)
        hit = memo.get(key)
        if hit is not None:
            return hit
        result = False
        home = geo.home_centre[t]
        theirs = b if t == bd.WHITE else w
        moves = bd.legal_moves(geo, w, b, x, t)
        if theirs >> home & 1:
            moves = [m for m in moves if m[1] == home]   # any other move loses at once
        else:
            goal = geo.goal_of(t)
            moves.sort(key=lambda m: m[1] != goal)
        for frm, to in moves:
            cw, cb, cx, ct = bd.apply_move(w, b, x, t, frm, to)
            replies = bd.legal_moves(geo, cw, cb, cx, ct)
            if not replies:
                result = True
                break
            # try the likely refutations first: retaking, or going for the other goal
            urgent = geo.goals_mask
            replies.sort(key=lambda m: not urgent >> m[1] & 1)
            if d < 2:
                continue
            ok = True
            for rf, rt in replies:
                gw, gb, gx, gt = bd.apply_move(cw, cb, cx, ct, rf, rt)
                if not win(gw, gb, gx, gt, d - 2):
                    ok = False
                    break
            if ok:
                result = True
                break
        memo[key] = result
        return result

    return win(*pos, depth)


def bounded_proof(n: int, pos: tuple[int, int, int, int], max_depth: int,
                  time_budget: float = 30.0) -> JSONObject:
    """Largest depths (≤ max_depth) at which each side is proven unable to force a win."""
    t0 = time.perf_counter()
    counter = [0]
    memo: dict[tuple[int, int], bool] = {}
    geo = bd.GEOMETRY[n]
    mover_none = other_none = 0
    for d in range(1, max_depth + 1):
        if time.perf_counter() - t0 > time_budget:
            break
        if forced_win_within(n, pos, d, memo, counter):
            return {"forced_win_for_mover_in": d, "nodes": counter[0],
                    "seconds": time.perf_counter() - t0}
        mover_none = d
        # the opponent forces a win within d iff every move of ours leads to such a win
        all_lose = True
        for frm, to in bd.legal_moves(geo, *pos):
            child = bd.apply_move(*pos, frm, to)
            if not forced_win_within(n, child, d - 1, memo, counter):
                all_lose = False
                break
        if all_lose:
            return {"forced_win_for_opponent_in": d, "nodes": counter[0],
                    "seconds": time.perf_counter() - t0}
        other_none = d
    return {"no_win_for_mover_within": mover_none, "no_win_for_opponent_within": other_none,
            "nodes": counter[0], "seconds": time.perf_counter() - t0}


def _positions_with(n: int, pieces: int) -> list[int]:
    """Every position with 1..pieces-1 pieces a side, at most ``pieces`` in all."""
    squares = range(n * n)
    out = []
    for nw in range(1, pieces):
        for nb in range(1, pieces - nw + 1):
            for ws in combinations(squares, nw):
                wmask = sum(1 << s for s in ws)
                rest = [s for s in squares if not wmask >> s & 1]
                for bs in combinations(rest, nb):
                    bmask = sum(1 << s for s in bs)
                    occ = [*ws, *bs]
                    for faces in range(1 << len(occ)):
                        xmask = sum(1 << s for i, s in enumerate(occ) if faces >> i & 1)
                        for t in (0, 1):
                            out.append(bd.position_key(wmask, bmask, xmask, t))
    return out


def solve_endgames(n: int = 5, pieces: int = 3, keep_values: bool = False
                   ) -> JSONObject:
    """Retrograde solve of all positions with ≤ ``pieces`` pieces (each side ≥ 1).
    ``keep_values`` adds ``values``: position key → (value, distance)."""
    t0 = time.perf_counter()
    geo = bd.GEOMETRY[n]
    keys = _positions_with(n, pieces)
    index = {k: i for i, k in enumerate(keys)}
    children: list[list[int] | None] = []
    for k in keys:
        w, b, x, t = bd.unpack_key(k)
        if bd.holds_goal(geo, w, b, t):
            children.append(None)
            continue
        ids = []
        for frm, to in bd.legal_moves(geo, w, b, x, t):
            cw, cb, cx, ct = bd.apply_move(w, b, x, t, frm, to)
            if not (cw and cb):
                ids.append(-1)   # a side lost its last piece: it cannot move
                continue
            ids.append(index[bd.position_key(cw, cb, cx, ct)])
        children.append(ids)
    # the "no pieces left" child: a single extra terminal node, lost for its side to move
    lost = len(keys)
    keys.append(-1)
    children.append([])
    children = [None if c is None else [lost if i < 0 else i for i in c] for c in children]
    value, dist = _retrograde(keys, children, ())
    real = range(lost)
    counts = {name: sum(1 for i in real if value[i] == v)
              for name, v in (("win", WIN), ("loss", LOSS), ("draw", DRAW))}
    longest = max((dist[i] for i in real if value[i] == WIN), default=0)
    out = {"board": f"{n}x{n}", "max_pieces": pieces, "positions": lost, **counts,
           "longest_win_plies": longest, "seconds": time.perf_counter() - t0}
    if keep_values:
        out["values"] = {keys[i]: (value[i], dist[i]) for i in real}
    return out


def report5(state: FlipFlopState, max_depth: int = 9, time_budget: float = 20.0) -> JSONObject:
    """What ``asobiba solve flipflop --option board=5x5`` can honestly say: the exact value
    from the endgame tables when the position has ≤ 5 pieces (≤ 4 without the layer file),
    else a bounded proof."""
    from . import tables

    tab = tables.load()
    if tab is not None and state.outcome is None and tab.covers(state.white, state.black):
        from .bots import table_move

        _, value, dist = table_move(state, tab)
        side = "White" if state.turn == bd.WHITE else "Black"
        name = tables.NAMES[value]
        plies = f" in {dist} plies" if value != tables.DRAW else ""
        return {"board": "5x5", "source": f"endgame tables (≤ {tab.pieces} pieces)",
                "value": name, "plies": dist if value != tables.DRAW else None,
                "summary": f"5×5 FlipFlop, endgame tables: {side} (to move) — {name}{plies} "
                           f"with best play (fastest win / slowest loss)."}
    proof = bounded_proof(5, state.tuple4(), max_depth, time_budget)
    bound = state_space_upper_bound(5)
    side = "White" if state.turn == bd.WHITE else "Black"
    other = "Black" if state.turn == bd.WHITE else "White"
    if "forced_win_for_mover_in" in proof:
        said = f"{side} (to move) forces a win within {proof['forced_win_for_mover_in']} plies."
    elif "forced_win_for_opponent_in" in proof:
        said = f"{other} forces a win within {proof['forced_win_for_opponent_in']} plies."
    else:
        said = (f"Not solved. Proven: {side} (to move) cannot force a win within "
                f"{proof['no_win_for_mover_within']} plies, and {other} cannot within "
                f"{proof['no_win_for_opponent_within']} plies.")
    summary = (f"5×5 FlipFlop: about {bound:.2e} positions (upper bound) — beyond a full "
               f"solve here. {said} ({proof['nodes']:,} nodes, {proof['seconds']:.1f} s)")
    return {"board": "5x5", "state_space_upper_bound": bound, **proof, "summary": summary}
