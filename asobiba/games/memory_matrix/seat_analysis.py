"""Memory Matrix on the analysis board: what the seat can know of each white piece — the
colour it saw beneath it, that it is neutral, or nothing (it was white before this seat
could tell). Replays the seat's views through a perfect :class:`memory.Memory` (no
forgetting), so it says exactly what a flawless memory of this seat holds."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.jsontypes import JSONMapping, JSONObject
from .memory import NEUTRAL, Memory, _cells_showing
from .palette import LETTERS, WHITE
from .views import memory_matrix_view


def seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    memory = Memory()
    for view in views:
        memory.observe(view)
    pieces: list[JSONObject] = []
    for name in _cells_showing(list(memory_matrix_view(views[-1])["board"]), WHITE):
        known = memory.known.get(name)
        pieces.append({"cell": name,
                       "known": None if known is None
                       else "neutral" if known == NEUTRAL else LETTERS[known]})
    return {"kind": "memory_matrix", "pieces": pieces}
