"""Levels 5 and 6 (issue 31 item 3): what they know is their seat's views and their own
memory, and their search parts do what they say — successive halving spends its rollouts as
scheduled and picks among the last round's survivors, and the max-n endgame is the plain
max-n value. Level 6 is level 5 with a larger budget and a reading of the others."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable

import pytest

from asobiba.core import Rng
from asobiba.core.bot import RandomBot
from asobiba.games import get
from asobiba.games.memory_matrix import bots, rules
from asobiba.games.memory_matrix.bots import LEVELS, MemoryBot
from asobiba.games.memory_matrix.state import MemoryMatrixState
from asobiba.play.runner import play_game
from asobiba.search.budget import MoveClock
from tests.memory_matrix.test_bots import truth
from tests.memory_matrix.test_hidden import random_states, swapped

GAME = get("memory_matrix")


def _unseen_pair(state: MemoryMatrixState, white_since: int,
                 known: dict[str, int]) -> tuple[int, int] | None:
    """Two white pieces with different colours beneath that have lain white (unflipped)
    since ``white_since`` and that the bot does not remember."""
    pos, geo = state.pos, state.cfg.geometry
    by_colour: dict[int, int] = {}
    for colour, mask in enumerate(pos.ident):
        for i in rules.cells_of(mask & white_since & ~pos.neutral):
            if geo.name(i) not in known:
                by_colour.setdefault(colour, i)
    if len(by_colour) < 2:
        return None
    first, second = list(by_colour.values())[:2]
    return first, second


@pytest.mark.parametrize("level", ["5", "6"])
def test_level_5_knows_only_its_views_and_memory_joining_late(level: str) -> None:
    """Level 5 (and 6) sits down in a 4-player game at ply 12 and watches every later view of its
    seat. The pieces that were white when it arrived and stay white hide colours it never
    saw: at every later decision, exchanging two such colours (every public count stays the
    same, so every view it saw is unchanged) leaves its move unchanged, and everything it
    remembers is true. It is not a bot that may read the state."""
    assert not MemoryBot.reads_state
    decisions = 0
    for seed in (3, 4):
        states = random_states({}, seed=seed, plies=44)
        seat = 1
        bot = MemoryBot(level, seed=seed)
        bot.reset(seat, states[0].options)
        arrived = states[12]
        white_since = arrived.pos.white()
        for k, state in enumerate(states[12:], start=12):
            white_since &= state.pos.white()
            if state.is_over:
                break
            pair = None
            if state.to_move == seat and k >= 24:
                pair = _unseen_pair(state, white_since, bot.memory.known)
            if pair is not None:
                other = swapped(state, *pair)
                assert other.view(seat) == state.view(seat)
                chosen = []
                for seen in (state, other):  # two fresh twins, the same views before
                    twin = MemoryBot(level, seed=seed)
                    twin.reset(seat, state.options)
                    for earlier in states[12:k]:
                        twin.observe(earlier.view(seat))
                    chosen.append(twin.choose(seen.view(seat)))
                assert chosen[0] == chosen[1]
                decisions += 1
            bot.observe(state.view(seat))
            real = truth(state)
            for cell, colour in bot.memory.known.items():
                assert real[cell] == colour
    assert decisions >= 2


def test_level_5_joining_late_does_not_know_what_it_never_saw() -> None:
    """The same late arrival: the colours under the pieces already white when it sat down
    are not in its memory (it can only sample them), while level 5 seated from the start
    remembers every one of them."""
    states = [GAME.new_game({}, 9), *random_states({}, seed=9, plies=30)]  # from ply 0
    late, early = MemoryBot("5", seed=1), MemoryBot("5", seed=2)
    late.reset(2, states[0].options)
    early.reset(2, states[0].options)
    for k, state in enumerate(states):
        if k >= 12:
            late.observe(state.view(2))
        early.observe(state.view(2))
    final = states[-1]
    white_all_along = final.pos.white() & ~final.pos.neutral
    for state in states[12:]:
        white_all_along &= state.pos.white()  # never flipped since it sat down
    hidden_all_along = rules.cells_of(white_all_along)
    names = [final.cfg.geometry.name(i) for i in hidden_all_along]
    assert names, "the game should have colour pieces lying white since ply 12"
    assert early.memory.known == truth(final)
    assert not set(names) & set(late.memory.known)


@pytest.mark.parametrize(("level", "lines", "per_move"), [
    # 10 moves × 4 rollouts, 5 × 4, 3 × 8, 2 × 16
    ("5", 116, [4] * 5 + [8] * 2 + [16] + [32] * 2),
    # 10 × 32, 5 × 32, 3 × 64, 2 × 128
    ("6", 928, [32] * 5 + [64] * 2 + [128] + [256] * 2),
])
def test_successive_halving_spends_its_schedule_and_picks_a_survivor(
        monkeypatch, level: str, lines: int, per_move: list[int]) -> None:  # noqa: ANN001
    """Level 5: 116 lines, level 6: 928; rollout *k* is the same random stream for every
    move (common random numbers); the move with the best value is one of the two that
    reached the last round."""
    state = next(s for s in random_states({}, seed=7, plies=40)
                 if not s.is_over and len(s.legal_moves()) >= 10)
    cfg, pos = rules.model_of(state.cfg), state.pos
    spec = LEVELS[level]
    calls: list[tuple[tuple[int, ...], int]] = []  # (child position, rollout number)
    real_rollout = bots.rollout

    class Labelled(Rng):
        def __init__(self, seed: int, *labels: object) -> None:
            super().__init__(seed, *labels)
            self.labels = labels

    def counting(cfg_, child, seat, level_, rng, plain):  # noqa: ANN001, ANN202
        calls.append((child.key(), rng.labels[0] if isinstance(rng, Labelled) else -1))
        return real_rollout(cfg_, child, seat, level_, rng, plain)

    monkeypatch.setattr(bots, "rollout", counting)
    monkeypatch.setattr(bots, "Rng", Labelled)
    values = bots.move_values(cfg, pos, cfg.seat_of(pos.turn), spec, Rng(1, "halving"))
    assert len(calls) == lines
    by_move: dict[tuple[int, ...], list[int]] = {}
    for key, k in calls:
        by_move.setdefault(key, []).append(k)
    assert sorted(len(ks) for ks in by_move.values()) == per_move
    for ks in by_move.values():  # every move's rollouts are streams 0, 1, 2, … (paired)
        assert ks == list(range(len(ks)))
    best = max(values, key=values.__getitem__)
    assert len(by_move[rules.apply(cfg, pos, best)[0].key()]) == per_move[-1]


def test_level_6_is_level_5_with_a_larger_budget_and_a_reading_of_the_others() -> None:
    """The same memory, evaluation and endgame; the budget grows (a 5-ply two-player search
    exact from 9 empty cells, eight times the rollouts) and, in 3+-player games, the other
    seats it has not read as greedy players are modelled with a wide spread."""
    assert LEVELS["6"] == dataclasses.replace(
        LEVELS["5"], depth=5, endgame=9, halving=(32, 32, 64, 128),
        others_noise=5.0, others_muddle=1.0, read_others=0.58)
    assert GAME.level_names()[-2:] == ["5", "6"]


def _plain_maxn(cfg: rules.Config, pos: rules.Pos, w: bots.Weights) -> tuple[float, ...]:
    """Max-n without a table, ties averaged — the reference."""
    if pos.turn < 0:
        return tuple(bots.evaluate(cfg, pos, s, w) for s in range(cfg.players))
    if not pos.up:
        return (bots.dead_value(cfg, w),) * cfg.players
    seat = cfg.seat_of(pos.turn)
    children = [_plain_maxn(cfg, rules.apply(cfg, pos, m)[0], w)
                for m in rules.legal_moves(cfg, pos)]
    best = max(v[seat] for v in children)
    ties = [v for v in children if v[seat] >= best - 1e-9]
    return tuple(sum(v[s] for v in ties) / len(ties) for s in range(cfg.players))


def test_maxn_endgame_is_plain_maxn_and_level_5_plays_its_best() -> None:
    """From 5 empty cells in 4-player games the table-backed max-n gives the reference's
    values, and level 5 seated from the start plays a move of the best max-n value."""
    w = LEVELS["5"].weights
    checked = 0
    for seed in range(12):
        state = GAME.new_game({}, seed)
        seat = seed % 4
        bot = MemoryBot("5", seed=seed)
        bot.reset(seat, state.options)
        bot.observe(state.view(seat))
        rng = Rng(seed, "maxn-test")
        while not state.is_over:
            cfg, pos = rules.model_of(state.cfg), state.pos
            free = (cfg.geometry.valid & ~pos.occ).bit_count()
            if state.to_move == seat and free <= 5 and len(state.legal_moves()) > 1 and pos.up:
                table: bots.MaxnTable = {}
                values = {}
                for move in rules.legal_moves(cfg, pos):
                    child = rules.apply(cfg, pos, move)[0]
                    got = bots.maxn(cfg, child, w, table)
                    assert got == _plain_maxn(cfg, child, w)
                    name = cfg.geometry.name(move >> 1) + ("w" if move & 1 else "")
                    values[name] = got[seat]
                best = max(values.values())
                assert values[bot.choose(state.view(seat))] >= best - 1e-9
                checked += 1
                break
            moves = state.legal_moves()
            state = state.play(moves[rng.below(len(moves))])
            bot.observe(state.view(seat))
    assert checked >= 6


def test_the_others_noise_blurs_only_the_other_seats_choices(monkeypatch) -> None:  # noqa: ANN001
    """In a rollout, the seat's own colours choose with ``noise``, every other seat's with
    ``others_noise`` (when it is set) — except the seats read as greedy (``plain``), which
    keep ``noise``."""
    state = next(s for s in random_states({}, seed=7, plies=20) if not s.is_over)
    cfg, pos = rules.model_of(state.cfg), state.pos
    seen: list[tuple[int, float]] = []
    real = bots.greedy_move

    def recording(cfg_: rules.Config, pos_: rules.Pos, w: bots.Weights, noise: float = 0.0,
                  rng: Rng | None = None) -> int:
        seen.append((cfg_.seat_of(pos_.turn), noise))
        return real(cfg_, pos_, w, noise, rng)

    monkeypatch.setattr(bots, "greedy_move", recording)
    for others, plain, expected in ((None, frozenset(), {1: 0.5, 2: 0.5, 3: 0.5}),
                                    (5.0, frozenset(), {1: 5.0, 2: 5.0, 3: 5.0}),
                                    (5.0, frozenset({2}), {1: 5.0, 2: 0.5, 3: 5.0})):
        seen.clear()
        spec = dataclasses.replace(LEVELS["6"], others_noise=others)
        bots.rollout(cfg, pos, 0, spec, Rng(2), plain)
        assert {n for s, n in seen if s == 0} == {0.5}
        for s in (1, 2, 3):
            assert {n for seat, n in seen if seat == s} == {expected[s]}


READER = dataclasses.replace(LEVELS["6"], halving=(1,))
"""Level 6's reading of the others on a tiny budget (the reading does not depend on it)."""


