"""Reversi's parts of the opening explorer (docs/explorer.md; hook ``GameProgression.explorer``):
positions keyed up to the 8 symmetries of the square (rotations and reflections), the book
scored by the bots' alpha-beta with their evaluation (discs, corners, mobility)."""

from __future__ import annotations

from collections.abc import Callable

from ...core import ExplorerSpec, State
from ...core.hooks import Perm
from ...core.jsontypes import JSONMapping
from .game import ReversiState, parse_square, square_name


def square_perms(n: int) -> tuple[Perm, ...]:
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


def _state(state: State) -> ReversiState:
    if not isinstance(state, ReversiState):
        raise TypeError("the Reversi explorer reads Reversi states only")
    return state


def _cells(state: State) -> str:
    s = _state(state)
    black, white = s.black, s.white
    return "".join("x" if black >> i & 1 else "o" if white >> i & 1 else "." for i in range(64))


def _turn(state: State) -> str:
    return str(state.to_move)


def _move(text: str, perm: Perm) -> str:
    if text.strip().lower() == "pass":
        return "pass"
    return square_name(perm[parse_square(text)])


def _score(state: State, depth: int) -> tuple[float, float]:
    from ...search.alphabeta import search
    from .bots import WIN, ReversiAdapter

    s = _state(state)
    pos = (s.black, s.white, 0) if s.turn == 0 else (s.white, s.black, 1)
    adapter = ReversiAdapter()
    if adapter.is_terminal(pos):
        return adapter.terminal_value(pos), WIN / 2
    return search(adapter, pos, depth).value, WIN / 2


def explorer(options: JSONMapping) -> ExplorerSpec:
    return ExplorerSpec(perms=square_perms(8), cells=_cells, extra=_turn, move_map=_move,
                        score=_score, book_plies=6, book_depth=5)
