"""The Gymnasium vector environment (issue 30 item 2): batched NumPy observations and masks,
every seat's reward, seeding, the three autoreset modes, illegal actions."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import check_obs
from gymnasium.vector import AutoresetMode, VectorEnv

from asobiba.core import IllegalMoveError
from asobiba.envs import vector_env
from asobiba.envs.session import Session
from asobiba.envs.vector import AsobibaVectorEnv, VectorRollout

CASES = [("reversi", {}), ("flipflop", {}), ("reverstargo", {}), ("memory_matrix", {}),
         ("algo", {}), ("algo", {"players": 3}), ("patapata", {"players": 2}),
         ("patapata", {"players": 1})]


def _random(obs: dict, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                     for m in obs["action_mask"]])


def _fresh(s: Session) -> bool:
    """The game is at its start (for its seed)."""
    return bool(s.state.to_json() == s.game.new_game(s.options, s.seed).to_json())


def _run(env: AsobibaVectorEnv, seed: int, steps: int) -> list:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        step = env.step(_random(obs, rng))
        obs = step[0]
        out.append(step)
    return out


@pytest.mark.parametrize(("gid", "opts"), CASES, ids=lambda c: str(c))
def test_vector_env_batches_spaces_and_every_seats_reward(gid: str, opts: dict) -> None:
    n = 3
    env = vector_env(gid, n, **opts)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    seats = env.num_seats
    obs, info = env.reset(seed=7)
    check_obs(obs, env.observation_space, "reset")
    assert obs["observation"].shape == (n, env.codec.obs_size)
    assert obs["action_mask"].shape == (n, env.codec.num_actions)
    assert list(info["seeds"]) == [7, 8, 9]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150 if gid != "patapata" else 60):
        # the rows are the views of the seats to move, nothing else
        for i, s in enumerate(env.sessions):
            seat = info["to_move"][i]
            if seat >= 0:
                assert seat == s.to_move
                assert np.array_equal(obs["observation"][i],
                                      s.codec.observe(s.state.view(int(seat))))
                assert np.array_equal(obs["action_mask"][i], s.codec.mask(s.state.view(int(seat))))
        actions = _random(obs, rng)
        assert env.action_space.contains(actions.astype(np.int64))
        obs, rewards, term, trunc, info = env.step(actions)
        check_obs(obs, env.observation_space, "step")
        assert rewards.shape == (n,) and rewards.dtype == np.float32
        assert term.dtype == np.bool_ and not trunc.any()
        assert info["rewards"].shape == (n, seats)
        assert info["_rewards"].all()
        # rewards only where a game ended; there every seat's, the mover's in `rewards`
        assert not info["rewards"][~term].any()
        for i in np.flatnonzero(term):
            ended += 1
            mover = info["seat"][i]
            assert rewards[i] == info["rewards"][i, mover]
            assert info["to_move"][i] == -1 and not obs["action_mask"][i].any()
            if seats > 1:
                assert info["rewards"][i].sum() == pytest.approx(0.0, abs=1e-6)
    if gid in ("reversi", "flipflop", "memory_matrix"):
        assert ended > 0


def test_rewards_are_the_outcome_for_every_seat() -> None:
    env = vector_env("flipflop", 2)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(2)
    while True:
        before = [s.state for s in env.sessions]
        obs, rewards, term, _, info = env.step(_random(obs, rng))
        if term.any():
            i = int(np.flatnonzero(term)[0])
            s = env.sessions[i]
            assert s.over
            assert list(info["rewards"][i]) == Session.rewards(s)
            assert before[i] is not s.state
            assert sorted(info["rewards"][i]) == [-1.0, 1.0] or not info["rewards"][i].any()
            break


def test_seeded_runs_replay_exactly_and_seeds_differ() -> None:
    a = _run(vector_env("algo", 3), 5, 80)
    b = _run(vector_env("algo", 3), 5, 80)
    assert data_equivalence(a, b, exact=True)
    c = _run(vector_env("algo", 3), 6, 80)
    assert not data_equivalence(a, c)
    # returned arrays are fresh each step (not the same buffers rewritten)
    assert a[1][0]["observation"] is not a[2][0]["observation"]


def test_next_step_autoreset_restarts_on_the_following_step() -> None:
    env = vector_env("flipflop", 2)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        obs, rewards, term, _, info = env.step(_random(obs, rng))
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    assert env.sessions[i].over
    seed_before = int(info["seeds"][i])
    actions = _random(obs, rng)
    actions[i] = 12345  # ignored: this step restarts game i
    obs, rewards, term2, _, info = env.step(actions)
    assert rewards[i] == 0 and not term2[i] and info["seat"][i] == -1
    assert not env.sessions[i].over and _fresh(env.sessions[i])
    assert info["seeds"][i] != seed_before
    assert obs["action_mask"][i].any() and info["to_move"][i] == env.sessions[i].to_move


def test_same_step_autoreset_gives_final_obs_and_info() -> None:
    env = vector_env("flipflop", 2, autoreset_mode="SameStep")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    while True:
        obs, rewards, term, _, info = env.step(_random(obs, rng))
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    assert info["_final_obs"][i] and info["final_obs"][i] is not None
    assert not info["final_obs"][i]["action_mask"].any()
    assert rewards[i] == info["final_info"]["rewards"][i, info["seat"][i]]
    # the game restarted at once: its row is a fresh game's
    assert _fresh(env.sessions[i]) and obs["action_mask"][i].any()
    assert info["to_move"][i] == env.sessions[i].to_move


def test_disabled_autoreset_needs_a_reset_mask() -> None:
    env = vector_env("flipflop", 2, autoreset_mode=AutoresetMode.DISABLED)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    while True:
        obs, _, term, _, _ = env.step(_random(obs, rng))
        if term.any():
            break
    with pytest.raises(RuntimeError, match="reset_mask"):
        env.step(_random(obs, rng))
    obs, info = env.reset(options={"reset_mask": term.copy()})
    i = int(np.flatnonzero(term)[0])
    assert _fresh(env.sessions[i]) and obs["action_mask"][i].any()
    env.step(_random(obs, rng))  # playable again
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(2, bool)})


def test_illegal_action_raise_changes_nothing_and_penalty_ends_the_game() -> None:
    env = vector_env("reversi", 2)
    env.reset(seed=0)
    before = [s.state.to_json() for s in env.sessions]
    with pytest.raises(IllegalMoveError, match="game 1"):
        env.step([19, 0])  # d3 legal in game 0; a1 never at the start
    assert [s.state.to_json() for s in env.sessions] == before
    with pytest.raises(ValueError, match="3 actions"):
        env.step([19, 19, 19])

    env = vector_env("reversi", 2, illegal_action="penalty")
    env.reset(seed=0)
    obs, rewards, term, _, info = env.step([19, 0])
    assert list(term) == [False, True] and list(info["illegal_action"]) == [False, True]
    assert rewards[1] == -1.0 and list(info["rewards"][1]) == [-1.0, 0.0]
    assert _fresh(env.sessions[1])  # not played
    assert not _fresh(env.sessions[0])


def test_step_before_reset_refuses() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        vector_env("reversi", 1).step([19])
    with pytest.raises(ValueError):
        vector_env("reversi", 0)


def test_vector_rollout_reports_every_seats_rewards() -> None:
    vec = VectorRollout("flipflop", 3, seed=0)
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(200):
        rewards, dones = vec.step(vec.random_actions(rng))
        assert vec.seat_rewards.shape == (3, 2)
        assert not vec.seat_rewards[~dones].any()
        for i in np.flatnonzero(dones):
            seen += 1
            assert vec.seat_rewards[i].sum() == 0.0
            assert rewards[i] in vec.seat_rewards[i]
    assert seen > 0
