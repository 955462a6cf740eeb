"""Retrograde endgame tables for 5×5 FlipFlop: every position with at most ``PIECES``
pieces on the board (each side ≥ 1), its exact value and distance for the side to move.

Layout (docs/flipflop-solving.md):

* Positions are taken **relative to the side to move** (its first row at the bottom; it
  attacks c5 = square 22 and defends c1 = square 2), so the colour symmetry costs nothing:
  White to move and Black to move share one entry.
* A **perfect index** per material signature ``(mine, theirs)``: the colex rank of the
  mover's squares, the colex rank of the opponent's squares among the squares left free,
  then one face bit per piece (× = 1). Signatures are laid end to end.
* **Left↔right mirror folded**: the rules (goals on the centre file) are symmetric under it;
  only the *canonical* index of each mirror pair (the smaller one) has an entry. A bitmap
  over the full index marks canonical positions; the rank of a canonical index in it (block
  counts + a popcount) is its slot.
* Two bytes per slot (little-endian): 0 = draw (neither side can force a win: with best
  play the game goes on until the repetition rule ends it), ``1 + d`` = win in ``d`` plies,
  ``32768 + d`` = loss in ``d`` plies (``d = 0``: the mover already holds its goal / has
  no move). (One byte does not do: the longest 4-piece win takes 136 plies.)

The values ignore history. Under the real rule (third occurrence = draw) they are exact for
a game in which no position has yet occurred twice: the winner's optimal line has strictly
decreasing distance so it never repeats a position, and repetition can only add draws.

Building needs NumPy (``python -m asobiba.games.flipflop.tables build``); looking up needs
nothing but the shipped files (lzma-compressed). ``endgame4.bin.xz`` holds every position
with 2–4 pieces; ``endgame5.bin.xz`` holds **one layer**, the positions with exactly 5
pieces, built by the per-count builder (:mod:`.tables_layer`) from the ≤ 4 file
(``build --pieces 5``). :func:`load` puts the layers together (:class:`TableSet`) and reads
a layer's file on the first lookup that needs it.

The 6-piece layer (``build --pieces 6``, from the 5-piece file; 790 MB) is not shipped: it
is built by that one command into ``endgame6.bin`` beside the shipped files (or the
directory named by ``ASOBIBA_FLIPFLOP_TABLES``), stored uncompressed and mapped, not read:
processes share its pages, and nothing is decompressed.
"""

from __future__ import annotations

import argparse
import lzma
import mmap
import os
import struct
from array import array
from functools import lru_cache
from itertools import accumulate
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from . import board as bd

if TYPE_CHECKING:
    from collections.abc import Iterator

