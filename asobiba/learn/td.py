"""Self-play and TD(λ) for n-tuple tables (NumPy, no Ray: the workers and the tests call these).

:func:`play_game` plays one game with the current tables at one ply (each move's value is the
negated value of the position it leads to, exact when that position is finished), ε-greedy;
:func:`td_update` moves every position's value towards its λ-return computed backwards along
the game with the *learner's* tables (offline, forward-view TD(λ)): the return of the last
position before the end is the exact result, each earlier one mixes the next position's value
and the next return, ``G_t = -((1-λ)·V(x_{t+1}) + λ·G_{t+1})`` (negamax: the next position is
the opponent's). Positions are updated one after the other, each error measured just before its step (a
game's positions share entries); each distinct active entry (one per pattern instance, plus
the phase's bias) moves by ``lr · error / entries``, so the value moves by ``lr · error``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .ntuple import NTuple
from .spec import LearningSpec, Pos


def play_game(model: NTuple, spec: LearningSpec, rng: np.random.Generator,
              epsilon: float) -> tuple[list[Pos], float]:
    """One self-play game: the positions from the start to the end (the last is finished),
    and the result for the last position's mover."""
    pos = spec.start()
    seen = [pos]
    while True:
        kids = spec.children(pos)
        if not kids:
            return seen, spec.result(pos)
        if len(kids) == 1:
            pos = kids[0]
        elif rng.random() < epsilon:
            pos = kids[int(rng.integers(len(kids)))]
        else:
            pos = kids[int(np.argmax(move_values(model, spec, kids)))]
        seen.append(pos)


def move_values(model: NTuple, spec: LearningSpec, kids: Sequence[Pos]
                ) -> npt.NDArray[np.float64]:
    """Each child's value for the side choosing it: −V(child), exact when it is finished."""
    values = -(model.values(spec.cells(kids)) + spec.known(kids))
    for i, kid in enumerate(kids):
        if spec.finished(kid):
            values[i] = -spec.result(kid) * 1000.0  # a won end beats any estimate
    return values


def td_update(model: NTuple, spec: LearningSpec, positions: Sequence[Pos], final: float,
              lr: float, lam: float) -> float:
    """One game's TD(λ) update of ``model`` in place; returns the mean absolute error."""
    if len(positions) < 2:
        return 0.0
    cells = spec.cells(positions[:-1])
    idx = model.indices(cells)
    known = spec.known(positions[:-1])
    v = model.flat[idx].sum(axis=1, dtype=np.float64) + known
    n = len(v)
    g = np.empty(n)
    nxt = final  # the value of the position after the last move, for its mover
    ret = final
    for t in range(n - 1, -1, -1):
        ret = -((1.0 - lam) * nxt + lam * ret) if t < n - 1 else -final
        g[t] = ret
        nxt = v[t]
    # position by position, each value re-read just before its step: positions of one game
    # share entries (the empty edges of the opening, the phase's bias), and steps computed
    # all at once would add up past the target. ``flat[row] += x`` moves each distinct entry
    # once, so a value moves by exactly lr · error however its entries repeat.
    flat, width = model.flat, idx.shape[1]
    errors = np.empty(n)
    for t in range(n):
        row = idx[t]
        err = g[t] - (float(flat[row].sum(dtype=np.float64)) + float(known[t]))
        errors[t] = err
        flat[row] += np.float32(lr * err / width)
    return float(np.abs(errors).mean())


def play_vs_random(model: NTuple, spec: LearningSpec, games: int, seed: int) -> float:
    """The 1-ply greedy player's score against a uniformly random one (a win 1, a draw ½):
    colours alternate game by game, so it moves first in half of them."""
    rng = np.random.default_rng(seed)
    score = 0.0
    for g in range(games):
        pos, mover, me = spec.start(), 0, g % 2
        while True:
            kids = spec.children(pos)
            if not kids:
                diff = spec.result(pos) * (1 if mover == me else -1)
                score += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
                break
            if mover == me and len(kids) > 1:
                pos = kids[int(np.argmax(move_values(model, spec, kids)))]
            else:
                pos = kids[int(rng.integers(len(kids)))]
            mover = 1 - mover
    return score / games