@pytest.mark.parametrize(("other", "greedy"), [("2", True), ("random", False)])
def test_a_reader_tells_greedy_players_from_others(other: str, greedy: bool) -> None:
    """Against three level-2 bots (greedy on their memory) every other seat ends the game
    read as greedy; against three random movers none does. Each read move was one with a
    choice, and a seat's count never exceeds its moves."""
    reader = MemoryBot("6", seed=5, spec=READER)
    others = [GAME.make_bot("2", seed=s) if other == "2" else RandomBot(seed=s)
              for s in (1, 2, 3)]
    result = play_game(GAME, [reader, *others], {"players": 4}, 21)
    moves = [sum(1 for e in result.moves if e.seat == s) for s in range(4)]
    assert set(reader._read) == {1, 2, 3}
    for seat, (best, read) in reader._read.items():
        assert 5 <= read <= moves[seat] and 0 <= best <= read
    assert reader.plain_seats() == (frozenset({1, 2, 3}) if greedy else frozenset())


def test_a_reader_reads_only_what_its_seat_saw() -> None:
    """The reading comes from the seat's views and memory: a reader seated late (ply 12)
    has read only the moves it saw, and what it read does not change when two colours it
    never saw (white since before it sat down) are exchanged."""
    states = random_states({}, seed=3, plies=44)
    seat = 1
    readers = []
    for variant in ("real", "swapped"):
        bot = MemoryBot("6", seed=3, spec=READER)
        bot.reset(seat, states[0].options)
        white_since = states[12].pos.white()
        for state in states[12:]:
            white_since &= state.pos.white()
        for state in states[12:]:
            shown = state
            if variant == "swapped":
                pair = _unseen_pair(state, white_since, {})
                if pair is not None:
                    shown = swapped(state, *pair)
            assert shown.view(seat) == state.view(seat)
            bot.observe(shown.view(seat))
        readers.append(bot._read)
    assert readers[0] == readers[1]
    assert sum(read for _, read in readers[0].values()) <= len(states) - 13


