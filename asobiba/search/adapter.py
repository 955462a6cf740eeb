"""The small interface search code needs from a game.

A game offers its search positions through an adapter, so the hot loop can use the game's
own fast representation (bitboards, tuples) instead of protocol states. ``StateAdapter``
wraps any protocol state for games that have no faster one.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from ..core import State


class Adapter(Protocol):
    def moves(self, pos: Any) -> Sequence[Any]: ...
    def play(self, pos: Any, move: Any) -> Any: ...
    def player(self, pos: Any) -> int: ...
    def is_terminal(self, pos: Any) -> bool: ...
    def terminal_value(self, pos: Any) -> float:
        """Exact value for ``player(pos)`` (e.g. disc difference, or ±WIN)."""
        ...
    def evaluate(self, pos: Any) -> float:
        """Heuristic value for ``player(pos)``."""
        ...
    def key(self, pos: Any) -> Hashable: ...


class StateAdapter:
    """Search directly on protocol states (slower, but works for every game).

    ``evaluator(state, seat)`` gives the heuristic; terminal values are the outcome's score
    difference for two seats (winner positive), scaled so they dominate any heuristic.
    """

    WIN = 1_000_000.0

    def __init__(self, evaluator: Any = None) -> None:
        self.evaluator = evaluator

    def moves(self, pos: State) -> Sequence[Any]:
        return pos.legal_moves()

    def play(self, pos: State, move: Any) -> State:
        return pos.child(move)

    def player(self, pos: State) -> int:
        seat = pos.to_move
        return -1 if seat is None else seat

    def is_terminal(self, pos: State) -> bool:
        return pos.is_over

    def terminal_value(self, pos: State) -> float:  # for seat 0's opponent model: 2 seats
        raise NotImplementedError("terminal_value needs the seat; use returns()")

    def returns(self, pos: State) -> list[float]:
        outcome = pos.outcome
        assert outcome is not None
        return [outcome.points(s) for s in range(len(outcome.ranks))]

    def evaluate(self, pos: State) -> float:
        return 0.0 if self.evaluator is None else float(self.evaluator(pos, pos.to_move))

    def key(self, pos: State) -> Hashable:
        import json

        return json.dumps(pos.to_json(), sort_keys=True)
