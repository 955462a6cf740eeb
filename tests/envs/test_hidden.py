"""Hidden information stays hidden through the environments (issue 18 item 1): two states
that differ only in what a seat may not see give that seat the same observation and mask.

Each test builds the second state by changing a secret of the first — Algo: other players'
face-down cards, the pile order, another player's drawn card; Memory Matrix: the colour under
a white-side-up piece; Patapata: the future dice of the course and another seat's moves on
the current task — and checks the observation built from ``view(seat)`` is unchanged.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asobiba.core import State
from asobiba.core.rng import Rng
from asobiba.envs.codec import codec_for
from asobiba.games import get

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def _random_state(game_id: str, opts: dict, seed: int, plies: int) -> State:
    game = get(game_id)
    state = game.new_game(opts, seed)
    rng = Rng(seed, "hidden-test")
    for _ in range(plies):
        if state.is_over:
            break
        seat = state.acting_seats[rng.below(len(state.acting_seats))]
        legal = state.legal_moves(seat)
        state = state.child(legal[rng.below(len(legal))], seat)
    return state


def _same_observation(game_id: str, opts: dict, a: State, b: State, seat: int) -> None:
    codec = codec_for(get(game_id), opts)
    va, vb = a.view(seat), b.view(seat)
    assert np.array_equal(codec.observe(va), codec.observe(vb))
    assert np.array_equal(codec.mask(va), codec.mask(vb))
    # the encoders that read the state (what the environments use) see no more
    assert np.array_equal(codec.observe_state(a, seat), codec.observe_state(b, seat))
    assert np.array_equal(codec.mask_state(a, seat), codec.mask_state(b, seat))


# ---- Algo --------------------------------------------------------------------------------
ALGO_OPTS = [{}, {"players": 3}, {"variant": "pair"}, {"colours": 3}]


def _algo_hidden_places(s, seat):
    """Where cards hidden from ``seat`` lie: other rows' unseen face-down cards, the pile,
    another player's drawn card."""
    places = []
    for owner, row in enumerate(s.rows):
        if owner == seat:
            continue
        for pos, (sid, _card, up) in enumerate(row):
            if not up and sid not in s.seen[seat]:
                places.append(("row", owner, pos))
    places += [("pile", i) for i in range(s.pile_pos, len(s.pile))]
    if s.hand >= 0 and s.turn != seat:
        places.append(("hand",))
    return places


def _algo_get(s, rows, pile, hand, place):
    if place[0] == "row":
        return rows[place[1]][place[2]][1]
    if place[0] == "pile":
        return pile[place[1]]
    return hand[0]


def _algo_set(rows, pile, hand, place, card):
    if place[0] == "row":
        owner, pos = place[1], place[2]
        sid, _, up = rows[owner][pos]
        rows[owner] = rows[owner][:pos] + ((sid, card, up),) + rows[owner][pos + 1:]
    elif place[0] == "pile":
        pile[place[1]] = card
    else:
        hand[0] = card


def _algo_plausible(s, rows) -> bool:
    """Rows still sorted and no card sits where its number was already named and missed."""
    for row in rows:
        keys = [k for _, k, _ in row]
        if keys != sorted(keys):
            return False
        for sid, k, _ in row:
            if s.fails[sid] >> (k // s.colours) & 1:
                return False
    return True


@SETTINGS
@given(opt=st.sampled_from(ALGO_OPTS), seed=st.integers(0, 10_000), plies=st.integers(0, 40),
       swaps=st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500)), min_size=1,
                      max_size=6), viewer=st.integers(0, 3))
def test_algo_other_seats_cards_and_the_pile_never_show(opt, seed, plies, swaps, viewer):
    state = _random_state("algo", opt, seed, plies)
    # once the game is over every card is shown to all (docs/rules/algo.md, "End"): nothing
    # is hidden any more, so a swap may rightly show (hypothesis found such a short game)
    assume(not state.is_over)
    seat = viewer % state.num_seats
    places = _algo_hidden_places(state, seat)
    assume(len(places) >= 2)
    rows, pile, hand = list(state.rows), list(state.pile), [state.hand]
    for i, j in swaps:
        a, b = places[i % len(places)], places[j % len(places)]
        ka, kb = _algo_get(state, rows, pile, hand, a), _algo_get(state, rows, pile, hand, b)
        if ka % state.colours != kb % state.colours:
            continue  # colours are public
        _algo_set(rows, pile, hand, a, kb)
        _algo_set(rows, pile, hand, b, ka)
    assume(_algo_plausible(state, rows))
    other = state._copy(rows=tuple(rows), pile=tuple(pile), hand=hand[0])
    assume(other.to_json() != state.to_json())
    _same_observation("algo", opt, state, other, seat)


