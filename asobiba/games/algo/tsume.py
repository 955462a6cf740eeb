"""Tsume-algo (詰めアルゴ): deduction puzzles on rows of cards, some up, some down.

Seed: 「詰めアルゴとは、あるカードは伏せ、あるカードはオープンにして並べ、伏せているカードを
推理していくゲームです」 — the example uses the 20 cards black and white 0–9. Here every one
of those cards lies in some row (no pile), so "where is white 9?" always has an answer.

The generator deals the rows, hides everything, reveals cards until some hidden facts are
forced, picks the questions from those facts, then hides again every card whose reveal is
not needed. Every puzzle's answers are *proved* unique by exact counting (``infer``): the
answer holds in every consistent layout. The solver explains itself step by step with the
moves a person makes (order bounds, only candidate, only place, then "suppose …:
contradiction") and falls back to counting all layouts only when those are stuck.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core import Rng
from ...core.jsontypes import JSONObject
from .cards import COLOUR_LETTERS, COLOUR_NAMES
from .infer import Knowledge, SlotInfo, infer

NUMBERS = 10
COLOURS = 2
ROW_NAMES = "ABCD"
LEVELS = {1: (2, False), 2: (3, False), 3: (4, False), 4: (4, True)}
"""level → (rows, needs case analysis or counting beyond the simple steps)."""


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

    def to_json(self) -> JSONObject:
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

    def to_json(self) -> JSONObject:
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
    nrows, needs_hard = LEVELS[level]
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
        hard = any(s.startswith(("Suppose", "Counting")) for s in steps)
        if hard == needs_hard and unique(pz, picked):
            return pz
    raise RuntimeError(f"no level {level} puzzle found for seed {seed}")


Spot = tuple[int, int]


def _where(s: Spot) -> str:
    return f"{ROW_NAMES[s[0]]}{s[1] + 1}"


class _Deducer:
    """Candidate sets per face-down card, narrowed by the steps a person takes."""

    def __init__(self, pz: Puzzle) -> None:
        self.pz = pz
        self.seen = {pz.rows[r][p] for r, row in enumerate(pz.rows) for p in range(len(row))
                     if pz.up[r][p]}
        self.cand: dict[Spot, set[int]] = {}
        for r, row in enumerate(pz.rows):
            for p, k in enumerate(row):
                if not pz.up[r][p]:
                    self.cand[(r, p)] = {x for x in range(NUMBERS * COLOURS)
                                         if x % COLOURS == k % COLOURS and x not in self.seen}
        self.known: dict[Spot, int] = {}

    def copy(self) -> _Deducer:
        other = _Deducer.__new__(_Deducer)
        other.pz, other.seen = self.pz, self.seen
        other.cand = {s: set(v) for s, v in self.cand.items()}
        other.known = dict(self.known)
        return other

    def settle(self, s: Spot, k: int, why: str, steps: list[str] | None) -> None:
        self.known[s] = k
        self.cand[s] = {k}
        if steps is not None:
            steps.append(f"{_where(s)} is {cname(k)}: {why}.")
        for o in self.cand:
            if o != s:
                self.cand[o].discard(k)

    def broken(self) -> str | None:
        """Why this state is impossible, or None."""
        for s, v in self.cand.items():
            if not v:
                return f"{_where(s)} would have no card left"
        for k in range(NUMBERS * COLOURS):
            if k not in self.seen and not any(k in v for v in self.cand.values()):
                return f"{cname(k)} would have nowhere to go"
        return None

    def bounds(self) -> bool:
        """Order: a card is above the lowest possible card on its left, below the highest
        possible on its right."""
        changed = False
        for r, row in enumerate(self.pz.rows):
            lo = -1
            for p in range(len(row)):
                s = (r, p)
                if s in self.cand:
                    cut = {k for k in self.cand[s] if k <= lo}
                    if cut:
                        self.cand[s] -= cut
                        changed = True
                    lo = min(self.cand[s]) if self.cand[s] else lo
                else:
                    lo = row[p]
            hi = NUMBERS * COLOURS
            for p in range(len(row) - 1, -1, -1):
                s = (r, p)
                if s in self.cand:
                    cut = {k for k in self.cand[s] if k >= hi}
                    if cut:
                        self.cand[s] -= cut
                        changed = True
                    hi = max(self.cand[s]) if self.cand[s] else hi
                else:
                    hi = row[p]
        return changed

    def simple(self, steps: list[str] | None) -> bool:
        """Order bounds, only candidate, only place, until nothing changes or it breaks.
        Returns False on a contradiction."""
        progress = True
        while progress:
            if self.broken():
                return False
            progress = self.bounds()
            for s in sorted(self.cand):
                if s not in self.known and len(self.cand[s]) == 1:
                    k = next(iter(self.cand[s]))
                    self.settle(s, k, f"{cname(k)} is its only candidate left (its colour, "
                                      "its neighbours, the cards in sight)", steps)
                    progress = True
            # only place: all 20 cards lie in the rows, so a card with one possible spot is there
            placed = set(self.known.values())
            for k in range(NUMBERS * COLOURS):
                if k in self.seen or k in placed:
                    continue
                spots = [s for s in self.cand if s not in self.known and k in self.cand[s]]
                if len(spots) == 1:
                    self.settle(spots[0], k, f"it is the only place left where {cname(k)} "
                                             "can be", steps)
                    placed.add(k)
                    progress = True
        return self.broken() is None

    def trial(self, steps: list[str]) -> bool:
        """Case analysis: a candidate whose assumption leads by the simple steps to a
        contradiction is struck out. Returns True if one was found."""
        open_spots = sorted((len(v), s) for s, v in self.cand.items() if s not in self.known)
        for _, s in open_spots:
            for k in sorted(self.cand[s]):
                test = self.copy()
                test.settle(s, k, "", None)
                if not test.simple(None):
                    why = test.broken() or "the rows could not be completed"
                    steps.append(f"Suppose {_where(s)} were {cname(k)}: following the same "
                                 f"steps, {why}. So {_where(s)} is not {cname(k)}.")
                    self.cand[s].discard(k)
                    return True
        return False


def explain(pz: Puzzle) -> list[str]:
    """Step-by-step deduction of every question's answer, as a person would argue it:
    simple steps first, then case analysis (suppose … contradiction), and only if both are
    stuck, a count of every consistent layout."""
    d = _Deducer(pz)
    steps: list[str] = []

    def answered() -> bool:
        return all(pz.slot_of(q) in d.known for q in pz.questions)

    d.simple(steps)
    while not answered() and d.trial(steps):
        d.simple(steps)
    if not answered():
        inf = infer(pz.knowledge())
        for q in pz.questions:
            s = pz.slot_of(q)
            if s in d.known:
                continue
            k = pz.rows[s[0]][s[1]]
            steps.append(f"Counting every layout consistent with the rows ({inf.total} of "
                         f"them): {_where(s)} is {cname(k)} in all of them.")
            d.known[s] = k
    for q in pz.questions:
        steps.append(f"Answer — {q.text()} {pz.answer(q)}")
    return steps
