"""OpenSpiel on every asobiba game (issue 18 item 3): OpenSpiel's own random-simulation test
per game, its MCTS bot on Reversi and FlipFlop, and its sampling CFR on the smallest Algo.

Why not full CFR or exploitability on Algo: they walk the whole game tree, and even the
smallest Algo (two players, one card each) has about 10^24 histories per deal (Knuth's
estimator over random playouts: tests/envs/test_openspiel.py::test_algo_tree_is_too_big_for_cfr
measures it). Outcome-sampling MCCFR, OpenSpiel's CFR for games that size, runs instead.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts, outcome_sampling_mccfr

from asobiba.envs.openspiel import register
from asobiba.games import GAME_IDS

NAMES = register()

SIM_GAMES = [
    "asobiba_reversi",
    "asobiba_flipflop",
    "asobiba_flipflop(board=5x5)",
    "asobiba_reverstargo",
    "asobiba_memory_matrix",
    "asobiba_memory_matrix(players=2,colours=2,seeds=10)",
    "asobiba_algo",
    "asobiba_algo(players=3,jokers=True)",
    "asobiba_algo(mode=pair,players=4)",
    "asobiba_patapata",
    "asobiba_patapata(players=3)",
]


def test_every_game_is_registered() -> None:
    assert NAMES == [f"asobiba_{g}" for g in GAME_IDS]
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert register() == NAMES  # idempotent


@pytest.mark.parametrize("name", SIM_GAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_types_say_what_each_game_is() -> None:
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    for gid, info, chance in [("reversi", perfect, False), ("flipflop", perfect, False),
                              ("algo", None, True), ("memory_matrix", None, True),
                              ("patapata", None, True)]:
        gtype = pyspiel.load_game(f"asobiba_{gid}").get_type()
        assert (gtype.information == perfect) == (info == perfect), gid
        stochastic = gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert stochastic == chance, gid


def test_chance_node_draws_the_seed_and_hides_it() -> None:
    game = pyspiel.load_game("asobiba_algo(seeds=5)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.2) for s in range(5)]
    a, b = state.child(1), state.child(2)
    # different deals give seat 0 different cards, but its information never holds the pile
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "pile_full" not in a.information_state_string(0)
    assert "pile_full" in str(a)  # the full state (for debugging) does


def test_information_state_is_perfect_recall_and_observation_is_not() -> None:
    game = pyspiel.load_game("asobiba_memory_matrix(players=2)")
    state = game.new_initial_state().child(0)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    info = state.information_state_string(0)
    assert info.count("\n") == 6  # one view per state since the seed was drawn
    assert info.endswith(state.observation_string(0))


def _mcts_vs_random(name: str, sims: int, games: int, seed: int) -> list[float]:
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(seed)
    results = []
    for g in range(games):
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        mcts_seat = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == mcts_seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        results.append(state.returns()[mcts_seat])
    return results


def test_openspiel_mcts_beats_random_on_flipflop() -> None:
    results = _mcts_vs_random("asobiba_flipflop", sims=60, games=6, seed=1)
    assert sum(r > 0 for r in results) >= 5, results


def test_openspiel_mcts_beats_random_on_reversi() -> None:
    results = _mcts_vs_random("asobiba_reversi", sims=25, games=4, seed=2)
    assert sum(r > 0 for r in results) >= 3, results


def test_outcome_sampling_mccfr_on_the_smallest_algo() -> None:
    game = pyspiel.load_game("asobiba_algo(hand=1,seeds=4)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state().child(0)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
    assert len(solver._infostates) > 0  # regrets were accumulated


def test_algo_tree_is_too_big_for_cfr() -> None:
    """Knuth's estimator: the mean product of branching factors along random playouts
    estimates the number of histories; it is far beyond what CFR can enumerate."""
    game = pyspiel.load_game("asobiba_algo(hand=1,seeds=1)")
    rng = np.random.RandomState(0)
    estimates = []
    for _ in range(40):
        state = game.new_initial_state().child(0)
        prod = total = 1.0
        while not state.is_terminal():
            legal = state.legal_actions()
            prod *= len(legal)
            total += prod
            state.apply_action(int(rng.choice(legal)))
        estimates.append(total)
    assert np.mean(estimates) > 1e12
