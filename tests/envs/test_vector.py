"""N games stepped together (issue 18 item 4's rollout benchmark uses this)."""

from __future__ import annotations

import numpy as np
import pytest

from asobiba.core import IllegalMoveError
from asobiba.envs.vector import VectorRollout


def test_vector_rollout_plays_whole_games_and_restarts_them() -> None:
    vec = VectorRollout("flipflop", 4, seed=10)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        masks = vec.masks()
        assert masks.shape == (4, 81) and (masks.sum(axis=1) > 0).all()
        actions = vec.random_actions(rng)
        assert all(masks[i, a] for i, a in enumerate(actions))
        rewards, dones = vec.step(actions)
        finished += int(dones.sum())
        assert set(rewards[dones]) <= {-1.0, 0.0, 1.0}
        assert not rewards[~dones].any()
    assert finished == vec.episodes > 0
    assert vec.steps == 800
    # restarted games take fresh seeds in order
    assert {s.seed for s in vec.sessions} <= set(range(10, 10 + 4 + finished))


def test_vector_observations_are_the_seats_views() -> None:
    vec = VectorRollout("algo", 3, seed=0)
    obs = vec.observations()
    for i, s in enumerate(vec.sessions):
        assert np.array_equal(obs[i], s.codec.observe(s.state.view(s.to_move)))


def test_vector_step_refuses_an_illegal_action() -> None:
    vec = VectorRollout("reversi", 2)
    before = [s.state.to_json() for s in vec.sessions]
    with pytest.raises(IllegalMoveError, match="game 1"):
        vec.step([19, 0])  # d3 is legal in game 0, a1 never at the start
    assert [s.state.to_json() for s in vec.sessions] == before  # nothing half-applied
