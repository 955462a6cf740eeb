"""FlipFlop's view, typed (issue 26 item 3): what ``FlipFlopState.view(seat)`` returns and
every reader (bots, encoding, paper, tutorials, ``state_from_view``, the JS renderer) reads.
FlipFlop has perfect information: every seat's view is the same but for ``seat`` and
``legal_moves``."""

from __future__ import annotations

from typing import Literal, TypedDict

from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked


class Goals(TypedDict):
    """Each side's goal square (the centre of its own first row), e.g. ``b1`` / ``b3``."""

    white: str
    black: str


class FlipFlopBoard(TypedDict):
    """FlipFlop's own keys of the view."""

    board_size: Literal[3, 5]
    board: list[str]
    """Rank n first, file a first: ``R``/``B`` a white rook/bishop face, lower case black,
    ``.`` empty."""
    position: str
    """The position string (``from_fen``): board and side to move."""
    turn: Literal["white", "black"]
    goals: Goals
    threat: str | None
    """The defender's goal square when an attacker stands on it (it must be taken back)."""
    repetitions: int
    history: list[str]
    """The position strings before this one (for the threefold repetition)."""
    moves: list[str]
    last_move: str | None


class FlipFlopView(CommonView, FlipFlopBoard):
    """The whole view: the keys every game has, and FlipFlop's."""


def flipflop_view(view: JSONMapping) -> FlipFlopView:
    """``view`` as the typed FlipFlop view; a view lacking a declared key is refused."""
    return checked(view, FlipFlopView, "flipflop", "FlipFlop")
