"""Environment speed (issue 18 item 4), measured against the protocol in the same run.

1. Step vs child: a random trajectory of each game is recorded; then the same plies are
   replayed (a) through ``State.child`` (the protocol's unchecked step, legal moves
   already known) and (b) through the PettingZoo environment's ``step`` (which also works
   out the legal moves of each fresh state, checks the action and keeps the AEC
   bookkeeping). Target: step ≤ 3 × child. A third column times the protocol doing what a
   step must do for a fresh state — ``legal_moves`` + ``child`` — as the fairer peer.
2. Vectorised random rollouts: N games stepped together (``asobiba.envs.vector``), random
   legal actions from the masks; steps/s with masks only, and with observations built for
   every seat to move.

Prints wall and CPU time, the load average, and the ratios.

    python bench/envs_speed.py [--games 30] [--envs 16] [--steps 3000] [--only memory_matrix]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from asobiba.core.rng import Rng
from asobiba.envs import pettingzoo_env
from asobiba.envs.vector import VectorRollout
from asobiba.games import get

CASES = [("reversi", {}), ("flipflop", {}), ("flipflop", {"board": "5x5"}),
         ("reverstargo", {}), ("memory_matrix", {}), ("algo", {}), ("patapata", {"players": 2})]


def _label(gid: str, opts: dict) -> str:
    return gid + "".join(f" {k}={v}" for k, v in opts.items())


def trajectories(gid: str, opts: dict, games: int):
    """(seed, actions, [(state, move, seat)]) per game, random legal play via the env."""
    out = []
    for g in range(games):
        env = pettingzoo_env(gid, **opts)
        env.reset(seed=g)
        rng = Rng(g, "bench")
        actions, plies = [], []
        s = env.session
        while not s.over:
            legal = s.legal()
            keys = sorted(legal)
            a = keys[rng.below(len(keys))]
            plies.append((s.state, legal[a], s.to_move))
            actions.append(a)
            s.step(a)
        out.append((g, actions, plies))
    return out


def clock():
    return time.perf_counter(), time.process_time()


def step_vs_child(gid: str, opts: dict, games: int, repeat: int) -> dict:
    """Per ply: best wall time and best CPU time over ``repeat`` runs of each measure."""
    trs = trajectories(gid, opts, games)
    plies = sum(len(a) for _, a, _ in trs)
    game = get(gid)
    env = pettingzoo_env(gid, **opts)
    wall = {"child": [], "legal+child": [], "step": []}
    cpu = {"child": [], "legal+child": [], "step": []}

    def child() -> None:
        for _, _, pl in trs:
            for state, move, seat in pl:
                state.child(move, seat)

    def legal_child() -> None:
        # fresh states (legal moves not cached yet), as an environment step meets them
        for seed, _, pl in trs:
            st = game.new_game(opts, seed)
            for _, move, seat in pl:
                st.legal_moves(seat)
                st = st.child(move, seat)

    def step() -> tuple[float, float]:
        w_total = c_total = 0.0
        for seed, actions, _ in trs:
            env.reset(seed=seed)  # not timed
            w, c = clock()
            for a in actions:
                env.step(a)
            w2, c2 = clock()
            w_total += w2 - w
            c_total += c2 - c
        return w_total, c_total

    for _ in range(repeat):
        for name, fn in (("child", child), ("legal+child", legal_child)):
            w, c = clock()
            fn()
            w2, c2 = clock()
            wall[name].append(w2 - w)
            cpu[name].append(c2 - c)
        w, c = step()
        wall["step"].append(w)
        cpu["step"].append(c)
    return {"plies": plies,
            "wall_us": {k: 1e6 * min(v) / plies for k, v in wall.items()},
            "cpu_us": {k: 1e6 * min(v) / plies for k, v in cpu.items()}}


def vector(gid: str, opts: dict, envs: int, steps: int, observe: bool) -> tuple[float, float]:
    vec = VectorRollout(gid, envs, seed=0, **opts)
    rng = np.random.default_rng(0)
    done = 0
    w, c = clock()
    while done < steps:
        if observe:
            vec.observations()
        vec.masks()
        vec.step(vec.random_actions(rng))
        done += envs
    w2, c2 = clock()
    return done / (w2 - w), done / (c2 - c)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    args = p.parse_args()
    cases = [(g, o) for g, o in CASES if not args.only or g in args.only.split(",")]
    print(f"# envs speed — {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()}")
    print("\n## 1. PettingZoo step vs the protocol's child(): µs per ply, best of "
          f"{args.repeat}, CPU time (wall time in brackets; wall is unreliable under load)")
    print(f"{'game':24} {'plies':>6} {'child':>14} {'legal+child':>14} {'env step':>14} "
          f"{'step/child':>11} {'step/(legal+child)':>19}")
    for gid, opts in cases:
        r = step_vs_child(gid, opts, args.games, args.repeat)
        c, w = r["cpu_us"], r["wall_us"]
        print(f"{_label(gid, opts):24} {r['plies']:6d} "
              + " ".join(f"{c[k]:6.1f} ({w[k]:5.1f})" for k in ("child", "legal+child", "step"))
              + f" {c['step'] / c['child']:11.2f} {c['step'] / c['legal+child']:19.2f}")
    print(f"\n## 2. Vectorised random rollouts: {args.envs} games stepped together, "
          f"{args.steps} steps (steps/s wall, CPU)")
    print(f"{'game':28} {'masks only':>20} {'+ observations':>20}")
    for gid, opts in cases:
        m = vector(gid, opts, args.envs, args.steps, False)
        o = vector(gid, opts, args.envs, max(args.envs, args.steps // 4), True)
        print(f"{_label(gid, opts):28} {m[0]:9.0f} ({m[1]:7.0f}) {o[0]:9.0f} ({o[1]:7.0f})")
    print(f"\nload average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
