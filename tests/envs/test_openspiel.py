"""OpenSpiel on every asobiba game (issue 18 item 3, issue 30 item 1): OpenSpiel's own
random-simulation test per game with serialization, its playthroughs (kept under
tests/envs/playthroughs and compared, as OpenSpiel does), pickling, the string form of every
parameter, compact information states that depend on the seat's views only, its MCTS bot on
Reversi and FlipFlop, and its sampling CFR on the smallest Algo.

Regenerate the playthroughs after a deliberate change to a game's views, encoding or
notation: ``PYTHONPATH=. python tests/envs/test_openspiel.py --update-playthroughs``.

Why not full CFR or exploitability on Algo: they walk the whole game tree, and even the
smallest Algo (two players, one card each) has about 10^24 histories per deal (Knuth's
estimator over random playouts: tests/envs/test_openspiel.py::test_algo_tree_is_too_big_for_cfr
measures it). Outcome-sampling MCCFR, OpenSpiel's CFR for games that size, runs instead
(bench/openspiel_mccfr.py measures it beside Leduc poker).
"""

from __future__ import annotations

import pickle
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import generate_playthrough, mcts, outcome_sampling_mccfr

from asobiba.envs import encoded_games
from asobiba.envs.openspiel import AsobibaSpielState, register
from asobiba.games import GAME_IDS, get

NAMES = register()
PLAYTHROUGHS = Path(__file__).parent / "playthroughs"

SIM_GAMES = [
    "asobiba_reversi",
    "asobiba_flipflop",
    "asobiba_flipflop(board=5x5)",
    "asobiba_reverstargo",
    "asobiba_memory_matrix",
    "asobiba_memory_matrix(players=2,colours=2,seeds=10)",
    "asobiba_memory_matrix(players=3,shape=cross,white_any_time=1,lost_colour=pass)",
    "asobiba_algo",
    "asobiba_algo(players=3,jokers=True)",
    "asobiba_algo(colours=3)",
    "asobiba_algo(mode=pair,players=4)",
    "asobiba_patapata",
    "asobiba_patapata(players=3)",
    "asobiba_patapata(players=2,course=2,scores=steep)",
]

# Every parameter of every game at a value other than its default, at least once: the
# string form must round-trip through load_game (test_every_parameter_is_covered keeps
# this list complete when a game gains an option).
EVERY_PARAMETER = [
    "asobiba_flipflop(board=5x5)",
    "asobiba_memory_matrix(players=2,colours=2,shape=6x6,start_pieces=1,layout=windmill,"
    "white_any_time=0,lost_colour=pass,memory_aid=True,seeds=7)",
    "asobiba_memory_matrix(players=3,shape=custom,mask=#####/#####/##.##/#####/#####,"
    "white_any_time=1,end_at_dead_board=False)",
    "asobiba_algo(players=4,mode=pair,sets=2,colours=3,jokers=True,chips=True,hand=3,first=1,"
    "aid=True,seeds=5)",
    "asobiba_patapata(players=3,course=3,scores=steep,seeds=2)",
    "asobiba_patapata(course=0)",
]


def test_every_game_is_registered() -> None:
    assert NAMES == [f"asobiba_{g}" for g in encoded_games()]
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert register() == NAMES  # idempotent


@pytest.mark.parametrize("name", SIM_GAMES)
def test_openspiel_random_sim_test_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_parameter_is_covered() -> None:
    given: dict[str, set[str]] = defaultdict(set)
    for text in EVERY_PARAMETER:
        name, _, args = text.partition("(")
        for pair in args.rstrip(")").split(","):
            given[name].add(pair.split("=")[0])
    for gid in encoded_games():
        expected = {o.name for o in get(gid).options} | ({"seeds"} if get(gid).chance else set())
        assert expected <= given[f"asobiba_{gid}"], (gid, expected - given[f"asobiba_{gid}"])


@pytest.mark.parametrize("text", EVERY_PARAMETER + SIM_GAMES)
def test_string_form_round_trips(text: str) -> None:
    game = pyspiel.load_game(text)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()
    # and the parameters reached the asobiba game
    name, _, args = text.partition("(")
    options = game.spec.options
    for pair in filter(None, args.rstrip(")").split(",")):
        key, value = pair.split("=")
        if key != "seeds":
            assert str(game.get_parameters()[key]) == value, key
            assert key in options
    assert again.spec.options == options
    assert pyspiel.load_game(name, game.get_parameters()).spec.options == options


def test_patapata_course_numbers_and_dice() -> None:
    assert pyspiel.load_game("asobiba_patapata(course=2)").spec.options["course"] == "2"
    assert pyspiel.load_game("asobiba_patapata(course=0)").spec.options["course"] == "dice"
    assert pyspiel.load_game("asobiba_patapata").spec.options["course"] == "dice"


