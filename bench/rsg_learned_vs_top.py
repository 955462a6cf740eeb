"""ReverStarGo's learned level against today's top level (FINAL) or the app's FINAL rebuilt
(``app-final``): paired openings, colours swapped, equal time per move (issue 31 item 1).

Openings: the arena's (``asobiba.games.reverstargo.arena.opening``): ``--plies`` uniformly
random legal moves seeded by the opening's number (10 000 + i, as bench/reverstargo_arena.py).
Each opening is played twice, the learned level Black then White. Against FINAL both sides get
FINAL's clock (``--time`` seconds of iterative deepening, MAX's 7 plies completed past it, the
whole move within ``--limit`` seconds: FINAL ships with 1.5 and 2.0); against app-final, the
app's fixed 6 plies (its own time, printed: far less than the learned level's) and the learned
level on FINAL's clock; ``app-final-timed`` is the app's evaluation and tree (automatic CP
colour) deepening on the same clock as the learned level, from 6 plies (equal time). The score
counts a win 1 and a draw ½ (a game's winner by the rules: totals, then captures); its 95 %
interval is the normal one over the *pairs* (an opening's two games are one sample). The
reverse matches (the pair's summed totals, docs/rules/reverstargo.md § 8) are counted too.

    nice -n 5 .venv/bin/python bench/rsg_learned_vs_top.py --opponent final --openings 24
    .venv/bin/python bench/rsg_learned_vs_top.py --openings 1 --time 0.2 --limit 0.3  # smoke

``--balanced M`` chooses the openings instead of taking them in order: of the M candidates
numbered ``--first`` … ``--first`` + M − 1, the ``--openings`` whose position MAX's
evaluation judges closest to level (the smallest |value| of a fixed 7-ply search from the
opening for its side to move — MAX is neither contestant, and the search has no clock, so
the choice does not depend on the machine or on either side's play), ties by number. The
criterion was fixed before any game on those openings was played: random 3-ply openings
include positions already lost for Black whoever plays it (docs/benchmarks.md), which cap
any bot's share of games.

``--part K/N`` plays the openings n of the list (in order, from 0) with n % N == K (two
processes on two cores), each writing
``--jsonl``; ``--summary A.jsonl B.jsonl`` prints the figures of them all. Needs NumPy.
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

from asobiba.games.reverstargo.arena import opening  # noqa: E402
from asobiba.games.reverstargo.board import STONE_CELLS  # noqa: E402
from asobiba.games.reverstargo.bots import (  # noqa: E402
    MAX_DEPTH,
    SearchBot,
    make_bot,
    root_children,
)
from asobiba.games.reverstargo.game import GAME  # noqa: E402
from asobiba.games.reverstargo.learned import WEIGHTS, LearnedBot  # noqa: E402
from asobiba.learn.ntuple import NTuple  # noqa: E402
from bench.paired import PairedScore, cost_line  # noqa: E402


def opponent(level: str, seed: int, seconds: float, limit: float) -> SearchBot:
    if level == "final":  # FINAL as shipped, with the bench's clock
        return SearchBot("final", seed, depth=30, time_limit=seconds, endgame_empties=14,
                         min_depth=MAX_DEPTH, move_limit=limit)
    if level == "app-final-timed":  # the app's evaluation and tree, deepening on the clock
        return SearchBot("app-final", seed, depth=30, app=True, time_limit=seconds,
                         min_depth=6, move_limit=limit)
    bot = make_bot(level, seed)
    assert isinstance(bot, SearchBot)
    return bot


def balance(moves: list[str]) -> float:
    """MAX's evaluation at a fixed 7 plies (no clock) of the position after ``moves``, for
    its side to move."""
    state = GAME.new_game()
    for text in moves:
        state = state.play(text)
    kids = root_children(state, auto_only=False)
    if state.is_over or not kids:
        return math.inf
    judge = SearchBot("max", 0, depth=MAX_DEPTH)
    empties = (STONE_CELLS & ~(state.black | state.white)).bit_count()
    node = (state.black, state.white, state.captured[0], state.captured[1], state.turn)
    return judge.engine.search(kids, empties, MAX_DEPTH, node=node).value


def choose_openings(first: int, candidates: int, keep: int, plies: int) -> list[int]:
    """The ``keep`` most level of the candidate openings (``--balanced``), printed."""
    judged = []
    for i in range(first, first + candidates):
        value = balance(opening(10_000 + i, plies))
        judged.append((abs(value), i, value))
    judged.sort()
    chosen = sorted(i for _, i, _ in judged[:keep])
    cut = judged[keep - 1][0] if keep else 0.0
    print(f"balanced: {keep} of openings {first}..{first + candidates - 1}, |MAX 7-ply "
          f"value| <= {cut:.2f} (largest kept); dropped values: "
          + " ".join(f"{i}:{v:+.1f}" for _, i, v in sorted(judged[keep:], key=lambda t: t[1])),
          flush=True)
    return chosen


def play(moves: list[str], learned_seat: int, level: str, seconds: float, limit: float,
         seed: int, model: NTuple) -> dict[str, Any]:
    state = GAME.new_game()
    for text in moves:
        state = state.play(text)
    bots: dict[int, SearchBot] = {
        learned_seat: LearnedBot(seed, model=model, time_limit=seconds, move_limit=limit),
        1 - learned_seat: opponent(level, seed + 1, seconds, limit)}
    for seat, bot in bots.items():
        bot.reset(seat, state.options)
    cpu = {0: 0.0, 1: 0.0}
    wall: dict[int, list[float]] = {0: [], 1: []}
    depth: dict[int, list[int]] = {0: [], 1: []}
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        c0, w0 = time.process_time(), time.perf_counter()
        text = bots[seat].choose(state.view(seat))
        cpu[seat] += time.process_time() - c0
        wall[seat].append(time.perf_counter() - w0)
        last = bots[seat].last
        if last is not None:
            depth[seat].append(last.depth)
        state = state.play(text)
    outcome = state.outcome
    points = outcome.points(learned_seat) if outcome is not None else 0.5
    black, white = state.score()
    me, top = learned_seat, 1 - learned_seat
    return {"opening": " ".join(moves), "opponent": level,
            "learned": "black" if learned_seat == 0 else "white", "points": points,
            "black": black, "white": white, "captured": list(state.captured),
            "learned_cpu": round(cpu[me], 2), "top_cpu": round(cpu[top], 2),
            "learned_s_move": round(statistics.fmean(wall[me] or [0.0]), 3),
            "top_s_move": round(statistics.fmean(wall[top] or [0.0]), 3),
            "learned_max_s": round(max(wall[me], default=0.0), 3),
            "top_max_s": round(max(wall[top], default=0.0), 3),
            "learned_depth": round(statistics.fmean(depth[me] or [0]), 2),
            "top_depth": round(statistics.fmean(depth[top] or [0]), 2),
            "state": state}


def summary(rows: list[dict[str, Any]], target: float) -> None:
    """Wins/draws/losses, the score with its 95 % interval over opening pairs, the reverse
    matches, seconds and CPU."""
    # an opening's two games are consecutive rows (random openings can repeat a move order,
    # so the moves alone do not name a pair)
    whole: list[list[dict[str, Any]]] = []
    i = 0
    while i + 1 < len(rows):
        a, b = rows[i], rows[i + 1]
        if (a["opening"], a["opponent"], a.get("index")) == (
                b["opening"], b["opponent"], b.get("index")) and a["learned"] != b["learned"]:
            whole.append([a, b])
            i += 2
        else:
            i += 1
    result = PairedScore.of(whole)
    level = rows[0]["opponent"] if rows else "?"
    match_w = match_d = 0
    for v in whole:
        first, second = sorted(v, key=lambda r: r["learned"] != "black")  # learned Black first
        totals = (first["black"] + second["white"], first["white"] + second["black"])
        caps = (first["captured"][0] + second["captured"][1],
                first["captured"][1] + second["captured"][0])
        if totals[0] != totals[1]:
            match_w += totals[0] > totals[1]
        elif caps[0] != caps[1]:
            match_w += caps[0] > caps[1]
        else:
            match_d += 1
    print(f"{result.line(f'learned vs {level}')}; reverse matches "
          f"{match_w}-{match_d}-{result.pairs - match_w - match_d}")
    print(cost_line(rows, "learned", str(level)))
    print(result.verdict(target))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="final", choices=("final", "app-final", "app-final-timed"))
    ap.add_argument("--openings", type=int, default=1, help="openings, each played twice")
    ap.add_argument("--plies", type=int, default=3, help="random moves of an opening")
    ap.add_argument("--first", type=int, default=0, help="the first opening's number")
    ap.add_argument("--time", type=float, default=1.5, help="FINAL's clock, both sides")
    ap.add_argument("--limit", type=float, default=2.0, help="a whole move's limit, both")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=float, default=0.70)
    ap.add_argument("--jsonl", type=Path, help="append one JSON line per game here")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="the learned level's tables (default: the shipped ones)")
    ap.add_argument("--balanced", type=int, default=0, metavar="M",
                    help="choose the --openings most level of M candidates (MAX, 7 plies)")
    ap.add_argument("--part", default="0/1", help="K/N: play the list's openings n with n %% N == K")
    ap.add_argument("--summary", type=Path, nargs="+",
                    help="print the figures of these JSONL files and stop")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for f in args.summary
                for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
        for level in sorted({r["opponent"] for r in rows}):
            summary([r for r in rows if r["opponent"] == level],
                    0.95 if level.startswith("app-final") else args.target)
        return 0
    k, parts = (int(x) for x in args.part.split("/"))
    model = NTuple.load(args.weights)
    load0 = os.getloadavg()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    print(f"reverstargo learned ({args.weights.name}, {model.meta.get('games_trained')} games) "
          f"vs {args.opponent}, {args.openings} openings x 2 colours, clock {args.time} s / "
          f"{args.limit} s a move; load {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}",
          flush=True)
    rows = []
    numbers = (choose_openings(args.first, args.balanced, args.openings, args.plies)
               if args.balanced else list(range(args.first, args.first + args.openings)))
    for n, i in enumerate(numbers):
        if n % parts != k:
            continue
        moves = opening(10_000 + i, args.plies)
        for seat in (0, 1):
            row = play(moves, seat, args.opponent, args.time, args.limit, args.seed + i, model)
            row.pop("state")
            row["index"] = i
            rows.append(row)
            if args.jsonl:
                with args.jsonl.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(f"  {row['opening']:<12} learned {row['learned']:<5} "
                  f"{row['black']:>2}-{row['white']:<2} points {row['points']}  s/move "
                  f"{row['learned_s_move']} vs {row['top_s_move']}  depth "
                  f"{row['learned_depth']} vs {row['top_depth']}", flush=True)
    if rows:
        summary(rows, 0.95 if args.opponent.startswith("app-final") else args.target)
    load1 = os.getloadavg()
    print(f"CPU {time.process_time() - cpu0:.1f} s, wall {time.perf_counter() - wall0:.1f} s; "
          f"load {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
