"""The protocol conformance checks every game reuses (in the manner of Pgx's api_test and
OpenSpiel's random_sim_test). A game's test module calls these with its own options:

    from tests.conformance import check_random_games
    def test_conformance():
        check_random_games("reversi", [{}], games=20)

Rules checked (protocol invariants, not game rules):
* random games from random seeds finish without an exception;
* every listed move plays; an unlisted (garbage) move is refused and the state is unchanged;
* states are never mutated by ``play`` (the view before equals the view after);
* a record of the game round-trips through JSON and replays to identical states;
* replay from (game, options, seed, moves) equals live play;
* views are JSON-serialisable and a seat's legal moves appear only in its own view.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from asobiba.core import IllegalMoveError, MoveError, RandomBot, Record, Rng, State
from asobiba.games import get, replay_record
from asobiba.play.runner import play_game

GARBAGE = ["", "   ", "zz99", "pass pass", "\x00", "1" * 300, "a1-", "[", "ＺＺ"]


def _snapshot(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True, default=str)


def check_one_game(game_id: str, options: Mapping[str, Any], seed: int,
                   max_moves: int = 2_000, probe_every: int = 1) -> list[State]:
    """Play one random game, checking the invariants at every step; return its states."""
    game = get(game_id)
    state = game.new_game(options, seed)
    rng = Rng(seed, "conformance")
    states = [state]
    entries: list[tuple[int, str]] = []
    for ply in range(max_moves):
        if state.is_over:
            break
        seat = state.acting_seats[0]
        legal = state.legal_moves(seat)
        texts = legal.texts()
        assert texts, f"{game_id}: seat {seat} acts but has no legal move"
        assert len(set(texts)) == len(texts), f"{game_id}: duplicate move texts {texts}"
        before = _snapshot(state)
        view = state.view(seat)
        json.dumps(view)
        assert view["legal_moves"] == texts
        for other in range(state.num_seats):
            if other not in state.acting_seats:
                assert state.view(other)["legal_moves"] == []
        if ply % probe_every == 0:
            for bad in GARBAGE:
                if bad in texts:
                    continue
                with pytest.raises(MoveError):
                    state.play(bad, seat)
            # every listed move plays, without changing the state it was played on
            for text in texts[:: max(1, len(texts) // 6)]:
                child = state.play(text, seat)
                assert isinstance(child, State)
            # a seat that does not act is refused
            for other in range(state.num_seats):
                if other not in state.acting_seats:
                    with pytest.raises(IllegalMoveError):
                        state.play(texts[0], other)
            assert _snapshot(state) == before, f"{game_id}: play() mutated the state"
        text = texts[rng.below(len(texts))]
        state = state.play(text, seat)
        entries.append((seat, text))
        states.append(state)
    else:
        raise AssertionError(f"{game_id}: random game did not end in {max_moves} moves")
    outcome = state.outcome
    assert outcome is not None and len(outcome.scores) == state.num_seats
    assert state.legal_moves().count() == 0
    # replay equals live play
    replayed = game.replay(entries, options, seed)
    assert [_snapshot(s) for s in replayed] == [_snapshot(s) for s in states]
    return states


def check_record_roundtrip(game_id: str, options: Mapping[str, Any], seed: int) -> None:
    game = get(game_id)
    n = game.new_game(options, seed).num_seats
    result = play_game(game, [RandomBot(seed + i) for i in range(n)], dict(options), seed)
    text = result.record.dumps()
    record = Record.loads(text)
    assert record.to_json() == result.record.to_json()
    states = replay_record(record)
    assert _snapshot(states[-1]) == _snapshot(result.states[-1])


def check_random_games(game_id: str, option_sets: Sequence[Mapping[str, Any]],
                       games: int = 10, max_moves: int = 2_000, probe_every: int = 1) -> None:
    for options in option_sets:
        for seed in range(games):
            check_one_game(game_id, options, seed * 7919 + 1, max_moves, probe_every)
        check_record_roundtrip(game_id, options, 12345)


def assert_views_equal_for(seat: int | None, a: State, b: State) -> None:
    """Two states that differ only in secrets ``seat`` cannot know give it identical views."""
    assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)


def property_test(game_id: str, option_sets: Sequence[Mapping[str, Any]], max_examples: int = 10,
                  max_moves: int = 2_000, probe_every: int = 5):
    """A hypothesis test over random seeds and option sets, for a game's test module:

        test_properties = property_test("reversi", [{}])
    """
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=max_examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2**31 - 1),
           options=st.sampled_from(list(option_sets)))
    def test(seed: int, options: Mapping[str, Any]) -> None:
        check_one_game(game_id, options, seed, max_moves, probe_every)

    return test
