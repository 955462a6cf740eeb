"""Tsume-algo (詰めアルゴ): deduction puzzles on rows of cards, some up, some down.

Seed: 「詰めアルゴとは、あるカードは伏せ、あるカードはオープンにして並べ、伏せているカードを
推理していくゲームです」 — the example uses the 20 cards black and white 0–9. Here every one
of those cards lies in some row (no pile), so "where is white 9?" always has an answer.

The generator deals the rows, hides everything, reveals cards until some hidden facts are
forced, picks the questions from those facts, then hides again every card whose reveal is
not needed. Every puzzle's answers are *proved* unique by exact counting (``infer``): the
answer holds in every consistent layout. The solver explains itself step by step with the
moves a person makes (order bounds, only candidate, only place) and falls back to
counting all layouts when those are stuck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core import Rng
from .cards import COLOUR_LETTERS, COLOUR_NAMES
from .infer import Knowledge, SlotInfo, infer

NUMBERS = 10
COLOURS = 2
ROW_NAMES = "ABCD"
LEVELS = {1: (2, False), 2: (3, False), 3: (4, False), 4: (4, True)}
"""level → (rows, needs counting beyond the simple steps)."""


def cname(k: int) -> str:
    return f"{COLOUR_NAMES[k % COLOURS]} {k // COLOURS}"


def short(k: int) -> str:
    return f"{COLOUR_LETTERS[k % COLOURS]}{k // COLOURS}"


@dataclass
class Question:
    kind: str          # "where": where is card ``key``? · "what": what is row/pos?
    key: int = -1
    row: int = -1
    pos: int = -1

    def text(self) -> str:
        if self.kind == "where":
            return f"Where is {cname(self.key)}?"
        return f"What is card {self.pos + 1} of row {ROW_NAMES[self.row]}?"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "row": self.row, "pos": self.pos,
                "text": self.text()}


@dataclass
class Puzzle:
    rows: list[list[int]]                 # true keys
    up: list[list[bool]]
    questions: list[Question] = field(default_factory=list)
    level: int = 1
    seed: int = 0

    def knowledge(self) -> Knowledge:
        rows = [[SlotInfo(r * 100 + p, k % COLOURS, k if self.up[r][p] else None)
                 for p, k in enumerate(row)] for r, row in enumerate(self.rows)]
        return Knowledge(COLOURS, 1, False, NUMBERS, rows)

    def slot_of(self, q: Question) -> tuple[int, int]:
        """The (row, position) a question is about."""
        if q.kind == "what":
            return q.row, q.pos
        return next((r, row.index(q.key)) for r, row in enumerate(self.rows) if q.key in row)

    def answer(self, q: Question) -> str:
        if q.kind == "where":
            for r, row in enumerate(self.rows):
                if q.key in row:
                    return f"{ROW_NAMES[r]}{row.index(q.key) + 1}"
        return short(self.rows[q.row][q.pos])

    def render(self) -> str:
        lines = []
        for r, row in enumerate(self.rows):
            cells = [f"[{short(k)}]" if self.up[r][p] else f"({COLOUR_LETTERS[k % 2]}?)"
                     for p, k in enumerate(row)]
            lines.append(f"{ROW_NAMES[r]}: " + " ".join(cells))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "seed": self.seed,
                "rows": [[{"colour": COLOUR_LETTERS[k % 2],
                           **({"number": k // 2} if self.up[r][p] else {})}
                          for p, k in enumerate(row)] for r, row in enumerate(self.rows)],
                "questions": [q.to_json() for q in self.questions]}


def forced_facts(pz: Puzzle) -> tuple[list[Question], int]:
    """Every question whose answer holds in all consistent layouts, and their count."""
    inf = infer(pz.knowledge())
    out = []
    for r, row in enumerate(pz.rows):
        for p, k in enumerate(row):
            if pz.up[r][p]:
                continue
            if inf.counts[r * 100 + p].get(k, 0) == inf.total:
                out.append(Question("what", row=r, pos=p))
                out.append(Question("where", key=k))
    return out, inf.total


def unique(pz: Puzzle, questions: list[Question]) -> bool:
    """Proof by exact counting: each answer holds in every consistent layout."""
    inf = infer(pz.knowledge())
    for q in questions:
        if q.kind == "what":
            k = pz.rows[q.row][q.pos]
            if pz.up[q.row][q.pos] or inf.counts[q.row * 100 + q.pos].get(k, 0) != inf.total:
                return False
        else:
            r, p = next((r, row.index(q.key)) for r, row in enumerate(pz.rows) if q.key in row)
            if pz.up[r][p] or inf.counts[r * 100 + p].get(q.key, 0) != inf.total:
                return False
    return True


def generate(level: int = 1, seed: int = 0, questions: int = 3) -> Puzzle:
    """A puzzle of this level whose answers are unique (proved by counting)."""
    if level not in LEVELS:
        raise ValueError(f"tsume-algo levels are {', '.join(map(str, LEVELS))}")
    nrows, needs_counting = LEVELS[level]
    for attempt in range(200):
        rng = Rng(seed, "tsume", level, attempt)
        cards = list(range(NUMBERS * COLOURS))
        rng.shuffle(cards)
        sizes = [len(cards) // nrows + (1 if i < len(cards) % nrows else 0)
                 for i in range(nrows)]
        rows, at = [], 0
        for size in sizes:
            rows.append(sorted(cards[at:at + size]))
            at += size
        pz = Puzzle(rows, [[False] * len(r) for r in rows], level=level, seed=seed)
        slots = [(r, p) for r, row in enumerate(rows) for p in range(len(row))]
        rng.shuffle(slots)
        facts: list[Question] = []
        for r, p in slots:
            pz.up[r][p] = True
            facts, _ = forced_facts(pz)
            if len(facts) >= 2 * questions:
                break
        if not facts:
            continue
        picked: list[Question] = []
        asked: set[tuple[int, int]] = set()
        for q in rng.shuffled(facts):
            if len(picked) >= questions:
                break
            spot = pz.slot_of(q)
            if spot not in asked:
                asked.add(spot)
                picked.append(q)
        # hide again every card whose reveal the answers do not need
        for r, p in rng.shuffled([s for s in slots if pz.up[s[0]][s[1]]]):
            pz.up[r][p] = False
            if not unique(pz, picked):
                pz.up[r][p] = True
        pz.questions = picked
        if not any(any(u) for u in pz.up):
            continue          # the seed's puzzles show some cards face up
        steps = explain(pz)
        used_counting = any(s.startswith("Counting") for s in steps)
        if used_counting == needs_counting and unique(pz, picked):
            return pz
    raise RuntimeError(f"no level {level} puzzle found for seed {seed}")


def explain(pz: Puzzle) -> list[str]:
    """Step-by-step deduction of every question's answer, as a person would argue it."""
    c = COLOURS
    hidden = {(r, p) for r, row in enumerate(pz.rows) for p in range(len(row))
              if not pz.up[r][p]}
    seen = {pz.rows[r][p] for r, row in enumerate(pz.rows) for p in range(len(row))
            if pz.up[r][p]}
    cand: dict[tuple[int, int], set[int]] = {}
    for r, p in hidden:
        colour = pz.rows[r][p] % c
        cand[(r, p)] = {k for k in range(NUMBERS * c) if k % c == colour and k not in seen}
    known: dict[tuple[int, int], int] = {}
    steps: list[str] = []

    def where(s: tuple[int, int]) -> str:
        return f"{ROW_NAMES[s[0]]}{s[1] + 1}"

    def settle(s: tuple[int, int], k: int, why: str) -> None:
        known[s] = k
        cand[s] = {k}
        steps.append(f"{where(s)} is {cname(k)}: {why}.")
        for o in cand:
            if o != s and k in cand[o]:
                cand[o].discard(k)

    def answered() -> bool:
        for q in pz.questions:
            if q.kind == "what" and (q.row, q.pos) not in known:
                return False
            if q.kind == "where" and q.key not in known.values():
                return False
        return True

    progress = True
    while not answered() and progress:
        progress = False
        # order bounds: a card is above everything that must lie left of it, and so on
        for r, row in enumerate(pz.rows):
            lo = -1
            for p in range(len(row)):
                s = (r, p)
                if s in cand:
                    cut = {k for k in cand[s] if k <= lo}
                    if cut:
                        cand[s] -= cut
                        progress = True
                    lo = min(cand[s]) if cand[s] else lo
                else:
                    lo = row[p]
            hi = NUMBERS * c
            for p in range(len(row) - 1, -1, -1):
                s = (r, p)
                if s in cand:
                    cut = {k for k in cand[s] if k >= hi}
                    if cut:
                        cand[s] -= cut
                        progress = True
                    hi = max(cand[s]) if cand[s] else hi
                else:
                    hi = row[p]
        for s in sorted(cand):
            if s not in known and len(cand[s]) == 1:
                k = next(iter(cand[s]))
                settle(s, k, "between its neighbours and with the cards in sight, "
                             f"{cname(k)} is its only candidate")
                progress = True
        # only place: all 20 cards are in the rows, so a card with one possible slot is there
        for k in range(NUMBERS * c):
            if k in seen or k in known.values():
                continue
            spots = [s for s in cand if s not in known and k in cand[s]]
            if len(spots) == 1:
                settle(spots[0], k, f"it is the only place left where {cname(k)} can be")
                progress = True
    if not answered():
        inf = infer(pz.knowledge())
        for q in pz.questions:
            if q.kind == "what":
                s = (q.row, q.pos)
            else:
                s = next((r, row.index(q.key)) for r, row in enumerate(pz.rows) if q.key in row)
            if s in known:
                continue
            k = pz.rows[s[0]][s[1]]
            steps.append(f"Counting every layout consistent with the rows ({inf.total} of "
                         f"them): {where(s)} is {cname(k)} in all of them.")
            known[s] = k
    for q in pz.questions:
        steps.append(f"Answer — {q.text()} {pz.answer(q)}")
    return steps
