"""Tasks (お題), the project's task sheet, courses, and every way a task can appear.

A task is a 4-cell pattern of marks in a tetromino shape other than the straight line, given
as rows like ``"XX/OO"`` in the orientation printed on the task sheet (``.`` = not part of
the pattern, "don't care"). Marks: ``O`` 〇, ``X`` ×, ``B`` ■.

An :class:`Occurrence` is one set of 4 printed cells with required marks that shows the
pattern in the visible window for some rotation and switch setting. Every occurrence of a
pattern is precomputed once (a few hundred per task), so checking a clear is bit arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...core import Rng
from .geometry import SIZE, switch_of, visible_window

MARKS = "OXB"
MARK_SYMBOLS = {"O": "〇", "X": "×", "B": "■"}
CIRCLE, CROSS, SQUARE = 0, 1, 2


@dataclass(frozen=True)
class Pattern:
    """A task: ``cells`` are (row, col, mark index) in the printed orientation."""

    text: str
    cells: tuple[tuple[int, int, int], ...]

    @classmethod
    def parse(cls, text: str) -> Pattern:
        cells = []
        for r, row in enumerate(text.split("/")):
            for c, ch in enumerate(row):
                if ch in MARKS:
                    cells.append((r, c, MARKS.index(ch)))
                elif ch != ".":
                    raise ValueError(f"bad character {ch!r} in pattern {text!r}")
        return cls(text, tuple(cells))

    @property
    def height(self) -> int:
        return 1 + max(r for r, _, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c, _ in self.cells)

    def count(self, mark: int) -> int:
        return sum(1 for *_, m in self.cells if m == mark)

    def rows(self) -> list[str]:
        return self.text.split("/")


def is_tetromino_not_straight(pattern: Pattern) -> bool:
    """Q1: tetris-like shapes, but never the straight bar."""
    pts = {(r, c) for r, c, _ in pattern.cells}
    if len(pts) != 4 or len(set(r for r, _ in pts)) == 1 or len(set(c for _, c in pts)) == 1:
        return False
    seen, todo = set(), [next(iter(pts))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo.extend(q for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if q in pts)
    return seen == pts


# The project's task sheet: three rows of 12 (the seed's ⚀⚁, ⚂⚃, ⚄⚅ rows). Odd-numbered
# tasks hold exactly two ×, even-numbered ones at most one. Tasks 1–4 use two marks laid
# as dominoes, 5–8 bring a third mark or split a pair, 9–12 alternate marks so that few
# same-mark cells touch (see docs/rules/patapata.md, "The task sheet").
TASK_SHEET: tuple[tuple[str, ...], ...] = (
    ("XX/OB", "OO./.BX", ".XX/BB.", "O../OBB",
     "XXB/.O.", ".B/OB/O.", "X./XO/B.", "B./BX/.O",
     "XO/BX", "OB./.BO", "X../OBX", ".O./BXB"),
    ("OX/OX", "BB./.BO", "X../XOO", ".O/.O/BB",
     "OXX/.B.", "B./OO/.O", "..X/BXO", "OX/B./B.",
     "XB/OX", ".BO/OB.", "X./OB/X.", "BXO/.O."),
    ("XX./.OO", "B./B./OO", "XB/XB", ".BB/OO.",
     "..O/XXB", "OB/.B/.B", "X./XB/.O", "OXB/.O.",
     "BX/XO", "O../BOB", "XO./.BX", ".X/OB/B."),
)
ROW_NAMES = ("⚀⚁", "⚂⚃", "⚄⚅")
COURSE_LENGTH = 12


@cache
def pattern(text: str) -> Pattern:
    return Pattern.parse(text)


def dice_course(seed: int) -> tuple[int, ...]:
    """At each of the 12 positions a die picks the row: 1–2 → ⚀⚁, 3–4 → ⚂⚃, 5–6 → ⚄⚅."""
    rng = Rng(seed, "patapata", "course")
    return tuple(rng.below(6) // 2 for _ in range(COURSE_LENGTH))


def course_rows(mode: str, seed: int) -> tuple[int, ...]:
    """Which sheet row each position of the course comes from."""
    if mode == "dice":
        return dice_course(seed)
    return (int(mode) - 1,) * COURSE_LENGTH


@cache  # a state asks for its current task at every step
def course_tasks(rows: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(TASK_SHEET[row][i] for i, row in enumerate(rows))


@dataclass(frozen=True)
class Occurrence:
    """One way the pattern can appear: printed cells with required marks.

    ``req`` holds one 32-bit mask per mark; ``cells`` is their union. ``rotations`` is a
    bitmask of the sheet rotations under which these cells read as the pattern, and
    ``switch_mask``/``switch_bits`` the switch settings needed to show all four cells.
    ``offset`` is where the pattern sits in the seen window for the first rotation.
    """

    req: tuple[int, int, int]
    cells: int
    rotations: int
    switch_mask: int
    switch_bits: int
    offset: tuple[int, int]

    @property
    def rotation(self) -> int:
        return (self.rotations & -self.rotations).bit_length() - 1

    def cell_marks(self) -> list[tuple[int, int]]:
        """(printed cell, mark) for the four cells, in cell order."""
        out: list[tuple[int, int]] = []
        for m, mask in enumerate(self.req):
            out.extend((p, m) for p in range(32) if mask >> p & 1)
        return sorted(out)


@cache
def occurrences(text: str) -> tuple[Occurrence, ...]:
    """Every distinct occurrence of the pattern over all rotations and switch settings."""
    pat = pattern(text)
    found: dict[tuple[int, int, int], tuple[int, int]] = {}  # key -> first offset
    rotations: dict[tuple[int, int, int], int] = {}  # key -> the rotations that show it
    for k in range(4):
        for s in range(256):
            window = visible_window(k, s)
            for oy in range(SIZE - pat.height + 1):
                for ox in range(SIZE - pat.width + 1):
                    req = [0, 0, 0]
                    for dy, dx, m in pat.cells:
                        req[m] |= 1 << window[oy + dy][ox + dx]
                    key = (req[0], req[1], req[2])
                    rots = rotations.get(key)
                    if rots is None:
                        found[key] = (oy, ox)
                        rotations[key] = 1 << k
                    else:
                        rotations[key] = rots | 1 << k
    out = []
    for key, offset in found.items():
        rots = rotations[key]
        cells = key[0] | key[1] | key[2]
        smask = sbits = 0
        for p in range(32):
            if cells >> p & 1:
                idx, setting = switch_of(p)
                smask |= 1 << idx
                sbits |= setting << idx
        out.append(Occurrence(key, cells, rots, smask, sbits, offset))
    out.sort(key=lambda o: (o.rotation, o.offset, o.switch_bits, o.cells))
    return tuple(out)


def occurrences_through(text: str, cell: int) -> tuple[Occurrence, ...]:
    """The occurrences of the pattern that use printed cell ``cell``, in
    :func:`occurrences` order (the first of them holding some cells is the first overall)."""
    return _by_cell(text)[cell]


@cache
def _by_cell(text: str) -> tuple[tuple[Occurrence, ...], ...]:
    lists: list[list[Occurrence]] = [[] for _ in range(32)]
    for o in occurrences(text):
        bits = o.cells
        while bits:  # the occurrence's 4 cells, lowest first (not all 32 bits)
            low = bits & -bits
            lists[low.bit_length() - 1].append(o)
            bits ^= low
    return tuple(tuple(x) for x in lists)
