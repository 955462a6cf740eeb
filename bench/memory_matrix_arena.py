"""Memory Matrix arenas: the perfect-memory top level against three level-2 bots in
4-player games, and each level against the one below in 2-player games.

Seats rotate game by game (game i puts the tested bot in seat i mod players) and game i uses
seed ``base + i``, as ``asobiba arena`` does; every game is fixed by its index, so the tables
do not depend on ``--jobs``. For the tested bot, per game: a **sole win** (first alone), a
**shared first** (first together with k-1 others) or neither. "Win share" counts a sole win
as 1 and a shared first as 1/k, so a random seat expects 1/players; in 2 players that is
W + D/2, the usual head-to-head score. "Points" is the arena's placing score (1 first … 0
last, ties averaged). Intervals are 95% normal intervals (1.96 standard errors of the
per-game values).

Run: ``nice -n 10 .venv/bin/python bench/memory_matrix_arena.py [games4] [games2] [4p|2p]
[--jobs N]`` (``4p``/``2p`` runs only the 4-player or only the 2-player tables).
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool
from typing import Any

from asobiba.games import get
from asobiba.play.runner import play_game

GAME = get("memory_matrix")


def one_game(args: tuple[str, str, int, int, int, dict[str, Any]]) -> dict[str, float]:
    """Game ``i``: ``tested`` in seat i mod players, ``other`` in every other seat."""
    tested, other, players, i, seed, options = args
    seat = i % players
    bots = [GAME.make_bot(tested if s == seat else other, seed * 7919 + i * 31 + s)
            for s in range(players)]
    start = time.perf_counter()
    result = play_game(GAME, bots, {"players": players, **options}, seed + i)
    outcome = result.states[-1].outcome
    assert outcome is not None
    firsts = outcome.ranks.count(1)
    first = outcome.ranks[seat] == 1
    return {"seat": seat, "sole": float(first and firsts == 1),
            "shared": float(first and firsts > 1), "share": first / firsts if first else 0.0,
            "points": outcome.points(seat), "mine": outcome.scores[seat],
            "theirs": (sum(outcome.scores) - outcome.scores[seat]) / (players - 1),
            "dead": float(max(outcome.scores) == 0), "seconds": time.perf_counter() - start}


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def match(tested: str, other: str, players: int, games: int, seed: int,
          options: dict[str, Any], jobs: int) -> dict[str, Any]:
    tasks = [(tested, other, players, i, seed, options) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            rows = pool.map(one_game, tasks, chunksize=1)
    else:
        rows = [one_game(t) for t in tasks]
    out: dict[str, Any] = {"games": games, "wall": time.perf_counter() - start,
                           "rows": rows, "players": players}
    for key in ("sole", "shared", "dead", "mine", "theirs", "seconds"):
        out[key] = sum(r[key] for r in rows)
    for key in ("share", "points"):
        out[key] = mean_ci([r[key] for r in rows])
    out["sole_ci"] = mean_ci([r["sole"] for r in rows])
    out["by_seat"] = [sum(r["share"] for r in rows if r["seat"] == s)
                      / max(1, sum(1 for r in rows if r["seat"] == s))
                      for s in range(players)]
    return out


def pct(m: tuple[float, float]) -> str:
    return f"{100 * m[0]:.1f}% ± {100 * m[1]:.1f}"


def row(label: str, r: dict[str, Any]) -> str:
    n = r["games"]
    sole, shared = int(r["sole"]), int(r["shared"])
    lost = n - sole - shared
    seats = " / ".join(f"{100 * v:.0f}%" for v in r["by_seat"])
    return (f"| {label} | {n} | {sole}-{shared}-{lost} | {pct(r['share'])} "
            f"| {pct(r['sole_ci'])} | {shared} ({int(r['dead'])} at 0-0) "
            f"| {r['points'][0]:.3f} ± {r['points'][1]:.3f} "
            f"| {r['mine'] / n:.1f} vs {r['theirs'] / n:.1f} | {seats} "
            f"| {r['seconds'] / n:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games4", nargs="?", type=int, default=100)
    parser.add_argument("games2", nargs="?", type=int, default=100)
    parser.add_argument("only", nargs="?", default="", choices=["", "4p", "2p"])
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    levels = GAME.level_names()
    top = levels[-1]
    print("W-D-L = sole wins - shared firsts - other places of the tested (first named) bot;"
          " by seat = win share with the tested bot in seat 1 / 2 / …")
    print("| match | games | W-D-L | win share | sole wins | shared firsts | points "
          "| mean score | by seat | s/game |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    if args.only != "2p":
        print(row(f"4p: level {top} vs three level 2",
                  match(top, "2", 4, args.games4, 1000, {}, args.jobs)), flush=True)
        print(row("4p: level 2 vs three level 2 (baseline)",
                  match("2", "2", 4, args.games4, 1000, {}, args.jobs)), flush=True)
    if args.only == "4p":
        return
    for name, options in (("2p default (white any time)", {}),
                          ("2p, white_any_time=false", {"white_any_time": False})):
        for low, high in zip(levels, levels[1:]):
            r = match(high, low, 2, args.games2, 2000, options, args.jobs)
            print(row(f"{name}: level {high} vs {low}", r), flush=True)


if __name__ == "__main__":
    main()
