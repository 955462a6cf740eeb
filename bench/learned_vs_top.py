"""Reversi's learned level (7) against today's top level (6): paired openings, colours swapped,
equal time per move (issue 31 item 1).

Openings: the distinct positions four plies from the start (the 244 move orders give fewer
positions; mirror images are kept apart), sorted by their moves, every k-th taken so that
``--openings`` of them spread over the set. Each opening is played twice, level 7 Black then
White, against level 6; both sides get the same ``--time`` seconds a move (level 6 ships with
1.0 s; ``MoveClock`` keeps the same load-dependent reserve for both). The score counts a win 1
and a draw ½; its 95 % interval is the normal one over the *pairs* (an opening's two games
are one sample: what the opening gives one colour it takes from the other).

Prints wins/draws/losses, the score and interval, the CPU seconds of the run and of each
side's moves, and the load average before and after. ``--target`` is the issue's 0.70; the
ladder's floor is 0.60.

    nice -n 5 .venv/bin/python bench/learned_vs_top.py --openings 40 --time 0.25
    .venv/bin/python bench/learned_vs_top.py          # 2 openings: a smoke run (make bench)

On two cores, ``--part 0/2`` and ``--part 1/2`` split the openings between two processes
(each writing ``--jsonl``), and ``--summary A.jsonl B.jsonl`` prints the figures of them all.

Needs the ``learned`` extra (NumPy).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.games.reversi.bots import AlphaBetaBot  # noqa: E402
from asobiba.games.reversi.game import GAME, ReversiState  # noqa: E402
from asobiba.games.reversi.learned import WEIGHTS, LearnedBot  # noqa: E402
from asobiba.learn.ntuple import NTuple  # noqa: E402
from bench.paired import PairedScore, cost_line, pairs_by  # noqa: E402


def openings(count: int, plies: int = 4) -> list[list[str]]:
    """``count`` distinct positions ``plies`` moves in, spread over the sorted set."""
    found: dict[tuple[int, int, int], list[str]] = {}

    def walk(state: ReversiState, moves: list[str]) -> None:
        if len(moves) == plies or state.is_over:
            found.setdefault((state.black, state.white, state.turn), moves)
            return
        for text in state.legal_moves().texts():
            walk(state.play(text), [*moves, text])

    walk(GAME.new_game(), [])
    every = sorted(found.values())
    if count >= len(every):
        return every
    step = len(every) / count
    return [every[int(i * step)] for i in range(count)]


def play(opening: list[str], learned_seat: int, seconds: float, seed: int,
         model: NTuple | None = None) -> dict[str, Any]:
    state = GAME.new_game()
    for text in opening:
        state = state.play(text)
    bots = {learned_seat: LearnedBot(seed, time_limit=seconds, model=model),
            1 - learned_seat: AlphaBetaBot(6, seed, time_limit=seconds)}
    for seat, bot in bots.items():
        bot.reset(seat, state.options)
    cpu = {0: 0.0, 1: 0.0}
    depth: dict[int, list[int]] = {0: [], 1: []}
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        c0 = time.process_time()
        text = bots[seat].choose(state.view(seat))
        cpu[seat] += time.process_time() - c0
        last = bots[seat].last_result
        if last is not None and len(state.legal_moves().texts()) > 1:
            depth[seat].append(last.depth)
        state = state.play(text)
    points = state.outcome.points(learned_seat) if state.outcome is not None else 0.5
    b, w = state.counts()
    return {"opening": " ".join(opening), "learned": "black" if learned_seat == 0 else "white",
            "points": points, "black": b, "white": w,
            "learned_cpu": round(cpu[learned_seat], 2), "top_cpu": round(cpu[1 - learned_seat], 2),
            "learned_depth": round(statistics.fmean(depth[learned_seat] or [0]), 2),
            "top_depth": round(statistics.fmean(depth[1 - learned_seat] or [0]), 2)}


def summary(rows: list[dict[str, Any]], target: float) -> None:
    """Wins/draws/losses, the score with its 95 % interval over opening pairs, CPU seconds."""
    result = PairedScore.of(pairs_by(rows, "opening"))
    print(result.line("level 7 vs level 6"))
    print(cost_line(rows, "level 7", "level 6"))
    print(result.verdict(target))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openings", type=int, default=2, help="openings, each played twice")
    ap.add_argument("--time", type=float, default=0.25, help="seconds a move, both sides")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=float, default=0.70)
    ap.add_argument("--jsonl", type=Path, help="append one JSON line per game here")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="level 7's tables (default: the shipped ones)")
    ap.add_argument("--part", default="0/1", help="K/N: play the openings i with i %% N == K")
    ap.add_argument("--summary", type=Path, nargs="+",
                    help="print the figures of these JSONL files and stop")
    args = ap.parse_args(argv)
    if args.summary:
        summary([json.loads(line) for f in args.summary
                 for line in f.read_text(encoding="utf-8").splitlines() if line.strip()],
                args.target)
        return 0
    k, parts = (int(x) for x in args.part.split("/"))

    model = NTuple.load(args.weights)
    load0 = os.getloadavg()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    print(f"reversi level 7 (learned: {args.weights.name}, "
          f"{model.meta.get('games_trained')} games) vs level 6, {args.openings} openings "
          f"x 2 colours, {args.time} s a move each; load {load0[0]:.2f} {load0[1]:.2f} "
          f"{load0[2]:.2f}", flush=True)
    pairs: list[float] = []
    wins = draws = losses = 0
    learned_cpu = top_cpu = 0.0
    for i, opening in enumerate(openings(args.openings)):
        if i % parts != k:
            continue
        pair = 0.0
        for seat in (0, 1):
            row = play(opening, seat, args.time, args.seed + i, model)
            pts = float(row["points"])
            pair += pts
            wins += pts == 1.0
            draws += pts == 0.5
            losses += pts == 0.0
            learned_cpu += float(row["learned_cpu"])
            top_cpu += float(row["top_cpu"])
            if args.jsonl:
                with args.jsonl.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(f"  {row['opening']:<12} learned {row['learned']:<5} "
                  f"{row['black']:>2}-{row['white']:<2} points {pts}  depth "
                  f"{row['learned_depth']} vs {row['top_depth']}", flush=True)
        pairs.append(pair / 2)
    n = len(pairs)
    score = statistics.fmean(pairs) if pairs else float("nan")
    half = 1.96 * statistics.stdev(pairs) / math.sqrt(n) if n > 1 else float("nan")
    load1 = os.getloadavg()
    print(f"level 7 vs level 6: {wins} wins, {draws} draws, {losses} losses in {2 * n} games; "
          f"score {score:.3f} (95 % interval {score - half:.3f} .. {score + half:.3f}, over "
          f"{n} opening pairs)")
    print(f"CPU {time.process_time() - cpu0:.1f} s (level 7's moves {learned_cpu:.1f} s, "
          f"level 6's {top_cpu:.1f} s), wall {time.perf_counter() - wall0:.1f} s; load "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    verdict = "met" if score >= args.target else "NOT met"
    print(f"target {args.target:.2f}: {verdict}; ladder floor 0.60: "
          f"{'kept' if score >= 0.60 else 'NOT kept'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
