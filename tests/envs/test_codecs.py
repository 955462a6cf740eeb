"""Each game's encoding: the state path (what the environment applies) agrees with the view
path (what an agent sees) on random playouts, observations stay inside their declared
bounds, and every legal move the encoding covers has exactly one meaning."""

from __future__ import annotations

import numpy as np
import pytest

from asobiba.core.rng import Rng
from asobiba.envs.codec import codec_for
from asobiba.games import get

from .cases import CASES, case_id


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_state_path_matches_view_path(case: tuple[str, dict]) -> None:
    game_id, opts = case
    game = get(game_id)
    codec = codec_for(game, opts)
    low, high = codec.bounds()
    for seed in range(3):
        state = game.new_game(opts, seed)
        rng = Rng(seed, "codec-test")
        plies = 0
        while not state.is_over and plies < 400:
            for seat in range(state.num_seats):
                view = state.view(seat)
                obs = codec.observe(view)
                assert obs.shape == (codec.obs_size,)
                assert np.all(obs >= low) and np.all(obs <= high), case
                mask = codec.mask(view)
                if seat != state.to_move:
                    continue
                legal = codec.legal_actions(state, seat)
                assert legal, f"{case}: no covered action at ply {plies}"
                assert set(np.flatnonzero(mask)) == set(legal)
                for action, move in legal.items():
                    text = state.move_text(move, seat)
                    assert text in view["legal_moves"]
                    assert action in codec.actions_of(text, view)
                    assert codec.move_of(state, seat, action) == move
                for _ in range(10):  # the step's direct decoding refuses what is not legal
                    action = rng.below(codec.num_actions)
                    assert codec.move_of(state, seat, action) == legal.get(action)
            seat = state.to_move
            legal = codec.legal_actions(state, seat)
            actions = sorted(legal)
            state = state.play(legal[actions[rng.below(len(actions))]], seat)
            plies += 1
        assert state.is_over, f"{case}: a playout through the encoding did not end"


def test_every_legal_move_is_covered_where_the_encoding_says_so() -> None:
    # Reversi, FlipFlop, ReverStarGo, Memory Matrix and Algo cover every legal move;
    # Patapata covers pass and every clear (the step-by-step moves are left out by design)
    for game_id, opts in CASES:
        game = get(game_id)
        codec = codec_for(game, opts)
        state = game.new_game(opts, 1)
        rng = Rng(1, "cover")
        for _ in range(30):
            if state.is_over:
                break
            seat = state.to_move
            legal = state.legal_moves(seat)
            covered = set(map(repr, codec.legal_actions(state, seat).values()))
            for move, text in zip(legal, legal.texts()):
                if game_id == "patapata" and text.split()[0] in ("write", "switch", "rotate"):
                    continue
                assert repr(move) in covered, (game_id, text)
            acts = sorted(codec.legal_actions(state, seat))
            state = state.child(codec.legal_actions(state, seat)[acts[rng.below(len(acts))]], seat)
