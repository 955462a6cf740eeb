"""The small interface search code needs from a game.

A game offers its search positions through an adapter, so the hot loop can use the game's
own fast representation (bitboards, tuples) instead of protocol states. Positions (``P``)
and moves (``M``) are whatever the game finds fastest; moves must be hashable, because the
transposition table and MCTS trees keep them.

:class:`Adapter` is what alpha-beta needs. The optional hooks below it are protocols too:
an adapter **declares** each hook it has by naming its protocol among its bases
(``class ReversiAdapter(Orders[Pos, int], Decides[Pos])``), so mypy checks the hook's
signature and refuses to build an adapter that declares a hook it misspells (the protocol's
method is then abstract). The searcher looks the hooks up once when it is built, through
``isinstance`` against these protocols (never by a method name in a string), after
:func:`check_adapter` has refused at registration — the searcher's construction — a hook
method not declared, a declared hook not defined, or a public method whose name is one
typo away from a hook's (``ordr``, ``pass_moves``): a misspelt hook cannot silently do
nothing.
:class:`MCTSAdapter` is what Monte Carlo tree search needs.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

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


@runtime_checkable
class Decides(Protocol[P_contra]):
    """Optional: ``decided(pos)`` is the exact value of a finished position, else ``None``
    (checked at every node, before the horizon)."""

    def decided(self, pos: P_contra) -> float | None: ...


@runtime_checkable
class Orders(Protocol[P_contra, M]):
    """Optional: the order to try ``moves`` in; ``first`` is the transposition table's best
    move (or ``None``), ``depth`` the plies left (ordering may not pay near the leaves).
    Without it the engine just tries ``first`` first."""

    def order(self, pos: P_contra, moves: Sequence[M], first: M | None, depth: int
              ) -> Sequence[M]: ...


@runtime_checkable
class Expands(Protocol[P_contra, M]):
    """Optional, for speed: ``moves`` and ``order`` in one call (then neither is called
    below the root, and the root's ``rng`` shuffle does not apply)."""

    def expand(self, pos: P_contra, first: M | None, depth: int) -> Sequence[M]: ...


@runtime_checkable
class Passes(Protocol[P]):
    """Optional: when ``moves`` is empty, the position after a pass (searched at the same
    depth, by the opponent), or ``None`` when the game is over there."""

    def pass_move(self, pos: P) -> P | None: ...


@runtime_checkable
class LearnsCutoffs(Protocol[M_contra]):
    """Optional: told of every beta cut-off (a history heuristic for ``order``)."""

    def on_cutoff(self, move: M_contra, depth: int) -> None: ...


@runtime_checkable
class HasPlayer(Protocol[P_contra]):
    """Optional: the seat to move, for games where a side may move twice in a row (its value
    is then not negated); adapters without it alternate."""

    def player(self, pos: P_contra) -> int: ...


@runtime_checkable
class Terminates(Protocol[P_contra]):
    """Optional, the older shape of :class:`Decides`: ``is_terminal(pos)`` (then
    ``terminal_value`` gives its value); used only when ``decided`` is absent."""

    def is_terminal(self, pos: P_contra) -> bool: ...


class MCTSAdapter(Protocol[P, M]):
    """What UCT and ISMCTS need: moves, transitions, the mover, and one reward in [0, 1]
    per seat at a terminal. Optional: ``rollout_returns(pos)`` to stop a playout early
    with an estimate, ``rollout_move(pos, moves, rng)`` for a smarter playout policy."""

    def moves(self, pos: P) -> Sequence[M]: ...

    def play(self, pos: P, move: M) -> P: ...

    def player(self, pos: P) -> int: ...

    def is_terminal(self, pos: P) -> bool: ...

    def returns(self, pos: P) -> Sequence[float]: ...


@runtime_checkable
class RollsOut(Protocol[P_contra, M]):
    """Optional for MCTS: the playout policy (default: a uniformly random move)."""

    def rollout_move(self, pos: P_contra, moves: Sequence[M], rng: Rng) -> M: ...


@runtime_checkable
class EstimatesRollout(Protocol[P_contra]):
    """Optional for MCTS: rewards per seat for a playout cut off before the end."""

    def rollout_returns(self, pos: P_contra) -> Sequence[float]: ...



ALPHABETA_HOOKS: dict[str, type] = {
    "decided": Decides, "order": Orders, "expand": Expands, "pass_move": Passes,
    "on_cutoff": LearnsCutoffs, "player": HasPlayer, "is_terminal": Terminates}
"""Every optional alpha-beta hook: its method name and the protocol that declares it."""
BASE_NAMES = frozenset({"moves", "play", "key", "evaluate", "terminal_value"})
""":class:`Adapter`'s own methods."""
MCTS_NAMES = frozenset({"is_terminal", "returns", "player", "rollout_move",
                        "rollout_returns"})
"""Names an adapter may also have for Monte Carlo search (the same class can serve both)."""
_NAMES = sorted(set(ALPHABETA_HOOKS) | BASE_NAMES)
_CLOSE = 0.8  # difflib ratio from which a public name counts as a hook's misspelling


class AdapterError(TypeError):
    """An adapter whose hooks do not match their protocols (a programming error)."""


def _declared(cls: type, proto: type) -> bool:
    return proto in cls.__mro__


def _own(cls: type, name: str) -> bool:
    """Whether ``cls`` (or a base other than a hook protocol) defines ``name``."""
    for base in cls.__mro__:
        if base is object or getattr(base, "_is_protocol", False):
            continue
        if name in vars(base):
            return True
    return False


@functools.cache
def check_adapter(cls: type) -> None:
    """Refuse an alpha-beta adapter class whose hooks are not what they say (cached per
    class: the check costs nothing per searcher). Raises :class:`AdapterError` for a hook
    method defined without its protocol among the bases, a protocol declared without its
    method, or a public name one typo away from a hook's."""
    problems = []
    for name, proto in ALPHABETA_HOOKS.items():
        defined, declared = _own(cls, name), _declared(cls, proto)
        if defined and not declared:
            problems.append(f"{name!r} is a hook: declare it with {proto.__name__} among "
                            f"the bases of {cls.__name__}")
        elif declared and not defined:
            problems.append(f"{cls.__name__} declares {proto.__name__} but has no "
                            f"{name!r} method")
    known = BASE_NAMES | MCTS_NAMES | set(ALPHABETA_HOOKS)
    for base in cls.__mro__:
        if base is object or getattr(base, "_is_protocol", False):
            continue
        for name in vars(base):
            if name.startswith("_") or name in known:
                continue
            near = difflib.get_close_matches(name, _NAMES, n=1, cutoff=_CLOSE)
            if near:
                problems.append(f"{cls.__name__}.{name} is not a search hook; did you mean "
                                f"{near[0]!r}?")
    if problems:
        raise AdapterError("; ".join(problems))
