"""Positions of the opening explorer: which games have one, and each position's canonical
key, symmetry-reduced (docs/explorer.md, "Positions and symmetry").

A position is keyed by its board, the side to move and whatever else decides the game from
there (ReverStarGo: the captured stones and the ko-exception mode); the move history is not
part of it (FlipFlop's repetition count, ReverStarGo's ko history), as in any opening book.
Every symmetry of a game's board that its rules respect maps a position to an equivalent
one; the key is the smallest of the images' texts, so the eight orientations of a Reversi
position share one row. The moves from a position are stored in that canonical frame too,
and equivalent moves of a symmetric position (the four first moves of Reversi) fold into one.

- Reversi: the 8 symmetries of the square (rotations and reflections).
- FlipFlop (3×3, 5×5): the left↔right mirror (the goals are on the centre file); a
  quarter turn or a rank flip would move the players' home rows, so they are not symmetries.
- ReverStarGo: the 12 symmetries of the hexagonal star (6 rotations, 6 reflections); every
  rule (lines, enclosures, the CP) is defined by the grid alone. Only those that keep the
  position's stones where they are fold; the start position keeps 6 of them.

Nothing here imports the web: the index, the book and the CLI use it alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from ..core import State
from ..core.jsontypes import JSONMapping

Perm = tuple[int, ...]
"""A symmetry: square ``i`` goes to square ``perm[i]``."""


@dataclass(frozen=True)
class ExplorerGame:
    """One explorer: a two-player perfect-information game with fixed options."""

    id: str
    """The explorer's name in URLs: ``reversi``, ``flipflop-3x3``, ``flipflop-5x5``,
    ``reverstargo``."""
    game: str
    options: JSONMapping
    perms: tuple[Perm, ...]
    cells: Callable[[State], str]
    """One character per square (empty ``.``), in square order."""
    extra: Callable[[State], str]
    """The rest of the key (side to move, and more where the rules need it)."""
    move_map: Callable[[str, Perm], str]
    """A move's text with its squares moved by a symmetry."""

    def new_state(self) -> State:
        from ..games import get

        return get(self.game).new_game(dict(self.options))


# ---- Reversi ----------------------------------------------------------------------------------

def _square_perms(n: int) -> tuple[Perm, ...]:
    """The 8 symmetries of an n×n board (square = row * n + file)."""
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, f: (r, f), lambda r, f: (f, n - 1 - r), lambda r, f: (n - 1 - r, n - 1 - f),
        lambda r, f: (n - 1 - f, r), lambda r, f: (r, n - 1 - f), lambda r, f: (n - 1 - r, f),
        lambda r, f: (f, r), lambda r, f: (n - 1 - f, n - 1 - r)]
    out = []
    for m in maps:
        perm = []
        for sq in range(n * n):
            r, f = m(*divmod(sq, n))
            perm.append(r * n + f)
        out.append(tuple(perm))
    return tuple(out)


def _reversi_cells(state: State) -> str:
    s = cast("object", state)
    black, white = getattr(s, "black"), getattr(s, "white")  # noqa: B009 - one State type
    return "".join("x" if black >> i & 1 else "o" if white >> i & 1 else "." for i in range(64))


def _reversi_move(text: str, perm: Perm) -> str:
    from ..games.reversi.game import parse_square, square_name

    if text.strip().lower() == "pass":
        return "pass"
    return square_name(perm[parse_square(text)])


def _turn(state: State) -> str:
    return str(state.to_move)


# ---- FlipFlop ---------------------------------------------------------------------------------

def _mirror_perm(n: int) -> Perm:
    return tuple(r * n + (n - 1 - f) for r, f in (divmod(sq, n) for sq in range(n * n)))


def _flipflop_cells(state: State) -> str:
    white, black = getattr(state, "white"), getattr(state, "black")  # noqa: B009
    bishops, n = getattr(state, "bishops"), getattr(state, "n")  # noqa: B009
    out = []
    for i in range(n * n):
        if white >> i & 1:
            out.append("B" if bishops >> i & 1 else "R")
        elif black >> i & 1:
            out.append("b" if bishops >> i & 1 else "r")
        else:
            out.append(".")
    return "".join(out)


def _flipflop_move(n: int) -> Callable[[str, Perm], str]:
    def move_map(text: str, perm: Perm) -> str:
        from ..games.flipflop.notation import FFMove, move_text, parse_move

        m = parse_move(n, text)
        return move_text(n, FFMove(perm[m.frm], perm[m.to], m.bishop, m.capture))
    return move_map


# ---- ReverStarGo ------------------------------------------------------------------------------

