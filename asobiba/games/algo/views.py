"""Algo's view, typed (issue 26 item 2): what ``AlgoState.view(seat)`` returns and every
reader (bots, inference, search, encoding, paper, progression, the JS renderer) reads.

Hidden information: every card's colour is public, its number is not. A slot
(``SlotView``) carries ``number`` only when the viewing seat knows it — the card is face up,
it is the seat's own, or the seat was shown it (``seen``; pair play's partner) — and every
number once the game is over (``revealed`` marks the cards that were still face down). The
card in hand and the card being placed carry their ``number`` likewise only for the seat
that may see it. ``my_setup`` (the seat's own first deal, during setup) and ``aid`` (the
deduction aid, a casual option) are in a seat's own view only."""

from typing import Literal, NotRequired, TypedDict

# No ``from __future__ import annotations`` in this module: Python 3.11 finds ``NotRequired``
# (``__required_keys__``, read by ``algo_view``'s ``checked``) only in evaluated annotations.
from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked


class RulesView(TypedDict):
    """The options that change what a view means."""

    mode: Literal["basic", "pair"]
    colours: Literal[2, 3]
    sets: int
    jokers: bool
    chips: bool


SlotView = TypedDict("SlotView", {
    "id": int,
    "colour": str,
    "up": bool,
    "number": NotRequired[int],
    "seen": NotRequired[bool],
    "revealed": NotRequired[bool],
    "not": NotRequired[list[int]],
    "held": NotRequired[bool],
})
"""One card of a row: its id (stable through the game), colour letter (``b`` black, ``w``
white, ``r`` red) and whether it is face up; ``number`` only when the viewer knows it;
``seen`` the viewer was shown it; ``revealed`` face down when the game ended; ``not`` the
numbers wrong attacks have ruled out (public); ``held`` the card being used to attack."""


class PileView(TypedDict):
    size: int
    colours: dict[str, int]
    """Colour letter → cards of it left in the pile (public: colours are printed on backs)."""
    cards: NotRequired[list[str]]
    """The rest of the pile, shown once the game is over."""


class HandView(TypedDict):
    """The card drawn this turn: its colour for all, its number for the seat to move."""

    colour: str
    number: NotRequired[int]


class PlacingView(TypedDict):
    """The card about to be inserted into ``seat``'s row."""

    seat: int
    colour: str
    up: bool
    number: NotRequired[int]


class AttackEvent(TypedDict):
    event: Literal["attack"]
    seat: int
    target: int
    pos: int
    """1-based position in the target's row."""
    id: int
    name: int
    """The number called."""
    hit: bool


class InsertEvent(TypedDict):
    event: Literal["insert"]
    seat: int
    id: int
    pos: int
    up: bool
    number: NotRequired[int]
    """Only when the card went in face up."""


class DrawEvent(TypedDict):
    event: Literal["draw"]
    seat: int
    colour: str


class SlotEvent(TypedDict):
    event: Literal["use", "show"]
    seat: int
    id: int


class SeatEvent(TypedDict):
    event: Literal["pass", "stay", "out", "ready"]
    seat: int


LogEvent = AttackEvent | InsertEvent | DrawEvent | SlotEvent | SeatEvent
"""A public event of the game log."""


class AlgoBoard(TypedDict):
    """Algo's own keys of the view."""

    rules: RulesView
    phase: str
    """``setup``, ``pass``, ``show``, ``use``, ``attack``, ``place`` or ``over``."""
    turn: int
    rows: list[list[SlotView]]
    """Each seat's row, left to right; during setup another seat's row is empty."""
    pile: PileView
    hand: HandView | None
    placing: PlacingView | None
    hits: int
    """Hits made this turn."""
    out: list[int]
    """Seats in the order they went out."""
    chips: list[int]
    log: list[LogEvent]
    my_setup: NotRequired[list[str]]
    aid: NotRequired[dict[str, dict[str, float]]]
    """Slot id → number → probability, from this very view (``infer_view``)."""


class AlgoView(CommonView, AlgoBoard):
    """The whole view: the keys every game has, and Algo's."""


def algo_view(view: JSONMapping) -> AlgoView:
    """``view`` as the typed Algo view; a view lacking a declared key is refused."""
    return checked(view, AlgoView, "algo", "Algo")
