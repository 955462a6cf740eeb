"""A fair two-player default (docs/rules/memory_matrix.md § 4, "Two players start with two
pieces each"): an exhaustive search proves that no side can force a dead board — nothing
face up, a certain 0-0 — within the first 8 plies, from every start the default can deal;
the three- and four-player defaults are checked the same way. Old records still replay."""

from __future__ import annotations

import pytest

from asobiba.core import Record, RecordError
from asobiba.games import get, replay_record
from asobiba.games.memory_matrix.fairness import can_force_dead_board, start_arrangements
from asobiba.games.memory_matrix.game import start_pieces
from asobiba.games.memory_matrix.state import MemoryMatrixState

GAME = get("memory_matrix")
PLIES = 8


def _default(options: dict) -> MemoryMatrixState:
    state = GAME.new_game(options, 0)
    assert isinstance(state, MemoryMatrixState)
    return state


def test_rule_two_players_start_with_two_pieces_each_on_the_centre_square():
    state = _default({"players": 2})
    assert start_pieces(state.options) == 2 and state.pos.hand == (30, 30)
    rows = state.under_rows()
    centre = rows[3][3:5] + rows[4][3:5]
    assert sorted(centre) == ["B", "B", "R", "R"] and rows[3].count(".") == 6
    # the named layouts: windmill deals the reversi start, butterfly two columns
    assert [r[3:5] for r in _default({"players": 2, "layout": "windmill"}).under_rows()[3:5]] \
        == ["BR", "RB"]
    assert [r[3:5] for r in _default({"players": 2, "layout": "butterfly"}).under_rows()[3:5]] \
        == ["BR", "BR"]
    # white sandwiches stay allowed at any time for two players (the author's summary)
    assert state.cfg.white_any_time
    # more players, or two colours each, keep one start piece per colour (the seed's 4 × 16)
    assert start_pieces(_default({}).options) == 1
    assert start_pieces(_default({"players": 2, "colours": 2}).options) == 1


def test_the_search_finds_a_forced_dead_board_where_one_exists():
    # one start piece each (the rules-1 start): the first player forces a dead board at its
    # second move, ply 3 — the search must find that, or its "no" below would mean nothing
    state = _default({"players": 2, "start_pieces": 1})
    for pos in start_arrangements(state.pos, state.cfg.colours):
        assert can_force_dead_board(state.cfg, pos, 3, 0)
        assert not can_force_dead_board(state.cfg, pos, 2, 0)
        assert not can_force_dead_board(state.cfg, pos, PLIES, 1)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3}, {"players": 4}],
                         ids=["2 players", "3 players", "4 players"])
def test_rule_no_side_can_force_a_dead_board_in_the_first_8_plies(options: dict):
    """Every start the default layout can deal (the start pieces over the start cells in
    every order: the random layout's deals, the windmill and butterfly among them), every
    seat as the forcing side against all the others together: no forced dead board within
    8 plies."""
    state = _default(options)
    arrangements = start_arrangements(state.pos, state.cfg.colours)
    assert len(arrangements) == {2: 6, 3: 24, 4: 24}[state.cfg.players]
    expanded = [0]
    for pos in arrangements:
        for seat in range(state.cfg.players):
            assert not can_force_dead_board(state.cfg, pos, PLIES, seat, {}, expanded), (
                options, seat)
    assert expanded[0] > 1000 * state.cfg.players / 2  # the tree was really searched


def test_a_record_of_rules_version_1_still_replays_as_it_was_played():
    # a two-player game recorded before version 2: one start piece each
    old = _default({"players": 2, "start_pieces": 1})
    moves = []
    state = old
    for _ in range(12):
        move = state.legal_moves()[0]
        seat = state.acting_seats[0]
        moves.append((seat, state.move_text(move, seat)))
        state = state.child(move)
    options = {k: v for k, v in old.options.items() if k != "start_pieces"}
    data = Record.from_states([old, state], [], 0).to_json()
    data.update(rules_version=1, options=options,
                moves=[{"seat": s, "move": m} for s, m in moves], result=None)
    replayed = replay_record(Record.from_json(data))
    assert replayed[-1].to_json() == state.to_json()
    # a version this build never had is refused with a clear error
    data["rules_version"] = 0
    with pytest.raises(RecordError, match="rules version 0; this build plays version 3"):
        replay_record(Record.from_json(data))


def test_rule_start_pieces_option_is_checked():
    with pytest.raises(Exception, match="start_pieces"):
        GAME.new_game({"players": 8, "shape": "6x6", "start_pieces": 4}, 0)
    state = _default({"players": 4, "start_pieces": 2})
    assert state.pos.hand == (14, 14, 14, 14) and bin(state.pos.occ).count("1") == 8
