"""FlipFlop 5×5's level 6 (level 5's search with the learned evaluation) against today's top
level, level 5: paired openings, colours swapped, equal time per move (issue 31 item 1).

Openings: ``--plies`` uniformly random legal moves from the 5×5 start, seeded by the opening's
number (``random.Random(30_000 + i)``; an opening that ends the game is drawn again from the
same generator). Each opening is played twice, level 6 White then Black. Both sides run on
level 5's clock (1.8 s a move, the whole move within it: ``MoveClock``), or both on
``--time``. Both keep the endgame tables (perfect play with ≤ 5 pieces). A game still going
after ``--max-plies`` plies is adjudicated a draw (counted apart; the rules' third
repetition ends almost every drawn game first). The score counts a win 1 and a draw ½; its
95 % interval is the normal one over the *pairs* (an opening's two games are one sample).

    nice -n 5 .venv/bin/python bench/flipflop_learned_vs_top.py --openings 50
    .venv/bin/python bench/flipflop_learned_vs_top.py --openings 1 --time 0.2  # smoke

``--part K/N`` plays the openings i with i % N == K (two processes on two cores), each writing
``--jsonl``; ``--summary A.jsonl B.jsonl`` prints the figures of them all. Needs NumPy.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.games.flipflop.bots import PLANS, FlipFlopBot  # noqa: E402
from asobiba.games.flipflop.game import GAME, FlipFlopState  # noqa: E402
from asobiba.games.flipflop.learned import WEIGHTS  # noqa: E402
from asobiba.learn.ntuple import NTuple  # noqa: E402
from bench.paired import PairedScore, cost_line, pairs_by  # noqa: E402

OPTIONS = {"board": "5x5"}


def opening(index: int, plies: int) -> list[str]:
    """``plies`` random legal moves seeded by the opening's number; never a finished game."""
    rnd = random.Random(30_000 + index)
    while True:
        state = GAME.new_game(OPTIONS)
        moves = []
        for _ in range(plies):
            legal = sorted(state.legal_moves(), key=lambda m: (m.frm, m.to))
            mv = legal[rnd.randrange(len(legal))]
            moves.append(state.move_text(mv))
            state = state.child(mv)
            if state.is_over:
                break
        if not state.is_over:
            return moves


def play(moves: list[str], learned_seat: int, seconds: float, seed: int, model: NTuple,
         max_plies: int) -> dict[str, Any]:
    state: FlipFlopState = GAME.new_game(OPTIONS)
    for text in moves:
        state = state.play(text)
    bots = {learned_seat: FlipFlopBot("6", seed, time_limit=seconds, model=model),
            1 - learned_seat: FlipFlopBot("5", seed + 1, time_limit=seconds)}
    for seat, bot in bots.items():
        bot.reset(seat, state.options)
    cpu = {0: 0.0, 1: 0.0}
    wall: dict[int, list[float]] = {0: [], 1: []}
    depth: dict[int, list[int]] = {0: [], 1: []}
    table_moves = {0: 0, 1: 0}
    plies = 0
    while not state.is_over and plies < max_plies:
        seat = state.to_move
        assert seat is not None
        c0, w0 = time.process_time(), time.perf_counter()
        text = bots[seat].choose(state.view(seat))
        cpu[seat] += time.process_time() - c0
        wall[seat].append(time.perf_counter() - w0)
        info = bots[seat].last_info
        if "table" in info:
            table_moves[seat] += 1
        elif "depth" in info:
            depth[seat].append(int(info["depth"]))  # type: ignore[call-overload]
        state = state.play(text)
        plies += 1
    outcome = state.outcome
    points = outcome.points(learned_seat) if outcome is not None else 0.5
    me, top = learned_seat, 1 - learned_seat
    reason = "capped" if outcome is None else (
        "draw" if outcome.is_draw else "win" if points == 1 else "loss")
    return {"opening": " ".join(moves), "learned": "white" if learned_seat == 0 else "black",
            "points": points, "end": reason, "plies": plies + len(moves),
            "learned_cpu": round(cpu[me], 2), "top_cpu": round(cpu[top], 2),
            "learned_s_move": round(statistics.fmean(wall[me] or [0.0]), 3),
            "top_s_move": round(statistics.fmean(wall[top] or [0.0]), 3),
            "learned_max_s": round(max(wall[me], default=0.0), 3),
            "top_max_s": round(max(wall[top], default=0.0), 3),
            "learned_depth": round(statistics.fmean(depth[me] or [0]), 2),
            "top_depth": round(statistics.fmean(depth[top] or [0]), 2),
            "learned_table_moves": table_moves[me], "top_table_moves": table_moves[top]}


