"""N-tuple (pattern) evaluations: a position's value is the sum of one table entry per pattern
instance, the entry chosen by the contents of the pattern's squares read as a base-3 number
(0 empty, 1 the mover's disc, 2 the opponent's; a layout may give its cells more values:
FlipFlop's 5, :attr:`Layout.values`), plus a bias; one set of tables per game
phase (discs on the board).

Symmetry sharing: each base shape is placed on the board in every distinct image under the
board's symmetries (a square's eight by default; a game may give its own, as ReverStarGo's
star gives the hexagon's twelve), and all images read the *same* table, each through its own
square order (the image of the base order), so what is learned on one corner is known on the
others.

Inference is NumPy only: the board becomes a 64-vector of cells, one integer matrix product
gives every instance's index, and the value is a gather and a sum (:meth:`NTuple.value` for one
position, :meth:`NTuple.values` for a batch).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..core.extras import require

require("learned", "asobiba.learn (learned evaluations)")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

FORMAT = 1
"""The weights file's format version (bumped when its layout changes)."""

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]
Int32Array = npt.NDArray[np.int32]
_reduce = np.add.reduce

Shape = tuple[str, tuple[int, ...]]


def _symmetries(size: int) -> list[list[int]]:
    """The eight symmetries of a size×size board, each as square → image square."""
    out = []
    for flip in (False, True):
        for rot in range(4):
            perm = []
            for sq in range(size * size):
                r, c = divmod(sq, size)
                if flip:
                    c = size - 1 - c
                for _ in range(rot):
                    r, c = c, size - 1 - r
                perm.append(r * size + c)
            out.append(perm)
    return out


