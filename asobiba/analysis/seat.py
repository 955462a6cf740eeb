"""Hidden-information analysis from one seat's knowledge: the game's ``seat_analysis`` hook
is handed that seat's views of the line (oldest first) and nothing else — never a state."""

from __future__ import annotations

from typing import cast

from ..core.jsontypes import JSONObject
from .position import AnalysisError, Position


def seat_views(position: Position, seat: int) -> list[JSONObject]:
    """What ``seat`` saw at each ply of the position's line (the last: now)."""
    if not 0 <= seat < position.state.num_seats:
        raise AnalysisError("analysis_bad_seat", seat=seat)
    return [cast(JSONObject, s.view(seat)) for s in position.states]


def seat_analysis(position: Position, seat: int) -> JSONObject:
    hook = position.game.progression().seat_analysis
    if hook is None:
        raise AnalysisError("analysis_no_seat_analysis", game=position.game.id)
    return hook(position.options, seat_views(position, seat))
