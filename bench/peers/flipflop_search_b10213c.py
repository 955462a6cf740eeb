"""PEER FOR BENCHMARKS ONLY — FlipFlop's own alpha-beta as it was at commit b10213c, before
the game moved onto the project's one alpha-beta (``asobiba.search.alphabeta``). Kept
verbatim (search code only: it uses today's ``asobiba.games.flipflop.board``, so a
comparison measures the search engines, not the rules) so that ``bench/search_vs_old.py``
can run it beside today's searcher in the same process. Nothing in ``asobiba`` imports it.
"""
# ruff: noqa
# (verbatim old code below, its module docstring kept as a comment)
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from asobiba.games.flipflop import board as bd

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


class Searcher:
    """One searcher per bot; the table is kept between moves of the same game."""

    def __init__(self, n: int, weights: Weights = Weights(), salt: int = 0,
                 tt_size: int = 400_000) -> None:
        self.n = n
        self.geo = bd.GEOMETRY[n]
        self.w = weights
        self.salt = salt
        self.tt: dict[int, tuple[int, int, int, int | None]] = {}
        self.tt_size = tt_size
        self.nodes = 0
        self.deadline = float("inf")
        self.history: Mapping[int, int] = {}
        self.path: set[int] = set()
        self.hist = [0] * 1024
        """History heuristic: how often each move int caused a cut-off (move ordering)."""

    # ---- evaluation ----------------------------------------------------------------------
    def evaluate(self, w: int, b: int, x: int, t: int) -> int:
        """Material, mobility, goal threats (attackers of the goal we attack against
        defenders of it), advancement and tempo, from the side to move."""
        geo, wt = self.geo, self.w
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        occ = w | b
        my_goal, their_goal = geo.goal_of(t), geo.goal_of(1 - t)
        score = wt.material * (mine.bit_count() - theirs.bit_count()) + wt.tempo
        if wt.mobility:
            score += wt.mobility * (bd.mobility(geo, mine, theirs, x)
                                    - bd.mobility(geo, theirs, mine, x))
        if wt.attackers or wt.defenders or wt.open_goal:
            my_att = 0 if mine >> my_goal & 1 else bd.reach_count(geo, my_goal, mine, occ, x)
            their_att = 0 if theirs >> their_goal & 1 else bd.reach_count(
                geo, their_goal, theirs, occ, x)
            my_def = bd.reach_count(geo, their_goal, mine, occ, x)
            their_def = bd.reach_count(geo, my_goal, theirs, occ, x)
            score += wt.attackers * (my_att - their_att) + wt.defenders * (my_def - their_def)
            if my_att and not their_def:
                score += wt.open_goal
            if their_att and not my_def:
                score -= wt.open_goal // 2
        if wt.advance:
            adv = 0
            last = self.n - 1
            for r, mask in enumerate(geo.rank_masks):
                adv += (r if t == bd.WHITE else last - r) * (mine & mask).bit_count()
                adv -= (last - r if t == bd.WHITE else r) * (theirs & mask).bit_count()
            score += wt.advance * adv
        if wt.noise:
            h = ((bd.position_key(w, b, x, t) ^ self.salt) * 0x9E3779B97F4A7C15) >> 40
            score += h % (2 * wt.noise + 1) - wt.noise
        return score

    # ---- search --------------------------------------------------------------------------
    def _ordered(self, w: int, b: int, x: int, t: int, best: int | None
                 ) -> tuple[list[int], bool, bool]:
        """(moves, forced, any_move): when the opponent stands on our goal only the retakes
        are listed (every other move loses at once); ``any_move`` says whether a move at
        all exists. Otherwise: table move, goal moves, captures, then history order."""
        geo = self.geo
        mine, theirs = (w, b) if t == bd.WHITE else (b, w)
        moves = bd.move_ints(geo, mine, theirs, x)
        home = geo.home_centre[t]
        if theirs >> home & 1:
            return [m for m in moves if m & 31 == home], True, bool(moves)
        goal = geo.goal_of(t)
        hist = self.hist
        goals = geo.goals_mask
        moves.sort(key=lambda m: -(1 << 40 if m == best else 0)
                   - ((1 << 30) if m & 31 == goal else 0)
                   - ((1 << 29) if goals >> (m & 31) & 1 else 0) - hist[m])
        return moves, False, True

    def _negamax(self, w: int, b: int, x: int, t: int, depth: int, alpha: int, beta: int,
                 ply: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.perf_counter() > self.deadline:
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
        if depth <= 0:
            theirs = b if t == bd.WHITE else w
            if not theirs >> geo.home_centre[t] & 1:   # quiet: evaluate (no move = lost)
                if not bd.mobility(geo, mine, theirs, x):
                    return -(WIN - ply)
                return self.evaluate(w, b, x, t)
        moves, forced, any_move = self._ordered(w, b, x, t, best_move)
        if not moves:
            if any_move:
                return -(WIN - ply - 1)   # every move leaves the opponent on our goal
            return -(WIN - ply)           # no legal move at all
        alpha0 = alpha
        best = -WIN * 2
        child_depth = depth - 1 if depth > 0 else 0
        self.path.add(key)
        try:
            first = True
            for mv in moves:
                cw, cb, cx, ct = bd.apply_move(w, b, x, t, mv >> 5, mv & 31)
                if first:
                    v = -self._negamax(cw, cb, cx, ct, child_depth, -beta, -alpha, ply + 1)
                    first = False
                else:   # principal variation search: a null window first
                    v = -self._negamax(cw, cb, cx, ct, child_depth, -alpha - 1, -alpha,
                                       ply + 1)
                    if alpha < v < beta:
                        v = -self._negamax(cw, cb, cx, ct, child_depth, -beta, -v, ply + 1)
                if v > best:
                    best, best_move = v, mv
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self.hist[mv] += depth * depth
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
        self.hist = [0] * 1024
        w, b, x, t = pos
        moves, _, _ = self._ordered(w, b, x, t, None)
        if not moves:
            mine, theirs = (w, b) if t == bd.WHITE else (b, w)
            moves = bd.move_ints(self.geo, mine, theirs, x)
        if not moves:
            raise ValueError("search called on a position with no legal move")
        if root_order is not None:
            wanted = [f << 5 | to for f, to in root_order]
            moves = [m for m in wanted if m in moves] + [m for m in moves if m not in wanted]
        result = Result((moves[0] >> 5, moves[0] & 31), 0, 0, 0)
        root_key = bd.position_key(w, b, x, t)
        for depth in range(1, max_depth + 1):
            try:
                best, best_move = -WIN * 2, moves[0]
                alpha, beta = -WIN * 2, WIN * 2
                self.path = {root_key}
                for mv in moves:
                    cw, cb, cx, ct = bd.apply_move(w, b, x, t, mv >> 5, mv & 31)
                    v = -self._negamax(cw, cb, cx, ct, depth - 1, -beta, -alpha, 1)
                    if v > best:
                        best, best_move = v, mv
                        alpha = max(alpha, v)
            except _Timeout:
                break
            moves.remove(best_move)
            moves.insert(0, best_move)
            result = Result((best_move >> 5, best_move & 31), best, depth, self.nodes)
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
            mv = (entry[3] >> 5, entry[3] & 31) if entry and entry[3] is not None else None
        return line
