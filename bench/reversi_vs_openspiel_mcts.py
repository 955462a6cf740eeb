"""Our top Reversi bot against OpenSpiel's MCTSBot, colours alternating.

Target (issue): the top bot (level 6, 1 s per move) wins >= 90% of 50 games against
``open_spiel.python.algorithms.mcts.MCTSBot`` with 1,000 simulations and random rollouts.

Our bot sees views only (``state.view(seat)``), exactly as the game runner hands them out; the
OpenSpiel bot sees its own ``othello`` state, kept in step move by move. After every move the
two engines must agree on the legal moves, the side to move and, at the end, the disc counts.

OpenSpiel's ``othello`` numbers actions ``8 * (rank - 1) + file`` (a1 = 0, b1 = 1, ..., h8 =
63; its board prints rank 1 at the top) and uses action 64 for a pass — the same square
numbering as ``asobiba.games.reversi`` (checked on the start position below).

    nice -n 5 .venv/bin/python bench/reversi_vs_openspiel_mcts.py --games 50  # the target
    .venv/bin/python bench/reversi_vs_openspiel_mcts.py   # 4-game smoke run (make bench)

The 50-game run takes 15-30 minutes on the 2-core machine, depending on load.

Needs the optional ``bench`` extra (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from asobiba.games.reversi.game import GAME, parse_square, square_name  # noqa: E402

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError:  # pragma: no cover - optional peer
    sys.exit("OpenSpiel is not installed: pip install -e '.[bench]' (or: pip install open-spiel)")

OS_PASS = 64


def to_os_action(text: str) -> int:
    return OS_PASS if text == "pass" else parse_square(text)


def to_text(action: int) -> str:
    return "pass" if action == OS_PASS else square_name(action)


def check_numbering(game: pyspiel.Game) -> None:
    """OpenSpiel's action numbers and our square names agree on the start position."""
    os_state = game.new_initial_state()
    ours = GAME.new_game()
    os_moves = sorted(to_text(a) for a in os_state.legal_actions())
    our_moves = sorted(ours.legal_moves().texts())
    assert os_moves == our_moves, (os_moves, our_moves)
    assert [os_state.action_to_string(a) for a in sorted(os_state.legal_actions())] == [
        square_name(a) for a in sorted(os_state.legal_actions())
    ]
    assert os_state.current_player() == ours.to_move == 0  # Black moves first in both


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def play_one(game: pyspiel.Game, index: int, level: str, sims: int, seed: int) -> dict:
    our_seat = index % 2  # game 0: we are Black; game 1: White; ...
    bot = GAME.make_bot(level, seed=seed + index)
    rng = np.random.RandomState(seed + 1000 + index)
    os_bot = mcts.MCTSBot(
        game, uct_c=2, max_simulations=sims,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    state = GAME.new_game()
    os_state = game.new_initial_state()
    bot.reset(our_seat, state.options)
    bot.observe(state.view(our_seat))
    our_times: list[float] = []
    os_times: list[float] = []
    moves: list[str] = []
    while not state.is_over:
        seat = state.to_move
        assert os_state.current_player() == seat
        assert sorted(to_text(a) for a in os_state.legal_actions()) == sorted(
            state.legal_moves().texts()
        )
        if seat == our_seat:
            view = state.view(seat)
            t0 = time.perf_counter()
            text = bot.choose(view)
            our_times.append(time.perf_counter() - t0)
        else:
            legal = os_state.legal_actions()
            t0 = time.perf_counter()
            # A forced move (usually a pass) needs no search; MCTSBot would return it anyway.
            action = legal[0] if len(legal) == 1 else os_bot.step(os_state)
            os_times.append(time.perf_counter() - t0)
            text = to_text(action)
        state = state.play(text)
        os_state.apply_action(to_os_action(text))
        moves.append(text)
        bot.observe(state.view(our_seat))
    assert os_state.is_terminal()
    b, w = state.counts()
    os_returns = os_state.returns()
    ours_pts = state.outcome.points(our_seat)
    assert (os_returns[our_seat] > 0) == (ours_pts == 1.0), (os_returns, ours_pts)
    result = "win" if ours_pts == 1.0 else "draw" if ours_pts == 0.5 else "loss"
    return {
        "game": index, "our_colour": "black" if our_seat == 0 else "white",
        "result": result, "black": b, "white": w, "moves": moves,
        "our_times": our_times, "os_times": os_times,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4,
                    help="games to play (default 4, a smoke run; the target needs 50)")
    ap.add_argument("--level", default="6", help="our bot level (default 6, the top level)")
    ap.add_argument("--sims", type=int, default=1000, help="MCTSBot simulations per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jsonl", type=Path, help="append one JSON line per game here")
    args = ap.parse_args(argv)

    game = pyspiel.load_game("othello")
    check_numbering(game)
    print(f"asobiba reversi level {args.level} vs OpenSpiel MCTSBot(uct_c=2, "
          f"max_simulations={args.sims}, RandomRolloutEvaluator(n_rollouts=1)); "
          f"{args.games} games, colours alternating, seed {args.seed}", flush=True)
    tally = {"win": 0, "draw": 0, "loss": 0}
    our_times: list[float] = []
    os_times: list[float] = []
    t_start = time.perf_counter()
    for i in range(args.games):
        r = play_one(game, i, args.level, args.sims, args.seed)
        tally[r["result"]] += 1
        our_times += r["our_times"]
        os_times += r["os_times"]
        if args.jsonl:
            with args.jsonl.open("a") as fh:
                fh.write(json.dumps(r) + "\n")
        mine = max(r["our_times"], default=0.0)
        print(f"game {i + 1:3d}: we are {r['our_colour']:5s} -> {r['result']:4s} "
              f"{r['black']:2d}-{r['white']:2d}  our max {mine:.2f} s/move   "
              f"[W{tally['win']} D{tally['draw']} L{tally['loss']}]", flush=True)
    n = args.games
    lo, hi = wilson(tally["win"], n)
    print()
    print(f"games {n}: wins {tally['win']}, draws {tally['draw']}, losses {tally['loss']}")
    print(f"win rate {tally['win'] / n:.1%} (95% Wilson interval {lo:.1%}-{hi:.1%}); "
          f"score rate {(tally['win'] + tally['draw'] / 2) / n:.1%}")
    if our_times:
        print(f"our bot: {len(our_times)} moves, mean {statistics.mean(our_times):.3f} s, "
              f"median {statistics.median(our_times):.3f} s, max {max(our_times):.3f} s per move")
    if os_times:
        print(f"MCTSBot: {len(os_times)} moves, mean {statistics.mean(os_times):.3f} s, "
              f"max {max(os_times):.3f} s per move")
    print(f"wall time {time.perf_counter() - t_start:.0f} s")
    over = sum(t > 1.0 for t in our_times)
    print(f"our moves over 1 s: {over} of {len(our_times)}")
    if n >= 50:
        target = tally["win"] >= math.ceil(0.9 * n)
        print(f"target (win >= 90% of {n} games): {'MET' if target else 'NOT MET'}")
    else:
        print("smoke run: the target needs --games 50")
    return 0


if __name__ == "__main__":
    sys.exit(main())
