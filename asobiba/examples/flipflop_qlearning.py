"""Tabular Q-learning on FlipFlop 3×3 against the perfect bot — and a check of what it
learned against the solved game.

FlipFlop 3×3 is solved (asobiba/games/flipflop/solver3.py): the start is a win for White,
the first player. The agent plays White through the Gymnasium environment
(``asobiba.envs.gym_env("flipflop", opponent="5")``: level 5 plays perfectly), seeing only
its observation vector and action mask. Every ``--every`` episodes the greedy policy plays
``--eval`` games; its win rate starts near 0 (a random White loses to perfect play) and
rises to 1.0, the solved value. At the end every move of the greedy policy along its games
is checked with the solver: each must keep the position won.

    python -m asobiba.examples.flipflop_qlearning            # about 10-30 s on one core
    python -m asobiba.examples.flipflop_qlearning --episodes 300 --seed 1 --every 20
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from numpy.typing import NDArray

from asobiba.envs import gym_env
from asobiba.games.flipflop.solver3 import LOSS, WIN, value_of

QTable = dict[bytes, NDArray[np.float64]]


def greedy(q: QTable, obs: dict[str, NDArray[np.float32] | NDArray[np.int8]]) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    values = q[obs["observation"].tobytes()][legal]
    return int(legal[int(np.argmax(values))])


def evaluate(env, q, games: int, seed: int, check: bool = False) -> tuple[float, int]:
    """Greedy win rate; with ``check``, also count greedy moves that throw the win away
    according to the solver (value of the position for the side to move after the move
    must be a LOSS, i.e. the agent keeps a WIN)."""
    wins, bad = 0, 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            action = greedy(q, obs)
            if check:
                state = env.unwrapped.session.state
                before = value_of(state.white, state.black, state.bishops, state.turn)[0]
                move = env.unwrapped.session.legal()[action]
                after = state.child(move)
                if not after.is_over:
                    v_after = value_of(after.white, after.black, after.bishops, after.turn)[0]
                    if before == WIN and v_after != LOSS:
                        bad += 1
            obs, reward, done, _, _ = env.step(action)
        wins += reward > 0
    return wins / games, bad


def train(episodes: int = 300, seed: int = 0, every: int = 10, eval_games: int = 10,
          alpha: float = 0.5, gamma: float = 0.95, epsilon: float = 0.2,
          verbose: bool = True) -> dict[str, object]:
    env = gym_env("flipflop", opponent="5")  # the agent is White (seat 0)
    n = env.session.codec.num_actions
    q: QTable = defaultdict(lambda: np.zeros(n))
    rng = np.random.default_rng(seed)
    curve = [(0, evaluate(env, q, eval_games, 10_000)[0])]
    if verbose:
        print(f"episode     0: greedy win rate vs the perfect bot {curve[0][1]:.2f}")
    t0 = time.process_time()
    for ep in range(1, episodes + 1):
        obs, _ = env.reset(seed=seed * 100_000 + ep)
        done = False
        while not done:
            key = obs["observation"].tobytes()
            legal = np.flatnonzero(obs["action_mask"])
            action = (int(rng.choice(legal)) if rng.random() < epsilon else greedy(q, obs))
            nxt, reward, done, _, _ = env.step(action)
            target = reward
            if not done:
                target += gamma * q[nxt["observation"].tobytes()][
                    np.flatnonzero(nxt["action_mask"])].max()
            q[key][action] += alpha * (target - q[key][action])
            obs = nxt
        if ep % every == 0:
            rate = evaluate(env, q, eval_games, 10_000)[0]
            curve.append((ep, rate))
            if verbose:
                print(f"episode {ep:5d}: greedy win rate vs the perfect bot {rate:.2f}")
    final, bad = evaluate(env, q, eval_games, 20_000, check=True)
    return {"curve": curve, "final_win_rate": final, "moves_losing_the_win": bad,
            "states": len(q), "cpu_seconds": time.process_time() - t0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args()
    result = train(args.episodes, args.seed, args.every)
    print(f"learned {result['states']} states in {result['cpu_seconds']:.1f} s CPU")
    print(f"final greedy win rate {result['final_win_rate']:.2f} "
          f"(solved value of the start for White: a win, so 1.00)")
    print(f"greedy moves that throw away a won position (by the solver): "
          f"{result['moves_losing_the_win']}")
    ok = result["final_win_rate"] == 1.0 and result["moves_losing_the_win"] == 0
    print("CHECK", "passed" if ok else "FAILED: train longer (--episodes)")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
