"""Rule § 8 (rules version 3): the game ends at a *dead board* — no piece shows a colour —
with the result the rules would give if it were played out: 0 for every colour, a draw
shared by every player (docs/rules/memory_matrix.md § 8, ``rules.is_dead``).

Issue 27: four level-1 players whitened every piece by ply 7 and then placed 53 white
pieces that could change nothing before the 0-0-0-0 draw was declared."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asobiba.core import Record, RecordError, Rng
from asobiba.games import get, replay_record
from asobiba.games.memory_matrix import rules
from asobiba.games.memory_matrix.bots import MemoryBot
from asobiba.games.memory_matrix.state import DEAD_BOARD, MemoryMatrixState
from asobiba.play.runner import play_game

GAME = get("memory_matrix")
SEED = 5


def board(*rows: str) -> list[str]:
    return list(rows) + ["........"] * (8 - len(rows))


def test_rule_game_ends_at_a_dead_board_with_everyone_at_zero() -> None:
    # a1 lies white over red, b1 shows red, blue has nothing face up: blue's white
    # sandwich c1w whitens b1, the last piece showing a colour
    rows = board("rR......", "........")
    state = GAME.from_layout(rows, "B", {"players": 2})
    assert state.pos.up and not state.is_over
    after = state.play("c1w")
    assert after.pos.up == 0
    assert after.is_over and len(after.legal_moves()) == 0
    outcome = after.outcome
    assert outcome is not None
    assert outcome.scores == (0, 0) and outcome.ranks == (1, 1) and outcome.is_draw
    assert outcome.reason == DEAD_BOARD
    # the old rules (versions 1-2: option off) play the same board on
    old = GAME.from_layout(rows, "B", {"players": 2, "end_at_dead_board": False})
    assert not old.play("c1w").is_over


def test_rule_dead_board_also_ends_the_adults_game_with_the_dead_board_reason() -> None:
    # blue whitens its own last piece too: d1w sandwiches R c1 and B b1 against a1
    rows = board("bBR.....", "........")
    state = GAME.from_layout(rows, "B", {"players": 2, "colours": 2, "lost_colour": "pass",
                                         "white_any_time": True})
    after = state.play("d1w")
    assert after.is_over and after.outcome is not None
    assert after.outcome.reason == DEAD_BOARD


def _first_dead(states: list) -> int | None:
    return next((i for i, s in enumerate(states) if s.pos.up == 0), None)


@pytest.mark.parametrize("seed", range(4))
def test_rule_four_level_1_players_stop_at_the_first_dead_board(seed: int) -> None:
    """The tester's game: the default 4 players, level-1 bots. Every game ends either on a
    full board or at the first position with no colour face up — never later."""
    bots = [MemoryBot("1", seed=10 * seed + k) for k in range(4)]
    result = play_game(GAME, bots, {}, seed=seed)
    states = result.states
    dead = _first_dead(states)
    final = states[-1]
    assert final.is_over
    for s in states[:-1]:
        assert not s.is_over and s.pos.up  # nothing ended early, nothing dead went on
    if dead is not None:
        assert dead == len(states) - 1
        assert final.outcome is not None and final.outcome.scores == (0, 0, 0, 0)
        assert final.outcome.reason == DEAD_BOARD
    else:
        assert final.pos.occ == final.cfg.geometry.valid


def test_rule_a_dead_board_really_happens_in_the_tester_setting() -> None:
    """Not vacuous: some of these games die (the tester's did by ply 7), and they end there,
    many plies before the board is full."""
    died = 0
    for seed in range(12):
        bots = [MemoryBot("1", seed=10 * seed + k) for k in range(4)]
        final = play_game(GAME, bots, {}, seed=seed).states[-1]
        if final.pos.up == 0:
            died += 1
            assert (final.cfg.geometry.valid & ~final.pos.occ).bit_count() > 0
    assert died >= 1


OPTION_SETS = [
    {"players": 2},
    {"players": 2, "start_pieces": 1},
    {"players": 3},
    {"players": 4},
    {"players": 4, "white_any_time": True},
    {"players": 2, "colours": 2},
    {"players": 2, "colours": 2, "lost_colour": "pass", "white_any_time": True},
    {"players": 3, "shape": "6x6", "white_any_time": True},
]


def _random_game_to_dead(options: dict, seed: int, whiten: float
                         ) -> tuple[MemoryMatrixState, MemoryMatrixState] | None:
    """Random play under the OLD rules (dead boards played on), preferring with probability
    ``whiten`` the move that leaves fewest pieces face up (so dead boards come often): the
    position before the first dead one and the dead one, or None if none came."""
    rng = Rng(seed, "dead-board-test")
    state = GAME.new_game({**options, "end_at_dead_board": False}, seed)
    assert isinstance(state, MemoryMatrixState)
    while not state.is_over:
        moves = list(state.legal_moves())
        if rng.random() < whiten:
            children = [(state.child(m).pos.up.bit_count(), i) for i, m in enumerate(moves)]
            move = moves[min(children)[1]]
        else:
            move = moves[rng.below(len(moves))]
        before, state = state, state.child(move)
        if state.pos.up == 0:
            return before, state
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(OPTION_SETS), seed=st.integers(0, 10_000),
       whiten=st.floats(0.3, 1.0), tail=st.integers(0, 10_000))
def test_property_playing_a_dead_board_on_never_changes_the_result(
        options: dict, seed: int, whiten: float, tail: int) -> None:
    """From any dead position reached by play, continuing under the old rules with any
    moves keeps the board dead at every ply (only white pieces placed anywhere, or passes,
    nothing flipping) and ends with every colour at 0 — exactly the result the new rules
    declare at once, on the same move."""
    found = _random_game_to_dead(options, seed, whiten)
    if found is None:
        return
    before, dead = found
    assert dead.last is not None
    rng = Rng(tail, "dead-board-tail")
    state = dead
    while not state.is_over:
        moves = list(state.legal_moves())
        assert all(m == rules.PASS or m & 1 for m in moves)
        state = state.child(moves[rng.below(len(moves))])
        assert state.last is not None and state.last.flips == 0
        assert state.pos.up == 0
    old = state.outcome
    assert old is not None and set(old.scores) == {0}
    # the same move under the new rules ends the game on the spot, with the same result
    new_cfg = rules.replace(dead.cfg, dead_board_ends=True)
    new_pos = rules.apply(new_cfg, before.pos, dead.last.move)[0]
    assert new_pos.turn == -1
    new = MemoryMatrixState(new_cfg, new_pos, dead.options).outcome
    assert new is not None
    assert new.scores == old.scores and new.ranks == old.ranks


def test_property_search_finds_dead_boards_for_every_option_set() -> None:
    """The property above is not vacuous: with full whitening, each option set does reach
    a dead board for some seed."""
    for options in OPTION_SETS:
        assert any(_random_game_to_dead(options, seed, 1.0) for seed in range(30)), options


def _record_of(states: list, moves: list[tuple[int, str]], version: int,
               options: dict) -> Record:
    data = Record.from_states(states, [], SEED).to_json()
    data.update(rules_version=version, options=options,
                moves=[{"seat": s, "move": m} for s, m in moves])
    return Record.from_json(data)


def _fewest_up(state: MemoryMatrixState) -> int:
    moves = list(state.legal_moves())
    return moves[min((state.child(m).pos.up.bit_count(), i) for i, m in enumerate(moves))[1]]


@pytest.mark.parametrize("version", [1, 2])
def test_records_of_versions_1_and_2_that_played_a_dead_board_out_still_replay(
        version: int) -> None:
    """Under rules versions 1-2 a dead board was played out to the full board; such records
    replay through ``legacy_options`` (end_at_dead_board off) to their stored result, and
    the same moves under version 3 are refused after the game has ended."""
    pieces = 1 if version == 1 else 2  # version 1's two-player start: one piece each
    start = GAME.new_game({"players": 2, "start_pieces": pieces, "end_at_dead_board": False},
                          seed=SEED)
    moves: list[tuple[int, str]] = []
    state = start
    while not state.is_over:
        # whiten as much as possible until the board dies, then any move (all white)
        move = _fewest_up(state) if state.pos.up else state.legal_moves()[0]
        seat = state.acting_seats[0]
        moves.append((seat, state.move_text(move, seat)))
        state = state.child(move)
        if state.pos.up == 0 and "dead_at" not in locals():
            dead_at = len(moves)
    assert "dead_at" in locals() and len(moves) > dead_at  # played on after it died
    stored = state.outcome
    assert stored is not None and set(stored.scores) == {0}
    old_options = {k: v for k, v in start.options.items()
                   if k != "end_at_dead_board" and (version > 1 or k != "start_pieces")}
    replayed = replay_record(_record_of([start, state], moves, version, old_options))
    assert replayed[-1].to_json() == state.to_json()
    # under version 3 the game is over at the dead board: the next move is refused
    with pytest.raises(RecordError, match=f"move {dead_at + 1} "):
        replay_record(_record_of([start, state], moves, 3,
                                 {**old_options, "start_pieces": pieces}))
    # the record cut at the dead board replays under version 3 to the same result
    final = replay_record(_record_of([start, state], moves[:dead_at], 3,
                                     {**old_options, "start_pieces": pieces}))[-1]
    assert final.is_over and final.outcome is not None
    assert final.outcome.scores == stored.scores and final.outcome.ranks == stored.ranks


@pytest.mark.parametrize("options", [{}, {"players": 2, "start_pieces": 1},
                                     {"players": 3, "white_any_time": True}])
def test_bot_games_are_the_old_games_cut_at_the_dead_board(options: dict) -> None:
    """The bots look ahead on the played-out model (rules.model_of), so a bot game under
    rules version 3 is move for move the version-2 game up to the dead board, and ends with
    the same result: arena figures (docs/benchmarks.md) stay as measured."""
    cut = 0
    for seed in range(8):
        n = GAME.num_seats(GAME.validate_options(options))
        levels = ["1", "1", "2", "3"][:n]
        new = play_game(GAME, [MemoryBot(lv, seed=seed * 10 + k) for k, lv in
                               enumerate(levels)], options, seed=seed)
        old = play_game(GAME, [MemoryBot(lv, seed=seed * 10 + k) for k, lv in
                               enumerate(levels)], {**options, "end_at_dead_board": False},
                        seed=seed)
        new_moves = [(m.seat, m.move) for m in new.moves]
        old_moves = [(m.seat, m.move) for m in old.moves]
        assert old_moves[:len(new_moves)] == new_moves
        a, b = new.states[-1].outcome, old.states[-1].outcome
        assert a is not None and b is not None
        assert a.scores == b.scores and a.ranks == b.ranks
        cut += len(old_moves) > len(new_moves)
    assert cut >= 1  # some games died early, and were cut
