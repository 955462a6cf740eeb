"""Patapata for the learning environments (asobiba.envs).

Action 0 gives up the current task (``pass``); action ``1 + k`` clears it through the
``k``-th occurrence of the current task (``tasks.occurrences`` order: every placement of the
pattern over all rotations and switch settings), writing that occurrence's blank cells. The
environments play the game's one-move form ``clear <writes>``: the step-by-step moves
(``write``, ``switch``, ``rotate``) reach the same sheets (scoring never depends on the
switches or the rotation left on the sheet), so they are left out of the action space, and an
episode has exactly one action per seat and task. Several occurrences needing the same
writes are the same move: only the first of them is legal, so every legal action is a
different move (OpenSpiel requires it).

Patapata is simultaneous: every seat works on the same task at once. In PettingZoo's AEC
model the seats that still have to act on the task take their turns one after another; what
one seat sees of another is only that seat's sheet as it was when the task was uncovered, so
the order reveals nothing.

The fast path (``observe_state``, ``mask_state``, ``move_of``) reads the sheets directly:
each task's occurrences are kept as NumPy arrays of their required marks, so "which
occurrences fit this sheet, and which is the first of its writes" is a few array operations
instead of a Python loop over ~250 occurrences per legal move (the view path's mask parsed
every move text and redid that loop for each: 83 % of an observation). Flat only: the sheet
folds (which printed cell shows where depends on the rotation and the switches), so no one
(H, W) grid is the board for every seat; the sheets are 4×8 printed-cell grids in the flat
vector (``my_marks``, ``others_marks``: per mark, row-major).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import Game, State
from ...core.jsontypes import JSONMapping
from ...core.views import own_seat
from ...envs.codec import Codec as _Base
from ...envs.codec import Field, one_hot
from .game import PatapataState, note_clear, rows_marks
from .notation import PASS, PatapataMove, parse_move
from .sheet import fits
from .tasks import COURSE_LENGTH, MARKS, TASK_SHEET, occurrences, pattern
from .views import SheetView, patapata_view

MAX_OCCURRENCES = max(len(occurrences(t)) for row in TASK_SHEET for t in row)


@cache
def _task_text(rows: tuple[str, ...]) -> str:
    return "/".join(rows)


def _clear_moves(task: str, marks: tuple[int, int, int]) -> dict[int, PatapataMove]:
    occupied = marks[0] | marks[1] | marks[2]
    free = ~occupied
    out: dict[int, PatapataMove] = {}
    seen = set()
    for k, occ in enumerate(occurrences(task)):
        if fits(occ, marks):
            writes = (occ.req[0] & free, occ.req[1] & free, occ.req[2] & free)
            if writes not in seen:  # one action per distinct move: the first occurrence
                seen.add(writes)
                out[1 + k] = ("clear", writes)
    return out


@cache
def _req_arrays(task: str) -> tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.uint64]]:
    """Per occurrence of ``task``: its O and X requirements packed in one word, its B
    requirement, and the key of its writes before masking by the free cells."""
    occ = occurrences(task)
    r0 = np.array([o.req[0] for o in occ], np.uint64)
    r1 = np.array([o.req[1] for o in occ], np.uint64)
    r2 = np.array([o.req[2] for o in occ], np.uint64)
    # the writes (w0, w1, w2) of a clear are disjoint masks, so (w1|w2, w2|w0) names them
    # in 64 bits; masking this key by the free cells (in both halves) gives the writes' key
    return r0 | (r1 << np.uint64(32)), r2, ((r1 | r2) << np.uint64(32)) | (r2 | r0)


@lru_cache(maxsize=256)  # an observation's mask and the step after it ask for the same sheet
def first_clears(task: str, marks: tuple[int, int, int]) -> NDArray[np.intp]:
    """The occurrence numbers ``k`` (ascending) whose clear is a legal action ``1 + k``: the
    occurrences that fit the sheet, the first of each distinct writes — what
    :func:`_clear_moves` gives, vectorised."""
    ox_req, b_req, keys = _req_arrays(task)
    o, x, b = marks
    # fits: no O required where X or B stands, no X where O or B, no B where O or X
    clash = (ox_req & ((x | b) | (o | b) << 32)) | (b_req & (o | x))
    idx = np.flatnonzero(clash == 0)
    free = ~(o | x | b) & 0xFFFFFFFF
    key = keys[idx] & (free | free << 32)
    order = np.argsort(key, kind="stable")  # stable: the first occurrence leads its group
    sk = key[order]
    first = np.empty(len(sk), bool)
    first[:1] = True
    np.not_equal(sk[1:], sk[:-1], out=first[1:])
    out: NDArray[np.intp] = np.sort(idx[order[first]])
    out.setflags(write=False)
    return out


_MARK_BITS = np.arange(32, dtype=np.int64)
#: (256, 8) the 8 switches' sides (0/1, switch i = bit i) of each switch setting
_SWITCH_BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.float32)


@lru_cache(maxsize=4096)  # a sheet's marks stay the same for many steps (others' all task)
def _marks_bits(marks: tuple[int, int, int]) -> NDArray[np.float32]:
    """(96,) 0/1 per mark and printed cell 8*row+column."""
    bits = ((np.array(marks, np.int64)[:, None] >> _MARK_BITS) & 1).astype(np.float32)
    out = bits.reshape(-1)
    out.setflags(write=False)
    return out


@cache
def _task_planes(task: str) -> NDArray[np.float32]:
    out = np.zeros((3, 4, 4), np.float32)
    for r, c, m in pattern(task).cells:
        out[m, r, c] = 1
    out.setflags(write=False)
    return out


class Codec(_Base[PatapataMove]):
    max_game_length = 12 * 8  # OpenSpiel's bound on plies (two seats)

    def __init__(self, game: Game, options: JSONMapping) -> None:
        super().__init__(game, options)
        n = self.num_seats
        self.num_actions = 1 + MAX_OCCURRENCES
        self.fields = (
            Field("my_marks", 3 * 32, "own sheet, per mark O X B, printed cell 8*row+column"),
            Field("others_marks", 3 * 32 * (n - 1),
                  "each other seat (offset 1, 2, …): its sheet when the task was uncovered"),
            Field("task", 3 * 16, "the current task, per mark, on a 4×4 grid (row-major)"),
            Field("task_number", COURSE_LENGTH, "one-hot: which of the 12 tasks is current"),
            Field("passes", n, "passes so far per seat offset / 12"),
            Field("finished_task", 1, "1 if the viewing seat has finished the current task"),
            Field("switches", 8, "own switches (side b = 1), 1L 1R 2L … 4R"),
            Field("rotation", 4, "one-hot: own sheet rotation 0/90/180/270"),
        )

    def encode(self, view: JSONMapping) -> dict[str, ArrayLike | None]:
        view = patapata_view(view)
        me, n = own_seat(view), self.num_seats
        sheets = view["sheets"]

        def marks_planes(rows: list[str]) -> NDArray[np.float32]:
            grid = np.array([list(r) for r in rows])
            return np.stack([grid == m for m in MARKS]).astype(np.float32)

        task = np.zeros((3, 4, 4), np.float32)
        for r, row in enumerate(view["task"] or ()):
            for c, ch in enumerate(row):
                if ch in MARKS:
                    task[MARKS.index(ch), r, c] = 1
        others = [marks_planes(sheets[(me + k) % n]["marks"]) for k in range(1, n)]
        mine = sheets[me]
        whole = cast(SheetView, mine) if "switches" in mine else None
        return {
            "my_marks": marks_planes(mine["marks"]),
            "others_marks": np.concatenate([o.reshape(-1) for o in others]) if others else None,
            "task": task,
            "task_number": one_hot(view["course"]["number"] - 1 if view["task"] else None,
                                   COURSE_LENGTH),
            "passes": [sheets[(me + k) % n]["passes"] / 12 for k in range(n)],
            "finished_task": [mine["finished_task"]],
            "switches": list(whole["switches"].values()) if whole else None,
            "rotation": one_hot((whole["rotation"] if whole else 0) // 90, 4),
        }

    # ---- the fast path: what view(seat) shows, read from the sheets -------------------------
    def observe_state(self, state: State[PatapataMove], seat: int) -> NDArray[np.float32]:
        if not isinstance(state, PatapataState):
            return super().observe_state(state, seat)
        n = self.num_seats
        sheets = state.sheets
        rnd = state.round
        over = rnd >= COURSE_LENGTH
        out = np.zeros(self.obs_size, np.float32)
        # own sheet in full; the others as committed when the task was uncovered (all in
        # full once the course is over), exactly as PatapataState._sheet_view shows them
        seen = [sheets[(seat + k) % n] for k in range(n)]
        for k, s in enumerate(seen):
            out[96 * k:96 * k + 96] = _marks_bits(s.marks if over or k == 0 else s.committed)
        at = 96 * n
        if not over:
            out[at:at + 48] = _task_planes(state.task or "").reshape(-1)
            out[at + 48 + rnd] = 1
        at += 48 + COURSE_LENGTH
        for k, s in enumerate(seen):
            passes = s.passes if over or k == 0 else s.history[:rnd].count("pass")
            out[at + k] = passes / 12
        at += n
        mine = sheets[seat]
        out[at] = mine.finished
        out[at + 1:at + 9] = _SWITCH_BITS[mine.switches]
        out[at + 9 + mine.rotation] = 1
        return out

    def mask_state(self, state: State[PatapataMove], seat: int) -> NDArray[np.int8]:
        out = np.zeros(self.num_actions, np.int8)
        if not isinstance(state, PatapataState):
            return super().mask_state(state, seat)
        sheet = state.sheets[seat]
        if state.is_over or sheet.finished or sheet.pending:
            return out
        out[0] = 1
        out[1 + first_clears(state.task or "", sheet.marks)] = 1
        return out

    def move_of(self, state: State[PatapataMove], seat: int,
                action: int) -> PatapataMove | None:
        """Decode without building the whole action map: pass, or the clear through
        occurrence ``action - 1`` if it is the first of its writes that fits."""
        if not isinstance(state, PatapataState):
            return super().move_of(state, seat, action)
        sheet = state.sheets[seat]
        if (state.is_over or sheet.finished or sheet.pending
                or not 0 <= action < self.num_actions):
            return None
        if action == 0:
            return PASS
        task = state.task or ""
        occ = occurrences(task)
        k = action - 1
        if k >= len(occ) or not fits(occ[k], sheet.marks):
            return None
        firsts = first_clears(task, sheet.marks)
        i = int(np.searchsorted(firsts, k))
        if i >= len(firsts) or firsts[i] != k:
            return None
        free = ~(sheet.marks[0] | sheet.marks[1] | sheet.marks[2])
        req = occ[k].req
        writes = (req[0] & free, req[1] & free, req[2] & free)
        # occ[k] is the first fitting occurrence with these writes: the one the step shows
        note_clear(task, sheet.marks, writes, occ[k])
        return ("clear", writes)

    def actions_of(self, text: str, view: JSONMapping) -> list[int]:
        view = patapata_view(view)
        if text == "pass":
            return [0]
        move = parse_move(text)
        if move[0] != "clear" or not view["task"]:
            return []
        marks = rows_marks(view["sheets"][own_seat(view)]["marks"])
        task = _task_text(tuple(view["task"]))
        return [a for a, m in _clear_moves(task, marks).items() if m == move]

    def action(self, text: str, view: JSONMapping) -> int | None:
        found = self.actions_of(text, view)
        return found[0] if found else None

    def legal_actions(self, state: State[PatapataMove], seat: int) -> dict[int, PatapataMove]:
        # straight from the sheet, without the game's full move list (which also holds the
        # step-by-step moves): pass and clear are legal while nothing is pending this task
        sheet = state.sheets[seat]  # type: ignore[attr-defined]
        if state.is_over or seat not in state.acting_seats or sheet.pending:
            return {}
        out: dict[int, PatapataMove] = {0: ("pass",)}
        out.update(_clear_moves(state.task, sheet.marks))  # type: ignore[attr-defined]
        return out
