"""Algo level 5 (information-set MCTS, ``games/algo/search.py``): its determinizations are
drawn exactly from the seat's posterior and agree with its view, its choice depends on its
view alone, it stops at its deadline, and it is a level users can pick."""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.algo import AlgoState
from asobiba.games.algo.infer import Knowledge, infer
from asobiba.games.algo.search import (
    AlgoSearchAdapter,
    AlgoSearchBot,
    determinize,
    guesses,
    sample_deal,
)
from asobiba.play.runner import play_game
from asobiba.search.mcts import ismcts
from tests.algo.brute import brute_deals
from tests.algo.test_views import swapped, walk

GAME = get("algo")


def _small_posterior(options: dict[str, Any], most: int) -> tuple[AlgoState, int]:
    """A position of a seeded random game whose seat to move has few consistent deals."""
    for seed in range(40):
        for s in walk(options, seed, 200):
            if s.is_over or s.phase in ("setup", "show"):
                continue
            seat = s.turn
            kn = Knowledge.from_view(s.view(seat))
            hidden = sum(1 for row in kn.rows for x in row if x.key is None)
            if 2 <= hidden <= 4 and len(brute_deals(kn)) <= most:
                return s, seat
    raise AssertionError("no small position found")


@pytest.mark.parametrize("options", [{}, {"jokers": True}, {"sets": 2}])
def test_sampled_deals_follow_the_exact_posterior(options: dict[str, Any]) -> None:
    """Rule 9's model (every consistent deal equally likely): the chain-rule sampler draws
    only consistent deals, at the brute-force enumeration's frequencies."""
    s, seat = _small_posterior(options, 12)
    kn = Knowledge.from_view(s.view(seat))
    exact = brute_deals(kn)
    total = sum(exact.values())
    order = [x.sid for row in kn.rows for x in row if x.key is None]
    rng = Rng(7, "sample")
    n = 3000
    seen: dict[tuple[int, ...], int] = {}
    inf = infer(kn)
    for _ in range(n):
        deal = sample_deal(kn, rng, inf)
        combo = tuple(deal[sid] for sid in order)
        assert combo in exact, "a sampled deal contradicts the view"
        seen[combo] = seen.get(combo, 0) + 1
    distance = sum(abs(seen.get(c, 0) / n - w / total) for c, w in exact.items()) / 2
    assert distance < 0.05, (distance, len(exact))
    if len(exact) > 1:
        assert len(seen) > 1


@pytest.mark.parametrize("options", [{}, {"players": 4}, {"variant": "pair"},
                                     {"jokers": True}, {"colours": 3}])
def test_a_determinization_agrees_with_the_seats_view(options: dict[str, Any]) -> None:
    """Every fact of the seat's view holds in the sampled position: rows, numbers it knows,
    misses, the pile's size and colours, its hand, the step and the legal moves."""
    checked = 0
    for s in walk(options, 4, 120)[::5]:
        if s.is_over or s.phase == "setup":
            continue
        seat = s.acting_seats[0]
        view = s.view(seat)
        kn = Knowledge.from_view(view)
        rng = Rng(3, "det")
        det = determinize(view, s.options, sample_deal(kn, rng), rng)
        again = det.view(seat)
        for part in ("rows", "pile", "hand", "placing", "phase", "turn", "hits", "out",
                     "chips", "legal_moves"):
            assert again[part] == view[part], part
        checked += 1
    assert checked > 5


def test_the_playout_policy_counts_only_what_its_player_can_see() -> None:
    """The published count of level 2 from the player's own information: changing an
    enemy's hidden card (its view unchanged) changes no candidate list."""
    for s in walk({}, 2, 80)[::3]:
        if s.is_over or s.phase != "attack":
            continue
        other = swapped(s, s.turn)
        if other is None:
            continue
        assert guesses(s, s.turn) == guesses(other, s.turn)
        return
    raise AssertionError("no position to compare")


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"variant": "pair"}, {"jokers": True}])
def test_level_5_choice_depends_on_its_view_only(options: dict[str, Any]) -> None:
    """Hidden information: states that differ only in other seats' secrets (the seat's view
    identical) get the same ISMCTS decision — and the search really ran in some of them."""
    searched = compared = 0
    for seed in range(2):
        n = GAME.new_game(options, seed).num_seats
        game = play_game(GAME, [GAME.make_bot("3", seed * 10 + x) for x in range(n)],
                         options, seed=seed)
        # after a hit (``stay`` legal): the continue-or-stay decision level 5 searches
        for s in [x for x in game.states if x.phase == "attack" and x.hits][:4]:
            viewer = s.turn
            other = swapped(s, viewer)
            if other is None:
                continue
            assert s.to_json() != other.to_json()
            a = AlgoSearchBot(11, time_limit=None, iterations=25)
            b = AlgoSearchBot(11, time_limit=None, iterations=25)
            a.reset(viewer, s.options)
            b.reset(viewer, s.options)
            assert a.choose(s.view(viewer)) == b.choose(other.view(viewer))
            compared += 1
            if a.last_result is not None:
                assert b.last_result is not None
                assert a.last_result.visits == b.last_result.visits
                searched += 1
    assert compared >= 3 and searched >= 1, (compared, searched)


def test_ismcts_stops_at_a_deadline_already_passed() -> None:
    """The deadline is checked after every iteration: one already past allows exactly one."""
    s = next(x for x in walk({}, 1, 40) if x.phase == "attack")
    view = s.view(s.turn)
    kn = Knowledge.from_view(view)

    def sample(rng: Rng) -> AlgoState:
        return determinize(view, s.options, sample_deal(kn, rng), rng)

    res = ismcts(AlgoSearchAdapter(), sample, s.turn, 10_000, Rng(1), deadline=0.0)
    assert res.iterations == 1


def test_level_5_keeps_within_a_tiny_budget() -> None:
    """With a budget far below one iteration's cost the bot still answers, having run at
    most one iteration per move (or fallen back to level 4 when inference alone used the
    budget) — instead of its 10**6 iteration cap."""
    bots = [AlgoSearchBot(1, time_limit=1e-6, iterations=10**6), GAME.make_bot("4", 2)]
    ran = []
    state = GAME.new_game({}, 5)
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.options)
    while not state.is_over:
        seat = state.acting_seats[0]
        state = state.play(bots[seat].choose(state.view(seat)), seat)
        if seat == 0 and bots[0].last_result is not None:
            ran.append(bots[0].last_result.iterations)
    assert all(n == 1 for n in ran)


def test_level_5_is_listed_and_finishes_games() -> None:
    levels = {lv.level: lv for lv in GAME.bot_levels}
    assert "5" in levels and levels["5"].description and levels["5"].title_ja
    bot = GAME.make_bot("5", 3)
    assert isinstance(bot, AlgoSearchBot) and bot.clock is not None
    fast = [AlgoSearchBot(s, time_limit=None, iterations=30) for s in range(4)]
    result = play_game(GAME, fast, {"variant": "pair"}, seed=2)
    assert result.states[-1].is_over


def test_small_duel_level_5_beats_level_2() -> None:
    wins = 0.0
    for i in range(8):
        me = i % 2
        bots = [AlgoSearchBot(i, time_limit=None, iterations=30) if s == me
                else GAME.make_bot("2", i * 10 + s) for s in range(2)]
        outcome = play_game(GAME, bots, {}, seed=i).states[-1].outcome
        assert outcome is not None
        wins += outcome.points(me)
    assert wins >= 6          # bench/algo_search_arena.py measures level 5 against level 4
