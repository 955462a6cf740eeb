"""FlipFlop-specific alpha-beta: iterative deepening negamax with a transposition table.

Written for this game rather than on the generic ``asobiba.search`` adapter because the hot
loop works directly on the four position ints (no objects per node), and because two rules
give exact pruning: a side whose goal is occupied by the opponent must take it back at once
(any other move loses), so only the retaking moves are searched, and such forced positions
are never cut off at the horizon. Repetitions (a position already on the search path, or
already seen twice in the game) score as draws.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import board as bd

WIN = 100_000
"""Score of a win at the root; a win found ``p`` plies deeper scores ``WIN - p``."""
MATE_BOUND = WIN - 1_000
EXACT, LOWER, UPPER = 0, 1, 2


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class Weights:
    """Evaluation terms (centipawn-like units, from the side to move)."""

    material: int = 120
    mobility: int = 4
    attackers: int = 45
    """Pieces that could step onto the goal we attack right now."""
    defenders: int = 30
    """Pieces that could take back on our own home centre."""
    open_goal: int = 250
    """We attack our goal and the opponent has nobody to take it back: a win in two."""
    advance: int = 6
    tempo: int = 20
    noise: int = 0
    """Half-width of a pseudo-random jitter added per position (variety for low levels)."""


MATERIAL_ONLY = Weights(mobility=0, attackers=0, defenders=0, open_goal=0, advance=0, tempo=0)


@dataclass
class Result:
    move: tuple[int, int] | None
    value: int
    depth: int
    nodes: int
    pv: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0


def defenders_of(geo: bd.Geometry, sq: int, side_bits: int, other_bits: int,
                 bishops: int) -> int:
    """How many of ``side_bits``' pieces could move to ``sq`` if an enemy stood there."""
    target = 1 << sq
    mine = side_bits & ~target
    theirs = other_bits | target
    count = 0
    m = mine
    while m:
        low = m & -m
        m ^= low
        s = low.bit_length() - 1
        if sq in bd.piece_moves(geo, s, bool(bishops & low), mine, theirs):
            count += 1
    return count


