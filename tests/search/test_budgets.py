"""The engine's budgets, on a fake clock (no wall-clock assertions): the deadline is
consulted every few nodes, iterative deepening does not start an iteration that cannot
finish, and the time-limited bots count their limit from the moment they are asked."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from typing import Any

import pytest

from asobiba.games import get
from asobiba.search.alphabeta import CHECK_EVERY, AlphaBeta


@pytest.fixture(autouse=True)
def _fresh_lateness() -> Any:
    """The bots share the process's record of late moves; the fake clocks here must not
    leave theirs to other tests."""
    from asobiba.search.budget import PROCESS_LATENESS

    saved = list(PROCESS_LATENESS)
    PROCESS_LATENESS.clear()
    yield
    PROCESS_LATENESS.clear()
    PROCESS_LATENESS.extend(saved)


class Nim:
    """Take 1-3 stones; taking the last stone wins. Positions: (stones, player)."""

    def moves(self, pos: tuple[int, int]) -> list[int]:
        return [k for k in (1, 2, 3) if k <= pos[0]]

    def play(self, pos: tuple[int, int], k: int) -> tuple[int, int]:
        return (pos[0] - k, 1 - pos[1])

    def terminal_value(self, pos: tuple[int, int]) -> float:
        return -1.0

    def evaluate(self, pos: tuple[int, int]) -> float:
        return 0.0

    def key(self, pos: tuple[int, int]) -> tuple[int, int]:
        return pos


class StepClock:
    """Each reading advances time by ``step`` seconds (work done between two looks)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def test_deadline_is_consulted_every_few_nodes() -> None:
    """Budget rule: the clock is read at least once every CHECK_EVERY nodes (not every 256),
    and the search stops within CHECK_EVERY nodes of the first reading past the limit."""
    clock = StepClock(0.001)
    engine = AlphaBeta(Nim(), tt_size=0, clock=clock)
    res = engine.search((60, 0), 60, time_limit=0.5)
    assert res.stopped in ("time", "predicted")
    assert engine.checks >= engine.nodes // CHECK_EVERY - 1
    # the first reading past the deadline ended the search: every reading before it was
    # one step of 1 ms, so the search looked at most 0.5 s / 1 ms readings in all
    assert clock.readings <= 0.5 / 0.001 + 2 * res.depth + 4


def test_deepening_does_not_start_an_iteration_that_cannot_finish() -> None:
    """Budget rule: when the last iteration's cost (times its growth) would pass the
    deadline, deepening stops before it instead of starting and abandoning it."""
    clock = StepClock(0.0005)
    engine = AlphaBeta(Nim(), tt_size=0, clock=clock)
    res = engine.search((40, 0), 40, time_limit=0.3)
    assert res.stopped == "predicted", res.stopped
    assert res.depth >= 2
    # what was skipped really could not have finished: searching it takes longer than
    # what was left
    spent = res.iterations[-1][2]
    again = AlphaBeta(Nim(), tt_size=0, clock=StepClock(0.0005))
    full = again.search((40, 0), res.depth + 1)
    assert full.seconds - spent > 0.3 - spent


def test_hard_limit_is_predicted_for_the_min_depth_too() -> None:
    clock = StepClock(0.0005)
    engine = AlphaBeta(Nim(), tt_size=0, clock=clock)
    res = engine.search((40, 0), 40, time_limit=0.0, min_depth=40, hard_limit=0.3)
    assert res.stopped in ("predicted", "time") and res.depth >= 2


def test_node_budget_is_exact_within_one_check() -> None:
    engine = AlphaBeta(Nim(), tt_size=0)
    res = engine.search((60, 0), 60, node_limit=500)
    assert res.stopped == "nodes" and res.nodes <= 500 + CHECK_EVERY


def test_started_counts_the_callers_set_up() -> None:
    """A limit counts from ``started``: a move whose set-up already used the whole limit
    searches no more than one check's worth of nodes and still returns a legal move."""
    clock = StepClock(0.001)
    engine = AlphaBeta(Nim(), tt_size=0, clock=clock)
    res = engine.search((60, 0), 60, time_limit=0.5, started=clock() - 0.6)
    assert res.depth <= 1 and res.nodes <= CHECK_EVERY and res.move in (1, 2, 3)


