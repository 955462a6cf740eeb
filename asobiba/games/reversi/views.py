"""Reversi's view, typed (issue 26 item 2): what ``ReversiState.view(seat)`` returns and every
reader (bots, encoding, paper, tutorials, ``state_from_view``, the JS renderer) reads.
Reversi has perfect information: every seat's view is the same but for ``seat`` and
``legal_moves``."""

from __future__ import annotations

from typing import TypedDict

from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked


class Counts(TypedDict):
    """Discs of each colour on the board."""

    black: int
    white: int


class ReversiPosition(TypedDict):
    """What ``state_from_view`` reads: a whole view, or a tutorial's hand-made start (which
    holds only these keys)."""

    board: list[str]
    """Eight rows, rank 8 first, file a first: ``B`` black, ``W`` white, ``.`` empty."""
    turn: str
    """``black`` or ``white``: the side to move (after a finished game: the side that would
    move)."""


class ReversiBoard(ReversiPosition):
    """Reversi's own keys of the view."""
    counts: Counts
    last_move: str | None
    """The last move (``d3``, ``pass``), None at the start."""
    flipped: list[str]
    """The squares the last move flipped."""


class ReversiView(CommonView, ReversiBoard):
    """The whole view: the keys every game has, and Reversi's."""


def reversi_position(view: JSONMapping) -> ReversiPosition:
    """``view`` (a whole view or a hand-made start) as the keys a position is rebuilt from."""
    return checked(view, ReversiPosition, "reversi", "Reversi", what="position")


def reversi_view(view: JSONMapping) -> ReversiView:
    """``view`` as the typed Reversi view; a view lacking a declared key is refused."""
    return checked(view, ReversiView, "reversi", "Reversi")
