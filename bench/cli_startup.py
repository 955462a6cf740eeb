"""CLI start-up cost: CPU time of ``asobiba games`` and ``asobiba replay ...`` against the
peer ``python -c pass`` in the same run (issue 17 item 6: at most 0.3 s CPU on top).

Each command runs ``--repeat`` times as a child process; its CPU time (user + system) comes
from ``resource.getrusage(RUSAGE_CHILDREN)`` around the child, so other processes on a busy
machine do not count. The minimum over the runs is the figure (the least disturbed run);
the median and the wall time are printed beside it, with the load average.

    .venv/bin/python bench/cli_startup.py            # 15 runs each
    .venv/bin/python bench/cli_startup.py --repeat 5 --check   # exit 1 above the target
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from asobiba.cli.main import main; main()"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import asobiba.cli.main": [sys.executable, "-c", "import asobiba.cli.main"],
    "asobiba games": [*CLI, "games"],
    "asobiba games --json": [*CLI, "games", "--json"],
    "asobiba replay reversi d3 c5 f6": [*CLI, "replay", "reversi", "d3", "c5", "f6"],
    "asobiba replay flipflop --json": [*CLI, "replay", "flipflop", "Rb1xb3", "--json"],
}
TARGET = 0.3


def measure(args: list[str]) -> tuple[list[float], list[float]]:
    cpu, wall = [], []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    wall.append(time.perf_counter() - t0)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(args[3:])} failed:\n{done.stderr[-2000:]}")
    cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--check", action="store_true", help="exit 1 if over the target")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"# CLI start-up, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    results: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in COMMANDS}
    for _ in range(args.repeat):  # interleaved, so a burst of load hits every command alike
        for name, cmd in COMMANDS.items():
            cpu, wall = measure(cmd)
            results[name][0].extend(cpu)
            results[name][1].extend(wall)
    base = min(results["python -c pass"][0])
    print(f"{'command':34} {'CPU min':>8} {'CPU med':>8} {'over pass':>10} {'wall med':>9}")
    worst = 0.0
    for name, (cpu, wall) in results.items():
        over = min(cpu) - base
        if name.startswith("asobiba"):
            worst = max(worst, over)
        print(f"{name:34} {min(cpu):8.3f} {statistics.median(cpu):8.3f} {over:10.3f} "
              f"{statistics.median(wall):9.3f}")
    verdict = "meets" if worst <= TARGET else "MISSES"
    print(f"worst asobiba command: {worst:.3f} s CPU over `python -c pass` — {verdict} the "
          f"target of {TARGET} s")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 1 if args.check and worst > TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
