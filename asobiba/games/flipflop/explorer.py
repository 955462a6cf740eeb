"""FlipFlop's parts of the opening explorer (docs/explorer.md; hook
``GameProgression.explorer``), both boards: positions keyed up to the left↔right mirror (the
goals are on the centre file; a quarter turn or a rank flip would move the players' home rows,
so they are not symmetries), the book scored by the game's searcher."""

from __future__ import annotations

from collections.abc import Callable

from ...core import ExplorerSpec, State
from ...core.hooks import Perm
from ...core.jsontypes import JSONMapping
from .game import FlipFlopState, board_size
from .notation import FFMove, move_text, parse_move


def mirror_perm(n: int) -> Perm:
    return tuple(r * n + (n - 1 - f) for r, f in (divmod(sq, n) for sq in range(n * n)))


def _state(state: State) -> FlipFlopState:
    if not isinstance(state, FlipFlopState):
        raise TypeError("the FlipFlop explorer reads FlipFlop states only")
    return state


def _cells(state: State) -> str:
    s = _state(state)
    white, black, bishops, n = s.white, s.black, s.bishops, s.n
    out = []
    for i in range(n * n):
        if white >> i & 1:
            out.append("B" if bishops >> i & 1 else "R")
        elif black >> i & 1:
            out.append("b" if bishops >> i & 1 else "r")
        else:
            out.append(".")
    return "".join(out)


def _turn(state: State) -> str:
    return str(state.to_move)


def _move(n: int) -> Callable[[str, Perm], str]:
    def move_map(text: str, perm: Perm) -> str:
        m = parse_move(n, text)
        return move_text(n, FFMove(perm[m.frm], perm[m.to], m.bishop, m.capture))
    return move_map


def _score(state: State, depth: int) -> tuple[float, float]:
    from .search import MATE_BOUND, WIN, Searcher

    s = _state(state)
    if s.is_over:  # the explorer scores a finished position from its outcome
        return 0.0, MATE_BOUND
    res = Searcher(s.n, tt_size=50_000).search((s.white, s.black, s.bishops, s.turn), depth)
    return float(res.value), float(min(MATE_BOUND, WIN - 1_000))


def explorer(options: JSONMapping) -> ExplorerSpec:
    n = board_size(options)
    plies, depth = (8, 8) if n == 3 else (3, 4)
    return ExplorerSpec(perms=(tuple(range(n * n)), mirror_perm(n)), cells=_cells, extra=_turn,
                        move_map=_move(n), score=_score, book_plies=plies, book_depth=depth)
