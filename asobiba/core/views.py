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
bot) and is otherwise a cast: values are the producer's own. Every game's checker is one
call of :func:`checked`.

The JS renderers read the same shape; docs/web.md ("Typed views") documents it from these
declarations.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TypedDict, TypeVar, cast

from .errors import OptionError, WhyArg, option_why
from .jsontypes import JSONMapping

ViewT = TypeVar("ViewT")


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


def checked(view: JSONMapping, shape: type[ViewT], game: str, title: str,
            what: str = "view") -> ViewT:
    """``view`` as ``shape``, a game's typed view (or the position its ``state_from_view``
    reads), once it holds every key ``shape`` requires beyond the common ones
    (:class:`CommonView`: ``State.view`` puts those in every view, and a hand-made position
    has none). A view lacking one is refused — ``OptionError`` ``option.view`` with the
    ``game`` and the lacking keys (``title``: the game's English name, for the message;
    ``what``: ``view`` or ``position``); else it is a cast, the values being the producer's
    own. Every game's ``*_view`` checker is this one call."""
    required: frozenset[str] = getattr(shape, "__required_keys__")  # noqa: B009 - a TypedDict's
    lacking = missing_keys(view, required - CommonView.__required_keys__)
    if lacking:
        article = "an" if title[:1] in "AEIOU" else "a"
        raise OptionError(f"not {article} {title} {what}: it lacks {', '.join(lacking)}",
                          option="view",
                          why=option_why("option.view", game=game, keys=", ".join(lacking)))
    return cast(ViewT, view)
