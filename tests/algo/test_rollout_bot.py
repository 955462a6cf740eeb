"""Algo level 8, the Seer (``games/algo/rollout.py``): level 6's decisions checked by
playing deals drawn from its own posterior to the end. It decides from its seat's view alone
(a swapped secret of another seat changes neither the move nor what it played out), its
playouts really overrule level 6 (and only they do), and its clock stops the deals with
level 6's choice as the answer."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from asobiba.games import get
from asobiba.games.algo.plan import AlgoPlanBot
from asobiba.games.algo.rollout import AlgoRolloutBot
from asobiba.play.runner import play_game
from tests.algo.test_plan_bot import _attack_states
from tests.algo.test_views import swapped

GAME = get("algo")


@pytest.mark.parametrize("options", [{}, {"players": 4}, {"variant": "pair"}])
def test_the_seer_decides_from_its_view_only(options: dict[str, Any]) -> None:
    """Hidden information: with one secret of another seat swapped (the seat's view the
    same) the move and the record of what it played out are the same — and it played deals
    out in several of the decisions compared."""
    compared = searched = 0
    for s in _attack_states(options, range(3))[::3]:
        if compared >= 5 and searched >= 3:
            break
        viewer = s.turn
        other = swapped(s, viewer)
        if other is None:
            continue
        assert s.view(viewer) == other.view(viewer) and s.to_json() != other.to_json()
        a, b = AlgoRolloutBot(5, deals=3), AlgoRolloutBot(5, deals=3)
        a.reset(viewer, s.options)
        b.reset(viewer, s.options)
        assert a.choose(s.view(viewer)) == b.choose(other.view(viewer))
        assert a.last_info == b.last_info
        compared += 1
        searched += a.last_info.get("deals", 0) == 3
    assert compared >= 5 and searched >= 3, (compared, searched)


def test_the_playouts_overrule_level_6_and_nothing_else_does() -> None:
    """Over attack decisions of four-player games: with an infinite gate the Seer plays
    level 6's move every time; with gate 0 it plays another move in some decisions, always a
    legal one it weighed."""
    states = [s for s in _attack_states({"players": 4}, range(2))[::2]][:14]
    overruled = 0
    for s in states:
        seat = s.turn
        view = s.view(seat)
        six, never, seer = AlgoPlanBot(3), AlgoRolloutBot(3, deals=6, gate=math.inf), \
            AlgoRolloutBot(3, deals=6)
        for bot in (six, never, seer):
            bot.reset(seat, s.options)
        expected = six.choose(view)
        assert never.choose(view) == expected
        assert never.last_info.get("overrode", 0.0) == 0.0
        move = seer.choose(view)
        assert move in view["legal_moves"]
        if move != expected:
            assert seer.last_info["overrode"] == 1.0 and seer.last_info["deals"] == 6
            overruled += 1
    assert overruled >= 1, "the playouts never changed a decision"


class _Clock:
    """A clock that advances ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.t = itertools.count()
        self.step = step

    def __call__(self) -> float:
        return next(self.t) * self.step


def test_the_seers_clock_stops_the_deals_and_level_6s_choice_stands() -> None:
    """A clock that runs out at once: no deal is complete and level 6's move is played; a
    clock that stands still: the clock-less decision, deal for deal."""
    checked = 0
    for s in _attack_states({"players": 4}, range(1))[1::3][:8]:
        seat = s.turn
        view = s.view(seat)
        six = AlgoPlanBot(2)
        late = AlgoRolloutBot(2, deals=4, time_limit=5.0, clock=_Clock(100.0))
        still = AlgoRolloutBot(2, deals=4, time_limit=5.0, clock=_Clock(0.0))
        free = AlgoRolloutBot(2, deals=4)
        for bot in (six, late, still, free):
            bot.reset(seat, s.options)
        assert late.choose(view) == six.choose(view)
        assert still.choose(view) == free.choose(view)
        if "deals" in late.last_info:
            assert late.last_info["deals"] == 0.0 and late.last_info["stopped"] == 1.0
            assert still.last_info["deals"] == 4.0 and still.last_info["stopped"] == 0.0
            assert {k: still.last_info[k] for k in free.last_info} == free.last_info
            checked += 1
    assert checked >= 2


def test_level_8_is_the_seer_with_a_clock_and_finishes_the_variants() -> None:
    bot = GAME.make_bot("8", 1)
    assert isinstance(bot, AlgoRolloutBot) and bot.clock is not None
    assert bot.level == "8" and bot.name == "algo-8"
    for options in ({"players": 3, "jokers": True}, {"variant": "pair"}, {"sets": 2}):
        n = GAME.new_game(options, 1).num_seats
        bots = [AlgoRolloutBot(s, deals=2) if s % 2 == 0 else GAME.make_bot("4", s)
                for s in range(n)]
        assert play_game(GAME, bots, options, seed=1).states[-1].is_over
