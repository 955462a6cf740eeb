"""A round (回戦): every player deals (and starts) once — seed, pair play:
「４人が１回ずつ親をやったら１回戦が終了です」. Chip scores add up over the round.

One game state is one deal; running the deals is for the caller (a match or series), so
this module only says which games make a round and how their chips add up.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import Outcome
from ...core.jsontypes import JSONMapping, JSONObject


def round_options(options: JSONMapping) -> list[JSONObject]:
    """The options of each game of a round: the dealer (``first``) moves one seat right."""
    from .game import GAME

    opts = GAME.validate_options(options)
    return [{**opts, "first": dealer} for dealer in range(opts["players"])]


def round_totals(outcomes: Sequence[Outcome]) -> list[float]:
    """Each seat's total over the round's games (chips, when chip scoring is on)."""
    if not outcomes:
        return []
    return [sum(o.scores[s] for o in outcomes) for s in range(len(outcomes[0].scores))]
