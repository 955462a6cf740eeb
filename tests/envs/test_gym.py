"""Gymnasium single-agent environments against the games' CPU levels (issue 18 item 2)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from asobiba.envs import GYM_IDS, encoded_games, gym_env
from asobiba.games import GAME_IDS

# (game, opponent, options): every game, at a level that answers quickly under load
GYM_CASES = [
    ("reversi", "3", {}),
    ("flipflop", "3", {}),
    ("flipflop", "2", {"variant": "5x5"}),
    ("reverstargo", "entry", {}),
    ("memory_matrix", "2", {"players": 2}),
    ("algo", "3", {}),
    ("algo", "random", {"players": 3}),
    ("patapata", "greedy", {"players": 2}),
    ("patapata", "random", {}),
]


def test_every_game_is_registered() -> None:
    assert set(GYM_IDS) == set(encoded_games()) >= set(GAME_IDS)
    for env_id in GYM_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("case", GYM_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{len(c[2])}")
def test_check_env(case) -> None:
    game, opponent, opts = case
    env = gym_env(game, opponent=opponent, **opts)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("case", GYM_CASES, ids=lambda c: f"{c[0]}-{c[1]}-{len(c[2])}")
def test_an_episode_ends_with_the_outcome_reward(case) -> None:
    game, opponent, opts = case
    env = gym_env(game, opponent=opponent, **opts)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    done, reward, steps = False, 0.0, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        steps += 1
        assert not truncated
    outcome = env.unwrapped.session.state.outcome
    assert outcome is not None and info["outcome"] == outcome.to_json()
    n = env.unwrapped.session.num_seats
    assert reward == (outcome.scores[0] if n == 1 else 2 * outcome.points(0) - 1)


def test_gymnasium_make_by_id_with_options() -> None:
    env = gymnasium.make("asobiba/FlipFlop-v0", opponent="5", board="3x3")
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape == (81,)
    assert env.unwrapped.level == "5"


def test_opponent_levels_by_name_or_position() -> None:
    assert gym_env("reverstargo", opponent="3").level == "intermediate"
    assert gym_env("patapata", opponent="greedy").level == "greedy"
    with pytest.raises(ValueError, match="levels: 1, 2, 3, 4, 5"):
        gym_env("flipflop", opponent="9")


def test_perfect_bot_never_loses_to_the_second_player_on_3x3() -> None:
    # FlipFlop 3×3 is solved (games/flipflop/solver3.py): a win for White, the first
    # player; the level-5 bot plays perfectly, so the agent in seat 1 can never win
    env = gym_env("flipflop", opponent="5", seat=1)
    rng = np.random.default_rng(0)
    for ep in range(6):
        obs, _ = env.reset(seed=ep)
        done, reward = False, 0.0
        while not done:
            obs, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert reward == -1.0


def test_illegal_action_is_a_loss_and_changes_nothing() -> None:
    env = gym_env("reversi", opponent="random")
    obs, _ = env.reset(seed=0)
    before = env.session.state.to_json()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, done, _, info = env.step(illegal)
    assert (reward, done, info) == (-1.0, True, {"illegal_action": True})
    assert env.session.state.to_json() == before


def test_agent_sees_only_its_seat() -> None:
    env = gym_env("algo", opponent="2")
    obs, _ = env.reset(seed=8)
    session = env.unwrapped.session
    assert np.array_equal(obs["observation"], session.codec.observe(session.state.view(0)))


def test_every_cpu_level_of_every_game_can_be_the_opponent() -> None:
    from asobiba.games import get

    for game_id in encoded_games():
        opts = {"players": 2} if game_id == "patapata" else {}
        for level in get(game_id).level_names():
            env = gym_env(game_id, opponent=level, **opts)
            obs, info = env.reset(seed=1)
            assert obs["action_mask"].any(), (game_id, level)
            assert env.level == level


def test_illegal_action_raises_when_asked() -> None:
    from asobiba.core import IllegalMoveError

    env = gym_env("reversi", opponent="random", illegal_action="raise")
    obs, _ = env.reset(seed=0)
    before = env.session.state.to_json()
    with pytest.raises(IllegalMoveError, match="not legal"):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.session.state.to_json() == before
    with pytest.raises(ValueError, match="penalty, raise"):
        gym_env("reversi", illegal_action="lose")


def test_illegal_action_penalty_is_minus_one_even_alone() -> None:
    env = gym_env("patapata", opponent="random")
    obs, _ = env.reset(seed=0)
    _, reward, done, _, info = env.step(len(obs["action_mask"]))  # out of range
    assert (reward, done, info) == (-1.0, True, {"illegal_action": True})


def test_gymnasium_make_with_only_gymnasium_imported() -> None:
    """A fresh interpreter that imports only gymnasium: both ``asobiba/Reversi-v0`` (the
    installed .pth line's hook registers the ids when Gymnasium is imported) and
    ``module:id`` (Gymnasium imports the registering module itself). Needs the package
    installed (``make test`` does ``pip install -e .``); start-up imports neither Gymnasium,
    NumPy nor asobiba."""
    import subprocess
    import sys

    code = ("import sys\n"
            "assert 'asobiba_gymnasium_hook' in sys.modules, 'no .pth: pip install -e .'\n"
            "assert not {'gymnasium', 'numpy', 'asobiba'} & set(sys.modules)\n"
            "import gymnasium\n"
            "assert not any(m.startswith('asobiba.') for m in sys.modules)\n"
            "env = gymnasium.make('asobiba/Reversi-v0', opponent='random')\n"
            "obs, _ = env.reset(seed=0)\n"
            "env2 = gymnasium.make('asobiba.envs:asobiba/Algo-v0', opponent='random')\n"
            "print(int(obs['action_mask'].sum()))\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "ASOBIBA_NO_GYM_HOOK"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=False, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "4", out.stderr


def test_the_hook_registers_the_same_ids_without_importing_asobiba() -> None:
    """The start-up hook's table is asobiba.envs.GYM_IDS (it may not import asobiba to read
    it), and it registers with a lazy entry point only when Gymnasium is imported."""
    import subprocess
    import sys

    import asobiba_gymnasium_hook as hook

    assert hook.GYM_IDS == {gid: GYM_IDS[gid] for gid in GAME_IDS}  # the shipped games
    for env_id in GYM_IDS.values():
        assert gymnasium.registry[env_id].entry_point == hook.ENTRY_POINT
    code = ("import sys, asobiba_gymnasium_hook as h\n"
            "sys.modules.pop('gymnasium', None)\n"
            "h.install()\n"
            "assert not {'gymnasium', 'numpy'} & set(sys.modules)\n"
            "import gymnasium\n"
            "print(sorted(i for i in gymnasium.registry if i.startswith('asobiba/')))\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "ASOBIBA_NO_GYM_HOOK"}
    env["ASOBIBA_NO_GYM_HOOK"] = "1"  # the .pth stays out; the code installs the hook itself
    out = subprocess.run([sys.executable, "-c", code.replace("h.install()", (
        "import os; os.environ.pop('ASOBIBA_NO_GYM_HOOK'); h.install()"))],
        capture_output=True, text=True, timeout=300, check=False, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == repr(sorted(GYM_IDS[gid] for gid in GAME_IDS))  # shipped


def test_check_env_with_planes() -> None:
    env = gym_env("reversi", opponent="1", observation="planes")
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == (3, 8, 8)
