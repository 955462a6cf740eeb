"""Clear checking on a sheet of marks (one 32-bit mask per mark).

A clear (5. ゲームの進行) picks one occurrence of the task whose cells are blank or already
hold the required mark, and writes exactly its blank cells: Q2 forbids writing any mark that
is not part of the occurrence, and a mark once written never changes. Occurrences that need
the same writes give the same sheet, so the ways to clear are grouped by their writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tasks import Occurrence, occurrences

Marks = tuple[int, int, int]


def fits(occ: Occurrence, marks: Marks) -> bool:
    """Every cell of ``occ`` is blank or already holds the mark the task needs there."""
    o, x, b = marks
    return not (occ.req[0] & (x | b) or occ.req[1] & (o | b) or occ.req[2] & (o | x))


def after(occ: Occurrence, marks: Marks) -> Marks:
    return (marks[0] | occ.req[0], marks[1] | occ.req[1], marks[2] | occ.req[2])


@dataclass(frozen=True)
class Clear:
    """One way to clear: the marks to write (``writes`` per mark) and a witness occurrence."""

    writes: Marks
    occurrence: Occurrence

    @property
    def count(self) -> int:
        return sum(w.bit_count() for w in self.writes)


def clears(task: str, marks: Marks) -> list[Clear]:
    """Every distinct way to clear ``task`` on this sheet, first witness kept per writes."""
    occupied = marks[0] | marks[1] | marks[2]
    seen: dict[Marks, Clear] = {}
    for occ in occurrences(task):
        if not fits(occ, marks):
            continue
        free = ~occupied
        writes = (occ.req[0] & free, occ.req[1] & free, occ.req[2] & free)
        if writes not in seen:
            seen[writes] = Clear(writes, occ)
    return list(seen.values())
