"""Patapata Kamipen's view, typed (issue 26 item 2): what ``PatapataState.view(seat)``
returns and every reader (bots, hints, encoding, paper, render, the JS renderer) reads.

Hidden information: the sheets are played at once, so a seat sees its own sheet whole
(``SheetView``: marks, rotation, switches, the window, the writes of this round, the plan)
and every other sheet only as it stood at the end of the last round (``PublicSheetView``:
committed marks, passes, history and score — not its rotation, switches or this round's
writes). A spectator sees every sheet that way; once the course is over all are shown
whole."""

from __future__ import annotations

from typing import Literal, TypedDict, cast

from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked, own_seat


class MarkCounts(TypedDict):
    """Per mark: ``O`` 〇, ``X`` ×, ``B`` ■."""

    O: int  # noqa: E741 - the mark's own letter
    X: int
    B: int


class ScoreView(TypedDict):
    """A sheet's score (``scoring.Breakdown.to_json``)."""

    groups: MarkCounts
    """The largest visible group of each mark."""
    group_points: MarkCounts
    blanks: int
    blank_points: int
    passes: int
    pass_points: int
    total: int


class StepView(TypedDict):
    """One step of the hint's plan, as a code with arguments (the web's
    ``patapata.step.<code>``) and its move text."""

    code: Literal["rotate", "switch", "write", "clear", "pass"]
    args: dict[str, str | int]
    move: str


class PublicSheetView(TypedDict):
    """A sheet as another seat (or a spectator) sees it during the course: as it stood at
    the end of the last round."""

    seat: int
    marks: list[str]
    """Four strings of 8 printed cells: ``O``, ``X``, ``B`` or ``.``."""
    passes: int
    finished_task: bool
    history: list[str]
    """The moves of the rounds played (``pass`` or the writes)."""
    score: ScoreView


class SheetView(PublicSheetView):
    """A sheet seen whole: by its own seat, or by everyone once the course is over."""

    rotation: int
    """0, 90, 180 or 270 (degrees)."""
    switches: dict[str, int]
    """Switch name → 0 (down) or 1 (flipped)."""
    window: list[list[str]]
    """The 4×4 window: the printed cell (``a1`` …) under each place."""
    window_marks: list[str]
    """The marks seen in the window, four rows of four (``.`` blank)."""
    pending: list[str]
    """Cells written this round (not yet committed)."""
    plan: list[StepView] | None
    """The steps that clear the current task (the seat's hint); None when done or none."""


class TaskView(TypedDict):
    number: int
    row: str
    """The sheet row the task came from (``⚀⚁``, ``⚂⚃``, ``⚄⚅``)."""
    pattern: list[str]
    """The 4×4 pattern, four rows."""


class CourseView(TypedDict):
    mode: Literal["dice", "1", "2", "3"]
    length: int
    number: int
    """The task being played (1-based; ``length`` once the course is over)."""
    tasks: list[TaskView]
    """The tasks shown so far (up to ``number``)."""


class PatapataBoard(TypedDict):
    """Patapata's own keys of the view."""

    course: CourseView
    task: list[str] | None
    """The current task's pattern (four rows), None once the course is over."""
    scores: str
    """The score table's name (``standard``, ``steep``)."""
    sheets: list[SheetView | PublicSheetView]
    """Every seat's sheet: whole for the viewing seat (and for all once the course is over),
    else public."""


class PatapataView(CommonView, PatapataBoard):
    """The whole view: the keys every game has, and Patapata's."""


def patapata_view(view: JSONMapping) -> PatapataView:
    """``view`` as the typed Patapata view; a view lacking a declared key is refused."""
    return checked(view, PatapataView, "patapata", "Patapata")


def own_sheet(view: PatapataView) -> SheetView:
    """The viewing seat's own sheet, seen whole (a seat's view only)."""
    return cast(SheetView, view["sheets"][own_seat(view)])