class Searcher:
    """One searcher per bot; the table is kept between moves of the same game."""

    def __init__(self, n: int, weights: Weights = Weights(), salt: int = 0,
                 tt_size: int = 400_000) -> None:
        self.n = n
        self.geo = bd.GEOMETRY[n]
        self.w = weights
        self.salt = salt
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.tt_size = tt_size
        self.nodes = 0
        self.deadline = float("inf")
        self.history: Mapping[int, int] = {}
        self.path: set[int] = set()

    # ---- evaluation ----------------------------------------------------------------------
    def evaluate(self, w: int, b: int, x: int, t: int) -> int:
        geo, wt = self.geo, self.w
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        my_goal, their_goal = geo.goal_of(t), geo.goal_of(1 - t)
        score = wt.material * (mine.bit_count() - theirs.bit_count()) + wt.tempo
        if wt.mobility or wt.attackers or wt.open_goal:
            my_moves = bd.legal_moves(geo, w, b, x, t)
            their_moves = bd.legal_moves(geo, w, b, x, 1 - t)
            score += wt.mobility * (len(my_moves) - len(their_moves))
            my_att = sum(1 for _, to in my_moves if to == my_goal)
            their_att = sum(1 for _, to in their_moves if to == their_goal)
            my_def = defenders_of(geo, their_goal, mine, theirs, x)
            their_def = defenders_of(geo, my_goal, theirs, mine, x)
            score += wt.attackers * (my_att - their_att) + wt.defenders * (my_def - their_def)
            if my_att and not their_def:
                score += wt.open_goal
            if their_att and not my_def:
                score -= wt.open_goal // 2
        if wt.advance:
            n = self.n
            adv = 0
            m = mine
            while m:
                low = m & -m
                m ^= low
                r = (low.bit_length() - 1) // n
                adv += r if t == bd.WHITE else n - 1 - r
            m = theirs
            while m:
                low = m & -m
                m ^= low
                r = (low.bit_length() - 1) // n
                adv -= n - 1 - r if t == bd.WHITE else r
            score += wt.advance * adv
        if wt.noise:
            h = ((bd.position_key(w, b, x, t) ^ self.salt) * 0x9E3779B97F4A7C15) >> 40
            score += h % (2 * wt.noise + 1) - wt.noise
        return score

    # ---- search --------------------------------------------------------------------------
    def _ordered(self, w: int, b: int, x: int, t: int, best: tuple[int, int] | None
                 ) -> tuple[list[tuple[int, int]], bool]:
        geo = self.geo
        moves = bd.legal_moves(geo, w, b, x, t)
        home = geo.home_centre[t]
        theirs = b if t == bd.WHITE else w
        threatened = bool(theirs >> home & 1)
        if threatened:
            # the opponent stands on our goal: every move but a retake loses at once
            moves = [m for m in moves if m[1] == home]
            return moves, True
        goal = geo.goal_of(t)
        moves.sort(key=lambda m: (m != best, m[1] != goal, not (theirs >> m[1] & 1)))
        return moves, False

    def _negamax(self, w: int, b: int, x: int, t: int, depth: int, alpha: int, beta: int,
                 ply: int) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        geo = self.geo
        mine = w if t == bd.WHITE else b
        if mine >> geo.goal_of(t) & 1:
            return WIN - ply
        key = w | b << 25 | x << 50 | t << 75
        if key in self.path or self.history.get(key, 0) >= 2:
            return 0
        entry = self.tt.get(key)
        best_move = None
        if entry is not None:
            e_depth, e_value, e_flag, best_move = entry
            if e_depth >= depth:
                v = e_value - ply if e_value > MATE_BOUND else (
                    e_value + ply if e_value < -MATE_BOUND else e_value)
                if e_flag == EXACT or (e_flag == LOWER and v >= beta) or (
                        e_flag == UPPER and v <= alpha):
                    return v
        moves, forced = self._ordered(w, b, x, t, best_move)
        if not moves:
            if forced and bd.legal_moves(geo, w, b, x, t):
                return -(WIN - ply - 1)   # any move leaves the opponent on our goal
            return -(WIN - ply)           # no legal move at all
        if depth <= 0 and not forced:
            return self.evaluate(w, b, x, t)
        alpha0 = alpha
        best = -WIN * 2
        self.path.add(key)
        try:
            for mv in moves:
                cw, cb, cx, ct = bd.apply_move(w, b, x, t, mv[0], mv[1])
                v = -self._negamax(cw, cb, cx, ct, depth - 1 if depth > 0 else 0,
                                   -beta, -alpha, ply + 1)
                if v > best:
                    best, best_move = v, mv
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        finally:
            self.path.discard(key)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        stored = best + ply if best > MATE_BOUND else (best - ply if best < -MATE_BOUND else best)
        if len(self.tt) >= self.tt_size:
            self.tt.clear()
        self.tt[key] = (depth, stored, flag, best_move)
        return best

    def search(self, pos: tuple[int, int, int, int], max_depth: int,
               time_limit: float | None = None, history: Mapping[int, int] | None = None,
               root_order: list[tuple[int, int]] | None = None) -> Result:
        """Best move for the side to move. ``history`` counts earlier occurrences of
        positions (the root included); ``root_order`` shuffles ties for variety."""
        start = time.perf_counter()
        self.deadline = start + time_limit if time_limit else float("inf")
        self.history = history or {}
        self.nodes = 0
        w, b, x, t = pos
        moves, _ = self._ordered(w, b, x, t, None)
        if not moves:
            moves = bd.legal_moves(self.geo, w, b, x, t)
        if root_order is not None:
            moves = [m for m in root_order if m in moves] + [m for m in moves
                                                            if m not in root_order]
        result = Result(moves[0], 0, 0, 0)
        root_key = bd.position_key(w, b, x, t)
        for depth in range(1, max_depth + 1):
            try:
                best, best_move = -WIN * 2, moves[0]
                alpha, beta = -WIN * 2, WIN * 2
                self.path = {root_key}
                for mv in moves:
                    cw, cb, cx, ct = bd.apply_move(w, b, x, t, mv[0], mv[1])
                    v = -self._negamax(cw, cb, cx, ct, depth - 1, -beta, -alpha, 1)
                    if v > best:
                        best, best_move = v, mv
                        alpha = max(alpha, v)
            except _Timeout:
                break
            moves.remove(best_move)
            moves.insert(0, best_move)
            result = Result(best_move, best, depth, self.nodes)
            if abs(best) > MATE_BOUND:
                break
        result.nodes = self.nodes
        result.seconds = time.perf_counter() - start
        result.pv = self.principal_line(pos, result.move, result.depth)
        return result

    def principal_line(self, pos: tuple[int, int, int, int], first: tuple[int, int] | None,
                       limit: int) -> list[tuple[int, int]]:
        line: list[tuple[int, int]] = []
        seen = set()
        mv = first
        while mv is not None and len(line) < limit:
            line.append(mv)
            pos = bd.apply_move(*pos, mv[0], mv[1])
            key = bd.position_key(*pos)
            if key in seen:
                break
            seen.add(key)
            entry = self.tt.get(key)
            mv = entry[3] if entry else None
        return line