@dataclass(frozen=True)
class Layout:
    """Where each pattern instance reads its squares and which table it uses."""

    shapes: tuple[Shape, ...]
    size: int  # board side (0 for a board that is not a square)
    phases: int
    cells: int  # squares on the board
    symmetries: tuple[tuple[int, ...], ...] | None = None
    """The board's symmetries, each as square → image square (the identity among them);
    None: the eight of a ``size``×``size`` square."""
    tie: bool = False
    """Whether the entries a shape's own symmetries exchange are one entry (:meth:`canon`), so
    that a board and its images have exactly the same value. Without it (Reversi's tables)
    an image of a symmetric shape may read its squares in the other order, and the value is
    symmetric only as far as training made the table so."""
    values: int = 3
    """How many values a cell takes (0 empty and the rest): 3 for Reversi and ReverStarGo
    (empty, the mover's, the opponent's); a game whose pieces have more states (FlipFlop's
    faces: 5) reads its squares as base-``values`` numbers."""

    def syms(self) -> list[list[int]]:
        if self.symmetries is not None:
            return [list(p) for p in self.symmetries]
        return _symmetries(self.size)

    def build(self) -> tuple[IntArray, IntArray, int, list[tuple[str, int, int]]]:
        """``(powers, offsets, table_size, tables)``: ``powers[i, sq]`` is values**k when square
        ``sq`` is instance i's k-th square (so ``powers @ cells`` is every index at once),
        ``offsets[i]`` its table's start; ``tables`` lists (shape, start, entries)."""
        syms = self.syms()
        v = self.values
        rows: list[list[int]] = []
        offsets: list[int] = []
        tables: list[tuple[str, int, int]] = []
        start = 0
        for name, base in self.shapes:
            seen: set[frozenset[int]] = set()
            for perm in syms:
                image = [perm[s] for s in base]
                if frozenset(image) in seen:
                    continue
                seen.add(frozenset(image))
                row = [0] * self.cells
                for k, s in enumerate(image):
                    row[s] = v ** k
                rows.append(row)
                offsets.append(start)
            tables.append((name, start, v ** len(base)))
            start += v ** len(base)
        return (np.array(rows, dtype=np.int64), np.array(offsets, dtype=np.int64), start,
                tables)

    def canon(self) -> IntArray | None:
        """With :attr:`tie`: table index → the index that stands for it, the least of the
        indices the shape's own symmetries (those mapping its squares onto themselves) give
        its contents; None without."""
        if not self.tie:
            return None
        syms = self.syms()
        v = self.values
        parts: list[IntArray] = []
        start = 0
        for _, base in self.shapes:
            n = len(base)
            where = {s: k for k, s in enumerate(base)}
            codes = np.arange(v ** n, dtype=np.int64)
            digits = (codes[:, None] // v ** np.arange(n)) % v  # (v^n, n)
            weights = v ** np.arange(n, dtype=np.int64)
            best = codes.copy()
            for perm in syms:
                if {perm[s] for s in base} != set(base):
                    continue
                # read in the image order, digit k is the base's square perm(base[k])
                order = [where[perm[s]] for s in base]
                best = np.minimum(best, digits[:, order] @ weights)
            parts.append(best + start)
            start += v ** n
        return np.concatenate(parts)


class NTuple:
    """Tables for ``phases`` phases; a phase is the number of discs on the board, cut in equal
    bands. Values are in the game's units (Reversi: the final disc difference, mover's view)."""

    def __init__(self, layout: Layout, weights: FloatArray | None = None,
                 meta: dict[str, object] | None = None) -> None:
        self.layout = layout
        self.powers, self.offsets, self.table_size, self.tables = layout.build()
        self.instances = len(self.offsets)
        self.powers_t = np.ascontiguousarray(self.powers.T)
        shape = (layout.phases, self.table_size + 1)  # the last entry of a phase: its bias
        if weights is None:
            weights = np.zeros(shape, dtype=np.float32)
        if weights.shape != shape:
            raise ValueError(f"weights of shape {weights.shape}, expected {shape}")
        self.w = weights.astype(np.float32, copy=False)
        self.flat = self.w.reshape(-1)
        self.meta: dict[str, object] = dict(meta or {})
        self.canon = layout.canon()
        stride = self.table_size + 1
        # discs on the board → where its phase's tables start (the one-position fast path)
        self.base_of = [int(b) * stride for b in self.phase_of(np.arange(layout.cells + 1))]
        self._bytes: tuple[Int32Array, IntArray, Int32Array] | None = None
        self._planes: dict[int, tuple[Int32Array, IntArray, int]] = {}
        # every column's table start, the bias last; with tied entries, table index → its
        # stand-in, the bias mapped to itself (the bitboard path looks both up)
        self._cols = np.concatenate([self.offsets, [self.table_size]])
        self._canon_cols = (None if self.canon is None
                            else np.concatenate([self.canon, [self.table_size]]))

    # ---- indices --------------------------------------------------------------------------
    def phase_of(self, discs: IntArray) -> IntArray:
        """The phase of positions with ``discs`` discs (any number up to the board's cells)."""
        band = (self.layout.cells + 1) / self.layout.phases
        return np.minimum((discs / band).astype(np.int64), self.layout.phases - 1)

    def indices(self, cells: npt.NDArray[np.int64]) -> IntArray:
        """Flat weight indices, one row per position: ``cells`` is (n, cells) of 0 … values−1; each
        row holds every instance's entry then the phase's bias."""
        stride = self.table_size + 1
        discs = np.count_nonzero(cells, axis=1)
        base = self.phase_of(discs) * stride
        idx = cells @ self.powers_t + self.offsets
        if self.canon is not None:
            idx = self.canon[idx]
        idx += base[:, None]
        return np.concatenate([idx, (base + self.table_size)[:, None]], axis=1)

    def values(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The value of each position of a batch (rows of ``cells``)."""
        return self.flat[self.indices(cells)].sum(axis=1, dtype=np.float64)

    def value(self, cells: npt.NDArray[np.int64], discs: int | None = None) -> float:
        """One position's value (``cells`` a 1-D vector; ``discs`` its discs, if known)."""
        if discs is None:
            discs = int(np.count_nonzero(cells))
        base = self.base_of[discs]
        idx = self.powers @ cells
        idx += self.offsets
        if self.canon is not None:
            idx = self.canon[idx]
        idx += base
        return float(self.flat[idx].sum(dtype=np.float64) + self.flat[base + self.table_size])

    def value_bitboards(self, p: int, o: int) -> float:
        """One position's value from two bitboards (the mover's and the opponent's discs, bit
        i = square i; boards of at most 64 squares): each of the 16 bytes picks a precomputed
        row of index contributions, so a value is two gathers and two sums (a quarter faster
        than :meth:`value` on cells, measured: the search's leaves call it). ``take`` and
        ``add.reduce`` on int32 rows: a fifth faster again than indexing and ``sum``
        (``bench/reversi_learned_speed.py``)."""
        if self.layout.values != 3:
            raise ValueError("value_bitboards reads 3-valued cells; use value_planes")
        if self._bytes is None:
            self._bytes = self._byte_tables()
        table, key_off, starts = self._bytes
        keys = np.frombuffer((p | o << 64).to_bytes(16, "little"), dtype=np.uint8) + key_off
        idx = _reduce(table.take(keys, 0), 0)
        discs = (p | o).bit_count()
        if self._canon_cols is not None:
            idx = self._canon_cols[idx + self._cols]
            idx += self.base_of[discs]
        else:
            idx += starts[discs]
        return float(_reduce(self.flat.take(idx), dtype=np.float64))

    def value_planes(self, planes: tuple[int, ...]) -> float:
        """One position's value from bit planes, one per non-empty cell value: a set bit i of
        ``planes[j]`` puts value j + 1 on square i (FlipFlop: the mover's rooks, the mover's
        bishops, the opponent's rooks, the opponent's bishops). As :meth:`value_bitboards`:
        each byte of every plane picks a precomputed row of index contributions."""
        count = len(planes)
        tables = self._planes.get(count)
        if tables is None:
            tables = self._planes[count] = self._plane_tables(count)
        table, key_off, width = tables
        packed = 0
        occ = 0
        for j, plane in enumerate(planes):
            packed |= plane << (8 * width * j)
            occ |= plane
        keys = np.frombuffer(packed.to_bytes(width * count, "little"), dtype=np.uint8) + key_off
        idx = _reduce(table.take(keys, 0), 0)
        base = self.base_of[occ.bit_count()]
        if self._canon_cols is not None:
            idx = self._canon_cols[idx + self._cols]
            idx += base
        else:
            idx += self._cols + base
        return float(_reduce(self.flat.take(idx), dtype=np.float64))

    def _plane_tables(self, count: int) -> tuple[Int32Array, IntArray, int]:
        """``table[(j·width + k)·256 + b]``: what byte ``b`` at byte ``k`` of plane ``j``
        adds to every instance's index (``width``: bytes a plane takes)."""
        cells = self.layout.cells
        if count >= self.layout.values:
            raise ValueError(f"{count} planes need {count + 1} cell values, the layout has "
                             f"{self.layout.values}")
        if self.flat.size >= 2 ** 31:
            raise ValueError("value_planes indexes tables of fewer than 2**31 entries")
        width = (cells + 7) // 8
        n = self.instances
        bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # (256, 8)
        powers = np.zeros((n, 8 * width), dtype=np.int64)
        powers[:, :cells] = self.powers
        table = np.zeros((count * width * 256, n + 1), dtype=np.int32)
        for k in range(width):
            part = bits @ powers[:, 8 * k: 8 * k + 8].T  # (256, n)
            for j in range(count):
                row = (j * width + k) * 256
                table[row:row + 256, :n] = (j + 1) * part
        key_off = np.arange(count * width, dtype=np.int64) * 256
        return table, key_off, width

    def _byte_tables(self) -> tuple[Int32Array, IntArray, Int32Array]:
        """``table[k·256 + b]``: what byte ``b`` at byte ``k`` of the 16 (8 the mover's, 8 the
        opponent's) adds to every instance's index (the bias column adds nothing);
        ``starts[discs]``: each column's table start in the phase of ``discs`` discs."""
        if self.layout.cells > 64:
            raise ValueError("value_bitboards reads boards of at most 64 squares")
        n = self.instances
        bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1  # (256, 8)
        powers = np.zeros((n, 64), dtype=np.int64)
        powers[:, : self.layout.cells] = self.powers
        table = np.zeros((16 * 256, n + 1), dtype=np.int32)  # indices < 2**31 (checked)
        for k in range(8):
            part = bits @ powers[:, 8 * k: 8 * k + 8].T  # (256, n)
            table[k * 256:(k + 1) * 256, :n] = part
            table[(8 + k) * 256:(9 + k) * 256, :n] = 2 * part
        key_off = np.arange(16, dtype=np.int64) * 256
        cols = np.concatenate([self.offsets, [self.table_size]])
        starts = np.array([cols + base for base in self.base_of], dtype=np.int32)
        if self.flat.size >= 2 ** 31:
            raise ValueError("value_bitboards indexes tables of fewer than 2**31 entries")
        return table, key_off, starts

    # ---- files ----------------------------------------------------------------------------
    def save(self, path: Path | str) -> None:
        """Write the tables and metadata (JSON) to one compressed ``.npz`` (atomically)."""
        path = Path(path)
        meta = dict(self.meta)
        meta.update(format=FORMAT, phases=self.layout.phases,
                    shapes=[[n, list(s)] for n, s in self.layout.shapes],
                    size=self.layout.size, cells=self.layout.cells)
        if self.layout.tie:
            meta["tie"] = True
        if self.layout.values != 3:
            meta["values"] = self.layout.values
        if self.layout.symmetries is not None:
            meta["symmetries"] = [list(p) for p in self.layout.symmetries]
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, weights=self.w, meta=np.array(json.dumps(meta)))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path | str) -> NTuple:
        """The tables of a file written by :meth:`save`."""
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: weights format {meta.get('format')!r}, this version "
                                 f"reads {FORMAT}")
            shapes = tuple((str(n), tuple(int(s) for s in sq)) for n, sq in meta["shapes"])
            size = int(meta["size"])
            syms = meta.get("symmetries")
            layout = Layout(shapes, size, int(meta["phases"]), int(meta.get("cells", size * size)),
                            None if syms is None else tuple(tuple(int(s) for s in p)
                                                            for p in syms),
                            bool(meta.get("tie", False)), int(meta.get("values", 3)))
            return cls(layout, data["weights"], meta)
