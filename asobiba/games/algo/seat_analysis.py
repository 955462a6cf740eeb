"""Algo on the analysis board: the exact posterior of every card the seat cannot see (the
exact inference of ``infer.py``, all consistent deals equally likely) and the best guess —
the legal attack most likely to hit, with its probability. From the seat's last view only."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.jsontypes import JSONMapping, JSONObject
from .infer import Inconsistent, infer_view
from .views import algo_view


def seat_analysis(options: JSONMapping, views: Sequence[JSONMapping]) -> JSONObject:
    view = algo_view(views[-1])
    labels = {int(card["id"]): f"{chr(65 + r)}{i + 1}"
              for r, row in enumerate(view["rows"]) for i, card in enumerate(row)}
    try:
        inference = infer_view(view)
    except Inconsistent:
        return {"kind": "algo", "cards": [], "best": None}
    cards: list[JSONObject] = []
    for sid in sorted(inference.counts, key=lambda s: labels.get(s, str(s))):
        numbers = inference.numbers(sid)
        if not numbers:
            continue
        cards.append({"card": labels.get(sid, str(sid)),
                      "numbers": {str(n): round(p, 6) for n, p in numbers.items()}})
    legal = {str(m) for m in view.get("legal_moves", [])}
    best: JSONObject | None = None
    for p, sid, number in inference.best():
        move = f"attack {labels.get(sid)}={number}"
        if not legal or move in legal:
            best = {"card": labels.get(sid, str(sid)), "number": number,
                    "p": round(p, 6), "move": move if move in legal else None}
            break
    return {"kind": "algo", "cards": cards, "best": best}
