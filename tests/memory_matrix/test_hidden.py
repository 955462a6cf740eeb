"""Hidden colours stay hidden: views never carry the colour beneath a white piece, and a
bot fed views picks the same move whatever lies beneath the whites it never saw."""

from __future__ import annotations

import json

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.memory_matrix.rules import Pos
from asobiba.games.memory_matrix.state import MemoryMatrixState
from tests.conformance import assert_views_equal_for

GAME = get("memory_matrix")


def swapped(state: MemoryMatrixState, a: int, b: int) -> MemoryMatrixState:
    """The same state with the colours beneath white cells ``a`` and ``b`` exchanged (so
    every public count stays the same)."""
    pos = state.pos
    bit_a, bit_b = 1 << a, 1 << b
    ident = []
    for mask in pos.ident:
        new = mask & ~(bit_a | bit_b)
        if mask & bit_a:
            new |= bit_b
        if mask & bit_b:
            new |= bit_a
        ident.append(new)
    new_pos = Pos(pos.occ, pos.up, tuple(ident), pos.neutral, pos.hand, pos.turn)
    return MemoryMatrixState(state.cfg, new_pos, state.options, state.last, state.ply)


def hidden_pair(state: MemoryMatrixState) -> tuple[int, int] | None:
    """Two white pieces with different colours beneath, not touched by the last move."""
    pos = state.pos
    touched = state.last.flips if state.last else 0
    if state.last and state.last.move >= 0:
        touched |= 1 << (state.last.move >> 1)
    whites = pos.white() & ~pos.neutral & ~touched
    seen: dict[int, int] = {}
    for colour, mask in enumerate(pos.ident):
        bits = mask & whites
        if bits:
            seen[colour] = (bits & -bits).bit_length() - 1
    if len(seen) < 2:
        return None
    first, second = list(seen.values())[:2]
    return first, second


def random_states(options: dict, seed: int, plies: int) -> list[MemoryMatrixState]:
    state = GAME.new_game(options, seed)
    rng = Rng(seed, "hidden-test")
    out = []
    for _ in range(plies):
        if state.is_over:
            break
        moves = state.legal_moves()
        state = state.play(moves[rng.below(len(moves))])
        out.append(state)
    return out


def test_hidden_colour_never_in_any_view_random_positions() -> None:
    """Two states differing only in the colours beneath white pieces give every seat and a
    spectator identical views (players 2-4, one and two colours)."""
    checked = 0
    for options in ({}, {"players": 2}, {"players": 2, "colours": 2}, {"players": 3}):
        for state in random_states(options, seed=11, plies=60):
            pair = hidden_pair(state)
            if pair is None:
                continue
            other = swapped(state, *pair)
            assert other.to_json() != state.to_json()
            for seat in [None, *range(state.num_seats)]:
                assert_views_equal_for(seat, state, other)
            checked += 1
    assert checked > 50


def test_hidden_colour_hand_made_position() -> None:
    rows = ["BRr.....", "..yb....", "........", "........", "........", "........",
            "........", "........"]
    a = GAME.from_layout(rows, "G")
    rows_b = ["BRy.....", "..rb....", *rows[2:]]
    b = GAME.from_layout(rows_b, "G")
    assert a.under_rows() != b.under_rows()
    for seat in (None, 0, 1, 2, 3):
        assert_views_equal_for(seat, a, b)
    # the same move on both keeps them indistinguishable when it flips neither secret
    for seat in (None, 0, 1, 2, 3):
        assert_views_equal_for(seat, a.play("h8w"), b.play("h8w"))


def test_hidden_colour_revealed_only_by_flipping_up() -> None:
    rows = ["Br......", *["........"] * 6, "......y."]
    rows_b = ["By......", *["........"] * 6, "......r."]
    a, b = GAME.from_layout(rows, "B"), GAME.from_layout(rows_b, "B")
    assert_views_equal_for(0, a, b)
    va, vb = a.play("c1").view(0), b.play("c1").view(0)
    assert va["last_move"]["flipped_up"] == {"b1": "R"}
    assert vb["last_move"]["flipped_up"] == {"b1": "Y"}


def test_memory_aid_shows_only_own_hidden_colours() -> None:
    opts = {"memory_aid": True}
    rows = ["BRb.....", "..rB....", *["........"] * 6]
    state = GAME.from_layout(rows, "G", opts)
    assert state.view(0)["memory_aid"] == {"c1": "B"}
    assert state.view(1)["memory_aid"] == {"c2": "R"}
    assert state.view(2)["memory_aid"] == {}
    assert "memory_aid" not in state.view(None)
    plain = GAME.from_layout(rows, "G")
    assert "memory_aid" not in plain.view(0)


def test_full_record_after_game_has_hidden_colours() -> None:
    state = random_states({}, seed=5, plies=200)[-1]
    assert state.is_over
    full = state.to_json()
    assert "under" in full and len(full["under"]) == 8
    view_text = json.dumps(state.view(None))
    assert "under" not in view_text