def summary(rows: list[dict[str, Any]], target: float) -> None:
    """Wins/draws/losses, the score with its 95 % interval over opening pairs, seconds and
    CPU."""
    whole = pairs_by(rows, "index")
    result = PairedScore.of(whole)
    capped = sum(r["end"] == "capped" for v in whole for r in v)
    as_white = [float(r["points"]) for v in whole for r in v if r["learned"] == "white"]
    as_black = [float(r["points"]) for v in whole for r in v if r["learned"] == "black"]
    print(f"{result.line('level 6 vs level 5')}; {capped} of the draws adjudicated at the "
          f"ply cap; as White {statistics.fmean(as_white or [math.nan]):.3f}, as Black "
          f"{statistics.fmean(as_black or [math.nan]):.3f}")
    print(f"{cost_line(rows, 'level 6', 'level 5')}; plies/game "
          f"{statistics.fmean(float(r['plies']) for r in rows):.1f}")
    print(result.verdict(target))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--openings", type=int, default=1, help="openings, each played twice")
    ap.add_argument("--plies", type=int, default=4, help="random moves of an opening")
    ap.add_argument("--first", type=int, default=0, help="the first opening's number")
    plan = PLANS[5]["5"]
    assert plan is not None
    ap.add_argument("--time", type=float, default=plan.time_limit,
                    help="seconds a move, both sides (default: level 5's)")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=float, default=0.70)
    ap.add_argument("--jsonl", type=Path, help="append one JSON line per game here")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="level 6's tables (default: the shipped ones)")
    ap.add_argument("--part", default="0/1", help="K/N: play the openings i with i %% N == K")
    ap.add_argument("--summary", type=Path, nargs="+",
                    help="print the figures of these JSONL files and stop")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for f in args.summary
                for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        summary(rows, args.target)
        return 0
    k, parts = (int(x) for x in args.part.split("/"))
    model = NTuple.load(args.weights)
    GAME.warm_caches()  # the endgame tables read once, before any clock runs
    load0 = os.getloadavg()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    print(f"flipflop 5x5 level 6 ({args.weights.name}, {model.meta.get('games_trained')} "
          f"games) vs level 5, {args.openings} openings x 2 colours, {args.time} s a move; "
          f"load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}", flush=True)
    rows = []
    for i in range(args.first, args.first + args.openings):
        if i % parts != k:
            continue
        moves = opening(i, args.plies)
        for seat in (0, 1):
            row = play(moves, seat, args.time, args.seed + 2 * i, model, args.max_plies)
            row["index"] = i
            rows.append(row)
            if args.jsonl:
                with args.jsonl.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(f"  {i:>3} {row['opening']:<30} level 6 {row['learned']:<5} {row['end']:<6} "
                  f"{row['plies']:>3} plies  s/move {row['learned_s_move']} vs "
                  f"{row['top_s_move']}  depth {row['learned_depth']} vs {row['top_depth']}",
                  flush=True)
    if rows:
        summary(rows, args.target)
    load1 = os.getloadavg()
    print(f"CPU {time.process_time() - cpu0:.1f} s, wall {time.perf_counter() - wall0:.1f} s; "
          f"load {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