def test_two_players_are_not_read() -> None:
    """In a two-player game the search assumes the best reply and has no model of the
    other seat to adjust: level 6 reads nothing, so it plays as level 6 without the reading."""
    reader = MemoryBot("6", seed=4, spec=READER)
    result = play_game(GAME, [reader, RandomBot(seed=1)], {"players": 2}, 8)
    assert len(result.moves) > 20
    assert reader._read == {} and reader.plain_seats() == frozenset()


def _four_player_position() -> tuple[rules.Config, rules.Pos, int]:
    """A 4-player position twenty random plies in, its seat to move with 13 moves."""
    state = random_states({}, seed=2, plies=20)[-1]
    cfg = rules.model_of(state.cfg)
    return cfg, state.pos, cfg.seat_of(state.pos.turn)


def test_a_stopped_halving_keeps_only_its_complete_rounds() -> None:
    """The search's ``stop`` (asked after every rollout) ends it, and a round it cuts short
    counts for nothing: stopped in round 2 the values are those of a search of round 1
    alone, stopped in round 1 the one-ply values (the best-looking move)."""
    cfg, pos, seat = _four_player_position()
    level = dataclasses.replace(LEVELS["6"], halving=(2, 2, 4))
    children = {m: rules.apply(cfg, pos, m)[0] for m in rules.legal_moves(cfg, pos)}
    values = {m: bots.evaluate(cfg, child, seat, level.weights) for m, child in children.items()}
    width = min(level.width, len(children))
    assert width >= 3

    def after(n: int) -> Callable[[], bool]:
        calls = [0]

        def stop() -> bool:
            calls[0] += 1
            return calls[0] >= n
        return stop

    one_round = bots._halving(cfg, children, values, seat,
                              dataclasses.replace(level, halving=(2,)), Rng(7), frozenset())
    cut = bots._halving(cfg, children, values, seat, level, Rng(7), frozenset(),
                        after(2 * width + 3))
    assert cut == one_round != values
    assert bots._halving(cfg, children, values, seat, level, Rng(7), frozenset(),
                         after(3)) == values
    full = bots._halving(cfg, children, values, seat, level, Rng(7), frozenset(), after(10**9))
    assert full == bots._halving(cfg, children, values, seat, level, Rng(7), frozenset())
    assert full != one_round


