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


# ---- the state path's observations (issue 30 item 2) ----------------------------------------
def _random_positions(game_id: str, opts: dict, seed: int, limit: int = 400):
    """Every position of a random game over *all* the game's legal moves (Patapata's
    step-by-step writes, switches and turns too), any acting seat moving."""
    game = get(game_id)
    state = game.new_game(opts, seed)
    rng = Rng(seed, "state-path-test")
    for _ in range(limit):
        yield state
        if state.is_over:
            return
        seat = state.acting_seats[rng.below(len(state.acting_seats))]
        legal = state.legal_moves(seat)
        state = state.child(legal[rng.below(len(legal))], seat)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_state_encoding_equals_the_view_encoding_for_every_seat(case: tuple[str, dict]) -> None:
    # the guarantee that the fast encoders leak nothing: on every position, for every seat,
    # the observation and mask written from the state are the ones built from view(seat)
    game_id, opts = case
    codec = codec_for(get(game_id), opts)
    positions = 0
    for seed in range(60):
        if positions >= 250:
            break
        for state in _random_positions(game_id, opts, seed):
            positions += 1
            for seat in range(state.num_seats):
                view = state.view(seat)
                fast = codec.observe_state(state, seat)
                assert fast.dtype == np.float32 and fast.shape == (codec.obs_size,)
                assert np.array_equal(fast, codec.observe(view)), (case, seed, seat)
                mask = codec.mask_state(state, seat)
                assert mask.dtype == np.int8
                assert np.array_equal(mask, codec.mask(view)), (case, seed, seat)
    assert positions >= 250


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_session_observes_through_the_state_as_through_the_view(
        case: tuple[str, dict]) -> None:
    from asobiba.envs.session import Session

    game_id, opts = case
    session = Session(game_id, opts)
    session.reset(3)
    rng = Rng(3, "session-observe")
    while not session.over:
        for seat in range(session.num_seats):
            fast, ref = session.observe(seat), session.observe_view(seat)
            assert np.array_equal(fast["observation"], ref["observation"])
            assert np.array_equal(fast["action_mask"], ref["action_mask"])
        actions = sorted(session.legal())  # the step's map is cached: observe reuses it
        fast, ref = session.observe(session.to_move), session.observe_view(session.to_move)
        assert np.array_equal(fast["action_mask"], ref["action_mask"])
        session.step(actions[rng.below(len(actions))])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_planes_are_the_flat_observation_laid_on_the_board(case: tuple[str, dict]) -> None:
    game_id, opts = case
    codec = codec_for(get(game_id), opts)
    state = get(game_id).new_game(opts, 2)
    obs = codec.observe_state(state, 0)
    if codec.planes_shape is None:  # Algo, Patapata, ReverStarGo: flat only, said so
        from asobiba.games import GAME_IDS

        # of the shipped games these three; a plugged-in game may have no planes layout too
        assert game_id in ("algo", "patapata", "reverstargo") or game_id not in GAME_IDS
        with pytest.raises(ValueError, match="no planes layout"):
            codec.to_planes(obs)
        return
    c, h, w = codec.planes_shape
    planes = codec.to_planes(obs)
    assert planes.shape == (c, h, w) and planes.dtype == np.float32
    batch = codec.to_planes(np.stack([obs, obs]))
    assert batch.shape == (2, c, h, w) and np.array_equal(batch[1], planes)
    channel = 0
    for field, sl in zip(codec.fields, codec.offsets().values()):
        values = obs[sl]
        if field.planes:
            assert np.array_equal(planes[channel:channel + field.planes].reshape(-1), values)
            channel += field.planes
        else:
            for v in values:
                assert np.all(planes[channel] == v)
                channel += 1
    assert channel == c
