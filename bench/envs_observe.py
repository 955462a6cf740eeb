"""Observation speed (issue 30 item 2): observation + action mask against the engine step,
the view-based encoding (the reference, ``Codec.observe(view)`` + ``Codec.mask(view)``)
against the state-based one (``Codec.observe_state`` + ``Codec.mask_state``) in the same run.

1. Per game: random trajectories are recorded, then replayed on *fresh* states (nothing
   cached), timing per ply (a) the engine step — ``legal_moves`` + ``child``, what an engine
   must do for a fresh state; for Patapata also the environment's clear-only step
   (``Codec.legal_actions`` + ``child``), which is cheaper than its ``legal_moves`` —
   (b) observation + mask of the seat to move through the view (old), (c) the same through
   the state (new). Target: (c) ≤ 1.5 × (a). Every new observation and mask is checked equal
   to the old one (the script exits 1 otherwise).
2. Patapata's PettingZoo environment: random legal play through ``observe`` + ``step``
   (AEC, every seat observing before acting), steps per CPU second, with the old and the new
   observation path. Target: ≥ 5,000 steps/s.

Best of ``--repeat`` runs; CPU time is the measure (wall time in brackets), load average
printed at the start and the end.

    python bench/envs_observe.py [--games 10] [--repeat 3] [--only patapata]
        [--env-games 4] [--env-repeat 1] [--env-only]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

import numpy as np

from asobiba.core.rng import Rng
from asobiba.envs import pettingzoo_env
from asobiba.envs.codec import codec_for
from asobiba.games import get

CASES = [("reversi", {}), ("flipflop", {}), ("flipflop", {"board": "5x5"}),
         ("reverstargo", {}), ("memory_matrix", {}), ("memory_matrix", {"players": 2}),
         ("algo", {}), ("algo", {"players": 4}),
         ("patapata", {"players": 2}), ("patapata", {"players": 6})]


def _label(gid: str, opts: dict) -> str:
    return gid + "".join(f" {k}={v}" for k, v in opts.items())


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def trajectories(gid: str, opts: dict, games: int) -> list[tuple[int, list]]:
    """(seed, [(move, seat)]) per game: random play over the codec's legal actions."""
    game = get(gid)
    codec = codec_for(game, opts)
    out = []
    for g in range(games):
        st = game.new_game(opts, g)
        rng = Rng(g, "bench-observe")
        plies = []
        while not st.is_over:
            seat = st.to_move
            legal = codec.legal_actions(st, seat)
            keys = sorted(legal)
            move = legal[keys[rng.below(len(keys))]]
            plies.append((move, seat))
            st = st.child(move, seat)
        out.append((g, plies))
    return out


def fresh_states(gid: str, opts: dict, trs: list) -> list:
    """Every position of the trajectories as a freshly built state (no caches filled)."""
    game = get(gid)
    out = []
    for seed, plies in trs:
        st = game.new_game(opts, seed)
        for move, seat in plies:
            out.append((st, move, seat))
            st = st.child(move, seat)
    return out


def timed(gid: str, opts: dict, trs: list, fn: Callable[[object, object, int], object],
          repeat: int, legal_known: bool = False) -> tuple[float, float]:
    """Best (CPU, wall) µs per ply of ``fn(state, move, seat)`` over fresh states (with
    ``legal_known``, states whose legal moves were listed first, untimed)."""
    best_c = best_w = float("inf")
    for _ in range(repeat):
        states = fresh_states(gid, opts, trs)
        if gid == "patapata":  # the same trajectories again: start the memos empty
            from asobiba.games.patapata import encoding

            encoding.first_clears.cache_clear()
            encoding._marks_bits.cache_clear()
        if legal_known:
            for st, _, seat in states:
                st.legal_moves(seat)
        w, c = clock()
        for st, move, seat in states:
            fn(st, move, seat)
        w2, c2 = clock()
        best_c, best_w = min(best_c, c2 - c), min(best_w, w2 - w)
    n = len(states)
    return 1e6 * best_c / n, 1e6 * best_w / n


def per_game(gid: str, opts: dict, games: int, repeat: int) -> dict:
    game = get(gid)
    codec = codec_for(game, opts)
    trs = trajectories(gid, opts, games)
    plies = sum(len(p) for _, p in trs)
    for st, _, seat in fresh_states(gid, opts, trs):  # the two paths agree, or nothing counts
        view = st.view(seat)
        if not (np.array_equal(codec.observe(view), codec.observe_state(st, seat))
                and np.array_equal(codec.mask(view), codec.mask_state(st, seat))):
            sys.exit(f"{_label(gid, opts)}: the state path differs from the view path")

    def engine(st, move, seat):
        st.legal_moves(seat)
        st.child(move, seat)

    def env_step(st, move, seat):
        codec.legal_actions(st, seat)
        st.child(move, seat)

    def old(st, move, seat):
        view = st.view(seat)
        codec.observe(view)
        codec.mask(view)

    def new(st, move, seat):
        codec.observe_state(st, seat)
        codec.mask_state(st, seat)

    r = {"plies": plies, "engine": timed(gid, opts, trs, engine, repeat),
         "old": timed(gid, opts, trs, old, repeat), "new": timed(gid, opts, trs, new, repeat),
         "known": timed(gid, opts, trs, new, repeat, legal_known=True)}
    if gid == "patapata":
        r["env_step"] = timed(gid, opts, trs, env_step, repeat)
    return r


