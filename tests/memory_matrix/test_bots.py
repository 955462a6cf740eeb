"""Bots see views only: their memory holds only true facts learned from views, a perfect
memory that watched from the start knows every hidden colour, determinizations agree with
the public counts, and a bot picks the same move whatever lies under unseen whites."""

from __future__ import annotations

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.memory_matrix.bots import LEVELS, MemoryBot
from asobiba.games.memory_matrix.memory import NEUTRAL, determinize
from asobiba.games.memory_matrix.palette import LETTERS
from asobiba.games.memory_matrix.state import MemoryMatrixState
from asobiba.play.runner import play_game
from tests.memory_matrix.test_hidden import hidden_pair, random_states, swapped

GAME = get("memory_matrix")


def truth(state: MemoryMatrixState) -> dict[str, int]:
    """The colour beneath every white piece (NEUTRAL for neutral pieces)."""
    geo, pos = state.cfg.geometry, state.pos
    out = {}
    for i in geo.cells:
        bit = 1 << i
        if bit & pos.occ and not bit & pos.up:
            out[geo.name(i)] = NEUTRAL if bit & pos.neutral else next(
                c for c, m in enumerate(pos.ident) if m & bit)
    return out


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 2, "colours": 2}])
def test_memory_perfect_recall_knows_every_hidden_colour(options: dict) -> None:
    game_bots = [MemoryBot("3", seed=s) for s in range(GAME.num_seats(
        GAME.validate_options(options)))]
    result = play_game(GAME, [MemoryBot("1", seed=9), *game_bots[1:]], options, seed=4)
    final = result.states[-1]
    for bot in game_bots[1:]:
        assert bot.memory.known == truth(final)


def test_memory_forgetful_keeps_only_true_facts() -> None:
    forgetful = MemoryBot("1", seed=2)
    perfect = MemoryBot("3", seed=3)
    sizes = []

    def on_move(state, entry) -> None:  # noqa: ANN001
        real = truth(state)
        for bot in (forgetful, perfect):
            for cell, colour in bot.memory.known.items():
                if cell in real:
                    assert real[cell] == colour
        sizes.append((len(forgetful.memory.known), len(perfect.memory.known)))

    play_game(GAME, [forgetful, perfect, MemoryBot("2", 5), MemoryBot("2", 6)], {}, seed=8,
              on_move=on_move)
    assert sum(f for f, _ in sizes) < sum(p for _, p in sizes)


def test_determinization_matches_view_and_public_counts() -> None:
    for state in random_states({"players": 3}, seed=21, plies=50)[10::10]:
        view = state.view(0)
        for k in range(3):
            pos = determinize(state.cfg, view, {}, Rng(k, "det"))
            assert pos.occ == state.pos.occ and pos.up == state.pos.up
            for colour in range(state.cfg.colours):
                assert pos.ident[colour].bit_count() == state.pos.ident[colour].bit_count()
                assert pos.ident[colour] & pos.up == state.pos.ident[colour] & state.pos.up
            assert pos.neutral.bit_count() == state.pos.neutral.bit_count()
            assert pos.hand == state.pos.hand and pos.turn == state.pos.turn


@pytest.mark.parametrize("level", list(LEVELS))
# (the bots look ahead on dead boards played out, ``rules.model_of``; random two-player play
# kills the board early, so the endgame positions are played on as rules version 2 did)
@pytest.mark.parametrize(("options", "first"), [({}, 20), ({"players": 2, "end_at_dead_board":
                                                            False}, 52)])
def test_bot_same_move_whatever_lies_under_unseen_whites(level: str, options: dict,
                                                         first: int) -> None:
    """4 players mid-game, and 2 players within the top level's exact endgame."""
    tried = 0
    for state in random_states(options, seed=31, plies=first + 25)[first::3 if first > 40
                                                                    else 6]:
        pair = hidden_pair(state)
        if pair is None or state.is_over:
            continue
        other = swapped(state, *pair)
        seat = state.to_move
        assert seat is not None
        moves = [MemoryBot(level, seed=77).choose(s.view(seat)) for s in (state, other)]
        assert moves[0] == moves[1]
        tried += 1
    assert tried >= 2


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 2, "colours": 2,
                                                       "lost_colour": "pass"},
                                     {"players": 5, "shape": "cross"}])
def test_every_level_plays_whole_games_legally(options: dict) -> None:
    n = GAME.num_seats(GAME.validate_options(options))
    levels = list(LEVELS)
    bots = [GAME.make_bot(levels[k % len(levels)], seed=k) for k in range(n)]
    result = play_game(GAME, bots, options, seed=6)
    assert result.states[-1].is_over


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="levels"):
        GAME.make_bot("9")


