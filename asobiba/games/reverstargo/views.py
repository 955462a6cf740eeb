"""ReverStarGo's view, typed (issue 26 item 2): what ``ReverStarGoState.view(seat)`` returns
and every reader (bots, encoding, paper, render, ``state_from_view``, the JS renderer) reads.
ReverStarGo has perfect information: every seat's view is the same but for ``seat`` and
``legal_moves``; the view holds the whole ko history, so ``state_from_view`` rebuilds the
exact state."""

from __future__ import annotations

from typing import Literal, TypedDict

from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked


class Indicator(TypedDict):
    """The app's move indicator of one playable cell, for the side to move (seed §7⑤)."""

    mark: Literal["playable", "one-colour", "ko-blocked", "exception"]
    call: bool
    """Whether the colour called for the cell matters (the Core Point)."""
    colours: list[str]
    """The colour letters (``B``, ``W``) the cell may be called (empty: ko-blocked)."""
    auto: str
    """The colour letter a move without a call takes."""


class EntryView(TypedDict):
    """One entry of the game record: a move (``cell`` + ``call``) or a pass (both None)."""

    seat: int
    cell: str | None
    call: str | None
    """The colour letter called (``B``, ``W``)."""
    captured: int
    exception: bool
    """Played under the superko exception (every cell was ko-blocked)."""


class ReverStarGoPosition(TypedDict):
    """What ``state_from_view`` reads: a whole view, or a tutorial's hand-made start (which
    holds only these keys)."""

    board: str
    """The 37 cells in label order: ``B`` black, ``W`` white, ``.`` empty (``board_text``)."""
    captured: list[int]
    """Stones each seat has captured (black's, white's): the reverse-match tie-break."""
    entries: list[EntryView]
    history: list[str]
    """Every earlier position's ``board`` (the superko rule)."""
    previous: str | None
    """The position before the last move (the ko rule), None at the start."""
    last_exception: bool


class ReverStarGoBoard(ReverStarGoPosition):
    """ReverStarGo's own keys of the view."""

    turn: str
    """``black`` or ``white``."""
    mode: str
    """``normal``; ``exception`` (every cell is ko-blocked, any may be played); ``over``."""
    score: list[int]
    indicators: dict[str, Indicator]
    """Cell label → its indicator; empty once the game is over."""
    reason: str
    """Why the game ended, in English; ``""`` while it goes on."""


class ReverStarGoView(CommonView, ReverStarGoBoard):
    """The whole view: the keys every game has, and ReverStarGo's."""


def reverstargo_position(view: JSONMapping) -> ReverStarGoPosition:
    """``view`` (a whole view or a hand-made start) as the keys a position is rebuilt from."""
    return checked(view, ReverStarGoPosition, "reverstargo", "ReverStarGo", what="position")


def reverstargo_view(view: JSONMapping) -> ReverStarGoView:
    """``view`` as the typed ReverStarGo view; a view lacking a declared key is refused."""
    return checked(view, ReverStarGoView, "reverstargo", "ReverStarGo")