@pytest.mark.parametrize("text, match", [
    ("asobiba_algo(colours=4)", "colours"),
    ("asobiba_patapata(course=7)", "course"),
    ("asobiba_algo(colours=three)", "colours"),
    ("asobiba_algo(seeds=0)", "seeds"),
])
def test_a_bad_parameter_is_refused_with_its_name(text: str, match: str) -> None:
    with pytest.raises(Exception, match=match):  # noqa: B017 - pyspiel or OptionError
        pyspiel.load_game(text)


def _midgame(name: str, plies: int, seed: int = 0) -> tuple[pyspiel.Game, pyspiel.State]:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while not state.is_terminal() and len(state.history()) < plies:
        if state.is_chance_node():
            state.apply_action(int(rng.randint(game.max_chance_outcomes())))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


@pytest.mark.parametrize("name", SIM_GAMES)
def test_games_and_states_pickle(name: str) -> None:
    game, state = _midgame(name, 9)
    game2 = pickle.loads(pickle.dumps(game))
    assert str(game2) == str(game) and type(game2) is type(game)
    state2 = pickle.loads(pickle.dumps(state))
    assert isinstance(state2, AsobibaSpielState)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for p in range(game.num_players()):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.observation_string(p) == state.observation_string(p)
    # the copy plays on exactly like the original
    for _ in range(3):
        if state.is_terminal():
            break
        a = state.legal_actions()[-1]
        state.apply_action(a)
        state2.apply_action(a)
        assert str(state2) == str(state)
    g3, s3 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(g3) == str(game) and str(s3) == str(state)
    # a fresh game (unpickled) starts new states too
    assert str(game2.new_initial_state()) == str(game.new_initial_state())


def test_history_is_openspiels_action_list() -> None:
    game, state = _midgame("asobiba_algo", 5)
    assert len(state.history()) == 5 and all(isinstance(a, int) for a in state.history())
    assert state.history_str() == ", ".join(map(str, state.history()))


def test_undo_is_refused_with_a_reason() -> None:
    _, state = _midgame("asobiba_reversi", 2)
    with pytest.raises(NotImplementedError, match="clone"):
        state.undo_action(1, state.history()[-1])


# ---- playthroughs (as OpenSpiel's integration tests keep them) ----------------------------
PLAYTHROUGH_GAMES = {
    "reversi": "asobiba_reversi",
    "flipflop": "asobiba_flipflop",
    "reverstargo": "asobiba_reverstargo",
    "memory_matrix": "asobiba_memory_matrix(players=2,shape=6x6)",
    "algo": "asobiba_algo",
    "patapata": "asobiba_patapata(players=2)",
}


def _replay(path: Path) -> tuple[str, str]:
    """(stored, regenerated) with the stored file's game and actions (what
    generate_playthrough.replay does, without its command-line flag)."""
    original = path.read_text(encoding="utf-8")
    game = re.search(r"^game: (.*)$", original, re.M)
    assert game is not None
    actions = [int(a) for a in re.findall(r"^action: (-?\d+)$", original, re.M)]
    return original, generate_playthrough.playthrough(game.group(1), actions)


def test_every_game_has_a_playthrough() -> None:
    assert set(PLAYTHROUGH_GAMES) == set(GAME_IDS)
    assert {p.stem for p in PLAYTHROUGHS.glob("*.txt")} == {f"asobiba_{g}" for g in GAME_IDS}


@pytest.mark.parametrize("gid", list(PLAYTHROUGH_GAMES))
def test_playthrough_matches_the_stored_one(gid: str) -> None:
    original, new = _replay(PLAYTHROUGHS / f"asobiba_{gid}.txt")
    assert "Returns() = " in original and "IsTerminal() = True" in original  # a whole game
    assert new == original, ("the playthrough changed; if the change is deliberate, "
                             "regenerate: PYTHONPATH=. python tests/envs/test_openspiel.py "
                             "--update-playthroughs")


def update_playthroughs() -> None:
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for gid, name in PLAYTHROUGH_GAMES.items():
        path = PLAYTHROUGHS / f"asobiba_{gid}.txt"
        if path.exists():
            _, text = _replay(path)
            if re.search(r"^game: (.*)$", text, re.M).group(1) != name:  # type: ignore[union-attr]
                text = generate_playthrough.playthrough(name, None, seed=1)
        else:
            text = generate_playthrough.playthrough(name, None, seed=1)
        path.write_text(text, encoding="utf-8")
        print(path)


