"""OpenSpiel MCTS simulations per CPU second: our Reversi (``asobiba_reversi``, a Python
game) beside OpenSpiel's native C++ ``othello``, in the same run (issue 30 item 2).

The same Python ``open_spiel.python.algorithms.mcts.MCTSBot`` (UCT c = 2, one random
rollout per leaf) searches both games from the same positions: the first ``--moves`` plies
of a game where both sides play the bot's choice. The two games alternate round by round
(``--rounds``) so that a change in the machine's load hits both; CPU time (``process_time``)
is the measure, wall time is printed beside it with the load average.

Target: simulations per CPU second on ``asobiba_reversi`` >= native ``othello``'s
(ratio >= 1).

    nice -n 5 .venv/bin/python bench/openspiel_mcts_speed.py [--rounds 5] [--sims 200] [--moves 6]
    nice -n 5 .venv/bin/python bench/openspiel_mcts_speed.py --calls   # + per-call CPU costs

``--calls`` also times each pyspiel call a random playout makes, on the same positions in
both games (random games recorded on ``othello``; the action numbers are the same), CPU µs
per call, best of 3.

Needs the optional ``bench`` extra (OpenSpiel).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ImportError:  # pragma: no cover - optional peer
    sys.exit("OpenSpiel is not installed: pip install -e '.[bench]' (or: pip install open-spiel)")

import asobiba.envs.openspiel  # noqa: E402,F401  (registers asobiba_* with pyspiel)

GAMES = ("othello", "asobiba_reversi")


def search(game: pyspiel.Game, sims: int, moves: int, seed: int) -> tuple[int, float, float,
                                                                          list[int]]:
    """(simulations, CPU s, wall s, actions played) for ``moves`` searches from the start."""
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=sims,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    played = []
    c0, w0 = time.process_time(), time.perf_counter()
    done = 0
    for _ in range(moves):
        if state.is_terminal():
            break
        action = bot.step(state)
        done += sims
        played.append(int(action))
        state.apply_action(action)
    return done, time.process_time() - c0, time.perf_counter() - w0, played


def per_call(games: dict[str, pyspiel.Game], n_games: int = 30) -> None:
    rng = np.random.default_rng(0)
    seqs = []
    for _ in range(n_games):
        s = games["othello"].new_initial_state()
        acts = []
        while not s.is_terminal():
            a = int(rng.choice(s.legal_actions()))
            acts.append(a)
            s.apply_action(a)
        seqs.append(acts)
    res: dict[str, dict[str, float]] = {}
    for name, g in games.items():
        sts = []
        for acts in seqs:
            s = g.new_initial_state()
            for a in acts:
                sts.append((s.clone(), a))
                s.apply_action(a)
        r = np.random.RandomState(0)
        t = res[name] = {}

        def run(label: str, f, t=t, sts=sts) -> None:
            best = 1e9
            for _ in range(3):
                c = time.process_time()
                f()
                best = min(best, time.process_time() - c)
            t[label] = best / len(sts) * 1e6

        def step(sts=sts) -> None:
            for s, a in sts:
                c = s.clone()
                c.apply_action(a)
                c.is_terminal()
                c.legal_actions()

        run("is_terminal()", lambda sts=sts: [s.is_terminal() for s, _ in sts])
        run("is_chance_node()", lambda sts=sts: [s.is_chance_node() for s, _ in sts])
        run("legal_actions()", lambda sts=sts: [s.legal_actions() for s, _ in sts])
        run("rng.choice(legal_actions())",
            lambda sts=sts, r=r: [r.choice(s.legal_actions()) for s, _ in sts])
        run("clone()", lambda sts=sts: [s.clone() for s, _ in sts])
        run("clone+apply+child's is_terminal+legal", step)
    print(f"\nper call, CPU us, {sum(map(len, seqs))} positions of {n_games} random games, "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'call':40} {'othello':>9} {'asobiba':>9}")
    for k in res["othello"]:
        print(f"{k:40} {res['othello'][k]:9.2f} {res['asobiba_reversi'][k]:9.2f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sims", type=int, default=200, help="simulations per search")
    ap.add_argument("--moves", type=int, default=6, help="searches (plies) per round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calls", action="store_true", help="also time each pyspiel call")
    args = ap.parse_args()
    print(f"# OpenSpiel MCTSBot (uct_c=2, RandomRolloutEvaluator(1)), {args.sims} simulations "
          f"x {args.moves} plies x {args.rounds} rounds per game; "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"OpenSpiel {getattr(pyspiel, '__version__', '?')}, {os.cpu_count()} cores")
    print(f"load average at the start {os.getloadavg()}")
    games = {name: pyspiel.load_game(name) for name in GAMES}
    total = {name: [0, 0.0, 0.0] for name in GAMES}
    for r in range(args.rounds):
        line = []
        for name in (GAMES if r % 2 == 0 else GAMES[::-1]):
            n, cpu, wall, played = search(games[name], args.sims, args.moves, args.seed + r)
            t = total[name]
            t[0] += n
            t[1] += cpu
            t[2] += wall
            line.append(f"{name} {n / cpu:7.0f}/CPU s ({n / wall:6.0f}/s wall)")
        print(f"round {r}: " + "   ".join(line) + f"   load {os.getloadavg()[0]:.2f}")
    print(f"\n{'game':18} {'simulations':>11} {'CPU s':>8} {'wall s':>8} {'sims/CPU s':>11} "
          f"{'sims/wall s':>11}")
    for name in GAMES:
        n, cpu, wall = total[name]
        print(f"{name:18} {n:11d} {cpu:8.2f} {wall:8.2f} {n / cpu:11.0f} {n / wall:11.0f}")
    ours, native = (total["asobiba_reversi"][0] / total["asobiba_reversi"][1],
                    total["othello"][0] / total["othello"][1])
    print(f"\nratio asobiba_reversi / othello (CPU): {ours / native:.3f}  "
          f"(target >= 1: {'met' if ours >= native else 'NOT met'})")
    if args.calls:
        per_call(games)
    print(f"load average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
