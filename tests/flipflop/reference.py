"""A slow, independent reference: bounded AND/OR search on protocol states.

It uses only the public State API (``legal_moves``, ``play``, ``is_over``, ``outcome``), so
it applies the game's real rules, the repetition rule with the full history included. It
answers "can the side to move force a win within d plies?" exactly.
"""

from __future__ import annotations

from typing import Any

WIN, LOSS = 1, 2


def _won_by_mover(state: Any) -> bool:
    out = state.outcome
    return out is not None and not out.is_draw and out.ranks[state.turn] == 1


def _lost_by_mover(state: Any) -> bool:
    out = state.outcome
    return out is not None and not out.is_draw and out.ranks[state.turn] == 2


def win_within(state: Any, d: int) -> bool:
    if state.is_over:
        return _won_by_mover(state)
    if d <= 0:
        return False
    return any(loss_within(state.play(m), d - 1) for m in state.legal_moves())


def loss_within(state: Any, d: int) -> bool:
    if state.is_over:
        return _lost_by_mover(state)
    if d <= 0:
        return False
    return all(win_within(state.play(m), d - 1) for m in state.legal_moves())


def exact(state: Any, max_depth: int) -> tuple[int, int] | None:
    """(WIN or LOSS, plies) if the game is decided within ``max_depth`` plies under best
    play (fastest win, slowest loss), else None."""
    for d in range(max_depth + 1):
        if win_within(state, d):
            return WIN, d
        if loss_within(state, d):
            return LOSS, d
    return None
