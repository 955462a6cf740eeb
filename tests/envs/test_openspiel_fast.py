"""The Python-side reads of AsobibaSpielState (legal_actions, is_chance_node, is_terminal,
current_player) and the Reversi fast path must answer exactly as pyspiel's C++ State
methods and the generic path do (issue 30 item 2: they exist for MCTS speed only)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from asobiba.envs.openspiel import AsobibaSpielState, _ListedNode, _Node, register

register()
CPP = pyspiel.State  # the C++ methods, bypassing the Python overrides

GAMES = ["asobiba_reversi", "asobiba_flipflop", "asobiba_memory_matrix(players=2,seeds=5)",
         "asobiba_algo(seeds=5)", "asobiba_patapata(players=2,seeds=3)", "asobiba_reverstargo"]


def _check(state: AsobibaSpielState, n: int) -> None:
    assert state.is_chance_node() == CPP.is_chance_node(state)
    assert state.is_terminal() == (CPP.current_player(state) == pyspiel.PlayerId.TERMINAL)
    assert state.current_player() == CPP.current_player(state)
    assert state.legal_actions() == CPP.legal_actions(state)
    for p in range(n):
        assert state.legal_actions(p) == CPP.legal_actions(state, p), p
    if not state.is_terminal():
        cur = state.current_player()
        assert state.legal_actions(cur) == CPP.legal_actions(state, cur)


@pytest.mark.parametrize("name", GAMES)
def test_python_reads_match_cpp(name: str) -> None:
    game = pyspiel.load_game(name)
    n = game.num_players()
    rng = np.random.default_rng(3)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            _check(state, n)
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert state.legal_actions() == []


def test_reversi_fast_node_matches_generic_node() -> None:
    """Replaying random games through the generic _Node and the Reversi node gives the same
    legal actions, action maps, children and errors at every ply."""
    game = pyspiel.load_game("asobiba_reversi")
    spec = game.spec
    fast = spec.root()
    assert type(fast) is _ListedNode
    slow = _Node(spec, None, None, fast.inner)
    rng = np.random.default_rng(5)
    plies = passes = 0
    while not fast.inner.is_over:
        assert fast.sorted_actions() == slow.sorted_actions()
        assert fast.legal() == slow.legal()
        for bad in (-1, 65, 64, *range(64)):
            if bad in slow.sorted_actions():
                continue
            with pytest.raises(pyspiel.SpielError):
                slow.child(bad)
            with pytest.raises(pyspiel.SpielError):
                fast.child(bad)
        a = int(rng.choice(fast.sorted_actions()))
        passes += a == 64
        fast, slow = fast.child(a), slow.child(a)
        assert fast.inner.to_json() == slow.inner.to_json()
        plies += 1
    assert plies > 50
    # the view text and the digest agree too
    assert fast.view_text(0) == slow.view_text(0)
    assert fast.digest(1) == slow.digest(1)


def test_reversi_pass_through_openspiel() -> None:
    """A forced pass (action 64) is the only legal action and is applied as the engine's pass."""
    from asobiba.games.reversi.game import GAME

    # the shortest Reversi game with a forced pass is not short; find one by random play
    game = pyspiel.load_game("asobiba_reversi")
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal == [64]:
                inner = state.node.inner
                assert inner.legal_moves().texts() == ["pass"]
                state.apply_action(64)
                assert state.node.inner.turn != inner.turn
                assert GAME.id == "reversi"
                return
            state.apply_action(int(rng.choice(legal)))
    pytest.fail("no forced pass in 200 random games")