def test_bot_letters_cover_colours() -> None:
    assert len(set(LETTERS)) == len(LETTERS) == 16 and "W" not in LETTERS


def test_memory_capacity_keeps_the_newest_facts() -> None:
    from asobiba.games.memory_matrix.memory import Memory

    state = GAME.from_layout(["BRYG....", *["........"] * 7], "B")
    memory = Memory(capacity=2)
    memory.observe(state.view(0))
    after = state.play("e1")  # b1 red, c1 yellow, d1 green turn white, in that order
    memory.observe(after.view(0))
    assert memory.known == {"c1": 2, "d1": 3}
    perfect = Memory()
    perfect.observe(state.view(0))
    perfect.observe(after.view(0))
    assert perfect.known == {"b1": 1, "c1": 2, "d1": 3}


def test_small_ladder_top_level_outscores_level_one() -> None:
    """A small, seeded version of the bench ladder (bench/memory_matrix_arena.py)."""
    points = 0.0
    for i in range(6):
        seat = i % 2
        bots = [GAME.make_bot("4" if s == seat else "1", seed=i * 10 + s) for s in range(2)]
        result = play_game(GAME, bots, {"players": 2, "white_any_time": False}, seed=500 + i)
        outcome = result.states[-1].outcome
        assert outcome is not None
        points += outcome.points(seat)
    assert points / 6 >= 0.6


def test_muddled_belief_keeps_faces_and_counts() -> None:
    from asobiba.games.memory_matrix.bots import muddled

    state = random_states({"players": 3}, seed=41, plies=40)[-1]
    pos = state.pos
    changed = False
    for k in range(5):
        belief = muddled(pos, 0.8, Rng(k, "muddle"))
        assert belief.occ == pos.occ and belief.up == pos.up and belief.hand == pos.hand
        assert [m & pos.up for m in belief.ident] == [m & pos.up for m in pos.ident]
        assert [m.bit_count() for m in belief.ident] == [m.bit_count() for m in pos.ident]
        assert belief.neutral.bit_count() == pos.neutral.bit_count()
        changed |= belief.ident != pos.ident
    assert changed


def test_unflippable_cells_are_the_corners_of_a_square() -> None:
    geo = GAME.new_game({}, 0).cfg.geometry
    assert sorted(geo.name(i) for i in geo.cells if geo.unflippable >> i & 1) == [
        "a1", "a8", "h1", "h8"]


def _reference_greedy(cfg, pos, w, noise, rng):  # noqa: ANN001, ANN202
    """Greedy the long way: evaluate every child position (first of equals wins)."""
    from asobiba.games.memory_matrix import bots, rules

    seat = cfg.seat_of(pos.turn)
    best, best_value = None, float("-inf")
    for move in rules.legal_moves(cfg, pos):
        value = bots.evaluate(cfg, rules.apply(cfg, pos, move)[0], seat, w)
        if noise:
            value += noise * rng.random()
        if value > best_value:
            best, best_value = move, value
    return best


@pytest.mark.parametrize("options", [{}, {"players": 2}, {"players": 3},
                                     {"players": 2, "colours": 2, "lost_colour": "pass"},
                                     {"players": 6, "colours": 2, "shape": "10x10"}])
def test_fast_greedy_is_the_child_evaluation(options: dict) -> None:
    """The rollouts' greedy move, computed from flips alone, is exactly the move that the
    full child evaluation picks, for every weight term, with and without noise."""
    from asobiba.games.memory_matrix.bots import Weights, greedy_move

    weights = [Weights(), Weights(0.2, 1.0), Weights(0.0, 1.0, contempt=2.5),
               Weights(0.3, 0.5, 0.5, shared=2.0)]
    checked = 0
    for seed in range(3):
        # bot internals run on the bots' model (dead boards played out: rules.model_of)
        for state in random_states({**options, "end_at_dead_board": False}, seed=seed,
                                   plies=200):
            if state.is_over or len(state.legal_moves()) < 2:
                continue
            for w in weights:
                for noise in (0.0, 0.5):
                    fast = greedy_move(state.cfg, state.pos, w, noise, Rng(seed, "g"))
                    slow = _reference_greedy(state.cfg, state.pos, w, noise, Rng(seed, "g"))
                    assert fast == slow
                    checked += 1
    assert checked > 500