def aec_rate(opts: dict, games: int, path: str) -> tuple[float, float, int]:
    """(steps per CPU s, steps per wall s, steps) of random play through the AEC env."""
    env = pettingzoo_env("patapata", **opts)
    if path == "old":  # the reference: every observation through view(seat)
        s = env.session
        env.observe = lambda agent: s.observe_view(env._seat[agent])  # type: ignore[method-assign]
    rng = np.random.default_rng(0)
    steps = 0
    for g in range(games, games + 3):  # warm the per-task caches, as a long run has them
        env.reset(seed=g)
        while env.agents and not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
    w, c = clock()
    for g in range(games):
        env.reset(seed=g)
        while env.agents and not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    w2, c2 = clock()
    return steps / (c2 - c), steps / (w2 - w), steps


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--env-games", type=int, default=4)
    p.add_argument("--only", default="", help="comma-separated game ids (default: all)")
    p.add_argument("--env-repeat", type=int, default=1,
                   help="runs of part 2 per player count (each printed, then the median)")
    p.add_argument("--env-only", action="store_true", help="part 2 only")
    args = p.parse_args()
    only = args.only.split(",") if args.only else []
    cases = [(g, o) for g, o in CASES if not only or g in only]
    print(f"# observation speed — {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()}")
    print(f"\n## 1. µs of CPU per ply, best of {args.repeat} (wall in brackets); "
          "ratios on CPU time")
    print("   engine step = legal_moves + child on a fresh state; obs+mask of the seat to "
          "move,\n   on a fresh state, and (known) once its legal moves are listed — as in "
          "an environment,\n   where the step reuses the legal moves the mask listed")
    print(f"{'game':24} {'plies':>6} {'engine step':>15} {'obs+mask old':>17} "
          f"{'obs+mask new':>15} {'new (known)':>15} {'old/step':>9} {'new/step':>9} "
          f"{'known/step':>10} {'old/new':>8}")
    cpu0 = time.process_time()
    for gid, opts in [] if args.env_only else cases:
        r = per_game(gid, opts, args.games, args.repeat)
        e, o, n, k = r["engine"], r["old"], r["new"], r["known"]
        print(f"{_label(gid, opts):24} {r['plies']:6d} "
              + f"{e[0]:7.1f} ({e[1]:5.1f}) {o[0]:8.1f} ({o[1]:6.0f}) "
              + " ".join(f"{x[0]:7.1f} ({x[1]:5.1f})" for x in (n, k))
              + f" {o[0] / e[0]:9.2f} {n[0] / e[0]:9.2f} {k[0] / e[0]:10.2f} "
              f"{o[0] / n[0]:8.1f}")
        if "env_step" in r:
            s = r["env_step"]
            print(f"{'  (clear-only env step)':31} {s[0]:7.1f} ({s[1]:5.1f}) {'':50} "
                  f"{o[0] / s[0]:9.2f} {n[0] / s[0]:9.2f} {k[0] / s[0]:10.2f}")
    if not only or "patapata" in only:
        print(f"\n## 2. Patapata PettingZoo AEC, random legal play, {args.env_games} games: "
              "steps/s CPU (wall)")
        for players in (2, 6):
            old = aec_rate({"players": players}, max(1, args.env_games // 4), "old")
            runs = [aec_rate({"players": players}, args.env_games, "new")
                    for _ in range(args.env_repeat)]
            new = runs[0]
            print(f"players={players}: old {old[0]:8.0f} ({old[1]:7.0f})   "
                  f"new {new[0]:8.0f} ({new[1]:7.0f})   new/old {new[0] / old[0]:6.1f}")
            if args.env_repeat > 1:  # later runs reuse the per-task memos of the first
                cpu = sorted(r[0] for r in runs)
                print(f"  new, {args.env_repeat} runs (CPU): "
                      + " ".join(f"{r[0]:.0f}" for r in runs)
                      + f"; median {cpu[len(cpu) // 2]:.0f}, min {cpu[0]:.0f}")
    print(f"\nCPU {time.process_time() - cpu0:.1f} s; load average at the end "
          f"{os.getloadavg()}")


if __name__ == "__main__":
    main()
