"""Patapata Kamipen (パタパタ紙ペン): a print-and-play folding puzzle, played for real.

Each seat has its own folded sheet; all seats work on the same course of 12 tasks in
lockstep (the next task is uncovered when every seat has cleared or passed the current one).
A move either clears the task in one go (``clear <writes>``), passes, or handles the sheet
step by step (``write``, ``switch``, ``rotate``) until the written marks complete the task in
the visible window. See docs/rules/patapata.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

from ...core import BotLevel, Game, Option, Outcome, State, Why, why
from ...core.jsontypes import JSONMapping, JSONObject
from .geometry import cell_name, switch_name, visible_mask, visible_window
from .notation import PASS, PatapataMove, move_text, parse_move, writes_text
from .plan import plan, step_json
from .scoring import TABLES, Breakdown, ScoreTable, score
from .sheet import Marks, clears, fits
from .tasks import (
    COURSE_LENGTH,
    MARKS,
    ROW_NAMES,
    Occurrence,
    course_rows,
    course_tasks,
    occurrences,
    occurrences_through,
    pattern,
)
from .views import (
    CourseView,
    PatapataBoard,
    PatapataView,
    PublicSheetView,
    ScoreView,
    SheetView,
    StepView,
)

# (task, marks, writes) -> the first occurrence of ``task`` that fits ``marks`` and writes
# exactly ``writes``: the environments' decoder (encoding.Codec.move_of) finds it when it
# turns an action into a clear, and notes it here so that the step does not search again.
# Only ever the same occurrence the search would find (the first of its writes among the
# fitting occurrences, in occurrences() order); taken once, and kept small.
_CLEAR_HINTS: dict[tuple[str, Marks, Marks], Occurrence] = {}


def note_clear(task: str, marks: Marks, writes: Marks, occ: Occurrence) -> None:
    if len(_CLEAR_HINTS) >= 64:
        _CLEAR_HINTS.clear()
    _CLEAR_HINTS[(task, marks, writes)] = occ


@dataclass(frozen=True, slots=True)
class Sheet:
    """One seat's sheet. ``pending`` = cells written during the current task, step by step;
    ``committed`` = the marks when the current task was uncovered (what others see)."""

    marks: Marks = (0, 0, 0)
    committed: Marks = (0, 0, 0)
    rotation: int = 0
    switches: int = 0
    pending: int = 0
    passes: int = 0
    finished: bool = False
    history: tuple[str, ...] = ()

    @property
    def occupied(self) -> int:
        return self.marks[0] | self.marks[1] | self.marks[2]

    def mark_at(self, p: int) -> int | None:
        for m in range(3):
            if self.marks[m] >> p & 1:
                return m
        return None


def marks_rows(marks: Marks) -> list[str]:
    """Four strings of 8 printed cells: ``O``, ``X``, ``B`` or ``.``."""
    rows = []
    for r in range(4):
        row = ""
        for c in range(8):
            p = 8 * r + c
            row += next((MARKS[m] for m in range(3) if marks[m] >> p & 1), ".")
        rows.append(row)
    return rows


def rows_marks(rows: Sequence[str]) -> Marks:
    out = [0, 0, 0]
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in MARKS:
                out[MARKS.index(ch)] |= 1 << (8 * r + c)
    return (out[0], out[1], out[2])


class PatapataState(State[PatapataMove]):
    """All sheets, the course (secret beyond the current task), and the current task."""

    __slots__ = ("_options", "rows", "round", "sheets", "_legal_cache", "_acting_cache")

    def __init__(self, options: JSONMapping, rows: tuple[int, ...], round_: int,
                 sheets: tuple[Sheet, ...]) -> None:
        self._options = options
        self.rows = rows
        self.round = round_
        self.sheets = sheets
        self._legal_cache: dict[int, tuple[PatapataMove, ...]] = {}
        self._acting_cache: tuple[int, ...] | None = None  # to_move, is_over, legal ask often

    @property
    def options(self) -> JSONMapping:
        return self._options

    @property
    def task(self) -> str | None:
        """The current task's pattern text (``None`` once the course is over)."""
        if self.round >= COURSE_LENGTH:
            return None
        return course_tasks(self.rows)[self.round]

    @property
    def table(self) -> ScoreTable:
        return TABLES[self._options.get("scores", "standard")]

    def breakdown(self, seat: int) -> Breakdown:
        sheet = self.sheets[seat]
        return score(sheet.marks, sheet.passes, self.table)

    # ---- hooks ---------------------------------------------------------------------------
    def _acting(self) -> tuple[int, ...]:
        acting = self._acting_cache
        if acting is None:
            acting = self._acting_cache = (
                () if self.round >= COURSE_LENGTH
                else tuple(i for i, s in enumerate(self.sheets) if not s.finished))
        return acting

    def _legal(self, seat: int) -> Sequence[PatapataMove]:
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = tuple(self._compute_legal(seat))
        return cached

    def _compute_legal(self, seat: int) -> list[PatapataMove]:
        sheet = self.sheets[seat]
        task = self.task
        assert task is not None
        moves: list[PatapataMove] = []
        if not sheet.pending:
            moves.append(PASS)
            ways = clears(task, sheet.marks)
            ways.sort(key=lambda c: (c.count, writes_text(c.writes)))
            moves.extend(("clear", c.writes) for c in ways)
        moves.extend(("rotate", k) for k in (1, 2, 3))
        moves.extend(("switch", i) for i in range(8))
        moves.extend(sorted(self._writable(seat)))
        return moves

    def _writable(self, seat: int) -> set[tuple[Literal["write"], int, int]]:
        """Single writes on visible blank cells that belong to an occurrence which fits the
        sheet and holds every mark already written for this task (Q2)."""
        sheet = self.sheets[seat]
        task = self.task
        assert task is not None
        visible = visible_mask(sheet.switches)
        free = ~sheet.occupied & visible
        out: set[tuple[Literal["write"], int, int]] = set()
        for occ in occurrences(task):
            if occ.cells & sheet.pending != sheet.pending or not fits(occ, sheet.marks):
                continue
            for m in range(3):
                bits = occ.req[m] & free
                while bits:
                    low = bits & -bits
                    out.add(("write", low.bit_length() - 1, m))
                    bits ^= low
        return out

    def _apply(self, move: PatapataMove, seat: int) -> PatapataState:
        sheet = self.sheets[seat]
        if move[0] == "pass":
            sheet = Sheet(sheet.marks, sheet.committed, sheet.rotation, sheet.switches,
                          sheet.pending, sheet.passes + 1, True, sheet.history + ("pass",))
        elif move[0] == "clear":
            sheet = self._cleared(sheet, move[1])
        elif move[0] == "rotate":
            sheet = replace(sheet, rotation=(sheet.rotation + move[1]) % 4)
        elif move[0] == "switch":
            sheet = replace(sheet, switches=sheet.switches ^ (1 << move[1]))
        elif move[0] == "write":
            bit = 1 << move[1]
            marks = list(sheet.marks)
            marks[move[2]] |= bit
            sheet = replace(sheet, marks=(marks[0], marks[1], marks[2]),
                            pending=sheet.pending | bit)
        if not sheet.finished and sheet.pending:
            sheet = self._auto_clear(sheet)
        sheets = self.sheets[:seat] + (sheet,) + self.sheets[seat + 1:]
        return self._advance(sheets)

    def _cleared(self, sheet: Sheet, writes: Marks) -> Sheet:
        """Write ``writes`` and show the first occurrence they complete, upright."""
        task = self.task
        assert task is not None
        m0, m1, m2 = sheet.marks
        marks = (m0 | writes[0], m1 | writes[1], m2 | writes[2])
        added = writes[0] | writes[1] | writes[2]
        # the first occurrence holding every written cell that fits the sheet (sheet.fits,
        # inlined: this loop is most of an environment step) and gives exactly ``marks``
        xb, ob, ox = m1 | m2, m0 | m2, m0 | m1
        occ = _CLEAR_HINTS.pop((task, sheet.marks, writes), None)
        if occ is not None:
            r0, r1, r2 = occ.req
            if (r0 & xb or r1 & ob or r2 & ox or occ.cells & added != added
                    or (r0 | m0, r1 | m1, r2 | m2) != marks):  # not a witness: search
                occ = None
        if occ is None:
            # only the occurrences through one written cell can hold them all
            candidates = (occurrences_through(task, (added & -added).bit_length() - 1)
                          if added else occurrences(task))
            for o in candidates:
                if o.cells & added != added:
                    continue
                r0, r1, r2 = o.req
                if (r0 & xb or r1 & ob or r2 & ox
                        or (r0 | m0, r1 | m1, r2 | m2) != marks):
                    continue
                occ = o
                break
        assert occ is not None, "a clear's writes come from an occurrence that fits"
        switches = (sheet.switches & ~occ.switch_mask) | occ.switch_bits
        label = "clear " + writes_text(writes) if added else "clear"
        # Sheet(...) rather than dataclasses.replace: the same fields, a third of the time
        return Sheet(marks, sheet.committed, occ.rotation, switches, 0, sheet.passes, True,
                     sheet.history + (label,))

    def _auto_clear(self, sheet: Sheet) -> Sheet:
        """Step-by-step play: the task is cleared as soon as an occurrence holding every mark
        written for it is complete and shown by the current switches."""
        task = self.task
        assert task is not None
        visible = visible_mask(sheet.switches)
        for occ in occurrences(task):
            if (occ.cells & sheet.pending == sheet.pending and occ.cells & visible == occ.cells
                    and occ.cells & ~sheet.occupied == 0 and fits(occ, sheet.marks)):
                writes = (sheet.pending & sheet.marks[0], sheet.pending & sheet.marks[1],
                          sheet.pending & sheet.marks[2])
                return replace(sheet, rotation=occ.rotation, pending=0, finished=True,
                               history=sheet.history + ("clear " + writes_text(writes),))
        return sheet

    def _advance(self, sheets: tuple[Sheet, ...]) -> PatapataState:
        """Uncover the next task once every seat has cleared or passed this one."""
        if all(s.finished for s in sheets):
            sheets = tuple(Sheet(s.marks, s.marks, s.rotation, s.switches, s.pending, s.passes,
                                 False, s.history) for s in sheets)
            return PatapataState(self._options, self.rows, self.round + 1, sheets)
        return PatapataState(self._options, self.rows, self.round, sheets)

    def _outcome(self) -> Outcome | None:
        if self.round < COURSE_LENGTH:
            return None
        totals = [self.breakdown(i).total for i in range(len(self.sheets))]
        from .explain import WHY

        return Outcome.from_scores(totals, why(WHY, "patapata.course_done", n=COURSE_LENGTH))

    def _move_text(self, move: PatapataMove, seat: int | None) -> str:
        return move_text(move)

    def _parse(self, text: str, seat: int) -> PatapataMove:
        return parse_move(text)

    def _why_illegal(self, move: PatapataMove, seat: int) -> Why:
        from .explain import why_illegal

        return why_illegal(self, move, seat)

    # ---- views ---------------------------------------------------------------------------
    def _sheet_view(self, seat: int, full: bool) -> SheetView | PublicSheetView:
        sheet = self.sheets[seat]
        if not full:
            done = sheet.history[:self.round]
            passes = done.count("pass")
            public: PublicSheetView = {
                "seat": seat, "marks": marks_rows(sheet.committed), "passes": passes,
                "finished_task": sheet.finished, "history": list(done),
                "score": cast(ScoreView, score(sheet.committed, passes, self.table).to_json())}
            return public
        window = visible_window(sheet.rotation, sheet.switches)
        whole: SheetView = {
            "seat": seat,
            "marks": marks_rows(sheet.marks),
            "rotation": 90 * sheet.rotation,
            "switches": {switch_name(i // 2, i % 2): sheet.switches >> i & 1 for i in range(8)},
            "window": [[cell_name(p) for p in row] for row in window],
            "window_marks": ["".join(next((MARKS[m] for m in range(3)
                                           if sheet.marks[m] >> p & 1), ".") for p in row)
                             for row in window],
            "pending": [cell_name(p) for p in range(32) if sheet.pending >> p & 1],
            "passes": sheet.passes,
            "finished_task": sheet.finished,
            "history": list(sheet.history),
            "score": cast(ScoreView, self.breakdown(seat).to_json()),
            "plan": self._plan(sheet),
        }
        return whole

    def _plan(self, sheet: Sheet) -> list[StepView] | None:
        """The steps that clear the current task from this sheet (``plan.plan``: turn, flaps,
        writes), for the seat's hint; None when the task is done, the course is over or no
        way is left (pass). Only in the seat's own view: its sheet and the public task."""
        task = self.task
        if task is None or sheet.finished:
            return None
        steps = plan(task, sheet.marks, sheet.pending, sheet.switches, sheet.rotation)
        return None if steps is None else [cast(StepView, step_json(m)) for m in steps]

    def _course_view(self) -> CourseView:
        shown = min(self.round + 1, COURSE_LENGTH)
        tasks = course_tasks(self.rows)
        return {
            "mode": self._options["course"],
            "length": COURSE_LENGTH,
            "number": shown,
            "tasks": [{"number": i + 1, "row": ROW_NAMES[self.rows[i]],
                       "pattern": pattern(tasks[i]).rows()} for i in range(shown)],
        }

    def view(self, seat: int | None) -> PatapataView:
        return cast(PatapataView, super().view(seat))

    def _view(self, seat: int | None) -> PatapataBoard:
        over = self.round >= COURSE_LENGTH
        return {
            "course": self._course_view(),
            "task": None if over else pattern(self.task or "").rows(),
            "scores": self._options.get("scores", "standard"),
            "sheets": [self._sheet_view(i, over or i == seat) for i in range(len(self.sheets))],
        }

    def _full(self) -> JSONObject:
        data: JSONObject = dict(self._view(None))
        data["sheets"] = [self._sheet_view(i, True) for i in range(len(self.sheets))]
        data["course_rows"] = [ROW_NAMES[r] for r in self.rows]
        return data


class Patapata(Game):
    id = "patapata"
    title_en = "Patapata Kamipen"
    title_ja = "パタパタ紙ペン"
    summary = ("A folding paper puzzle: flip 8 switches and turn the sheet so that each task's "
               "pattern of 〇 × ■ appears in the 4×4 window; score big groups and blanks.")
    summary_ja = "折りたたみ紙パズル。8つのスイッチをめくり、紙を回して、お題の〇×■の形を4×4の窓に出す。大きなまとまりと空白で得点。"
    rules_version = 1
    options = (
        Option("players", 1, kind="int", minimum=1, maximum=8,
               description="number of sheets playing the same course at once",
               description_ja="同じコースを同時に遊ぶ人数"),
        Option("course", "dice", choices=("dice", "1", "2", "3"),
               description="dice: a die picks the sheet row at each position; 1/2/3: the fixed "
                           "row ⚀⚁ / ⚂⚃ / ⚄⚅",
               description_ja="dice: サイコロで毎回行を選ぶ / 1・2・3: 固定のお題"),
        Option("scores", "standard", choices=tuple(TABLES),
               description="score table: standard (groups capped at 10) or steep (+3 per mark)",
               description_ja="得点表"),
    )
    variants = {"solo": {"players": 1}, "duel": {"players": 2}}
    min_seats = 1
    max_seats = 8
    perfect_information = False
    chance = True
    simultaneous = True
    default_level = "greedy"  # random clears score little; god plans the whole course
    bot_levels = (
        BotLevel("random", "Lv.1 Random", "clears the task a random way", "Lv.1 ランダム"),
        BotLevel("greedy", "Lv.2 Greedy", "the clear with the best score right now", "Lv.2 貪欲"),
        BotLevel("god", "Lv.3 God", "beam search over the rest of the course", "Lv.3 神"),
    )

    def _initial(self, options: JSONObject, seed: int) -> PatapataState:
        rows = course_rows(options["course"], seed)
        sheets = tuple(Sheet() for _ in range(options["players"]))
        return PatapataState(options, rows, 0, sheets)

    def render_view(self, view: JSONMapping) -> str:
        from .render import render_view

        return render_view(view)


GAME = Patapata()
PatapataState.game = GAME
