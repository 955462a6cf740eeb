"""The course optimiser: beam search over the clears of each task.

A node is a sheet (3 mark masks) plus the passes so far; its children are every distinct
way to clear the next task (grouped by writes, see :mod:`.sheet`) and the pass. Nodes are
ranked by the score the sheet would get if the course ended now: every later write can only
lower the visible blanks and raise group sizes, so the current score is a fair measure of
progress. Equal sheets are merged. ``bench/patapata_optimiser.py`` measures widths.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product

from .notation import PASS, PatapataMove
from .scoring import STANDARD, ScoreTable, most_visible_blanks, score_total
from .sheet import Marks, clears

Node = tuple[Marks, int]


@dataclass(frozen=True)
class Plan:
    """The best line found: its final score and one move per task (``("pass",)`` or
    ``("clear", writes)``), and how many nodes were scored."""

    total: int
    moves: tuple[PatapataMove, ...]
    final: Node
    nodes: int


def children(task: str, node: Node) -> list[tuple[PatapataMove, Node]]:
    marks, passes = node
    out: list[tuple[PatapataMove, Node]] = []
    for c in clears(task, marks):
        w = c.writes
        out.append((("clear", w), ((marks[0] | w[0], marks[1] | w[1], marks[2] | w[2]), passes)))
    out.append((PASS, (marks, passes + 1)))
    return out


def value(node: Node, table: ScoreTable) -> tuple[float, int]:
    """Rank key: the score now, then the visible blanks (room left for later tasks)."""
    marks, passes = node
    return (score_total(marks, passes, table),
            most_visible_blanks(marks[0] | marks[1] | marks[2]))


def thrifty(cost: float) -> Callable[[Node, ScoreTable], tuple[float, int]]:
    """Rank key: the score now minus ``cost`` per mark on the sheet, then fewer marks.
    Marks written early use up cells later tasks could have reused or kept blank."""

    def key(node: Node, table: ScoreTable) -> tuple[float, int]:
        marks, passes = node
        used = (marks[0] | marks[1] | marks[2]).bit_count()
        return (score_total(marks, passes, table) - cost * used, -used)

    return key


#: The rank keys :func:`optimise` runs side by side (measured in bench/patapata_optimiser.py).
PORTFOLIO = (value, thrifty(0.0), thrifty(0.2), thrifty(0.4), thrifty(0.7))


def beam_search(tasks: Sequence[str], start: Node = ((0, 0, 0), 0), width: int = 64,
                table: ScoreTable = STANDARD,
                key: Callable[[Node, ScoreTable], tuple[float, int]] = value) -> Plan:
    """Best play over ``tasks`` from ``start`` keeping the ``width`` sheets that rank best
    by ``key`` after each task; the final pick is by the real score."""
    layer: dict[Node, tuple[PatapataMove, ...]] = {start: ()}
    nodes = 0
    for task in tasks:
        nxt: dict[Node, tuple[PatapataMove, ...]] = {}
        for node, moves in layer.items():
            for move, child in children(task, node):
                if child not in nxt:
                    nxt[child] = moves + (move,)
        nodes += len(nxt)
        ranked = sorted(nxt, key=lambda n: key(n, table), reverse=True)[:width]
        layer = {n: nxt[n] for n in ranked}
    best = max(layer, key=lambda n: (score_total(n[0], n[1], table), value(n, table)))
    return Plan(score_total(best[0], best[1], table), layer[best], best, nodes)


def optimise(tasks: Sequence[str], start: Node = ((0, 0, 0), 0), width: int = 32,
             table: ScoreTable = STANDARD) -> Plan:
    """The best of one beam search per rank key in :data:`PORTFOLIO`. A single key's beam
    is sensitive to ties among equal scores; different keys fail on different courses."""
    best: Plan | None = None
    nodes = 0
    for key in PORTFOLIO:
        plan = beam_search(tasks, start, width, table, key)
        nodes += plan.nodes
        if best is None or plan.total > best.total:
            best = plan
    assert best is not None
    return Plan(best.total, best.moves, best.final, nodes)


def upper_bound(tasks: Sequence[str], start: Node = ((0, 0, 0), 0),
                table: ScoreTable = STANDARD) -> int:
    """A score no play can beat: each mark's group is at most the marks of that kind the
    sheet holds plus those the remaining tasks could add (and 16); groups and the visible
    blanks use distinct cells, at most 32; blanks never grow; passes never shrink."""
    from .tasks import pattern

    marks, passes = start
    occupied = marks[0] | marks[1] | marks[2]
    blanks_now = most_visible_blanks(occupied)
    limit = []
    for m in range(3):
        future = sum(pattern(t).count(m) for t in tasks)
        limit.append(min(16, marks[m].bit_count() + future))
    best = 0
    for g in product(*(range(n + 1) for n in limit)):
        room = 32 - sum(g)
        if room < 0:
            continue
        blanks = min(blanks_now, room)
        total = (sum(table.group_points(x) for x in g) + table.blank_points(blanks)
                 + table.pass_points(passes))
        best = max(best, total)
    return best