N = 5
SQUARES = 25
ATTACK = 22   # c5, relative to the side to move
HOME = 2      # c1
PIECES = 4
"""The first shipped file: every position with 2 to this many pieces (one file)."""
MAX_LAYER = 6
"""Further files, one piece count each (``endgame5.bin.xz``, ``endgame6.bin``), up to this
count."""
SHIPPED = 5
"""The layers up to this count ship with the package (xz); above it they are built here."""
TABLES_ENV = "ASOBIBA_FLIPFLOP_TABLES"
DRAW, WIN, LOSS = 0, 1, 2
NAMES = {DRAW: "draw", WIN: "win", LOSS: "loss"}
MAGIC = b"FFEG"
FORMAT = 1
"""Format 1: the positions with 2..pieces pieces. Format 2 adds the lowest count (a layer)."""
FORMAT_LAYER = 2
LOSS_BASE = 32768
SCALE = 30000
"""Build scores: win in d = SCALE - d, loss in d = d - SCALE, draw 0 (int16)."""
FLIP_SQ = tuple((4 - s // 5) * 5 + s % 5 for s in range(SQUARES))
MIRROR_SQ = tuple(s // 5 * 5 + 4 - s % 5 for s in range(SQUARES))
DIRECTIONS = ((bd.ROOK, ((1, 0), (-1, 0), (0, 1), (0, -1))),
              (bd.BISHOP, ((1, 1), (1, -1), (-1, 1), (-1, -1))))


def default_path(pieces: int = PIECES) -> Path:
    """Where the table of ``pieces`` lives: the shipped files (≤ 5, xz) beside this module;
    a built layer (6, uncompressed and mapped) in ``$ASOBIBA_FLIPFLOP_TABLES`` or, unset,
    beside them too."""
    if pieces <= SHIPPED:
        return Path(__file__).with_name(f"endgame{pieces}.bin.xz")
    where = os.environ.get(TABLES_ENV)
    return (Path(where) if where else Path(__file__).parent) / f"endgame{pieces}.bin"


def signatures(pieces: int, low: int = 2) -> list[tuple[int, int]]:
    """Material signatures ``(mine, theirs)`` with ``low``..``pieces`` pieces, in index
    order."""
    return [(m, t) for total in range(low, pieces + 1) for m in range(1, total)
            for t in (total - m,) if m <= 5 and t <= 5]


def signature_size(m: int, t: int) -> int:
    return comb(SQUARES, m) * comb(SQUARES - m, t) << (m + t)


def offsets(pieces: int, low: int = 2) -> dict[tuple[int, int], int]:
    out, at = {}, 0
    for sig in signatures(pieces, low):
        out[sig] = at
        at += signature_size(*sig)
    return out


def _colex(squares: list[int]) -> int:
    return sum(comb(s, j + 1) for j, s in enumerate(squares))


def encode(mine: list[tuple[int, int]], theirs: list[tuple[int, int]],
           offset: int) -> int:
    """Full index of (square, face) lists, each sorted by square."""
    m, t = len(mine), len(theirs)
    msq = [s for s, _ in mine]
    mi = _colex(msq)
    ti = _colex([s - sum(1 for q in msq if q < s) for s, _ in theirs])
    faces = 0
    for j, (_, f) in enumerate(mine):
        faces |= f << j
    for j, (_, f) in enumerate(theirs):
        faces |= f << (m + j)
    return offset + (((mi * comb(SQUARES - m, t)) + ti) << (m + t) | faces)


def relative(white: int, black: int, bishops: int, turn: int
             ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(square, face) lists of the mover's and the opponent's pieces, seen from the mover."""
    def pieces(bits: int, flip: bool) -> list[tuple[int, int]]:
        out = []
        while bits:
            low = bits & -bits
            bits ^= low
            s = low.bit_length() - 1
            out.append((FLIP_SQ[s] if flip else s, 1 if bishops & low else 0))
        out.sort()
        return out

    if turn == bd.WHITE:
        return pieces(white, False), pieces(black, False)
    return pieces(black, True), pieces(white, True)


def _mirror(pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return sorted((MIRROR_SQ[s], f) for s, f in pieces)


def decode_value(code: int) -> tuple[int, int]:
    """A stored byte as (value, distance) for the side to move."""
    if code == 0:
        return DRAW, 0
    if code < LOSS_BASE:
        return WIN, code - 1
    return LOSS, code - LOSS_BASE


def _rank_directory(words: array[int]) -> array[int]:
    """Canonical positions before each 64-bit word of the bitmap (one more entry: the
    total). NumPy when it is there (the 6-piece layer has 11 M words), else pure Python."""
    if len(words) > 1 << 20:
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy is in every environment that builds
            pass
        else:
            per_byte = np.array([i.bit_count() for i in range(256)], dtype=np.uint8)
            ones = per_byte[np.frombuffer(words, dtype=np.uint8)].reshape(-1, 8)
            out = np.zeros(len(words) + 1, dtype=np.int64)
            np.cumsum(ones.sum(axis=1, dtype=np.int64), out=out[1:])
            directory = array("q")
            directory.frombytes(out.tobytes())
            return directory
    return array("q", accumulate((w.bit_count() for w in words), initial=0))


class Tables:
    """A loaded table: ``lookup`` answers (value, distance) for a position it covers."""

    def __init__(self, pieces: int, canonical_bits: bytes | memoryview,
                 values: bytes | memoryview, stats: dict[str, int | float] | None = None,
                 low: int = 2) -> None:
        self.pieces = pieces
        self.low = low
        self.sigs = signatures(pieces, low)
        self.offsets = offsets(pieces, low)
        self.size = sum(signature_size(*s) for s in self.sigs)
        self._bits = canonical_bits
        self._values = values
        self.stats = stats or {}
        # rank directory: canonical positions before each 64-bit word (arrays, not lists
        # of Python ints: the 5-piece layer has 800,000 words)
        words = (self.size + 63) // 64
        self._words = array("Q")
        self._words.frombytes(canonical_bits[:words * 8])
        if struct.pack("=H", 1) != struct.pack("<H", 1):  # pragma: no cover - big-endian
            self._words.byteswap()
        self._before = _rank_directory(self._words)
        total = self._before[-1]
        if total * 2 != len(values):
            raise ValueError(f"table damaged: {total} canonical positions, "
                             f"{len(values)} values")

    def __len__(self) -> int:
        return len(self._values) // 2

    def covers(self, white: int, black: int) -> bool:
        return bool(white) and bool(black) and (
            self.low <= (white | black).bit_count() <= self.pieces)

    def slot(self, index: int) -> int:
        word = self._words[index >> 6]
        bit = index & 63
        if not word >> bit & 1:
            raise KeyError(index)
        return self._before[index >> 6] + (word & ((1 << bit) - 1)).bit_count()

    def index_of(self, white: int, black: int, bishops: int, turn: int) -> int:
        """The canonical full index of a position (both sides with pieces, ≤ ``pieces``)."""
        mine, theirs = relative(white, black, bishops, turn)
        off = self.offsets[(len(mine), len(theirs))]
        a = encode(mine, theirs, off)
        b = encode(_mirror(mine), _mirror(theirs), off)
        return min(a, b)

    def lookup(self, white: int, black: int, bishops: int, turn: int) -> tuple[int, int]:
        """(value, distance) for the side to move; KeyError outside the table."""
        if not self.covers(white, black):
            raise KeyError((white, black, bishops, turn))
        return self.code(self.index_of(white, black, bishops, turn))

    def code(self, index: int) -> tuple[int, int]:
        """(value, distance) stored for a canonical full index."""
        at = 2 * self.slot(index)
        return decode_value(self._values[at] | self._values[at + 1] << 8)

    def get(self, white: int, black: int, bishops: int, turn: int) -> tuple[int, int] | None:
        if not self.covers(white, black):
            return None
        return self.code(self.index_of(white, black, bishops, turn))

    # ---- files ---------------------------------------------------------------------------
    def dump(self, path: Path, preset: int = 9) -> None:
        """Write the table: xz-compressed when ``path`` ends in ``.xz``, else as it is (to
        be mapped). Written to a temporary name first, then renamed."""
        if self.low == 2:
            header = MAGIC + struct.pack("<BBQQ", FORMAT, self.pieces, self.size, len(self))
        else:
            header = MAGIC + struct.pack("<BBBQQ", FORMAT_LAYER, self.low, self.pieces,
                                         self.size, len(self))
        tmp = path.with_name(path.name + ".part")
        if path.suffix == ".xz":
            tmp.write_bytes(lzma.compress(b"".join((header, self._bits, self._values)),
                                          preset=preset))
        else:
            with open(tmp, "wb") as out:
                for part in (header, self._bits, self._values):
                    out.write(part)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> Tables:
        """Read a table file: an ``.xz`` one is decompressed into memory, any other is
        mapped (read-only; the pages are shared by every process that maps it)."""
        raw: bytes | mmap.mmap
        if path.suffix == ".xz":
            raw = lzma.decompress(path.read_bytes())
        else:
            with open(path, "rb") as f:
                try:
                    raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                except ValueError as exc:   # an empty file cannot be mapped
                    raise ValueError(f"{path} is not a FlipFlop endgame table") from exc
        if raw[:4] != MAGIC:
            raise ValueError(f"{path} is not a FlipFlop endgame table")
        fmt = raw[4]
        if fmt == FORMAT:
            low = 2
            pieces, size, count = struct.unpack("<BQQ", raw[5:22])
            at = 22
        elif fmt == FORMAT_LAYER:
            low, pieces, size, count = struct.unpack("<BBQQ", raw[5:23])
            at = 23
        else:
            raise ValueError(f"{path}: table format {fmt}, this code reads "
                             f"{FORMAT} and {FORMAT_LAYER}")
        if size != sum(signature_size(*s) for s in signatures(pieces, low)):
            raise ValueError(f"{path}: index size {size} does not match {low}..{pieces} pieces")
        nbits = (size + 63) // 64 * 8
        view = memoryview(raw)   # no copies of the 50 MB of the 5-piece layer (or 790 MB)
        bits, values = view[at:at + nbits], view[at + nbits:]
        if len(values) != 2 * count:
            raise ValueError(f"{path}: truncated table")
        return cls(pieces, bits, values, low=low)


class EndgameTables(Protocol):
    """What the bots, the search and df-pn read: a :class:`Tables` or a :class:`TableSet`."""

    pieces: int
    low: int
    sigs: list[tuple[int, int]]

    def covers(self, white: int, black: int) -> bool: ...

    def lookup(self, white: int, black: int, bishops: int, turn: int
               ) -> tuple[int, int]: ...

    def get(self, white: int, black: int, bishops: int, turn: int
            ) -> tuple[int, int] | None: ...


class TableSet:
    """The ≤ 4 table and further one-count layers (``endgame5.bin.xz``) as one table;
    a layer's file is read (about a second) on the first lookup that needs it."""

    def __init__(self, base: Tables, layers: dict[int, Path | Tables]) -> None:
        if base.low != 2:
            raise ValueError("the base table must start at 2 pieces")
        self.base = base
        self._layers = dict(layers)
        counts = sorted(self._layers)
        if counts != list(range(base.pieces + 1, base.pieces + 1 + len(counts))):
            raise ValueError(f"layers {counts} do not follow ≤ {base.pieces} pieces")
        self.pieces = counts[-1] if counts else base.pieces
        self.low = 2
        self.sigs = signatures(self.pieces)

    def layer(self, count: int) -> Tables:
        """The table holding the positions with ``count`` pieces (loaded on first use)."""
        if count <= self.base.pieces:
            return self.base
        part = self._layers[count]
        if isinstance(part, Path):
            part = Tables.load(part)
            if (part.low, part.pieces) != (count, count):
                raise ValueError(f"{count}-piece layer file holds {part.low}..{part.pieces}")
            self._layers[count] = part
        return part

    def covers(self, white: int, black: int) -> bool:
        return bool(white) and bool(black) and (white | black).bit_count() <= self.pieces

    def lookup(self, white: int, black: int, bishops: int, turn: int) -> tuple[int, int]:
        if not self.covers(white, black):
            raise KeyError((white, black, bishops, turn))
        return self.layer((white | black).bit_count()).lookup(white, black, bishops, turn)

    def get(self, white: int, black: int, bishops: int, turn: int) -> tuple[int, int] | None:
        if not self.covers(white, black):
            return None
        return self.lookup(white, black, bishops, turn)


@lru_cache(maxsize=1)
def load_base() -> Tables | None:
    """The shipped ≤ 4-piece table (cached), or None when its file is missing."""
    path = default_path(PIECES)
    if not path.exists():
        return None
    return Tables.load(path)


def load(pieces: int | None = None) -> Tables | TableSet | None:
    """The endgame tables (cached). ``None``: everything on disk — the ≤ 4 table and each
    further layer file present (``endgame5.bin.xz``), as a :class:`TableSet` whose layer
    files are read on first use; ``4``: the ≤ 4 table alone; ``5``: ≤ 5 or None when the
    5-piece file is missing (rebuild it: ``python -m asobiba.games.flipflop.tables build
    --pieces 5``)."""
    if pieces is None:   # one cached object for "all" and its count: one copy in memory
        pieces = PIECES
        while pieces < MAX_LAYER and default_path(pieces + 1).exists():
            pieces += 1
    return _load(max(pieces, PIECES))


@lru_cache(maxsize=4)
def _load(pieces: int) -> Tables | TableSet | None:
    base = load_base()
    if base is None or pieces > MAX_LAYER:
        return None
    if pieces <= PIECES:
        return base
    layers: dict[int, Path | Tables] = {}
    for count in range(PIECES + 1, pieces + 1):
        path = default_path(count)
        if not path.exists():
            return None
        layers[count] = path
    return TableSet(base, layers)


def build(pieces: int = PIECES, log: bool = True) -> tuple[Tables, dict[str, int | float]]:
    """Solve every position with ≤ ``pieces`` pieces (NumPy); returns the table and stats."""
    try:
        from .tables_build import Builder
    except ImportError as exc:  # pragma: no cover - numpy is in the dev environment
        raise SystemExit("building the FlipFlop tables needs NumPy (pip install numpy)") from exc
    return Builder(pieces).build(log)


def build_layer(pieces: int, lower: Tables | None, log: bool = True,
                work: Path | None = None) -> tuple[Tables, dict[str, int | float]]:
    """Solve the positions with exactly ``pieces`` pieces, reading the captures' values
    from ``lower`` (a table holding the ``pieces - 1`` layer; None for 2 pieces)."""
    try:
        from .tables_layer import LayerBuilder
    except ImportError as exc:  # pragma: no cover - numpy is in the dev environment
        raise SystemExit("building the FlipFlop tables needs NumPy (pip install numpy)") from exc
    return LayerBuilder(pieces, lower, work).build(log)


def iter_positions(tables: EndgameTables, rng_seed: int, count: int
                   ) -> Iterator[tuple[int, int, int, int]]:
    """Random absolute positions covered by ``tables`` (tests and benches)."""
    import random

    rnd = random.Random(rng_seed)
    sigs = tables.sigs
    for _ in range(count):
        m, t = rnd.choice(sigs)
        squares = rnd.sample(range(SQUARES), m + t)
        white = sum(1 << s for s in squares[:m])
        black = sum(1 << s for s in squares[m:])
        bishops = sum(1 << s for s in squares if rnd.random() < 0.5)
        yield white, black, bishops, rnd.choice((bd.WHITE, bd.BLACK))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m asobiba.games.flipflop.tables",
                                 description="FlipFlop 5×5 endgame tables")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="solve every position with ≤ PIECES pieces (≤ 4: one "
                       "file; 5: the 5-piece layer alone, from the ≤ 4 file)")
    b.add_argument("--pieces", type=int, default=PIECES)
    b.add_argument("--out", type=Path, default=None)
    b.add_argument("--lower", type=Path, default=None,
                   help="for --pieces 5 or 6: the table below (default: the ≤ 4 file for 5, "
                   "the 5-piece file for 6)")
    b.add_argument("--preset", type=int, default=9, help="xz preset of the file written")
    b.add_argument("--work", type=Path, default=None,
                   help="for a layer: a directory for the moves and each solved component "
                   "(the build resumes from it); default for 6 pieces: OUT.work")
    s = sub.add_parser("stats", help="counts of a table file")
    s.add_argument("--pieces", type=int, default=PIECES)
    args = ap.parse_args(argv)
    if args.cmd == "build":
        out = args.out or default_path(args.pieces)
        if args.pieces <= PIECES:
            tables, stats = build(args.pieces)
        elif args.pieces <= MAX_LAYER:
            below = args.pieces - 1
            lower_path = args.lower or default_path(below)
            if not lower_path.exists():
                raise SystemExit(f"the {args.pieces}-piece layer reads the {below}-piece "
                                 f"table: {lower_path} is missing (build it first: "
                                 f"--pieces {below})")
            work = args.work
            if work is None and args.pieces > SHIPPED:
                work = out.with_name(out.name + ".work")
            tables, stats = build_layer(args.pieces, Tables.load(lower_path), work=work)
        else:
            raise SystemExit(f"--pieces {args.pieces}: this builder goes to {MAX_LAYER}")
        tables.dump(out, args.preset)
        stats["file_bytes"] = out.stat().st_size
        print(stats)
        return 0
    tab = Tables.load(default_path(args.pieces))
    print({"pieces": tab.pieces, "low": tab.low, "canonical_positions": len(tab),
           "index_size": tab.size})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
