"""Arena (lichess style): for a fixed time, a player who finishes a game is paired again as
soon as another is free.

Points: a win 2, a draw 1, a loss 0. **Streak bonus**: after two wins in a row a player is
*on fire*: each further game counts double (a win 4, a draw 2) until a game that is not a
win (that game already counts double; the fire then goes out).

Pairing of the players free now (:func:`pair_free`): a maximum-weight matching (networkx)
that pairs as many as it can, never pairs a player with his last opponent (no immediate
rematch) nor a pair that has already played ``pair_cap`` games in this tournament (no
farming: docs/fair-play.md), and prefers close scores (then close ratings). A player left
unpaired waits for the next free player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

#: Games one pair may play in one Arena (docs/tournaments.md, docs/fair-play.md).
PAIR_CAP = 3


def points(results: Iterable[float]) -> tuple[int, bool]:
    """(points, on fire now) of a player's finished games in order (1, 0.5, 0)."""
    total, streak = 0, 0
    for outcome in results:
        fire = streak >= 2
        base = 2 if outcome == 1 else 1 if outcome == 0.5 else 0
        total += base * (2 if fire else 1)
        streak = streak + 1 if outcome == 1 else 0
    return total, streak >= 2


@dataclass(frozen=True)
class Free:
    """A player free to play now."""

    player: int
    score: int
    rating: float = 0.0
    last_opponent: int | None = None
    whites: int = 0
    blacks: int = 0


def pair_free(free: Sequence[Free], pair_games: dict[frozenset[int], int],
              pair_cap: int = PAIR_CAP) -> list[tuple[int, int]]:
    """(white, black) pairs among ``free``; ``pair_games``: games so far of each pair."""
    by_score = sorted(free, key=lambda f: (-f.score, -f.rating, f.player))
    pairs = _match(by_score, pair_games, pair_cap, WINDOW)
    if len(pairs) < len(free) // 2:  # the window left some unpaired: every pair
        pairs = _match(by_score, pair_games, pair_cap, None)
    by = {f.player: f for f in free}
    out = []
    for a, b in pairs:
        fa, fb = by[a], by[b]
        # colour: the one with fewer whites (relative to blacks) takes white
        if (fa.whites - fa.blacks, a) <= (fb.whites - fb.blacks, b):
            out.append((a, b))
        else:
            out.append((b, a))
    out.sort()
    return out


#: Arena pairs a player with the ``WINDOW`` nearest below him in the standings first.
WINDOW = 8


def _match(free: Sequence[Free], pair_games: dict[frozenset[int], int], pair_cap: int,
           window: int | None) -> list[tuple[int, int]]:
    graph: nx.Graph[int] = nx.Graph()
    top_s = max((f.score for f in free), default=0) - min((f.score for f in free), default=0)
    reach = len(free) if window is None else window
    for i, a in enumerate(free):
        for b in free[i + 1:i + 1 + reach]:
            if a.last_opponent == b.player or b.last_opponent == a.player:
                continue
            if pair_games.get(frozenset((a.player, b.player)), 0) >= pair_cap:
                continue
            ds = abs(a.score - b.score)
            dr = min(int(abs(a.rating - b.rating)), 999)
            # close scores first, then close ratings (integers, exact)
            graph.add_edge(a.player, b.player, weight=(top_s - ds + 1) * 1000 + (999 - dr))
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    return [(int(a), int(b)) for a, b in matching]
