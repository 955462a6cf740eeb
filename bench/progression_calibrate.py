"""Calibrate bot ratings: round-robins between bot levels rated with Glicko-2, as the ladder
and leaderboards use them. Prints each level's rating and deviation and the time taken.

    nice -n 10 .venv/bin/python bench/progression_calibrate.py [game] [rounds] [levels...]

Defaults: reversi, 10 rounds, levels random 1 2 3 4 (5 and 6 think up to 1 s a move).
"""

from __future__ import annotations

import sys
import time

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from asobiba.progression.calibrate import calibrate_bots
from asobiba.progression.models import create_all


def main(argv: list[str]) -> None:
    game = argv[0] if argv else "reversi"
    rounds = int(argv[1]) if len(argv) > 1 else 10
    levels = argv[2:] or ["random", "1", "2", "3", "4"]
    engine = create_engine("sqlite://")
    create_all(engine)
    t0 = time.perf_counter()
    with Session(engine) as s:
        rows = calibrate_bots(s, game, levels, rounds=rounds, seed=2026)
        s.commit()
    secs = time.perf_counter() - t0
    games = sum(r.games for r in rows) // 2
    print(f"{game}: {games} games in {secs:.1f} s ({rounds} rounds, levels at most 2 apart)")
    for r in rows:
        print(f"  level {r.level:>12}: {r.rating:7.1f} ± {r.deviation:5.1f}  ({r.games} games)")


if __name__ == "__main__":
    main(sys.argv[1:])
