"""ReverStarGo's parts of the opening explorer (docs/explorer.md; hook
``GameProgression.explorer``): positions keyed by the board, the side to move, the captured
stones and the ko-exception mode, up to the 12 symmetries of the hexagonal star (6 rotations,
6 reflections; every rule — lines, enclosures, the CP — is defined by the grid alone); the
book scored by the project's alpha-beta with its evaluation."""

from __future__ import annotations

import math
import re
from itertools import permutations
from typing import cast

from ...core import ExplorerSpec, State
from ...core.hooks import Perm
from ...core.jsontypes import JSONMapping
from .board import CUBES, INDEX, LABELS
from .game import ReverStarGoState, board_text


def hex_perms() -> tuple[Perm, ...]:
    """The 12 symmetries of the star: cube coordinates permuted, and negated or not."""
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


def _state(state: State) -> ReverStarGoState:
    if not isinstance(state, ReverStarGoState):
        raise TypeError("the ReverStarGo explorer reads ReverStarGo states only")
    return state


def _cells(state: State) -> str:
    s = _state(state)
    return board_text(s.black, s.white)


def _extra(state: State) -> str:
    s = _state(state)
    return f"{state.to_move}:{s.captured[0]},{s.captured[1]}:{s.mode[0]}"


_MOVE = re.compile(r"^([A-Z][A-Z0-9])(\[[BW]\])?$")


def _move(text: str, perm: Perm) -> str:
    t = text.strip()
    if t == "--":
        return t
    m = _MOVE.match(t.upper())
    if m is None or m.group(1) not in INDEX:
        raise ValueError(f"{text!r} is not a ReverStarGo move in its canonical text")
    return LABELS[perm[INDEX[m.group(1)]]] + (m.group(2) or "")


def _score(state: State, depth: int) -> tuple[float, float]:
    from .search import WIN, AlphaBeta, our_evaluation

    s = _state(state)
    engine = AlphaBeta(our_evaluation, use_tt=False)
    value = engine.negamax((s.black, s.white, s.captured[0], s.captured[1], s.turn), depth,
                           -math.inf, math.inf)
    return float(value), WIN / 2


def explorer(options: JSONMapping) -> ExplorerSpec:
    return ExplorerSpec(perms=hex_perms(), cells=_cells, extra=_extra, move_map=_move,
                        score=_score, book_plies=5, book_depth=3)
