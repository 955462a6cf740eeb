"""Typed views (issue 26 item 2): the shape of what ``State.view(seat)`` returns.

A view is JSON (it crosses to the browser, a bot process, a record); its *shape* is
declared once, as a :class:`typing.TypedDict` — :class:`CommonView` here for the keys every
game's view has, and each game's own view in its package (``asobiba/games/<id>/views.py``)
— so the state that produces it and every consumer that reads it (bots, encodings, paper,
tutorials, ``state_from_view``) are checked by mypy against the same declaration:
``State.view`` returns :class:`CommonView` and each game's state narrows it to its own view
(``ReversiState.view(seat) -> ReversiView``). A reader
turns the JSON it was given into the typed view with the game's ``*_view(view)`` function,
which checks that the declared keys are there (a clear error, not a ``KeyError`` deep in a
bot) and is otherwise a cast: values are the producer's own.

The JS renderers read the same shape; docs/web.md ("Typed views") documents it from these
declarations.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TypedDict

from .errors import OptionError, WhyArg, option_why


class OutcomeView(TypedDict):
    """``Outcome.to_json()``: a finished game's result. ``code``/``args`` are the reason as a
    code (rendered by the front end's table); ``reason`` is its English (empty ``code``:
    a result stored before codes existed, whose English is all there is)."""

    scores: list[float]
    ranks: list[int]
    winners: list[int]
    draw: bool
    reason: str
    code: str
    args: dict[str, WhyArg]


class CommonView(TypedDict):
    """The keys ``State.view`` puts in every game's view."""

    game: str
    seat: int | None
    seats: int
    to_move: int | None
    acting: list[int]
    over: bool
    outcome: OutcomeView | None
    legal_moves: list[str]


def own_seat(view: CommonView) -> int:
    """The viewing seat of a seat's view; a spectator's view (``seat`` None) is refused —
    for readers (bots, encodings) that only ever read a seat's own view."""
    seat = view["seat"]
    if seat is None:
        raise OptionError("a seat's view is needed here, not a spectator's", option="view",
                          why=option_why("option.seat_view"))
    return seat


def missing_keys(view: Mapping[str, object], keys: Collection[str]) -> list[str]:
    """The declared keys a view lacks (sorted), for a reader's clear error."""
    return sorted(k for k in keys if k not in view)
