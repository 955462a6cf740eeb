"""The designer's notation and a FEN-like position string.

Moves: face before moving (``R`` rook / ``B`` bishop), from-square, ``-`` (move) or ``x``
(capture), to-square: ``Rb1xb3``, ``Ra1-a2``. Positions: ranks from the last down to rank 1,
``R``/``B`` White rook/bishop faces, ``r``/``b`` Black, digits count empty squares, then
``w`` or ``b`` for the side to move: ``rrr/3/RRR w``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ...core import MalformedMoveError, why
from .board import FILES

NOTATION_WHY: dict[str, str] = {
    "flipflop.off_board": "{sq} is not on the {n}×{n} board",
    "flipflop.notation": "this is not a FlipFlop move: write the face (R or B), the "
                         "from-square, - or x, and the to-square, e.g. Ra1-a2 or Rb1xb3",
}

_MOVE = re.compile(r"^\s*([RB])([a-e])([1-5])([-x])([a-e])([1-5])\s*$", re.IGNORECASE)


class FFMove(NamedTuple):
    """A move as written: the face shown before moving and whether it claims a capture are
    part of it, so a move that names the wrong face is refused with the reason."""

    frm: int
    to: int
    bishop: bool
    capture: bool


def square_name(n: int, sq: int) -> str:
    return FILES[sq % n] + str(sq // n + 1)


def parse_square(n: int, file: str, rank: str, text: str) -> int:
    f, r = FILES.index(file.lower()), int(rank) - 1
    if f >= n or r >= n:
        raise MalformedMoveError(
            f"{text.strip()!r}: {file.lower()}{rank} is not on the {n}×{n} board "
            f"(files a–{FILES[n - 1]}, ranks 1–{n})", move=text,
            why=why(NOTATION_WHY, "flipflop.off_board", sq=f"{file.lower()}{rank}", n=n))
    return r * n + f


def parse_move(n: int, text: str) -> FFMove:
    """Parse the designer's notation; garbage raises :class:`MalformedMoveError`."""
    m = _MOVE.match(text)
    if not m:
        raise MalformedMoveError(
            f"{text.strip()!r} is not a FlipFlop move: write the face (R or B), the "
            f"from-square, - or x, and the to-square, e.g. Ra1-a2 or Rb1xb3", move=text,
            why=why(NOTATION_WHY, "flipflop.notation"))
    face, f1, r1, sep, f2, r2 = m.groups()
    return FFMove(parse_square(n, f1, r1, text), parse_square(n, f2, r2, text),
                  face.upper() == "B", sep.lower() == "x")


def move_text(n: int, move: FFMove) -> str:
    return ("B" if move.bishop else "R") + square_name(n, move.frm) + (
        "x" if move.capture else "-") + square_name(n, move.to)


def to_fen(n: int, white: int, black: int, bishops: int, turn: int) -> str:
    rows = []
    for r in range(n - 1, -1, -1):
        row, empty = "", 0
        for f in range(n):
            bit = 1 << (r * n + f)
            if not (white | black) & bit:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            ch = "B" if bishops & bit else "R"
            row += ch if white & bit else ch.lower()
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if turn == 0 else " b")


def from_fen(text: str) -> tuple[int, int, int, int, int]:
    """``(n, white, black, bishops, turn)``; raises ValueError naming what is wrong."""
    try:
        board, side = str(text).split()
    except ValueError:
        raise ValueError(f"position {text!r} must be '<ranks> <w|b>'") from None
    rows = board.split("/")
    n = len(rows)
    if n not in (3, 5) or side not in ("w", "b"):
        raise ValueError(f"position {text!r}: need 3 or 5 ranks and side w or b")
    white = black = bishops = 0
    for i, row in enumerate(rows):
        r, f = n - 1 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch not in "RBrb" or f >= n:
                raise ValueError(f"position {text!r}: bad rank {row!r}")
            bit = 1 << (r * n + f)
            if ch.isupper():
                white |= bit
            else:
                black |= bit
            if ch in "Bb":
                bishops |= bit
            f += 1
        if f != n:
            raise ValueError(f"position {text!r}: rank {row!r} does not have {n} squares")
    if white.bit_count() > n or black.bit_count() > n:
        raise ValueError(f"position {text!r}: at most {n} pieces per side")
    return n, white, black, bishops, 0 if side == "w" else 1
