"""Build exact Algo deals for rule tests."""

from __future__ import annotations

from typing import Any

from asobiba.games.algo import GAME, AlgoState, deal_from
from asobiba.games.algo.cards import deck, parse_card


def dealt(hands: list[str], pile: str = "", **raw: Any) -> AlgoState:
    """A game whose hands and pile top are given as card names; the rest of the deck
    follows the pile in key order. ``hands`` are space-separated card names per seat."""
    raw.setdefault("players", len(hands))
    opts = GAME.validate_options(raw)
    c = opts["colours"]
    order = [parse_card(t, c) for h in hands for t in h.split()]
    assert all(len(h.split()) == opts["hand"] for h in hands), "hand size differs"
    order += [parse_card(t, c) for t in pile.split()]
    rest = deck(c, opts["sets"])
    for k in order:
        rest.remove(k)
    return deal_from(opts, order + rest)


def names(state: AlgoState, seat: int) -> list[str]:
    """A row as ``b3`` (face down) / ``B3`` (face up)."""
    c = state.colours
    out = []
    for _, k, up in state.rows[seat]:
        text = "bwr"[k % c] + str(k // c)
        out.append(text.upper() if up else text)
    return out
