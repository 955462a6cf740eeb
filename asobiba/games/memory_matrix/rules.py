"""The rules as small pure functions on a bitboard position (no notation, no views).

A piece has a colour face and a white face. ``ident[c]`` holds the pieces whose colour
face is colour ``c`` (the colour *beneath* when they lie white side up), ``neutral`` the
pieces that are white on both faces, and ``up`` the pieces lying colour side up. So the
board a person sees is ``ident[c] & up`` for colour ``c`` and ``occ & ~up`` for white;
``ident`` of white pieces is the secret that only memory keeps.

Moves are ints: ``cell << 1`` places colour up, ``cell << 1 | 1`` white side up, ``PASS``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from .shapes import Geometry

PASS = -1


@dataclass(frozen=True)
class Config:
    """What a position needs to know of the options: board, colours and rule switches."""

    geometry: Geometry
    players: int
    colours_per_player: int
    white_any_time: bool
    lost_colour_passes: bool
    dead_board_ends: bool = True
    """The game ends at a dead board (:func:`is_dead`; rules version 3). Off: played out
    to the last piece, as rules versions 1 and 2 did (their records replay that way), and
    as the bots still look ahead (:func:`model_of`)."""

    @property
    def colours(self) -> int:
        return self.players * self.colours_per_player

    @cached_property
    def acting(self) -> tuple[tuple[int], ...]:
        """Per colour, the one-seat tuple of the seat that moves it (``State._acting``)."""
        return tuple((self.seat_of(c),) for c in range(self.colours))

    def seat_of(self, colour: int) -> int:
        """Colours move in a cycle: every player's first colour, then every second colour."""
        return colour % self.players

    def colours_of(self, seat: int) -> tuple[int, ...]:
        return tuple(range(seat, self.colours, self.players))


class Pos:
    """A position: pieces, faces, pieces in hand, and the colour to move (-1 when over)."""

    __slots__ = ("occ", "up", "ident", "neutral", "hand", "turn")

    def __init__(self, occ: int, up: int, ident: tuple[int, ...], neutral: int,
                 hand: tuple[int, ...], turn: int) -> None:
        self.occ = occ
        self.up = up
        self.ident = ident
        self.neutral = neutral
        self.hand = hand
        self.turn = turn

    def showing(self, colour: int) -> int:
        """Pieces showing ``colour`` face up."""
        return self.ident[colour] & self.up

    def white(self) -> int:
        """Pieces showing white: flipped colour pieces and neutral pieces."""
        return self.occ & ~self.up

    def key(self) -> tuple[int, int, tuple[int, ...], int]:
        return (self.occ, self.up, self.ident, self.turn)


def sandwiched_runs(geo: Geometry, cell: int, ends: int, runs_of: int) -> int:
    """The pieces that flip when a piece goes on ``cell``: in each of the 8 directions, a
    contiguous run of one or more ``runs_of`` pieces closed by the nearest ``ends`` piece."""
    flips = 0
    for ray in geo.rays[cell]:
        run = 0
        for bit in ray:
            if bit & runs_of:
                run |= bit
            else:
                if bit & ends:
                    flips |= run
                break
    return flips


def sandwich_cells(geo: Geometry, empty: int, ends: int, runs_of: int) -> int:
    """Every empty cell where a piece would sandwich at least one run (set-wise, by shifts).

    The shifts are inlined (no ``geo.shift`` call, no ``& valid``): ``runs_of`` and
    ``empty`` hold board cells only, and the guard column of the stride keeps a row's end
    from wrapping onto the next row, so bits shifted off the board fall out at the next
    ``&``. Every cell one step beyond a run is gathered first and masked by ``empty`` once
    at the end (one big-int operation less per step). The legal-move scan is most of a
    move's cost (docs/benchmarks.md)."""
    reach = 0
    for amount in geo.left_shifts:
        x = (ends << amount) & runs_of
        while x:
            x <<= amount
            reach |= x
            x &= runs_of
    for amount in geo.right_shifts:
        x = (ends >> amount) & runs_of
        while x:
            x >>= amount
            reach |= x
            x &= runs_of
    return reach & empty


