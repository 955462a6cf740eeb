"""Exact Reversi endgame solver: the final disc difference with perfect play, and a best move.

Pure Python on the int bitboards of :mod:`.bitboard` (``p`` = the side to move's discs, ``o``
= the other side's). The score is the **standard Othello score** (the one the FFO test suite,
edax and tournament scoring use): the final disc difference from the side to move's point of
view, with the squares still empty when neither side can move given to the winner (none to
either on a draw). It is always even. asobiba's own rules (docs/rules/reversi.md) rank by the
disc counts alone, without the empties: the winner, loser or draw is the same under both
conventions, only the margin of a game ending with empty squares differs.

The search, from the leaves up:

* **one empty square** — :func:`_last1` counts the flips (the side to move, else the other
  side, else nobody plays it);
* **two empties** — both orders tried directly, with a cut after the first (``last2``);
* **3 to** :data:`SHALLOW` **empties** — no move generator at all: every empty square is tried
  in parity order (squares in a region of the board with an odd number of empties first: the
  side that fills a region's last square tends to keep it), and a square that flips nothing
  is no move (``shallow``);
* **deeper** — the legal moves, ordered *fastest first* (fewest replies for the opponent,
  corners for the opponent counted twice, one reply less for a move into an odd quadrant, the
  transposition table's move before all), a look in the table for a child already proven good
  enough (enhanced transposition cutoff, from :data:`ETC_MIN` empties), then searched
  by principal-variation search (the first move with the full window, the others with a null
  window and a re-search when they beat it), with a transposition table of proven bounds keyed
  by the two bitboards (``deep``).

The root runs the same search with the full window ``(-64, 64)`` and returns the exact score.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .bitboard import FULL, legal_mask

SHALLOW = 6
"""At this many empties or fewer the search stops generating moves and ordering them by
mobility and only tries the empty squares in parity order. Measured on FFO #1-#19 (sum, CPU
at load ≈ 12): 4 → 1.89 M nodes, 19.7 s; 5 → 2.14 M, 15.0 s; 6 → 2.68 M, 12.3 s;
7 → 3.32 M, 12.3 s; 8 → 4.38 M, 14.9 s."""

TT_LIMIT = 1_000_000
"""The transposition table is emptied when it reaches this many positions (≈ 190 MB: 190
bytes a position, measured)."""

PARITY_BONUS = 64
"""Move ordering: a move into a quadrant with an odd number of empties counts as one reply
fewer for the opponent (−11 % nodes on FFO #8, #12, #16, #18, #19 with :data:`ETC_MIN`)."""

ETC_MIN = 10
"""From this many empties, before searching the children, the table is asked whether one of
them is already proven good enough for a cut (enhanced transposition cutoff)."""

CHECK_EVERY = 64
"""Deep nodes (more than :data:`SHALLOW` empties) between two looks at the clock when the
solver has a deadline: a few milliseconds of work."""

NEVER = 1 << 62
"""The node count at which an untimed solve would look at the clock: never."""

CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)

