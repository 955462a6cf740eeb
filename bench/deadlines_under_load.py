"""Do the time-limited bots keep their stated limit when the process gets a fraction of a core?
Two busy-loop processes (``--busy``) run beside the benchmark the whole time; each tested
bot plays whole games against weaker bots (seats rotating; one opponent, or three in
four-player Memory Matrix and Algo level 8, a partner and two enemies in Algo pair play; two
random opening plies per game, everything seeded) until it has made ``--moves`` moves, and
every one of its ``choose`` calls is timed from the outside: wall time (what a player waits)
and CPU time (what the process got). Prints, per bot, the maximum and the 99th percentile of
the wall time beside its stated limit, how many moves passed it, the longest part of a move
after its search ended (unwinding, writing the reply, waiting for the scheduler; the
search's seconds count from the start of the move), and the load average.

    nice -n 5 .venv/bin/python bench/deadlines_under_load.py [--moves 300] [--jobs 1]
        [--bots reversi-5,reversi-6,flipflop-5x5-5,reverstargo-final,reverstargo-max,algo-5,
                memory-matrix-6,algo-8,algo-8-pair] [--busy 2]

With ``--jobs 2`` two bots are measured at once (two more busy processes: a harsher test).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from typing import Any

from asobiba.core import Rng
from asobiba.games import get


def _bots() -> dict[str, tuple[str, str, dict[str, Any], str, float]]:
    """name: (game, level, options, opponent level, stated limit in seconds)."""
    from asobiba.games.algo.rollout import TIME_LIMIT as SEER_LIMIT
    from asobiba.games.algo.search import TIME_LIMIT as ALGO_LIMIT
    from asobiba.games.flipflop.bots import PLANS
    from asobiba.games.memory_matrix.bots import TIME_LIMIT as MM_LIMIT
    from asobiba.games.reverstargo import bots as rsg

    final_limit = getattr(rsg, "FINAL_LIMIT", 2.0)  # (older trees: the figures)
    max_limit = getattr(rsg, "MAX_LIMIT", 10.0)

    ff = PLANS[5]["5"]
    assert ff is not None and ff.time_limit is not None
    return {
        "reversi-5": ("reversi", "5", {}, "2", 1.0),
        "reversi-6": ("reversi", "6", {}, "2", 1.0),
        "flipflop-5x5-5": ("flipflop", "5", {"board": "5x5"}, "3", ff.time_limit),
        "reverstargo-final": ("reverstargo", "final", {}, "advanced", final_limit),
        "reverstargo-max": ("reverstargo", "max", {}, "advanced", max_limit),
        "algo-5": ("algo", "5", {}, "4", ALGO_LIMIT),
        # four players: the tested seat against three level-4 bots
        "memory-matrix-6": ("memory_matrix", "6", {"players": 4}, "4", MM_LIMIT),
        "algo-8": ("algo", "8", {"players": 4}, "4", SEER_LIMIT),
        # pair play: the tested seat's partner and both enemies are level 4
        "algo-8-pair": ("algo", "8", {"mode": "pair", "players": 4}, "4", SEER_LIMIT),
    }


def _spin() -> None:
    while True:
        pass


def measure(name: str, moves_wanted: int) -> dict[str, Any]:
    game_id, level, options, other, limit = _bots()[name]
    game = get(game_id)
    walls: list[float] = []
    cpus: list[float] = []
    depths: list[int] = []
    after: list[float] = []  # wall time of a move after its search ended (the reply)
    stopped = 0  # searches the bot's clock cut short (bots that say so in ``last_info``)
    games = 0
    load_start = os.getloadavg()
    seats = game.num_seats(options)
    while len(walls) < moves_wanted:
        seed = 1000 + games
        tested_seat = games % seats
        bots = [game.make_bot(level if s == tested_seat else other, seed * 31 + s)
                for s in range(seats)]
        state = game.new_game(options, seed)
        rng = Rng(seed, "opening")
        for _ in range(2):
            if not state.is_over:
                legal = state.legal_moves()
                state = state.child(legal[rng.below(len(legal))])
        for s, bot in enumerate(bots):
            bot.reset(s, state.options)
            bot.observe(state.view(s))
        while not state.is_over and len(walls) < moves_wanted:
            seat = state.acting_seats[0]
            view = state.view(seat)
            if seat == tested_seat:
                w0, c0 = time.perf_counter(), time.process_time()
                text = bots[seat].choose(view)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                last = getattr(bots[seat], "last", None) or getattr(
                    bots[seat], "last_result", None)
                info = getattr(bots[seat], "last_info", None)
                depth = getattr(last, "depth", None) if last is not None else (
                    info.get("depth") if info else None)
                depths.append(int(depth) if depth is not None else -1)
                searched = getattr(last, "seconds", None) if last is not None else (
                    info.get("seconds") if info else None)
                if searched is not None:
                    after.append(walls[-1] - float(searched))
                stopped += bool(info and info.get("stopped"))
            else:
                text = bots[seat].choose(view)
            state = state.play(text, seat)
            for s, bot in enumerate(bots):
                bot.observe(state.view(s))
        games += 1
    ordered = sorted(walls)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return {"bot": name, "limit": limit, "moves": len(walls), "games": games,
            "max_wall": max(walls), "p99_wall": p99, "mean_wall": sum(walls) / len(walls),
            "over": sum(w > limit for w in walls), "mean_cpu": sum(cpus) / len(cpus),
            "max_cpu": max(cpus), "cpu_share": sum(cpus) / sum(walls),
            "max_after_search": max(after, default=0.0), "stopped": stopped,
            "mean_depth": (sum(d for d in depths if d >= 0) / sum(d >= 0 for d in depths)
                           if any(d >= 0 for d in depths) else None),
            "load_start": load_start, "load_end": os.getloadavg()}


def _measure(args: tuple[str, int]) -> dict[str, Any]:
    return measure(*args)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bots", default=",".join(_bots()))
    ap.add_argument("--jsonl", help="append one JSON line per bot to this file")
    ap.add_argument("--busy", type=int, default=2,
                    help="busy-loop processes beside the run (0: how the bots do on a quiet "
                         "machine, e.g. how often a clock cuts a search)")
    args = ap.parse_args()
    names = args.bots.split(",")
    unknown = [n for n in names if n not in _bots()]
    if unknown:
        ap.error(f"unknown bots {unknown}; known: {', '.join(_bots())}")
    spinners = [mp.Process(target=_spin, daemon=True) for _ in range(args.busy)]
    for p in spinners:
        p.start()
    print(f"{args.busy} busy loops started; load average {os.getloadavg()}; {os.cpu_count()} CPUs",
          flush=True)
    print("| bot | stated limit | moves | longest move | 99th pct | mean | over the limit "
          "| longest after the search | mean CPU | CPU share | mean depth "
          "| load avg (1 min) start → end |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    bad = 0
    try:
        with mp.Pool(args.jobs) as pool:
            for r in pool.imap(_measure, [(n, args.moves) for n in names]):
                bad += r["over"]
                print(f"| {r['bot']} | {r['limit']:.2f} s | {r['moves']} "
                      f"| {r['max_wall']:.3f} s | {r['p99_wall']:.3f} s "
                      f"| {r['mean_wall']:.3f} s | {r['over']} "
                      f"| {r['max_after_search']:.3f} s | {r['mean_cpu']:.3f} s "
                      f"| {r['cpu_share']:.0%} "
                      f"| {'—' if r['mean_depth'] is None else format(r['mean_depth'], '.1f')} "
                      f"| {r['load_start'][0]:.1f} → {r['load_end'][0]:.1f} |", flush=True)
                if r["stopped"]:
                    print(f"  ({r['bot']}: {r['stopped']} of its {r['moves']} searches "
                          "stopped by its clock)", flush=True)
                if args.jsonl:
                    with open(args.jsonl, "a") as f:
                        f.write(json.dumps(r) + "\n")
    finally:
        for p in spinners:
            p.terminate()
            p.join()
    print(f"moves over their limit: {bad}; load average at the end {os.getloadavg()}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
