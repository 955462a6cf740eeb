"""Memory Matrix arenas: the perfect-memory top level against three level-2 bots in
4-player games, and each level against the one below in 2-player games.

Seats rotate game by game (game i puts the tested bot in seat i mod players) and game i uses
seed ``base + i``, as ``asobiba arena`` does. "Win share" counts a sole win as 1 and a win
shared by k players as 1/k, so a random seat expects 1/players; "points" is the arena's
placing score (1 first … 0 last, ties averaged), so 0.5 is an even match.

Run: ``nice -n 10 .venv/bin/python bench/memory_matrix_arena.py [games4] [games2] [4p|2p]``
(the last argument runs only the 4-player or only the 2-player tables).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from asobiba.games import get
from asobiba.play.runner import play_game

GAME = get("memory_matrix")


def match(tested: str, other: str, players: int, games: int, seed: int,
          options: dict[str, Any]) -> dict[str, float]:
    """``tested`` in one seat (rotating), ``other`` in every other seat."""
    share = sole = points = mine = theirs = 0.0
    start = time.perf_counter()
    for i in range(games):
        seat = i % players
        bots = [GAME.make_bot(tested if s == seat else other, seed * 7919 + i * 31 + s)
                for s in range(players)]
        result = play_game(GAME, bots, {"players": players, **options}, seed + i)
        outcome = result.states[-1].outcome
        assert outcome is not None
        firsts = outcome.ranks.count(1)
        if outcome.ranks[seat] == 1:
            share += 1 / firsts
            sole += firsts == 1
        points += outcome.points(seat)
        mine += outcome.scores[seat]
        theirs += (sum(outcome.scores) - outcome.scores[seat]) / (players - 1)
    return {"games": games, "share": share / games, "sole": sole / games,
            "points": points / games, "mine": mine / games, "theirs": theirs / games,
            "seconds": time.perf_counter() - start}


def row(label: str, r: dict[str, float]) -> str:
    return (f"| {label} | {r['games']} | {100 * r['share']:.0f}% | {100 * r['sole']:.0f}% "
            f"| {r['points']:.2f} | {r['mine']:.1f} vs {r['theirs']:.1f} | {r['seconds']:.0f} s |")


def main() -> None:
    games4 = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    games2 = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    levels = GAME.level_names()
    top = levels[-1]
    print("| match | games | win share | sole wins | points | mean score | time |")
    print("|---|---|---|---|---|---|---|")
    if only != "2p":
        print(row(f"4p: level {top} vs three level 2", match(top, "2", 4, games4, 1000, {})),
              flush=True)
        print(row("4p: level 2 vs three level 2 (baseline)",
                  match("2", "2", 4, games4, 1000, {})), flush=True)
    if only == "4p":
        return
    for name, options in (("2p, white_any_time=false", {"white_any_time": False}),
                          ("2p default (white any time)", {})):
        for low, high in zip(levels, levels[1:]):
            r = match(high, low, 2, games2, 2000, options)
            print(row(f"{name}: level {high} vs {low}", r), flush=True)


if __name__ == "__main__":
    main()