# ---- Memory Matrix -----------------------------------------------------------------------
MM_OPTS = [{}, {"variant": "2p2c", "memory_aid": True}, {"players": 3, "memory_aid": True}]


@SETTINGS
@given(opt=st.sampled_from(MM_OPTS), seed=st.integers(0, 10_000), plies=st.integers(4, 50),
       pick=st.tuples(st.integers(0, 999), st.integers(0, 999)), viewer=st.integers(0, 3))
def test_memory_matrix_colour_under_a_white_piece_never_shows(opt, seed, plies, pick, viewer):
    from asobiba.games.memory_matrix.rules import Pos, cells_of
    from asobiba.games.memory_matrix.state import MemoryMatrixState

    state = _random_state("memory_matrix", opt, seed, plies)
    seat = viewer % state.num_seats
    pos, cfg = state.pos, state.cfg
    mine = set(cfg.colours_of(seat))
    whites = [(cell, c) for c in range(cfg.colours) if c not in mine
              for cell in cells_of(pos.ident[c] & ~pos.up & pos.occ)]
    assume(len(whites) >= 2)
    (a, ca), (b, cb) = whites[pick[0] % len(whites)], whites[pick[1] % len(whites)]
    assume(ca != cb)
    ident = list(pos.ident)
    ident[ca] = ident[ca] & ~(1 << a) | (1 << b)
    ident[cb] = ident[cb] & ~(1 << b) | (1 << a)
    other_pos = Pos(pos.occ, pos.up, tuple(ident), pos.neutral, pos.hand, pos.turn)
    other = MemoryMatrixState(cfg, other_pos, state.options, state.last, state.ply)
    assert other.to_json() != state.to_json()
    _same_observation("memory_matrix", opt, state, other, seat)


# ---- Patapata ----------------------------------------------------------------------------
PP_OPTS = [{"players": 2}, {"players": 3}, {"players": 1}]


@SETTINGS
@given(opt=st.sampled_from(PP_OPTS), seed=st.integers(0, 10_000), plies=st.integers(0, 60),
       future=st.lists(st.integers(0, 2), min_size=12, max_size=12),
       moves=st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)),
       viewer=st.integers(0, 2))
def test_patapata_future_dice_and_others_current_moves_never_show(opt, seed, plies, future,
                                                                   moves, viewer):
    from asobiba.games.patapata.game import PatapataState

    state = _random_state("patapata", {**opt, "course": "dice"}, seed, plies)
    assume(not state.is_over)
    seat = viewer % state.num_seats
    # the dice still to be rolled: every position after the current task
    rows = state.rows[:state.round + 1] + tuple(future[state.round + 1:])
    a = state
    b = PatapataState(state.options, rows, state.round, state.sheets)
    # another seat's moves on the current task, while the viewer still works on it
    others = [s for s in state.acting_seats if s != seat]
    if others and seat in state.acting_seats:
        o = others[0]
        legal = state.legal_moves(o)
        a = state.child(legal[moves[0] % len(legal)], o)
        b = b.child(legal[moves[1] % len(legal)], o)
    assume(a.to_json() != b.to_json())
    _same_observation("patapata", {**opt, "course": "dice"}, a, b, seat)


# ---- controls: the same tests do see a change in what the seat may see ------------------
def test_control_a_change_to_the_seats_own_cards_shows() -> None:
    state = get("algo").new_game({}, 5)
    rows = list(state.rows)
    sid, card, up = rows[0][0]
    colours = state.colours
    other_number = (card // colours + 1) % 12
    rows[0] = ((sid, other_number * colours + card % colours, up),) + rows[0][1:]
    other = state._copy(rows=tuple(rows))
    codec = codec_for(get("algo"), {})
    assert not np.array_equal(codec.observe(state.view(0)), codec.observe(other.view(0)))
    assert np.array_equal(codec.observe(state.view(1)), codec.observe(other.view(1)))


def test_control_the_current_task_shows_in_patapata() -> None:
    from asobiba.games.patapata.game import PatapataState

    state = get("patapata").new_game({"course": "dice"}, 3)
    rows = ((state.rows[0] + 1) % 3,) + state.rows[1:]
    other = PatapataState(state.options, rows, state.round, state.sheets)
    codec = codec_for(get("patapata"), {"course": "dice"})
    assert not np.array_equal(codec.observe(state.view(0)), codec.observe(other.view(0)))
