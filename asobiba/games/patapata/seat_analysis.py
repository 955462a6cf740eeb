"""Patapata on the analysis board: the best continuations for the current task (the hints'
ranking: the sheet's score now, one task of lookahead, a beam search over the rest of the
course for the best few). From the seat's last view only; the sheet itself is drawn from
that view, so the analysis does not repeat it."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.jsontypes import JSONMapping, JSONObject
from .hints import hints
from .views import patapata_view

SHOWN = 3


def seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    view = patapata_view(views[-1])
    if view["over"] or not view["legal_moves"]:
        return {"kind": "patapata", "ways": []}
    ways = hints(view, searched=SHOWN)
    return {"kind": "patapata", "ways": [w.to_json() for w in ways[:SHOWN]]}
