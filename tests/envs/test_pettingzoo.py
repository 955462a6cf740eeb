"""PettingZoo's own conformance tests on every game (issue 18 item 1). The rl extra is
imported plainly: without it these tests fail at collection instead of skipping."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from asobiba.core import IllegalMoveError
from asobiba.envs import encoded_games, pettingzoo_env
from asobiba.games import GAME_IDS, available, get

from .cases import CASES, case_id

# api_test warns that dict observations are not plain arrays and Box-shaped: by design (the
# mask travels in the observation, as in PettingZoo's own classic environments)
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")


def test_every_game_has_a_case() -> None:
    assert {g for g, _ in CASES} == set(encoded_games()) >= set(GAME_IDS)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_test(case: tuple[str, dict]) -> None:
    game, opts = case
    api_test(pettingzoo_env(game, **opts), num_cycles=300)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_seed_test(case: tuple[str, dict]) -> None:
    # every game's chance comes from the seed, so every game is deterministic per seed
    game, opts = case
    seed_test(lambda: pettingzoo_env(game, **opts), num_cycles=200)


def _play_out(env, rng: np.random.Generator) -> dict[str, float]:
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rewards_follow_the_outcome(case: tuple[str, dict]) -> None:
    game, opts = case
    env = pettingzoo_env(game, **opts)
    env.reset(seed=3)
    total = _play_out(env, np.random.default_rng(3))
    outcome = env.session.state.outcome
    assert outcome is not None
    n = len(env.possible_agents)
    for seat, agent in enumerate(env.possible_agents):
        expected = outcome.scores[0] if n == 1 else 2 * outcome.points(seat) - 1
        assert total[agent] == pytest.approx(expected)
    if n > 1:
        assert sum(total.values()) == pytest.approx(0.0)


def test_same_seed_same_game_other_seed_other_deal() -> None:
    # chance handled by the seed: Algo's deal is fixed by reset(seed)
    env = pettingzoo_env("algo")
    env.reset(seed=11)
    first = env.observe("player_0")["observation"].copy()
    env.reset(seed=11)
    assert np.array_equal(first, env.observe("player_0")["observation"])
    others = []
    for seed in range(12, 20):
        env.reset(seed=seed)
        others.append(np.array_equal(first, env.observe("player_0")["observation"]))
    assert not all(others)


def test_illegal_action_raises_and_changes_nothing_when_asked() -> None:
    env = pettingzoo_env("reversi", illegal_action="raise")
    env.reset(seed=0)
    before = env.session.state.to_json()
    mask = env.observe("player_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMoveError, match="not legal"):
        env.step(illegal)
    assert env.session.state.to_json() == before
    assert env.agent_selection == "player_0"


@pytest.mark.parametrize("game, opts", [("reversi", {}), ("algo", {"players": 3}),
                                         ("patapata", {"players": 1})])
def test_illegal_action_is_a_penalty_by_default(game: str, opts: dict) -> None:
    """As PettingZoo's classic environments: the offender -1, everyone else 0, the episode
    over, the move not played."""
    env = pettingzoo_env(game, **opts)
    env.reset(seed=0)
    offender = env.agent_selection
    before = env.session.state.to_json()
    mask = env.observe(offender)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    env.step(int(illegal[0]) if len(illegal) else len(mask))  # solo Patapata: all legal
    assert env.session.state.to_json() == before
    assert all(env.terminations.values())
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert term
        rewards[agent] = reward
        assert info == ({"illegal_action": True} if agent == offender else {})
        env.step(None)
    assert rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.agents == []


def test_a_none_action_from_a_live_agent_is_illegal_too() -> None:
    env = pettingzoo_env("flipflop")
    env.reset(seed=0)
    env.step(None)
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}


def test_unknown_illegal_action_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="penalty, raise"):
        pettingzoo_env("reversi", illegal_action="ignore")


def test_patapata_illegal_action_ends_the_episode_at_the_end_of_the_cycle() -> None:
    from asobiba.envs import parallel_env

    env = parallel_env("patapata", players=3)
    obs, _ = env.reset(seed=2)
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    actions["player_1"] = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    obs, rewards, terms, truncs, infos = env.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": 0.0}
    assert all(terms.values()) and env.agents == []
    assert infos["player_1"] == {"illegal_action": True}


def test_reversi_action_numbers_are_squares() -> None:
    env = pettingzoo_env("reversi")
    env.reset(seed=0)
    mask = env.observe("player_0")["action_mask"]
    # d3 c4 f5 e6 = 8*rank+file
    assert set(np.flatnonzero(mask)) == {8 * 2 + 3, 8 * 3 + 2, 8 * 4 + 5, 8 * 5 + 4}
    env.step(8 * 2 + 3)
    assert env.session.state.game.id == "reversi"
    assert env.agent_selection == "player_1"


def test_variant_option_reaches_the_game() -> None:
    env = pettingzoo_env("flipflop", variant="5x5")
    assert env.game_options["board"] == "5x5"
    assert env.action_space("player_0").n == 625
    env = pettingzoo_env("algo", variant="pair")
    assert env.possible_agents == [f"player_{i}" for i in range(4)]


def test_bad_option_is_refused_with_its_name() -> None:
    from asobiba.core import OptionError

    with pytest.raises(OptionError, match="board"):
        pettingzoo_env("flipflop", board="4x4")


def test_render_shows_only_the_spectator_view() -> None:
    env = pettingzoo_env("algo", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text == env.session.state.render(None)


def test_patapata_simultaneous_seats_take_turns() -> None:
    env = pettingzoo_env("patapata", players=2)
    env.reset(seed=5)
    order = []
    for agent in env.agent_iter(max_iter=6):
        obs, *_ = env.last()
        order.append(agent)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    # each task: seat 0 then seat 1, one action each (pass or a clear)
    assert order == ["player_0", "player_1"] * 3


# every registered game that can seat more than one number of players
PLAYER_COUNTS = [(g, n) for g in available() if get(g).max_seats > get(g).min_seats
                 for n in range(get(g).min_seats, get(g).max_seats + 1)]


@pytest.mark.parametrize("game, players", PLAYER_COUNTS, ids=lambda v: str(v))
def test_pettingzoo_tests_at_every_player_count(game: str, players: int) -> None:
    opts = {"players": players}
    api_test(pettingzoo_env(game, **opts), num_cycles=10)
    seed_test(lambda: pettingzoo_env(game, **opts), num_cycles=10)


@pytest.mark.parametrize("players", range(1, 9))
def test_patapata_parallel_seed_test_at_every_player_count(players: int) -> None:
    """PettingZoo's own parallel_seed_test samples actions without the mask: an illegal
    one ends the episode with a penalty (the default), deterministically. (The Parallel
    API test itself runs at 1 and 3 players below: Patapata's masks are slow to build.)"""
    from pettingzoo.test import parallel_seed_test

    from asobiba.envs import parallel_env

    parallel_seed_test(lambda: parallel_env("patapata", players=players), num_cycles=5)


@pytest.mark.parametrize("players", [1, 3])
def test_patapata_parallel_api(players: int) -> None:
    from pettingzoo.test import parallel_api_test

    from asobiba.envs import parallel_env

    parallel_api_test(parallel_env("patapata", players=players), num_cycles=30)
    # determinism per seed over whole episodes, sampling with the mask (PettingZoo's
    # parallel_seed_test samples without it, so its episodes end at the first illegal action)
    runs = []
    for _ in range(2):
        env = parallel_env("patapata", players=players)
        obs, _ = env.reset(seed=42)
        rng = np.random.default_rng(0)
        trace = []
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                       for a in env.agents}
            obs, rewards, *_ = env.step(actions)
            trace.append((actions, {a: o["observation"].tobytes() for a, o in obs.items()},
                          rewards))
        runs.append(trace)
    assert runs[0] == runs[1]