# ---- information states --------------------------------------------------------------------
INFO_CASES = [
    "asobiba_algo",
    "asobiba_algo(players=3,colours=3)",
    "asobiba_algo(mode=pair,players=4,jokers=True)",
    "asobiba_algo(hand=1,seeds=200)",
    "asobiba_memory_matrix",
    "asobiba_memory_matrix(players=2)",
    "asobiba_memory_matrix(players=2,colours=2,memory_aid=True)",
    "asobiba_patapata(players=2,seeds=200)",
]


def _views_at_every_state(name: str, games: int) -> list[tuple[int, int, str, str, str]]:
    """(seat, id of the seat's view history, its information-state string, the full state,
    the current view) at every state of random playouts. Views are read from the asobiba
    state directly; equal view histories get equal ids (a trie of view texts)."""
    import json

    out = []
    trie: dict[tuple[int, str], int] = {}
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    for _ in range(games):
        state = game.new_initial_state()
        state.apply_action(int(rng.randint(game.max_chance_outcomes())))
        history = dict.fromkeys(range(game.num_players()), -1)
        while True:
            for p in range(game.num_players()):
                view = json.dumps(state.inner.view(p), sort_keys=True)
                history[p] = trie.setdefault((history[p], view), len(trie))
                out.append((p, history[p], state.information_state_string(p), str(state),
                            view))
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize("name", INFO_CASES)
def test_information_state_is_compact(name: str) -> None:
    rows = _views_at_every_state(name, 3)
    assert max(len(key) for _, _, key, _, _ in rows) <= 2048
    assert max(len(key.encode()) for _, _, key, _, _ in rows) <= 200  # in fact a short line


@pytest.mark.parametrize("name, games, hidden_pairs", [
    ("asobiba_algo(hand=1,seeds=40)", 40, True),  # one card each: deals that look alike
    ("asobiba_patapata(players=2,seeds=6)", 12, True),  # same first die, other dice later
    ("asobiba_memory_matrix(players=2,seeds=30)", 15, False),
    ("asobiba_algo(players=3,colours=3,seeds=30)", 8, False),
])
def test_information_state_is_the_seats_views_and_nothing_else(name: str, games: int,
                                                               hidden_pairs: bool) -> None:
    """Equal view histories <=> equal strings, over random playouts of many deals; and the
    sample holds histories that differ in what the seat cannot see (different deals or
    dice) yet give it the same views — those must share the string."""
    rows = _views_at_every_state(name, games)
    by_views: dict[tuple[int, int], set[str]] = defaultdict(set)
    states: dict[tuple[int, int], set[str]] = defaultdict(set)
    by_key: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for seat, views, key, full, _ in rows:
        by_views[(seat, views)].add(key)
        states[(seat, views)].add(full)
        by_key[key].add((seat, views))
    assert all(len(keys) == 1 for keys in by_views.values())  # indistinguishable: same
    assert all(len(v) == 1 for v in by_key.values())  # distinguishable: different
    if hidden_pairs:
        hidden = [k for k, full in states.items() if len(full) > 1]
        assert hidden, "the sample has no two hidden-different histories to compare"


def test_chance_node_draws_the_seed_and_hides_it() -> None:
    game = pyspiel.load_game("asobiba_algo(seeds=5)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.2) for s in range(5)]
    a, b = state.child(1), state.child(2)
    # different deals give seat 0 different cards, but its information never holds the pile
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "pile_full" not in a.observation_string(0)
    assert "pile_full" in str(a)  # the full state (for debugging) does


def test_perfect_information_games_key_on_the_action_history() -> None:
    _, state = _midgame("asobiba_reversi", 6)
    assert state.information_state_string(0) == "actions: " + " ".join(
        map(str, state.history()))
    assert state.information_state_string(1) == state.information_state_string(0)


def test_factored_observations_are_not_claimed() -> None:
    game = pyspiel.load_game("asobiba_algo")
    public = pyspiel.IIGObservationType(public_info=True, perfect_recall=False,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    assert game.make_py_observer(public) is None
    assert game.make_py_observer(None) is not None


def test_game_types_say_what_each_game_is() -> None:
    perfect = pyspiel.GameType.Information.PERFECT_INFORMATION
    for gid, info, chance in [("reversi", perfect, False), ("flipflop", perfect, False),
                              ("algo", None, True), ("memory_matrix", None, True),
                              ("patapata", None, True)]:
        gtype = pyspiel.load_game(f"asobiba_{gid}").get_type()
        assert (gtype.information == perfect) == (info == perfect), gid
        stochastic = gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert stochastic == chance, gid


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


if __name__ == "__main__":
    if sys.argv[1:] == ["--update-playthroughs"]:
        update_playthroughs()
    else:
        sys.exit("usage: PYTHONPATH=. python tests/envs/test_openspiel.py --update-playthroughs")
