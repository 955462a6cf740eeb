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
def test_bot_same_move_whatever_lies_under_unseen_whites(level: str) -> None:
    tried = 0
    for state in random_states({}, seed=31, plies=45)[20::6]:
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