# The board's four 4×4 regions ("quadrants"), for parity ordering.
QUADRANT = [(sq // 8 >= 4) * 2 + (sq % 8 >= 4) for sq in range(64)]
QMASK = [sum(1 << s for s in range(64) if QUADRANT[s] == q) for q in range(4)]

# Static preference between empty squares of equal parity: corners first, then edges, the
# squares next to a corner (C and X squares) last.
_PRIORITY = [
    0, 4, 1, 2, 2, 1, 4, 0,
    4, 5, 3, 3, 3, 3, 5, 4,
    1, 3, 2, 2, 2, 2, 3, 1,
    2, 3, 2, 2, 2, 2, 3, 2,
    2, 3, 2, 2, 2, 2, 3, 2,
    1, 3, 2, 2, 2, 2, 3, 1,
    4, 5, 3, 3, 3, 3, 5, 4,
    0, 4, 1, 2, 2, 1, 4, 0,
]


def _flip_rays() -> tuple[list[tuple[tuple[int, int], ...]], list[tuple[tuple[int, int], ...]]]:
    """Per square, the rays that can hold a flip, as ``(first square, whole ray)`` masks: the
    rays towards higher bit indices ("up") and towards lower ones ("down") apart, because the
    first disc that is not the opponent's is the lowest set bit on an up ray and the highest
    on a down ray."""
    up: list[tuple[tuple[int, int], ...]] = []
    down: list[tuple[tuple[int, int], ...]] = []
    for sq in range(64):
        r0, c0 = divmod(sq, 8)
        ups: list[tuple[int, int]] = []
        downs: list[tuple[int, int]] = []
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            ray = []
            r, c = r0 + dr, c0 + dc
            while 0 <= r < 8 and 0 <= c < 8:
                ray.append(8 * r + c)
                r, c = r + dr, c + dc
            if len(ray) < 2:  # a flip needs one disc and a closing disc beyond it
                continue
            mask = sum(1 << s for s in ray)
            (ups if ray[0] > sq else downs).append((1 << ray[0], mask))
        up.append(tuple(ups))
        down.append(tuple(downs))
    return up, down


_UP, _DOWN = _flip_rays()


def flips(p: int, o: int, sq: int) -> int:
    """Discs of ``o`` flipped when ``p`` plays on the empty square ``sq`` (0: not a move).

    Along each ray whose first square holds an opponent disc, the first square that does not
    is the blocker; the run before it flips if the blocker is ``p``'s. Same result as
    :func:`.bitboard.flips` (tested), with a handful of integer operations per ray instead of
    one per square."""
    f = 0
    for first, ray in _UP[sq]:
        if o & first:
            x = ray & ~o
            b = x & -x
            if b & p:
                f |= ray & (b - 1)
    for first, ray in _DOWN[sq]:
        if o & first:
            x = ray & ~o
            if x:
                b = 1 << (x.bit_length() - 1)
                if b & p:
                    f |= ray & -(b + b)
    return f


def final_score(p: int, o: int) -> int:
    """The standard score of a finished position for ``p``: empties go to the winner."""
    np, no = p.bit_count(), o.bit_count()
    if np > no:
        return 64 - 2 * no
    if np < no:
        return 2 * np - 64
    return 0


def _last1(p: int, o: int, sq: int) -> int:
    """Exact score for ``p`` to move with one empty square ``sq``."""
    n = p.bit_count()
    f = flips(p, o, sq)
    if f:
        return 2 * (n + f.bit_count()) - 62
    f = flips(o, p, sq)
    if f:
        return 2 * (n - f.bit_count()) - 64
    return 2 * n - 62 if n > 31 else 2 * n - 64  # nobody can play it: it goes to the winner


def parity_order(empties: int) -> list[int]:
    """The empty squares of the bitboard ``empties`` in parity order: squares of quadrants with
    an odd number of empties first, then corners before edges before the rest."""
    sqs = []
    m = empties
    while m:
        b = m & -m
        m ^= b
        sqs.append(b.bit_length() - 1)
    count = [0, 0, 0, 0]
    for s in sqs:
        count[QUADRANT[s]] += 1
    sqs.sort(key=lambda s: (1 - (count[QUADRANT[s]] & 1), _PRIORITY[s]))
    return sqs


@dataclass(frozen=True)
class Solution:
    """What :meth:`Solver.solve` proved: ``score`` (standard scoring, side to move's view), ``move``
    (a best square 0–63, or -1 for a forced pass), and the effort."""

    score: int
    move: int
    nodes: int
    seconds: float  # CPU time of the search (process time)
    wall: float


class OutOfTime(Exception):
    """Raised out of a solve whose :attr:`Solver.deadline` passed (the table keeps what was
    proven: every entry is a bound of a finished subtree)."""


class Solver:
    """One search context: its transposition table (kept between :meth:`solve` calls of the
    same object, emptied at :data:`TT_LIMIT`) and its node count. ``deadline``: a
    ``time.perf_counter()`` reading after which a solve raises :class:`OutOfTime` (none by
    default)."""

    def __init__(self, deadline: float | None = None) -> None:
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.nodes = 0
        self.deadline = deadline

    def outcome(self, p: int, o: int) -> tuple[int, int]:
        """The result with perfect play for ``p`` to move (1 a win, 0 a draw, -1 a loss) and
        a move that reaches it (-1 for a loss: every move loses). A null-window search around
        a draw (win/loss/draw only), several times cheaper than :meth:`solve`'s exact score.
        ``p`` must have a move (``ValueError`` otherwise); :class:`OutOfTime` past the
        deadline."""
        if p & o or (p | o) & ~FULL:
            raise ValueError("the two sides' discs overlap or lie off the board")
        moves = legal_mask(p, o)
        if not moves:
            raise ValueError("the side to move has no move")
        search = _make_search(self)
        empties = 64 - (p | o).bit_count()
        value = search(p, o, -1, 1, empties)
        if value < 0:
            return -1, -1
        sign = 1 if value > 0 else 0
        entry = self.tt.get(p << 64 | o)
        hint = entry[2] if entry is not None else -1
        order = ([hint] if hint >= 0 and moves >> hint & 1 else []) + [
            sq for sq in range(64) if moves >> sq & 1 and sq != hint]
        for sq in order:  # the table's move first: it is the one that proved the value
            b = 1 << sq
            f = flips(p, o, sq)
            if -search(o ^ f, p | f | b, -1, 1, empties - 1) >= sign:
                return sign, sq
        raise AssertionError("no move reaches the proven outcome")  # pragma: no cover

    def solve(self, p: int, o: int) -> Solution:
        """The exact score and a best move for ``p`` to move against ``o``.

        Raises ``ValueError`` if neither side can move (the game is over: there is no move to
        find; its score is :func:`final_score`) or the bitboards overlap."""
        if p & o or (p | o) & ~FULL:
            raise ValueError("the two sides' discs overlap or lie off the board")
        wall0, cpu0 = time.perf_counter(), time.process_time()
        nodes0 = self.nodes
        if not legal_mask(p, o):
            if not legal_mask(o, p):
                raise ValueError("neither side can move: the game is over")
            score = -self._root(o, p)[0]
            move = -1
        else:
            score, move = self._root(p, o)
        return Solution(score, move, self.nodes - nodes0, time.process_time() - cpu0,
                        time.perf_counter() - wall0)

    def _root(self, p: int, o: int) -> tuple[int, int]:
        """Exact score and best move of a position where ``p`` has a move."""
        search = _make_search(self)
        empties = 64 - (p | o).bit_count()
        score = search(p, o, -64, 64, empties)
        key = p << 64 | o
        entry = self.tt.get(key)
        if entry is not None and entry[0] == entry[1] == score and entry[2] >= 0:
            return score, entry[2]
        # shallow roots keep no table entry: find the move that reaches the score
        moves = legal_mask(p, o)
        while moves:
            b = moves & -moves
            moves ^= b
            sq = b.bit_length() - 1
            f = flips(p, o, sq)
            if -search(o ^ f, p | f | b, -score - 1, -score + 1, empties - 1) == score:
                return score, sq
        raise AssertionError("no move reaches the proven score")  # pragma: no cover


def _make_search(solver: Solver) -> Callable[[int, int, int, int, int], int]:
    """The search functions as closures over the solver's table and a local node counter
    (closure cells are the fastest mutable state in CPython's inner loop)."""
    tt = solver.tt
    nodes = 0
    deadline = solver.deadline
    first_check = NEVER if deadline is None else CHECK_EVERY
    next_check = first_check
    up_rays, down_rays = _UP, _DOWN

    def last2(p: int, o: int, alpha: int, beta: int, a: int, b: int) -> int:
        nonlocal nodes
        nodes += 1
        ba, bb_ = 1 << a, 1 << b
        fa = flips(p, o, a)
        best = -99
        if fa:
            nodes += 1
            best = -_last1(o ^ fa, p | fa | ba, b)
            if best >= beta:
                return best
        fb = flips(p, o, b)
        if fb:
            nodes += 1
            v = -_last1(o ^ fb, p | fb | bb_, a)
            return v if v > best else best
        if fa:
            return best
        # p passes: o to play, the score stays p's
        fa = flips(o, p, a)
        if fa:
            nodes += 1
            best = _last1(p ^ fa, o | fa | ba, b)
            if best <= alpha:
                return best
        fb = flips(o, p, b)
        if fb:
            nodes += 1
            v = _last1(p ^ fb, o | fb | bb_, a)
            return v if v < best or not fa else best
        if fa:
            return best
        return final_score(p, o)

    def shallow(p: int, o: int, alpha: int, beta: int, empties: list[int],
                passed: bool) -> int:
        nonlocal nodes
        nodes += 1
        best = -99
        i = 0
        for sq in empties:
            f = flips(p, o, sq)
            if f:
                b = 1 << sq
                rest = empties[:i] + empties[i + 1:]
                if len(rest) == 2:
                    v = -last2(o ^ f, p | f | b, -beta, -alpha, rest[0], rest[1])
                else:
                    v = -shallow(o ^ f, p | f | b, -beta, -alpha, rest, False)
                if v > best:
                    if v >= beta:
                        return v
                    best = v
                    if v > alpha:
                        alpha = v
            i += 1
        if best == -99:
            if passed:  # the other side passed too: the game is over
                return final_score(p, o)
            return -shallow(o, p, -beta, -alpha, empties, True)
        return best

    def search(p: int, o: int, alpha: int, beta: int, n: int) -> int:
        """Exact score for ``p`` within ``(alpha, beta)``, fail-soft; ``n`` empties."""
        nonlocal nodes
        if n > SHALLOW:
            return deep(p, o, alpha, beta, n, False)
        if n == 2:
            sqs = parity_order(~(p | o) & FULL)
            return last2(p, o, alpha, beta, sqs[0], sqs[1])
        if n == 1:
            nodes += 1
            return _last1(p, o, (~(p | o) & FULL).bit_length() - 1)
        if n == 0:
            nodes += 1
            return final_score(p, o)
        return shallow(p, o, alpha, beta, parity_order(~(p | o) & FULL), False)

    def deep(p: int, o: int, alpha: int, beta: int, n: int, passed: bool) -> int:
        nonlocal nodes, next_check
        nodes += 1
        if nodes >= next_check:
            assert deadline is not None
            if time.perf_counter() > deadline:
                raise OutOfTime
            next_check = nodes + CHECK_EVERY
        moves = legal_mask(p, o)
        if not moves:
            if passed:
                return final_score(p, o)
            if not legal_mask(o, p):
                return final_score(p, o)
            return -deep(o, p, -beta, -alpha, n, True)
        key = p << 64 | o
        entry = tt.get(key)
        hint = -1
        lo, hi = -64, 64
        if entry is not None:
            lo, hi, hint = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        alpha0 = alpha
        children = []
        empt = ~(p | o) & FULL
        m = moves
        while m:
            b = m & -m
            m ^= b
            sq = b.bit_length() - 1
            f = 0
            for first, ray in up_rays[sq]:
                if o & first:
                    x = ray & ~o
                    y = x & -x
                    if y & p:
                        f |= ray & (y - 1)
            for first, ray in down_rays[sq]:
                if o & first:
                    x = ray & ~o
                    if x:
                        y = 1 << (x.bit_length() - 1)
                        if y & p:
                            f |= ray & -(y + y)
            np, no = p | f | b, o ^ f
            if sq == hint:
                children.append((-1, sq, no, np))
            else:
                mob = legal_mask(no, np)
                k = (mob.bit_count() + (mob & CORNERS).bit_count()) * 64 + sq
                if (empt & QMASK[QUADRANT[sq]]).bit_count() & 1:
                    k -= PARITY_BONUS
                children.append((k, sq, no, np))
        children.sort()
        if n >= ETC_MIN:
            for _, sq, no, np in children:
                e = tt.get(no << 64 | np)
                if e is not None and -e[1] >= beta:
                    v = -e[1]
                    if v > lo:
                        tt[key] = (v, hi, sq)
                    return v
        n1 = n - 1
        best = -99
        best_sq = -1
        if n1 > SHALLOW:
            for _, sq, no, np in children:
                if best == -99:
                    v = -deep(no, np, -beta, -alpha, n1, False)
                else:
                    v = -deep(no, np, -alpha - 1, -alpha, n1, False)
                    if alpha < v < beta:
                        v = -deep(no, np, -beta, -v, n1, False)
                if v > best:
                    best, best_sq = v, sq
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        else:
            for _, sq, no, np in children:
                if best == -99:
                    v = -search(no, np, -beta, -alpha, n1)
                else:
                    v = -search(no, np, -alpha - 1, -alpha, n1)
                    if alpha < v < beta:
                        v = -search(no, np, -beta, -v, n1)
                if v > best:
                    best, best_sq = v, sq
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
        if best <= alpha0:
            hi = best if best < hi else hi
        elif best >= beta:
            lo = best if best > lo else lo
        else:
            lo = hi = best
        if len(tt) >= TT_LIMIT:
            tt.clear()
        tt[key] = (lo, hi, best_sq)
        return best

    def run(p: int, o: int, alpha: int, beta: int, n: int) -> int:
        nonlocal nodes, next_check
        try:
            return search(p, o, alpha, beta, n)
        finally:
            solver.nodes += nodes
            nodes = 0
            next_check = first_check

    return run
