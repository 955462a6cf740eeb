"""FlipFlop geometry and the rules as small pure functions on bitboards.

A position inside the engine is four ints: ``white``, ``black`` (occupancy bitboards),
``bishops`` (the pieces of either colour showing the × face; every other piece shows +)
and ``turn`` (0 = White, 1 = Black). Square ``sq = rank * n + file`` with rank 0 = rank 1,
White's first row. Both the protocol state and the searchers use these functions, so the
rules live in exactly one place.
"""

from __future__ import annotations

from dataclasses import dataclass

WHITE, BLACK = 0, 1
ROOK, BISHOP = 0, 1
FILES = "abcde"
SIZES = (3, 5)
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Geometry:
    """Everything about one board size that never changes: rays, goals, masks."""

    n: int
    rook_rays: tuple[tuple[tuple[int, ...], ...], ...]
    bishop_rays: tuple[tuple[tuple[int, ...], ...], ...]
    home_centre: tuple[int, int]
    """The centre of each seat's first row: the goal that seat defends."""
    goals_mask: int
    full: int
    ray_info: tuple[tuple[tuple[tuple[int, bool, tuple[int, ...], tuple[int, ...]], ...], ...],
                    ...] = ()
    """``ray_info[face][sq]``: per ray (mask, ascending, count_before[sq], move ints), for
    the fast move generator of the searchers (see :func:`move_ints`)."""
    rank_masks: tuple[int, ...] = ()

    def goal_of(self, seat: int) -> int:
        """The square ``seat`` attacks: the centre of the opponent's first row."""
        return self.home_centre[1 - seat]

    def name(self, sq: int) -> str:
        return FILES[sq % self.n] + str(sq // self.n + 1)


def _rays(n: int, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out = []
    for sq in range(n * n):
        r0, f0 = divmod(sq, n)
        rays = []
        for dr, df in steps:
            ray = []
            r, f = r0 + dr, f0 + df
            while 0 <= r < n and 0 <= f < n:
                ray.append(r * n + f)
                r, f = r + dr, f + df
            if ray:
                rays.append(tuple(ray))
        out.append(tuple(rays))
    return tuple(out)


def _ray_info(n: int, rays_all: tuple[tuple[tuple[int, ...], ...], ...]
              ) -> tuple[tuple[tuple[int, bool, tuple[int, ...], tuple[int, ...]], ...], ...]:
    out = []
    for sq, rays in enumerate(rays_all):
        per = []
        for ray in rays:
            mask = sum(1 << t for t in ray)
            before = [0] * (n * n)
            for i, t in enumerate(ray):
                before[t] = i
            per.append((mask, ray[0] > sq, tuple(before), tuple(sq << 5 | t for t in ray)))
        out.append(tuple(per))
    return tuple(out)


def _geometry(n: int) -> Geometry:
    centre = n // 2
    homes = (centre, (n - 1) * n + centre)
    rook, bishop = _rays(n, ORTHOGONAL), _rays(n, DIAGONAL)
    return Geometry(
        n=n,
        rook_rays=rook,
        bishop_rays=bishop,
        home_centre=homes,
        goals_mask=(1 << homes[0]) | (1 << homes[1]),
        full=(1 << (n * n)) - 1,
        ray_info=(_ray_info(n, rook), _ray_info(n, bishop)),
        rank_masks=tuple(((1 << n) - 1) << (r * n) for r in range(n)),
    )


GEOMETRY = {n: _geometry(n) for n in SIZES}


def start_position(n: int) -> tuple[int, int, int, int]:
    """Every piece on its owner's first row showing + (rook); White moves first."""
    row = (1 << n) - 1
    return row, row << (n * (n - 1)), 0, WHITE


def can_capture_on(geo: Geometry, sq: int) -> bool:
    """Only a piece standing on either goal square (either first-row centre) can be taken."""
    return bool(geo.goals_mask >> sq & 1)


def piece_moves(geo: Geometry, sq: int, bishop: bool, mine: int, theirs: int) -> list[int]:
    """Destinations of the piece on ``sq``: slide until blocked (no jumping); land on an
    empty square, or on an enemy piece standing on a goal square (a capture)."""
    occ = mine | theirs
    out = []
    for ray in (geo.bishop_rays if bishop else geo.rook_rays)[sq]:
        for t in ray:
            bit = 1 << t
            if occ & bit:
                if theirs & bit & geo.goals_mask:
                    out.append(t)
                break
            out.append(t)
    return out


def legal_moves(geo: Geometry, white: int, black: int, bishops: int, turn: int
                ) -> list[tuple[int, int]]:
    """All (from, to) moves of the side to move, from-square then ray order. Passing is not
    a move, so an empty list means the side to move is stuck."""
    mine, theirs = (white, black) if turn == WHITE else (black, white)
    occ = white | black
    goals = geo.goals_mask
    out = []
    m = mine
    while m:
        low = m & -m
        sq = low.bit_length() - 1
        m ^= low
        for ray in (geo.bishop_rays if bishops & low else geo.rook_rays)[sq]:
            for t in ray:
                bit = 1 << t
                if occ & bit:
                    if theirs & bit & goals:
                        out.append((sq, t))
                    break
                out.append((sq, t))
    return out


def apply_move(white: int, black: int, bishops: int, turn: int, frm: int, to: int
               ) -> tuple[int, int, int, int]:
    """Move, capture whatever stands on ``to``, and flip the moved piece (+ ↔ ×)."""
    fb, tb = 1 << frm, 1 << to
    flipped = 0 if bishops & fb else tb
    bishops = (bishops & ~fb & ~tb) | flipped
    if turn == WHITE:
        return (white ^ fb) | tb, black & ~tb, bishops, BLACK
    return white & ~tb, (black ^ fb) | tb, bishops, WHITE


def play_int(pos: tuple[int, int, int, int], move: int) -> tuple[int, int, int, int]:
    """:func:`apply_move` for the searchers: a position tuple and a move int
    ``from << 5 | to``."""
    white, black, bishops, turn = pos
    fb, tb = 1 << (move >> 5), 1 << (move & 31)
    bishops = (bishops & ~fb & ~tb) | (0 if bishops & fb else tb)
    if turn == WHITE:
        return (white ^ fb) | tb, black & ~tb, bishops, BLACK
    return white & ~tb, (black ^ fb) | tb, bishops, WHITE


def holds_goal(geo: Geometry, white: int, black: int, turn: int) -> bool:
    """True when the side to move already stands on the square it attacks: it moved there
    last turn and the opponent's reply did not take it back, so it has won."""
    mine = white if turn == WHITE else black
    return bool(mine >> geo.goal_of(turn) & 1)


def position_key(white: int, black: int, bishops: int, turn: int) -> int:
    """One int naming (board, side to move): what the repetition rule compares."""
    return white | black << 25 | bishops << 50 | turn << 75


def unpack_key(key: int) -> tuple[int, int, int, int]:
    mask = (1 << 25) - 1
    return key & mask, key >> 25 & mask, key >> 50 & mask, key >> 75


def mirror_mask(n: int, bits: int) -> int:
    """Reflect a bitboard left↔right (files a↔c / a↔e); the rules are symmetric under it."""
    out = 0
    while bits:
        low = bits & -bits
        sq = low.bit_length() - 1
        bits ^= low
        r, f = divmod(sq, n)
        out |= 1 << (r * n + n - 1 - f)
    return out


def flip_ranks(n: int, bits: int) -> int:
    """Reflect a bitboard rank 1 ↔ rank n (used to see the board from Black's side)."""
    out = 0
    while bits:
        low = bits & -bits
        sq = low.bit_length() - 1
        bits ^= low
        r, f = divmod(sq, n)
        out |= 1 << ((n - 1 - r) * n + f)
    return out


def move_ints(geo: Geometry, mine: int, theirs: int, bishops: int) -> list[int]:
    """The same moves as :func:`legal_moves`, as ints ``from << 5 | to``, built with one
    bit scan per ray instead of a step per square (the searchers' hot loop)."""
    occ = mine | theirs
    capturable = theirs & geo.goals_mask
    info = geo.ray_info
    out: list[int] = []
    m = mine
    while m:
        low = m & -m
        m ^= low
        for mask, ascending, before, moves in info[1 if bishops & low else 0][
                low.bit_length() - 1]:
            blk = occ & mask
            if not blk:
                out.extend(moves)
                continue
            first = blk & -blk if ascending else 1 << (blk.bit_length() - 1)
            k = before[first.bit_length() - 1] + (1 if first & capturable else 0)
            if k:
                out.extend(moves[:k])
    return out


def mobility(geo: Geometry, mine: int, theirs: int, bishops: int) -> int:
    """Number of legal moves of ``mine`` (counted, not listed)."""
    occ = mine | theirs
    capturable = theirs & geo.goals_mask
    info = geo.ray_info
    total = 0
    m = mine
    while m:
        low = m & -m
        m ^= low
        for mask, ascending, before, moves in info[1 if bishops & low else 0][
                low.bit_length() - 1]:
            blk = occ & mask
            if not blk:
                total += len(moves)
                continue
            first = blk & -blk if ascending else 1 << (blk.bit_length() - 1)
            total += before[first.bit_length() - 1] + (1 if first & capturable else 0)
    return total


def reach_count(geo: Geometry, sq: int, side: int, occ: int, bishops: int) -> int:
    """How many of ``side``'s pieces could slide to ``sq`` (the nearest piece on each ray
    from ``sq``, if it is ``side``'s and shows the face that moves along that ray)."""
    count = 0
    for face, info in enumerate(geo.ray_info):
        want = side & bishops if face else side & ~bishops
        for mask, ascending, _before, _moves in info[sq]:
            blk = occ & mask
            if blk:
                first = blk & -blk if ascending else 1 << (blk.bit_length() - 1)
                if first & want:
                    count += 1
    return count


def reach_counts(geo: Geometry, sq: int, one: int, other: int, occ: int, bishops: int
                 ) -> tuple[int, int]:
    """``(reach_count(…, sq, one, …), reach_count(…, sq, other, …))`` in one walk of the
    rays from ``sq`` (the nearest piece on a ray is one side's or the other's)."""
    n_one = n_other = 0
    for face, info in enumerate(geo.ray_info):
        faced = bishops if face else ~bishops
        want_one, want_other = one & faced, other & faced
        for mask, ascending, _before, _moves in info[sq]:
            blk = occ & mask
            if blk:
                first = blk & -blk if ascending else 1 << (blk.bit_length() - 1)
                if first & want_one:
                    n_one += 1
                elif first & want_other:
                    n_other += 1
    return n_one, n_other