def test_the_shipped_levels_stop_at_their_deadline() -> None:
    """Levels 5 and 6 as the game makes them carry a clock of ``TIME_LIMIT`` for their
    3+-player search (levels without successive halving none); a bot whose clock runs out
    at once (a clock that moves a second per reading) still plays a legal move and says the
    search was stopped; one whose time stands plays the move of a bot without a clock."""
    assert GAME.make_bot("6", 1).clock.limit == bots.TIME_LIMIT
    assert GAME.make_bot("5", 1).clock is not None
    assert GAME.make_bot("4", 1).clock is None and MemoryBot("6", 1).clock is None
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 1.0
        return ticks[0]

    bot = MemoryBot("6", seed=2, spec=READER, time_limit=bots.TIME_LIMIT)
    assert bot.clock is not None
    bot.clock = MoveClock(bots.TIME_LIMIT, clock=clock, late=deque())
    state = random_states({}, seed=2, plies=20)[-1]
    seat = state.acting_seats[0]
    bot.reset(seat, state.options)
    move = bot.choose(state.view(seat))
    assert move in state.legal_moves()
    assert bot.last_info["stopped"] == 1.0
    calm = MemoryBot("6", seed=2, spec=READER, time_limit=bots.TIME_LIMIT)
    calm.clock = MoveClock(bots.TIME_LIMIT, clock=lambda: 0.0, late=deque())  # time stands
    calm.reset(seat, state.options)
    assert calm.choose(state.view(seat)) == MemoryBot("6", seed=2, spec=READER).choose(
        state.view(seat))
    assert calm.last_info["stopped"] == 0.0
