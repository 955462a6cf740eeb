"""A plugged-in game gets every binding by adding one file, ``encoding.py``, to its own
package (tests/tictactoe): PettingZoo, Gymnasium, OpenSpiel and the record formats, with no
edit anywhere else."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from asobiba import games
from asobiba.envs import gym_env, pettingzoo_env
from asobiba.envs.openspiel import register


@pytest.fixture
def tictactoe() -> Iterator[None]:
    games.register("tictactoe", "tests.tictactoe")
    try:
        yield
    finally:
        games.unregister("tictactoe")


@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
def test_plugged_in_game_has_all_three_bindings(tictactoe: None) -> None:
    api_test(pettingzoo_env("tictactoe"), num_cycles=50)
    seed_test(lambda: pettingzoo_env("tictactoe"), num_cycles=50)
    check_env(gym_env("tictactoe", opponent="perfect"), skip_render_check=True)
    names = register(["tictactoe"])
    assert names == ["asobiba_tictactoe"]
    game = pyspiel.load_game("asobiba_tictactoe")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_plugged_in_game_against_its_perfect_bot_never_wins(tictactoe: None) -> None:
    env = gym_env("tictactoe", opponent="perfect")
    rng = np.random.default_rng(0)
    for ep in range(5):
        obs, _ = env.reset(seed=ep)
        done, reward = False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert reward <= 0.0
