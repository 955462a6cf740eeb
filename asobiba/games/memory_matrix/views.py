"""Memory Matrix's view, typed (issue 26 item 2): what ``MemoryMatrixState.view(seat)``
returns and every reader (bots, memory, encoding, paper, render, the JS renderer) reads.

Hidden information: a flipped piece shows its white side, so ``board`` has ``W`` there for
everyone and only memory keeps the colour beneath. ``last_move.flipped_up`` names the
colour of the pieces the last move turned face up (everyone saw them); the colour under a
white piece reaches a seat only as ``memory_aid`` — its own colours' white pieces, and only
when the (casual) ``memory_aid`` option is on."""

from typing import Literal, NotRequired, TypedDict

# No ``from __future__ import annotations`` in this module: Python 3.11 finds ``NotRequired``
# (``__required_keys__``, read by ``memory_matrix_view``'s ``checked``) only in evaluated
# annotations.
from ...core.jsontypes import JSONMapping
from ...core.views import CommonView, checked


class ColourView(TypedDict):
    """One colour of the game (colours are dealt to seats in a cycle)."""

    letter: str
    """Its letter on the board (``R``, ``B``, ``Y`` …, palette.LETTERS)."""
    name: str
    name_ja: str
    seat: int
    """The seat that plays it."""
    showing: int
    """Pieces showing this colour on the board."""
    in_hand: int
    """Pieces of it not yet placed."""


LastMoveView = TypedDict("LastMoveView", {
    "seat": int,
    "colour": str,
    "move": str,
    "pass": bool,
    "cell": str | None,
    "white": bool,
    "flipped": list[str],
    "flipped_up": dict[str, str],
})
"""The last move: who (``seat``, ``colour`` letter), its text, the cell (None for a pass),
whether the piece went down white side up, the cells it flipped, and of those the ones
turned face up with the colour they show (cell → letter)."""


class MemoryMatrixBoard(TypedDict):
    """Memory Matrix's own keys of the view."""

    width: int
    height: int
    board: list[str]
    """``height`` rows of ``width`` cells: a colour letter face up, ``W`` white side up,
    ``*`` a neutral piece, ``.`` empty, ``-`` off the board (a hole of the shape)."""
    colours: list[ColourView]
    to_move_colour: str | None
    scores: list[int]
    """Per seat: the pieces showing any of its colours."""
    neutral_pieces: int
    white_any_time: bool
    lost_colour: Literal["pass", "white"]
    """What a colour with no piece showing does: passes, or plays white pieces."""
    ply: int
    last_move: LastMoveView | None
    memory_aid: NotRequired[dict[str, str]]
    """Only a seat's own view, only with the ``memory_aid`` option: cell → the colour letter
    under each white piece of the seat's own colours."""


class MemoryMatrixView(CommonView, MemoryMatrixBoard):
    """The whole view: the keys every game has, and Memory Matrix's."""


def memory_matrix_view(view: JSONMapping) -> MemoryMatrixView:
    """``view`` as the typed Memory Matrix view; a view lacking a declared key is refused."""
    return checked(view, MemoryMatrixView, "memory_matrix", "Memory Matrix")