def colour_move_cells(geo: Geometry, pos: Pos, colour: int) -> int:
    """Colour move: the run ends at the nearest piece showing the moving colour."""
    own = pos.ident[colour] & pos.up
    if not own:
        return 0
    return sandwich_cells(geo, geo.valid ^ pos.occ, own, pos.occ ^ own)


def _cells(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def legal_moves(cfg: Config, pos: Pos) -> list[int]:
    """The moves of the colour to move, in a stable order (colour moves first, each kind
    by ascending cell; a set of cells becomes moves a byte at a time through the
    geometry's tables).

    (``occ`` is a subset of the board's cells, so ``valid ^ occ`` is the empty cells and
    ``occ ^ own`` the pieces not showing the mover's colour.)"""
    colour = pos.turn
    if colour < 0:
        return []
    geo = cfg.geometry
    occ, up = pos.occ, pos.up
    own = pos.ident[colour] & up
    moves: list[int] = []
    size = geo.nbytes
    colour_table, white_table = geo.move_tables()
    if own:
        bits = sandwich_cells(geo, geo.valid ^ occ, own, occ ^ own)
        if bits:
            for row, byte in zip(colour_table, bits.to_bytes(size, "little")):
                if byte:
                    moves += row[byte]
        if moves and not cfg.white_any_time:
            return moves
    elif cfg.lost_colour_passes:
        return [PASS]
    white = occ & ~up
    bits = sandwich_cells(geo, geo.valid ^ occ, white, up) if white else 0
    if not bits and not moves:
        bits = geo.valid ^ occ  # white anywhere: the last resort
    if bits:
        for row, byte in zip(white_table, bits.to_bytes(size, "little")):
            if byte:
                moves += row[byte]
    return moves


def is_legal(cfg: Config, pos: Pos, move: int) -> bool:
    """Whether ``move`` is in :func:`legal_moves` — for one move, without listing them all
    (see :func:`legal_flips`)."""
    return legal_flips(cfg, pos, move) is not None


def legal_flips(cfg: Config, pos: Pos, move: int) -> int | None:
    """The pieces ``move`` flips if it is legal (``flips_of``), ``None`` if it is not in
    :func:`legal_moves`: a colour move or a white sandwich checks only the rays from its
    own cell, and the flips that prove it legal are the ones :func:`apply` needs. (Only a
    white move that needs "no colour move exists", or a white piece placed anywhere, scans
    the board.) Tests check it against ``legal_moves`` on every cell of random positions."""
    colour = pos.turn
    if colour < 0:
        return None
    occ, up = pos.occ, pos.up
    own = pos.ident[colour] & up
    if move == PASS:
        return 0 if not own and cfg.lost_colour_passes else None
    if not own and cfg.lost_colour_passes:
        return None
    geo = cfg.geometry
    cell = move >> 1
    if move < 0 or not (1 << cell) & geo.valid & ~occ:
        return None
    if not move & 1:
        flips = sandwiched_runs(geo, cell, own, occ ^ own) if own else 0
        return flips if flips else None
    coloured = sandwich_cells(geo, geo.valid ^ occ, own, occ ^ own) if own else 0
    if coloured and not cfg.white_any_time:
        return None
    white = occ & ~up
    flips = sandwiched_runs(geo, cell, white, up) if white else 0
    if flips:
        return flips
    # a white piece anywhere: only when no sandwich at all exists (it flips nothing)
    if coloured or (white and sandwich_cells(geo, geo.valid ^ occ, white, up)):
        return None
    return 0


def flips_of(cfg: Config, pos: Pos, move: int) -> int:
    """The pieces a move flips (0 for a pass or a white piece placed anywhere)."""
    if move == PASS:
        return 0
    cell, white = move >> 1, move & 1
    if white:
        return sandwiched_runs(cfg.geometry, cell, pos.white(), pos.up)
    own = pos.showing(pos.turn)
    return sandwiched_runs(cfg.geometry, cell, own, pos.occ & ~own)


def is_dead(up: int) -> bool:
    """A *dead board*: no piece shows a colour (``up`` is empty), so nothing can ever flip
    again and the result is already fixed — every colour scores 0.

    Proof (docs/rules/memory_matrix.md § 8). A colour move needs a piece face up in the
    mover's colour: there is none. A white sandwich needs a run of pieces face up between
    the new white piece and the nearest white one: there is none. So every legal move is a
    white piece placed anywhere (or, under the adults' rule, a pass), which flips nothing
    and puts nothing face up — the board stays dead after it, by induction to the end of
    the game, and the final scores are all 0: a draw shared by every player."""
    return not up


def next_turn(cfg: Config, occ: int, up: int, ident: tuple[int, ...],
              hand: tuple[int, ...], after: int) -> int:
    """The next colour in the cycle that still holds pieces; -1 when the game is over:
    the board is full, the board is dead (:func:`is_dead`; rules version 3), or (adults'
    rule) every colour that could still move must pass."""
    if occ == cfg.geometry.valid or (cfg.dead_board_ends and is_dead(up)):
        return -1
    n = cfg.colours
    holders = [c for c in ((after + k) % n for k in range(1, n + 1)) if hand[c] > 0]
    if not holders:
        return -1
    if cfg.lost_colour_passes and not any(ident[c] & up for c in holders):
        return -1
    return holders[0]


def apply(cfg: Config, pos: Pos, move: int, flips: int | None = None) -> tuple[Pos, int]:
    """The position after ``move`` and the pieces it flipped. Neutral pieces flip but stay
    white; every other flipped piece toggles between its colour and white. ``flips``: the
    move's flips when already known (:func:`legal_flips`)."""
    colour = pos.turn
    if move == PASS:
        turn = next_turn(cfg, pos.occ, pos.up, pos.ident, pos.hand, colour)
        return Pos(pos.occ, pos.up, pos.ident, pos.neutral, pos.hand, turn), 0
    if flips is None:
        flips = flips_of(cfg, pos, move)
    bit = 1 << (move >> 1)
    occ = pos.occ | bit
    up = (pos.up ^ (flips & ~pos.neutral)) | (0 if move & 1 else bit)
    ident = pos.ident[:colour] + (pos.ident[colour] | bit,) + pos.ident[colour + 1:]
    hand = pos.hand[:colour] + (pos.hand[colour] - 1,) + pos.hand[colour + 1:]
    turn = next_turn(cfg, occ, up, ident, hand, colour)
    return Pos(occ, up, ident, pos.neutral, hand, turn), flips


def model_of(cfg: Config) -> Config:
    """The rules the bots and the move-feedback search look ahead with: dead boards played
    out to the last piece, as before rules version 3. By :func:`is_dead` that changes no
    result (a dead board ends 0 for everyone either way) and keeps the bots' evaluation —
    tuned and measured with dead boards played out (``bots.evaluate``: a dead board is
    "even", and level 4's contempt) — exactly as it was."""
    return replace(cfg, dead_board_ends=False) if cfg.dead_board_ends else cfg


def counts(cfg: Config, pos: Pos) -> list[int]:
    """Pieces showing each colour."""
    return [(ident & pos.up).bit_count() for ident in pos.ident]


def scores(cfg: Config, pos: Pos) -> list[int]:
    """A player's score is the pieces showing any of its colours."""
    per_colour = counts(cfg, pos)
    return [sum(per_colour[c] for c in cfg.colours_of(seat)) for seat in range(cfg.players)]


def cells_of(bits: int) -> list[int]:
    return _cells(bits)
