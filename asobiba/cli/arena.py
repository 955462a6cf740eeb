"""Bots against each other with seats rotated; wins/draws/losses and an Elo difference."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core import Bot, Game, Outcome
from ..core.jsontypes import JSONObject
from ..play.reverse import play_reverse
from ..play.runner import play_game

GameHook = Callable[[list[str], Outcome, int], None]
"""Called after every game with the bot specs by seat, the outcome and the game's seed (e.g. to
rate the game: ``asobiba arena --rate``)."""


@dataclass
class BotTally:
    spec: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    points_sq: float = 0.0
    scores: list[float] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        mean = self.points / self.games if self.games else 0.0
        return {"bot": self.spec, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "points": self.points, "mean_points": mean,
                "mean_score": sum(self.scores) / len(self.scores) if self.scores else 0.0}


def elo_difference(mean: float, sd: float, n: int) -> tuple[float, float, float]:
    """Elo of a score fraction with a 95% interval (normal approximation on the mean)."""
    def elo(p: float) -> float:
        p = min(max(p, 1e-4), 1 - 1e-4)
        return -400.0 * math.log10(1.0 / p - 1.0)

    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.5
    return elo(mean), elo(mean - half), elo(mean + half)


def run_arena(
    game: Game,
    specs: Sequence[str],
    make: Callable[[str, int], Bot],
    games: int,
    seed: int = 0,
    options: JSONObject | None = None,
    progress: Callable[[int], None] | None = None,
    on_game: GameHook | None = None,
) -> JSONObject:
    """Play ``games`` games; game ``i`` puts bot ``(seat + i) % k`` in each seat (seats
    rotated), with seed ``seed + i``. Returns per-bot tallies and, for two bots, Elo."""
    n_seats = game.num_seats(game.validate_options(options))
    if len(specs) != n_seats:
        raise ValueError(f"{game.id} has {n_seats} seats here: give {n_seats} --bot options")
    tallies = [BotTally(s) for s in specs]
    k = len(specs)
    for i in range(games):
        order = [(seat + i) % k for seat in range(n_seats)]
        bots = [make(specs[b], seed * 1_000_003 + i * 101 + seat) for seat, b in enumerate(order)]
        result = play_game(game, bots, options, seed + i)
        outcome = result.states[-1].outcome
        assert outcome is not None
        if on_game:
            on_game([specs[b] for b in order], outcome, seed + i)
        for seat, b in enumerate(order):
            t = tallies[b]
            t.games += 1
            rank = outcome.ranks[seat]
            tied_first = outcome.ranks.count(1) > 1
            if rank == 1 and not tied_first:
                t.wins += 1
            elif rank == 1:
                t.draws += 1
            else:
                t.losses += 1
            pts = outcome.points(seat)
            t.points += pts
            t.points_sq += pts * pts
            t.scores.append(float(outcome.scores[seat]))
        if progress:
            progress(i + 1)
    out: JSONObject = {"game": game.id, "options": game.validate_options(options),
                           "games": games, "seed": seed, "bots": [t.to_json() for t in tallies]}
    if k == 2 and games:
        a = tallies[0]
        mean = a.points / a.games
        var = max(a.points_sq / a.games - mean * mean, 0.0)
        e, lo, hi = elo_difference(mean, math.sqrt(var), a.games)
        out["elo"] = {"first_minus_second": e, "low95": lo, "high95": hi}
    return out


def run_reverse_arena(
    game: Game,
    specs: Sequence[str],
    make: Callable[[str, int], Bot],
    matches: int,
    seed: int = 0,
    options: JSONObject | None = None,
    progress: Callable[[int], None] | None = None,
    on_game: GameHook | None = None,
) -> JSONObject:
    """Reverse matches between two bots: each match is two games with the same seed (so the
    same chance), colours swapped; the summed scores decide, then the game's
    ``match_tiebreak`` summed (ReverStarGo: captures). Who takes the first seat alternates
    from match to match, as the seed's sets alternate colours."""
    opts = game.validate_options(options)
    if game.num_seats(opts) != 2 or len(specs) != 2:
        raise ValueError("reverse matches need a two-seat game and exactly two --bot options")
    tallies = [BotTally(s) for s in specs]
    points_a: list[float] = []
    for i in range(matches):
        first_a = 0 if i % 2 == 0 else 1  # A takes seat 0 first in even-numbered matches

        def bot_maker(b: int, i: int = i) -> Callable[[int, int], Bot]:
            return lambda lg, st: make(specs[b], seed * 1_000_003 + i * 101 + lg * 7 + st)

        scored, results = play_reverse(game, bot_maker(0), bot_maker(1), opts, seed + i,
                                       first_a)
        if on_game:
            for leg, result in enumerate(results):
                a_seat = first_a if leg == 0 else 1 - first_a
                order = [0, 1] if a_seat == 0 else [1, 0]  # order[seat] = bot index
                outcome = result.states[-1].outcome
                assert outcome is not None
                on_game([specs[b] for b in order], outcome, seed + i)
        totals = scored.totals
        pa = scored.points(0)
        points_a.append(pa)
        for b, pts in ((0, pa), (1, 1.0 - pa)):
            t = tallies[b]
            t.games += 1
            t.wins += pts == 1.0
            t.draws += pts == 0.5
            t.losses += pts == 0.0
            t.points += pts
            t.points_sq += pts * pts
            t.scores.append(totals[b])
        if progress:
            progress(i + 1)
    out: JSONObject = {"game": game.id, "options": opts, "format": "reverse",
                           "matches": matches, "seed": seed,
                           "bots": [t.to_json() for t in tallies]}
    if matches:
        mean = sum(points_a) / matches
        var = max(sum(p * p for p in points_a) / matches - mean * mean, 0.0)
        e, lo, hi = elo_difference(mean, math.sqrt(var), matches)
        out["elo"] = {"first_minus_second": e, "low95": lo, "high95": hi}
    return out
