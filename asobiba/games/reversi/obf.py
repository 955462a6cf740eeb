"""Positions in the FFO / edax ``.obf`` line format, the usual way Othello endgame problems
are exchanged::

    --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;

64 squares row by row from a1 (a1 b1 … h1, a2 … h8): ``X`` black, ``O`` white, ``-`` empty;
then whitespace, the side to move (``X`` or ``O``), and optionally ``;`` followed by
annotations ``MOVE:SCORE;`` (exact scores of moves, best first, as the FFO files give them).
Also accepted: ``x``/``*`` for black, ``o`` for white, ``.`` for empty (a board written with
dots cannot be mistaken for a command-line option).

Every malformed line is refused with a :class:`PositionError` whose ``reason`` says what is
wrong (``length``, ``square``, ``side``, ``annotation``, ``game_over``); nothing is guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...core import AsobibaError
from . import bitboard as bb
from .game import square_name

BLACK_CHARS = "Xx*"
WHITE_CHARS = "Oo"
EMPTY_CHARS = "-."
SIDES = {"X": 0, "O": 1}
SIDE_NAMES = ("X", "O")

_ANNOTATION = re.compile(r"^([A-Ha-h][1-8]|PS|ps|pass):([+-]?\d+)$")


class PositionError(AsobibaError, ValueError):
    """A position that cannot be solved: malformed text, or a game already over.

    ``reason`` is the stable name of what is wrong (``no_position``, ``length``, ``square``,
    ``side``, ``annotation``, ``game_over``, ``no_file``); ``line`` the line number in a file
    (``None`` for a single position)."""

    code: ClassVar[str] = "bad_position"

    def __init__(self, reason: str, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.line = line


@dataclass(frozen=True)
class ObfPosition:
    """One parsed line: the bitboards, the side to move (0 = X = black, 1 = O = white) and
    the annotations ``{move text: score}`` in file order (``"pass"`` for a pass)."""

    black: int
    white: int
    turn: int
    annotations: tuple[tuple[str, int], ...]
    text: str

    @property
    def mover(self) -> tuple[int, int]:
        """``(p, o)``: the side to move's discs, the other side's."""
        return (self.black, self.white) if self.turn == 0 else (self.white, self.black)

    @property
    def empties(self) -> int:
        return 64 - (self.black | self.white).bit_count()

    @property
    def expected(self) -> int | None:
        """The best annotated score (the file's exact value), if any annotation."""
        return max(s for _, s in self.annotations) if self.annotations else None

    def board_text(self) -> str:
        return "".join("X" if self.black >> i & 1 else "O" if self.white >> i & 1 else "-"
                       for i in range(64))


def parse_obf(line: str, number: int | None = None) -> ObfPosition:
    """Parse one ``.obf`` line; raises :class:`PositionError` naming what is wrong."""
    text = line.strip()
    if not text:
        raise PositionError("no_position", "empty line: expected 64 squares and the side to "
                            "move, e.g. '" + "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
                            + " X;'", number)
    board = text.split(None, 1)[0]
    if ";" in board:
        board = board.split(";", 1)[0]
    if len(board) != 64:
        hint = ""
        if len(board) == 65 and board[-1] in "XOxo":
            hint = " — is the side to move stuck to the board? Put a space before it"
        raise PositionError("length", f"the board has {len(board)} squares, an .obf board "
                            f"has 64 (a1 b1 … h1, a2 … h8){hint}", number)
    black = white = 0
    for i, ch in enumerate(board):
        if ch in BLACK_CHARS:
            black |= 1 << i
        elif ch in WHITE_CHARS:
            white |= 1 << i
        elif ch not in EMPTY_CHARS:
            raise PositionError("square", f"{ch!r} at square {square_name(i)} (character "
                                f"{i + 1}) is not a square: write X (black), O (white) or "
                                f"- (empty)", number)
    rest = text[len(board):].lstrip()
    side = re.split(r"[\s;]", rest, maxsplit=1)[0]
    tail = rest[len(side):].strip()
    if not side:
        raise PositionError("side", "no side to move after the board: write X or O "
                            "(e.g. '… X;')", number)
    if side.upper() not in SIDES:
        raise PositionError("side", f"{side!r} is not a side to move: write X (black) or O "
                            f"(white)", number)
    if tail and not tail.startswith(";"):
        raise PositionError("annotation", f"unexpected {tail!r} after the side to move: "
                            f"annotations follow a ';' (e.g. '… X; G8:+18;')", number)
    turn = SIDES[side.upper()]
    pos = ObfPosition(black, white, turn, (), text)
    p, o = pos.mover
    legal = bb.legal_mask(p, o)
    if not legal and not bb.legal_mask(o, p):
        nb, nw = black.bit_count(), white.bit_count()
        raise PositionError("game_over", f"neither side can move: the game is already over "
                            f"(X {nb}, O {nw}; nothing to solve)", number)
    notes: list[tuple[str, int]] = []
    for item in tail[1:].split(";"):
        item = item.strip()
        if not item:
            continue
        am = _ANNOTATION.match(item)
        if am is None:
            raise PositionError("annotation", f"{item!r} is not an annotation: write "
                                f"MOVE:SCORE, e.g. 'G8:+18'", number)
        move, score = am.group(1).lower(), int(am.group(2))
        if move in ("ps", "pass"):
            move = "pass"
            ok = not legal
        else:
            ok = bool(legal >> ((int(move[1]) - 1) * 8 + "abcdefgh".index(move[0])) & 1)
        if not ok:
            raise PositionError("annotation", f"the annotation {item!r} names a move that is "
                                f"not legal for {SIDE_NAMES[turn]} here", number)
        if not -64 <= score <= 64:
            raise PositionError("annotation", f"the annotation {item!r} has a score outside "
                                f"-64…+64", number)
        notes.append((move, score))
    return ObfPosition(black, white, turn, tuple(notes), text)