@pytest.mark.parametrize("game_id,level,options,plies", [
    ("reverstargo", "final", {}, 12),
    ("reverstargo", "max", {}, 22),
    ("reversi", "6", {}, 20),
    ("flipflop", "5", {"board": "5x5"}, 4),
])
def test_time_limited_bots_count_from_the_moment_they_are_asked(
        monkeypatch: pytest.MonkeyPatch, game_id: str, level: str, options: dict[str, Any],
        plies: int) -> None:
    """Issue 16.3: every time-limited bot's search stops by its limit counted from the start
    of ``choose`` (on a fake clock that advances 1 ms a reading, set-up included)."""
    from asobiba.core import Rng

    game = get(game_id)
    state = game.new_game(options, 3)
    rng = Rng(3, "budget")
    for _ in range(plies):
        legal = state.legal_moves()
        state = state.child(legal[rng.below(len(legal))])
    assert not state.is_over
    clock = StepClock(0.001)
    monkeypatch.setattr(time, "perf_counter", clock)
    bot = game.make_bot(level, 1)
    bot.reset(state.turn, state.options)
    engine = _engine_of(bot)
    engine.clock = clock
    start = clock.now
    text = bot.choose(state.view(state.turn))
    assert state.play(text, state.turn) is not None
    used = clock.now - start
    limit = _stated_limit(bot)
    assert used <= limit, (used, limit)
    assert engine.checks > 0  # the clock was consulted during the search


def _engine_of(bot: Any) -> AlphaBeta[Any, Any]:
    if hasattr(bot, "searcher"):  # Reversi
        return bot.searcher  # type: ignore[no-any-return]
    if hasattr(bot, "engine"):  # ReverStarGo
        return bot.engine.engine  # type: ignore[no-any-return]
    from asobiba.games.flipflop.bots import PLANS
    from asobiba.games.flipflop.search import Searcher

    plan = PLANS[5]["5"]
    assert plan is not None
    bot._searcher = Searcher(5, plan.weights)
    return bot._searcher.engine


def _stated_limit(bot: Any) -> float:
    from asobiba.games.flipflop.bots import PLANS
    from asobiba.games.reverstargo.bots import FINAL_LIMIT, MAX_LIMIT

    if getattr(bot, "level", "") == "final":
        return FINAL_LIMIT
    if getattr(bot, "level", "") == "max":
        return MAX_LIMIT
    if hasattr(bot, "searcher"):
        return float(bot.time_limit)
    plan = PLANS[5]["5"]
    assert plan is not None and plan.time_limit is not None
    return plan.time_limit


def _golden() -> Any:
    path = Path(__file__).resolve().parents[2] / "bench" / "search_golden.py"
    spec = importlib.util.spec_from_file_location("search_golden", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("engine", ["reversi", "flipflop", "reverstargo", "memory_matrix"])
def test_every_engine_gives_the_answers_recorded_before_the_search_library(engine: str
                                                                           ) -> None:
    """Strength does not regress: on the seeded positions of bench/search_golden.py, each
    game's search (now on asobiba.search) returns the move and value the game's own
    engine returned at the same fixed depth before the change (tests/search/golden_before
    .json, written by that script on the old code)."""
    import json

    golden = _golden()
    want = json.loads((Path(__file__).parent / "golden_before.json").read_text())
    checked = 0
    for label, run in golden.ENGINES[engine]():
        move, value, _nodes = run()
        assert [move, value] == [want[label]["move"], want[label]["value"]], label
        checked += 1
    assert checked >= 20


def test_move_clock_keeps_back_what_late_moves_needed() -> None:
    """A bot's search budget: 80% of the limit at first; after a move answered 0.2 s past
    its search deadline, 2 × 0.2 s are kept back; never more than three quarters of it."""
    from collections import deque

    from asobiba.search.budget import MoveClock

    now = [0.0]
    clock = MoveClock(1.0, clock=lambda: now[0], late=deque(maxlen=8))
    clock.load = lambda: 0.0  # type: ignore[method-assign]  # an idle machine
    assert clock.budget() == pytest.approx(0.8)
    now[0] = 0.8 + 0.2  # the answer came 0.2 s after the search's deadline
    clock.done(0.0)
    assert clock.budget() == pytest.approx(1.0 - 2.0 * 0.2)
    now[0] = 10.0
    clock.done(0.0)
    assert clock.budget() == pytest.approx(0.25)
    with pytest.raises(ValueError, match="positive"):
        MoveClock(0.0)


def test_move_clock_keeps_back_more_on_a_crowded_machine() -> None:
    """Six processes waiting per core: 6 × 6% of the limit kept back before any move has
    come late."""
    from collections import deque

    from asobiba.search.budget import MoveClock

    clock = MoveClock(2.0, late=deque(maxlen=8))
    clock.load = lambda: 6.0  # type: ignore[method-assign]
    assert clock.budget() == pytest.approx(2.0 * (1 - 0.36))
