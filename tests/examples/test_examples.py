"""The learning example (issue 18 item 5) runs, and what it learns is checked against the
solved game, not just printed."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _example():
    # shipped in the package (asobiba/examples), so an installed wheel has it too
    return importlib.import_module("asobiba.examples.flipflop_qlearning")


def test_q_learning_reaches_the_solved_value_of_flipflop_3x3() -> None:
    ex = _example()
    result = ex.train(episodes=300, seed=0, every=30, eval_games=10, verbose=False)
    curve = result["curve"]
    assert curve[0] == (0, 0.0)  # untrained White loses every game to perfect play
    assert result["final_win_rate"] == 1.0  # the start is a win for White (solver3)
    assert result["moves_losing_the_win"] == 0  # every greedy move keeps the win
    assert max(rate for _, rate in curve[1:]) == 1.0


def test_the_solver_check_catches_a_policy_that_has_not_learned() -> None:
    ex = _example()
    from asobiba.envs import gym_env

    env = gym_env("flipflop", opponent="5")
    untrained = defaultdict(lambda: np.zeros(env.action_space.n))
    rate, bad = ex.evaluate(env, untrained, 4, 0, check=True)
    assert rate == 0.0 and bad > 0


def test_the_script_runs_and_says_its_check_passed() -> None:
    out = subprocess.run([sys.executable, "-m", "asobiba.examples.flipflop_qlearning",
                          "--episodes", "300", "--every", "100"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "CHECK passed" in out.stdout
