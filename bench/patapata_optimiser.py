"""Patapata optimiser benchmark: mean score over seeded random (dice) courses.

For each course the optimiser sees the whole course (the solver's setting) and plays it with
beam search at several widths; greedy play (width 1) is the baseline in the same run. Prints
the mean, the distribution, the ratings reached, the time per course, and the upper bound
of :func:`optimiser.upper_bound` with the gap to it.

    nice -n 10 .venv/bin/python bench/patapata_optimiser.py [--courses 100] [--widths 1,64,256] [--portfolio 16,32,64]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from asobiba.games.patapata.optimiser import beam_search, optimise, upper_bound
from asobiba.games.patapata.scoring import TABLES
from asobiba.games.patapata.tasks import course_tasks, dice_course


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--courses", type=int, default=100)
    ap.add_argument("--widths", default="1,64,256",
                    help="beam widths for the single-key beam (the baseline)")
    ap.add_argument("--portfolio", default="16,32,64",
                    help="beam widths for optimise() (one beam per rank key, best kept)")
    ap.add_argument("--scores", default="standard", choices=tuple(TABLES))
    args = ap.parse_args()
    table = TABLES[args.scores]
    runs = [("beam", int(w)) for w in args.widths.split(",") if w]
    runs += [("portfolio", int(w)) for w in args.portfolio.split(",") if w]
    courses = [course_tasks(dice_course(seed)) for seed in range(args.courses)]
    bounds = [upper_bound(c, table=table) for c in courses]
    print(f"{args.courses} dice courses (seeds 0..{args.courses - 1}), score table "
          f"{args.scores}; upper bound mean {statistics.mean(bounds):.1f} "
          f"(min {min(bounds)}, max {max(bounds)})")
    baseline = None
    for kind, width in runs:
        search = optimise if kind == "portfolio" else beam_search
        scores, times = [], []
        for course in courses:
            t0 = time.perf_counter()
            plan = search(course, width=width, table=table)
            times.append(time.perf_counter() - t0)
            scores.append(plan.total)
        mean = statistics.mean(scores)
        baseline = baseline or mean
        gaps = [b - s for b, s in zip(bounds, scores, strict=True)]
        ratings = Counter(table.rating(s)[0] for s in scores)
        hist = Counter(scores)
        print(f"\n{kind} width {width:4d}: mean {mean:.2f} (x{mean / baseline:.3f} of the "
              f"first run), median {statistics.median(scores)}, min {min(scores)}, "
              f"max {max(scores)}, sd {statistics.pstdev(scores):.2f}")
        print(f"  time per course: mean {statistics.mean(times):.2f} s, "
              f"max {max(times):.2f} s")
        print(f"  gap to upper bound: mean {statistics.mean(gaps):.2f}, min {min(gaps)}, "
              f"max {max(gaps)}")
        print("  ratings: " + ", ".join(f"{k} {v}" for k, v in ratings.most_common()))
        print("  scores: " + " ".join(f"{s}:{hist[s]}" for s in sorted(hist)))


if __name__ == "__main__":
    main()
