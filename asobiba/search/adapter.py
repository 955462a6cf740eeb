"""The small interface search code needs from a game.

A game offers its search positions through an adapter, so the hot loop can use the game's
own fast representation (bitboards, tuples) instead of protocol states. Positions (``P``)
and moves (``M``) are whatever the game finds fastest; moves must be hashable, because the
transposition table and MCTS trees keep them.

:class:`Adapter` is what alpha-beta needs. The optional hooks below it are looked up once
when a searcher is built (a game that does not need one pays nothing for it).
:class:`MCTSAdapter` is what Monte Carlo tree search needs.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar

from ..core import Rng

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)
P_contra = TypeVar("P_contra", contravariant=True)
M_contra = TypeVar("M_contra", bound=Hashable, contravariant=True)


class Adapter(Protocol[P, M]):
    """Two-player alternating search positions for alpha-beta (values are for the side to
    move: negamax)."""

    def moves(self, pos: P) -> Sequence[M]:
        """The moves searched from ``pos`` (empty: no move; see ``pass_move``)."""
        ...

    def play(self, pos: P, move: M) -> P: ...

    def key(self, pos: P) -> Hashable:
        """Transposition-table key: equal keys must have equal values."""
        ...

    def evaluate(self, pos: P) -> float | None:
        """Heuristic value at the search horizon; ``None`` when ``pos`` is not quiet and must
        be searched one more ply (a quiescence extension)."""
        ...

    def terminal_value(self, pos: P) -> float:
        """Exact value of a position with no move (and no pass)."""
        ...


class Decides(Protocol[P_contra]):
    """Optional: ``decided(pos)`` is the exact value of a finished position, else ``None``
    (checked at every node, before the horizon)."""

    def decided(self, pos: P_contra) -> float | None: ...


class Orders(Protocol[P_contra, M]):
    """Optional: the order to try ``moves`` in; ``first`` is the transposition table's best
    move (or ``None``), ``depth`` the plies left (ordering may not pay near the leaves).
    Without it the engine just tries ``first`` first."""

    def order(self, pos: P_contra, moves: Sequence[M], first: M | None, depth: int
              ) -> Sequence[M]: ...


class Expands(Protocol[P_contra, M]):
    """Optional, for speed: ``moves`` and ``order`` in one call (then neither is called
    below the root, and the root's ``rng`` shuffle does not apply)."""

    def expand(self, pos: P_contra, first: M | None, depth: int) -> Sequence[M]: ...


class Passes(Protocol[P]):
    """Optional: when ``moves`` is empty, the position after a pass (searched at the same
    depth, by the opponent), or ``None`` when the game is over there."""

    def pass_move(self, pos: P) -> P | None: ...


class LearnsCutoffs(Protocol[M_contra]):
    """Optional: told of every beta cut-off (a history heuristic for ``order``)."""

    def on_cutoff(self, move: M_contra, depth: int) -> None: ...


class HasPlayer(Protocol[P_contra]):
    """Optional: the seat to move, for games where a side may move twice in a row (its value
    is then not negated); adapters without it alternate."""

    def player(self, pos: P_contra) -> int: ...


class MCTSAdapter(Protocol[P, M]):
    """What UCT and ISMCTS need: moves, transitions, the mover, and one reward in [0, 1]
    per seat at a terminal. Optional: ``rollout_returns(pos)`` to stop a playout early
    with an estimate, ``rollout_move(pos, moves, rng)`` for a smarter playout policy."""

    def moves(self, pos: P) -> Sequence[M]: ...

    def play(self, pos: P, move: M) -> P: ...

    def player(self, pos: P) -> int: ...

    def is_terminal(self, pos: P) -> bool: ...

    def returns(self, pos: P) -> Sequence[float]: ...


class RollsOut(Protocol[P_contra, M]):
    """Optional for MCTS: the playout policy (default: a uniformly random move)."""

    def rollout_move(self, pos: P_contra, moves: Sequence[M], rng: Rng) -> M: ...


class EstimatesRollout(Protocol[P_contra]):
    """Optional for MCTS: rewards per seat for a playout cut off before the end."""

    def rollout_returns(self, pos: P_contra) -> Sequence[float]: ...