def _hex_perms() -> tuple[Perm, ...]:
    """The 12 symmetries of the star: cube coordinates permuted, and negated or not."""
    from itertools import permutations

    from ..games.reverstargo.board import CUBES

    at = {c: i for i, c in enumerate(CUBES)}
    out: list[Perm] = []
    for order in permutations(range(3)):
        for sign in (1, -1):
            perm = []
            for c in CUBES:
                image = tuple(sign * c[k] for k in order)
                perm.append(at[cast(tuple[int, int, int], image)])
            out.append(tuple(perm))
    return tuple(out)


def _rsg_cells(state: State) -> str:
    from ..games.reverstargo.game import board_text

    return board_text(getattr(state, "black"), getattr(state, "white"))  # noqa: B009


def _rsg_extra(state: State) -> str:
    captured = getattr(state, "captured")  # noqa: B009
    mode = getattr(state, "mode")  # noqa: B009
    return f"{state.to_move}:{captured[0]},{captured[1]}:{mode[0]}"


_RSG_MOVE = re.compile(r"^([A-Z][A-Z0-9])(\[[BW]\])?$")


def _rsg_move(text: str, perm: Perm) -> str:
    from ..games.reverstargo.board import INDEX, LABELS

    t = text.strip()
    if t == "--":
        return t
    m = _RSG_MOVE.match(t.upper())
    if m is None or m.group(1) not in INDEX:
        raise ValueError(f"{text!r} is not a ReverStarGo move in its canonical text")
    return LABELS[perm[INDEX[m.group(1)]]] + (m.group(2) or "")


def _games() -> dict[str, ExplorerGame]:
    return {
        "reversi": ExplorerGame("reversi", "reversi", {}, _square_perms(8), _reversi_cells,
                                _turn, _reversi_move),
        "flipflop-3x3": ExplorerGame("flipflop-3x3", "flipflop", {"board": "3x3"},
                                     (tuple(range(9)), _mirror_perm(3)), _flipflop_cells,
                                     _turn, _flipflop_move(3)),
        "flipflop-5x5": ExplorerGame("flipflop-5x5", "flipflop", {"board": "5x5"},
                                     (tuple(range(25)), _mirror_perm(5)), _flipflop_cells,
                                     _turn, _flipflop_move(5)),
        "reverstargo": ExplorerGame("reverstargo", "reverstargo", {}, _hex_perms(),
                                    _rsg_cells, _rsg_extra, _rsg_move),
    }


_GAMES: dict[str, ExplorerGame] = {}


def explorers() -> dict[str, ExplorerGame]:
    """Every explorer by its id."""
    if not _GAMES:
        _GAMES.update(_games())
    return _GAMES


def explorer_for(game: str, options: JSONMapping) -> ExplorerGame | None:
    """The explorer a stored game belongs to (its game and options), or None: a game with
    hidden information or more than two seats, or options other than an explorer's
    (FlipFlop's board is the only option any of them has)."""
    for ex in explorers().values():
        if ex.game != game:
            continue
        if game == "flipflop":
            if (options.get("board") or "3x3") == ex.options["board"]:
                return ex
            continue
        return ex
    return None


@dataclass(frozen=True)
class Canonical:
    """A position in its canonical frame: ``key``, and the symmetries that take it there
    (the first one is used to show the stored moves in this position's orientation)."""

    key: str
    perms: tuple[Perm, ...]

    def store_move(self, ex: ExplorerGame, text: str) -> str:
        """A move played here, as stored: its smallest image under the symmetries that
        take the position to its key (so equivalent moves share one text)."""
        return min(ex.move_map(text, p) for p in self.perms)

    def show_move(self, ex: ExplorerGame, stored: str) -> str:
        """A stored move as played from this position (in its orientation)."""
        return ex.move_map(stored, _inverse(self.perms[0]))


def _inverse(perm: Perm) -> Perm:
    inv = [0] * len(perm)
    for i, j in enumerate(perm):
        inv[j] = i
    return tuple(inv)


def canonical(ex: ExplorerGame, state: State) -> Canonical:
    cells = ex.cells(state)
    extra = ex.extra(state)
    best: str | None = None
    chosen: list[Perm] = []
    for perm in ex.perms:
        image = [""] * len(cells)
        for i, ch in enumerate(cells):
            image[perm[i]] = ch
        text = "".join(image)
        if best is None or text < best:
            best, chosen = text, [perm]
        elif text == best:
            chosen.append(perm)
    assert best is not None
    return Canonical(f"{best}|{extra}", tuple(chosen))


def walk(ex: ExplorerGame, moves: Sequence[str]) -> State:
    """The state after ``moves`` (texts) from the start; a bad move raises the game's
    :class:`~asobiba.core.MoveError` naming it (with its number)."""
    from ..core import MoveError

    state = ex.new_state()
    for number, text in enumerate(moves, 1):
        try:
            state = state.play(text)
        except MoveError as exc:
            raise type(exc)(f"move {number} ({text}): {exc}", move=text) from exc
    return state
