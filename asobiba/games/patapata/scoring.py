"""Scoring (6. 得点計算): largest group per mark, most visible blanks, pass bonus.

The score tables are data (:class:`ScoreTable`); the default agrees with every number the
seed quotes (group 2 → 0, 3 → 1, 6 → 8; blanks 4 → 3, 8+ → 10; passes 0 → 5, 1 → 2, more
→ 0; ratings 40 神, 35 マスター, 30 上級者, 25 中級者) and fills the rest as documented in
docs/rules/patapata.md.

The fast scorer works on one 32-bit mask per mark. Rows are independent for blanks (each
row's two switches pick its four visible cells), so the most visible blanks is a sum of
per-row maxima. For groups, each row offers at most 4 distinct visible 4-bit patterns; the
largest component of every 16-bit window is memoised, and so is the result per mask.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import ROW_VISIBLE

FULL = (1 << 32) - 1


@dataclass(frozen=True)
class ScoreTable:
    """Points per group size (index 0..16), per visible-blank count (index 0..16, larger
    counts use the last entry), per number of passes (larger counts use the last entry)."""

    group: tuple[int, ...] = (0, 0, 0, 1, 3, 5, 8, 10, 12, 14, 16)
    blanks: tuple[int, ...] = (0, 0, 1, 2, 3, 4, 6, 8, 10)
    passes: tuple[int, ...] = (5, 2, 0)
    ratings: tuple[tuple[int, str, str], ...] = field(default=(
        (40, "god", "神"), (35, "master", "マスター"), (30, "advanced", "上級者"),
        (25, "intermediate", "中級者")))

    def group_points(self, size: int) -> int:
        return self.group[min(size, len(self.group) - 1)]

    def blank_points(self, count: int) -> int:
        return self.blanks[min(count, len(self.blanks) - 1)]

    def pass_points(self, passes: int) -> int:
        return self.passes[min(passes, len(self.passes) - 1)]

    def rating(self, score: int) -> tuple[str, str]:
        for floor, en, ja in self.ratings:
            if score >= floor:
                return en, ja
        return "beginner", "初級者"


STANDARD = ScoreTable()
#: The alternative reading: +3 per mark beyond 5 with no cap (a 16-group scores 38).
STEEP = ScoreTable(group=(0, 0, 0, 1, 3, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38))
TABLES = {"standard": STANDARD, "steep": STEEP}

_component_cache: dict[int, int] = {}


def largest_component16(window: int) -> int:
    """Largest orthogonally connected set of 1-bits in a 4×4 window (bit 4*row + col)."""
    cached = _component_cache.get(window)
    if cached is not None:
        return cached
    best, left = 0, window
    while left:
        frontier = left & -left
        group = 0
        while frontier:
            group |= frontier
            grow = ((frontier << 4) | (frontier >> 4)
                    | ((frontier << 1) & 0xEEEE) | ((frontier >> 1) & 0x7777))
            frontier = grow & window & ~group
        left &= ~group
        best = max(best, group.bit_count())
    _component_cache[window] = best
    return best


_group_cache: dict[int, int] = {}


def largest_visible_group(mask: int) -> int:
    """6-1: the largest group of one mark that any switch setting can show."""
    cached = _group_cache.get(mask)
    if cached is not None:
        return cached
    # branch and bound over the row choices (each row shows one of up to 4 bit sets): a
    # window's largest group is at most its mark count, so windows with no more marks than
    # the best group so far are skipped without a flood fill; the rows' choices are tried
    # fullest first, so the bound cuts whole branches (same result as trying them all)
    rows = []
    for r in range(4):
        bits = mask >> (8 * r) & 0xFF
        row = sorted({ROW_VISIBLE[c][bits] << 4 * r for c in range(4)},
                     key=int.bit_count, reverse=True)
        rows.append([(v, v.bit_count()) for v in row])
    (a0, b0, c0, d0) = rows
    rest_b = b0[0][1] + c0[0][1] + d0[0][1]
    rest_c = c0[0][1] + d0[0][1]
    rest_d = d0[0][1]
    best = 0
    components = _component_cache
    for a, pa in a0:
        if pa + rest_b <= best:
            break
        for b, pb in b0:
            pab = pa + pb
            if pab + rest_c <= best:
                break
            ab = a | b
            for c, pc in c0:
                pabc = pab + pc
                if pabc + rest_d <= best:
                    break
                abc = ab | c
                for d, pd in d0:
                    if pabc + pd <= best:
                        break
                    window = abc | d
                    size = components.get(window)
                    if size is None:
                        size = largest_component16(window)
                    if size > best:
                        best = size
    _group_cache[mask] = best
    return best


def most_visible_blanks(occupied: int) -> int:
    """6-2: the most blank cells one switch setting shows (rows are independent)."""
    total = 0
    for r in range(4):
        blanks = ~(occupied >> (8 * r)) & 0xFF
        total += max(ROW_VISIBLE[c][blanks].bit_count() for c in range(4))
    return total


@dataclass(frozen=True)
class Breakdown:
    groups: tuple[int, int, int]
    group_points: tuple[int, int, int]
    blanks: int
    blank_points: int
    passes: int
    pass_points: int

    @property
    def total(self) -> int:
        return sum(self.group_points) + self.blank_points + self.pass_points

    def to_json(self) -> dict[str, object]:
        return {"groups": dict(zip("OXB", self.groups, strict=True)),
                "group_points": dict(zip("OXB", self.group_points, strict=True)),
                "blanks": self.blanks, "blank_points": self.blank_points,
                "passes": self.passes, "pass_points": self.pass_points,
                "total": self.total}


def score(marks: tuple[int, int, int], passes: int, table: ScoreTable = STANDARD) -> Breakdown:
    """The full score of a sheet (marks as one 32-bit mask per mark) after ``passes``."""
    groups = (largest_visible_group(marks[0]), largest_visible_group(marks[1]),
              largest_visible_group(marks[2]))
    blanks = most_visible_blanks(marks[0] | marks[1] | marks[2])
    return Breakdown(groups, tuple(table.group_points(g) for g in groups),  # type: ignore[arg-type]
                     blanks, table.blank_points(blanks), passes, table.pass_points(passes))


def score_total(marks: tuple[int, int, int], passes: int, table: ScoreTable = STANDARD) -> int:
    """Just the total, for search."""
    return (table.group_points(largest_visible_group(marks[0]))
            + table.group_points(largest_visible_group(marks[1]))
            + table.group_points(largest_visible_group(marks[2]))
            + table.blank_points(most_visible_blanks(marks[0] | marks[1] | marks[2]))
            + table.pass_points(passes))