def test_parallel_env_is_only_for_simultaneous_games() -> None:
    from asobiba.envs import parallel_env

    with pytest.raises(ValueError, match="played in turns"):
        parallel_env("reversi")


def test_patapata_parallel_episode_has_one_action_per_seat_and_task() -> None:
    from asobiba.envs import parallel_env

    env = parallel_env("patapata", players=2)
    obs, infos = env.reset(seed=4)
    cycles = 0
    while env.agents:
        actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        cycles += 1
    assert cycles == 12  # the course has 12 tasks


@pytest.mark.parametrize("case", [("reversi", {}), ("flipflop", {"board": "5x5"}),
                                  ("memory_matrix", {"players": 3, "shape": "cross"})],
                         ids=lambda c: c[0])
def test_planes_observations_pass_the_api_test(case: tuple[str, dict]) -> None:
    game, opts = case
    env = pettingzoo_env(game, observation="planes", **opts)
    api_test(env, num_cycles=100)
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)["observation"]
    codec = env.session.codec
    assert obs.shape == codec.planes_shape
    flat = env.session.observe_view(env.session.to_move)["observation"]
    assert np.array_equal(obs, flat)  # observe_view lays its vector out as planes too
    assert np.array_equal(obs, codec.to_planes(codec.observe(env.session.state.view(
        env.session.to_move))))


def test_planes_are_refused_where_there_is_no_board_and_bad_layouts_named() -> None:
    for game in ("algo", "patapata", "reverstargo"):
        with pytest.raises(ValueError, match="no planes layout"):
            pettingzoo_env(game, observation="planes")
    with pytest.raises(ValueError, match="observation must be one of flat, planes"):
        pettingzoo_env("reversi", observation="cube")
