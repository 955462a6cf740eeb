"""Patapata bots through the runner (views only, the rest of a dice course unknown to them):
mean score per level over seeded dice courses, next to the whole-course optimiser.

    nice -n 10 .venv/bin/python bench/patapata_bots.py [--courses 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

from asobiba.games.patapata import GAME
from asobiba.games.patapata.optimiser import optimise
from asobiba.games.patapata.tasks import course_tasks, dice_course
from asobiba.play.runner import play_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--courses", type=int, default=20)
    ap.add_argument("--levels", default="random,greedy,god")
    args = ap.parse_args()
    seeds = range(args.courses)
    t0 = time.perf_counter()
    full = [optimise(course_tasks(dice_course(s)), width=32).total for s in seeds]
    print(f"{args.courses} dice courses; whole-course optimiser (sees every task, width 32): "
          f"mean {statistics.mean(full):.2f} "
          f"({(time.perf_counter() - t0) / args.courses:.2f} s per course)")
    for level in args.levels.split(","):
        t0 = time.perf_counter()
        scores = [play_game(GAME, [GAME.make_bot(level, s)], {"course": "dice"}, s)
                  .states[-1].outcome.scores[0] for s in seeds]
        dt = (time.perf_counter() - t0) / args.courses
        print(f"bot {level:7s}: mean {statistics.mean(scores):.2f}, min {min(scores)}, "
              f"max {max(scores)}, {statistics.mean(scores) / statistics.mean(full):.3f} of "
              f"the optimiser, {dt:.2f} s per course")


if __name__ == "__main__":
    main()
