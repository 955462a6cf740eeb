"""A seat's memory of hidden colours, built from views only, and determinization.

A white piece's colour is never in a view, but every seat saw it happen: a piece placed
white side up shows its owner's colour (the mover is public), a piece flipped from a colour
to white showed that colour a moment before, a piece that flips and stays white is neutral,
and the white pieces of the start position are the neutral ones. A :class:`Memory` records
exactly these facts from consecutive views, and may forget them — that is how bot levels
differ in memory. :func:`determinize` fills what is not remembered with a sample
consistent with the public piece counts.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...core.jsontypes import JSONMapping
from ...core.rng import Rng
from .palette import EMPTY, HOLE, LETTERS, WHITE
from .rules import Config, Pos
from .shapes import Geometry
from .views import memory_matrix_view

NEUTRAL = -1


class Memory:
    """Remembered colour beneath white cells (``NEUTRAL`` for neutral pieces).

    ``forget`` is the chance that each remembered colour is lost after each observed move;
    ``capacity`` (if set) keeps only the most recently learned colours."""

    def __init__(self, forget: float = 0.0, capacity: int | None = None,
                 rng: Rng | None = None) -> None:
        self.forget = forget
        self.capacity = capacity
        self.rng = rng or Rng(0, "memory")
        self.known: dict[str, int] = {}
        self._board: list[str] | None = None
        self._ply = -1

    def observe(self, view: JSONMapping) -> None:
        view = memory_matrix_view(view)
        ply = int(view["ply"])
        if ply == self._ply:
            return
        board = list(view["board"])
        last = view.get("last_move")
        if last is None and ply == 0:
            # the start: every white piece is a neutral piece
            self.known = {name: NEUTRAL for name in _cells_showing(board, WHITE)}
        elif last is not None and self._board is not None and ply == self._ply + 1:
            self._learn(board, last)
        else:
            # a gap in what we saw: keep only what is still consistent (still white)
            whites = set(_cells_showing(board, WHITE))
            self.known = {k: v for k, v in self.known.items() if k in whites}
        self._forget()
        self._board = board
        self._ply = ply

    def _learn(self, board: list[str], last: JSONMapping) -> None:
        assert self._board is not None
        if last.get("cell") and last.get("white"):
            self._remember(last["cell"], LETTERS.index(last["colour"]))
        for name in last.get("flipped", []):
            before, after = _at(self._board, name), _at(board, name)
            if after != WHITE:
                self.known.pop(name, None)
            elif before == WHITE:
                self._remember(name, NEUTRAL)
            else:
                self._remember(name, LETTERS.index(before))

    def _remember(self, name: str, colour: int) -> None:
        self.known.pop(name, None)
        self.known[name] = colour  # dicts keep order: the newest fact is last
        if self.capacity is not None:
            while len(self.known) > self.capacity:
                del self.known[next(iter(self.known))]

    def _forget(self) -> None:
        if self.forget <= 0:
            return
        self.known = {k: v for k, v in self.known.items() if self.rng.random() >= self.forget}


def _at(board: list[str], name: str) -> str:
    col, row = ord(name[0]) - 97, int(name[1:]) - 1
    return board[row][col]


def _cells_showing(board: list[str], ch: str) -> list[str]:
    return [f"{chr(97 + c)}{r + 1}" for r, row in enumerate(board)
            for c, x in enumerate(row) if x == ch]


def determinize(cfg: Config, view: JSONMapping, known: Mapping[str, int],
                rng: Rng | None) -> Pos:
    """A full position consistent with ``view`` and ``known``; the colours of the other white
    pieces are drawn at random from the pieces each colour must still have hidden (the
    public counts: placed pieces minus those face up). ``rng=None`` fills in order."""
    view = memory_matrix_view(view)
    geo: Geometry = cfg.geometry
    n = cfg.colours
    board = view["board"]
    ident = [0] * n
    up = neutral = occ = 0
    unknown: list[int] = []
    hidden = [0] * n
    neutral_left = int(view["neutral_pieces"])
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if ch in (EMPTY, HOLE):
                continue
            i = r * geo.stride + c
            bit = 1 << i
            occ |= bit
            if ch != WHITE:
                colour = LETTERS.index(ch)
                ident[colour] |= bit
                up |= bit
                continue
            remembered = known.get(geo.names[i])
            if remembered is None:
                unknown.append(bit)
            elif remembered == NEUTRAL:
                neutral |= bit
                neutral_left -= 1
            else:
                ident[remembered] |= bit
                hidden[remembered] += 1
    share = geo.count // n
    pool: list[int] = []
    for colour, info in enumerate(view["colours"]):
        placed = share - int(info["in_hand"])
        pool += [colour] * max(0, placed - int(info["showing"]) - hidden[colour])
    pool += [NEUTRAL] * max(0, neutral_left)
    if rng is not None:
        rng.shuffle(pool)
    for k, bit in enumerate(unknown):
        colour = pool[k] if k < len(pool) else NEUTRAL
        if colour == NEUTRAL:
            neutral |= bit
        else:
            ident[colour] |= bit
    hand = tuple(int(info["in_hand"]) for info in view["colours"])
    letter = view.get("to_move_colour")
    turn = LETTERS.index(letter) if letter else -1
    return Pos(occ, up, tuple(ident), neutral, hand, turn)
