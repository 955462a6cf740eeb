"""Hints: every way to clear the current task, ranked by the optimiser's estimate.

Works from a seat's view (what the player sees), so it reveals nothing the seat could not
know. Every way gets the score its sheet would have now and the best score after the next
task (one task of lookahead); the ``searched`` best of them by that lookahead also get a beam
search over the rest of the course (the known rest of a fixed-row course, or a sampled one on
a dice course) and are ranked first by that estimate, the others by their lookahead.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Rng
from ...core.jsontypes import JSONMapping, JSONObject
from .bots import read_view
from .geometry import cell_name, switch_name
from .notation import move_text
from .optimiser import Node, beam_search, children, thrifty, value
from .scoring import TABLES
from .sheet import clears
from .tasks import COURSE_LENGTH, TASK_SHEET
from .views import patapata_view

KEY = thrifty(0.2)


@dataclass(frozen=True)
class Hint:
    move: str
    rotation: int
    switches: dict[str, str]
    writes: list[str]
    score_now: int
    lookahead: int
    estimate: int | None

    def to_json(self) -> JSONObject:
        return {"move": self.move, "rotation": self.rotation, "switches": self.switches,
                "writes": self.writes, "score_now": self.score_now,
                "lookahead": self.lookahead, "estimate": self.estimate}


def hints(view: JSONMapping, searched: int = 8, width: int = 16,
          seed: int = 0) -> list[Hint]:
    view = patapata_view(view)
    marks, passes, index, task = read_view(view)
    table = TABLES[view.get("scores", "standard")]
    mode = view["course"]["mode"]
    rng = Rng(seed, "patapata", "hint")
    rest = [TASK_SHEET[rng.below(3) if mode == "dice" else int(mode) - 1][i]
            for i in range(index + 1, COURSE_LENGTH)]


    def ahead(node: Node) -> int:
        if not rest:
            return int(value(node, table)[0])
        return max(int(value(c, table)[0]) for _, c in children(rest[0], node))

    out = []
    for way in clears(task, marks):
        occ = way.occurrence
        child = ((marks[0] | way.writes[0], marks[1] | way.writes[1],
                  marks[2] | way.writes[2]), passes)
        out.append((ahead(child), value(child, table), way, occ, child))
    out.sort(key=lambda t: (t[0], t[1]), reverse=True)
    result = []
    for rank, (look, val, way, occ, child) in enumerate(out):
        estimate = (beam_search(rest, child, width, table, KEY).total if rank < searched
                    else None)
        switches = {switch_name(i // 2, i % 2): "ab"[occ.switch_bits >> i & 1]
                    for i in range(8) if occ.switch_mask >> i & 1}
        writes = [cell_name(p) + "OXB"[m] for p, m in occ.cell_marks()
                  if way.writes[m] >> p & 1]
        result.append(Hint(move_text(("clear", way.writes)), 90 * occ.rotation, switches,
                           writes, int(val[0]), look, estimate))
    result.sort(key=lambda h: (h.estimate is not None, h.estimate or 0, h.lookahead,
                               h.score_now), reverse=True)
    gave_up = (marks, passes + 1)
    result.append(Hint("pass", 0, {}, [], int(value(gave_up, table)[0]), ahead(gave_up),
                       beam_search(rest, gave_up, width, table, KEY).total))
    return result