def _minimax(cfg, pos, seat, w):  # noqa: ANN001, ANN202
    """Plain minimax to the end of the game: no pruning, no table, no dead-board shortcut."""
    from asobiba.games.memory_matrix import bots, rules

    if pos.turn < 0:
        return bots.evaluate(cfg, pos, seat, w)
    values = [_minimax(cfg, rules.apply(cfg, pos, m)[0], seat, w)
              for m in rules.legal_moves(cfg, pos)]
    return max(values) if cfg.seat_of(pos.turn) == seat else min(values)


def _endgames(options: dict, empties: int, seeds: range):  # noqa: ANN202
    for seed in seeds:  # the bots' model: dead boards played out (rules.model_of)
        for state in random_states({**options, "end_at_dead_board": False}, seed=seed,
                                   plies=200):
            free = (state.cfg.geometry.valid & ~state.pos.occ).bit_count()
            if not state.is_over and free == empties:
                yield seed, state


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 2, "white_any_time": False},
                                     {"players": 2, "colours": 2, "lost_colour": "pass"}])
def test_exact_endgame_solver_is_minimax(options: dict) -> None:
    """The top level's endgame solver (alpha-beta, transposition table, a board with nothing
    face up scored at once as 0-0) gives plain minimax's value, whatever the window."""
    from asobiba.games.memory_matrix.bots import LEVELS, solve

    w = LEVELS["4"].weights
    checked = 0
    for _seed, state in _endgames(options, 5, range(12)):
        cfg, pos = state.cfg, state.pos
        seat = cfg.seat_of(pos.turn)
        exact = _minimax(cfg, pos, seat, w)
        assert solve(cfg, pos, float("-inf"), float("inf"), seat, w, {}) == exact
        # a narrow window still returns a correct bound
        low = solve(cfg, pos, exact + 0.5, exact + 1.0, seat, w, {})
        high = solve(cfg, pos, exact - 1.0, exact - 0.5, seat, w, {})
        assert low <= exact + 0.5 and high >= exact - 0.5
        checked += 1
    assert checked >= 8


def test_top_level_finds_the_winning_endgame_move() -> None:
    """Seated in 2-player games from the start (so it remembers every hidden colour), the
    top level plays a winning move whenever the position has winning and non-winning moves
    — checked against plain minimax on the true position."""
    from asobiba.games.memory_matrix import rules
    from asobiba.games.memory_matrix.bots import LEVELS, TERMINAL

    w = LEVELS["4"].weights
    decisive = 0
    for seed in range(40):
        state = GAME.new_game({"players": 2}, seed)
        seat = seed % 2
        bot = MemoryBot("4", seed=seed)
        bot.reset(seat, state.options)
        bot.observe(state.view(seat))
        rng = Rng(seed, "endgame-test")
        while not state.is_over:
            cfg, pos = state.cfg, state.pos
            free = (cfg.geometry.valid & ~pos.occ).bit_count()
            if state.to_move == seat and free <= 6:
                values = {}
                for move in rules.legal_moves(cfg, pos):
                    child = rules.apply(cfg, pos, move)[0]
                    name = cfg.geometry.name(move >> 1) + ("w" if move & 1 else "")
                    values[name] = _minimax(cfg, child, seat, w)
                wins = {m for m, v in values.items() if v > TERMINAL / 2 + 1e-9}
                if wins and len(wins) < len(values):
                    assert bot.choose(state.view(seat)) in wins
                    decisive += 1
                    break
            moves = state.legal_moves()
            state = state.play(moves[rng.below(len(moves))])
            bot.observe(state.view(seat))
    assert decisive >= 5


def test_top_level_keeps_a_live_game_rather_than_a_dead_draw() -> None:
    """Two players, white any time, one start piece each (start_pieces=1, the start before
    rules version 2): after the opening colour move and the reply that whitens one of its
    pieces, the first player may whiten the last piece face up — a board of nothing but
    white, which must end 0-0. The top level plays on; level 3, which sees the live move as
    a loss of a piece, takes the dead draw."""
    picked = {}
    for level in ("3", "4"):
        state = GAME.new_game({"players": 2, "start_pieces": 1}, 2001)
        bot = MemoryBot(level, seed=5)
        bot.reset(0, state.options)
        bot.observe(state.view(0))
        for move in ("f4", "c4w"):
            state = state.play(move)
            bot.observe(state.view(0))
        assert list(state.view(0)["legal_moves"]) == ["b4", "g4w"]
        picked[level] = bot.choose(state.view(0))
        assert state.play(picked[level]).pos.up == 0 or picked[level] == "b4"
    assert picked == {"3": "g4w", "4": "b4"}
