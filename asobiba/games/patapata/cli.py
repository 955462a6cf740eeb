"""Hooks for the ``asobiba`` command: ``solve`` (best play for the rest of a course) and
``puzzle`` (the current task with every way to clear it, ranked)."""

from __future__ import annotations

import argparse
import json

from ...core import AsobibaError
from ...core.jsontypes import JSONObject
from .game import GAME, PatapataState
from .hints import hints
from .notation import move_text
from .optimiser import optimise, upper_bound
from .tasks import COURSE_LENGTH, course_tasks


def _replay(options: JSONObject, seed: int, moves: list[str]) -> PatapataState:
    state = GAME.new_game(options, seed)
    for text in moves:
        state = state.play(text, 0)
    assert isinstance(state, PatapataState)
    return state


def solve(options: JSONObject, moves: list[str], as_json: bool, width: int = 64) -> int:
    """Best play for seat 0 over the rest of the course. ``options`` may carry ``seed``
    (the course's die rolls come from it; the CLI hook has no seed argument)."""
    opts = dict(options)
    seed = int(opts.pop("seed", 0))
    try:
        state = _replay(opts, seed, moves)
    except AsobibaError as exc:
        print(f"error: {exc}")
        return 2
    sheet = state.sheets[0]
    rest = course_tasks(state.rows)[state.round:] if state.round < COURSE_LENGTH else ()
    start = (sheet.marks, sheet.passes)
    plan = optimise(rest, start, width, state.table)
    bound = upper_bound(rest, start, state.table)
    line = [move_text(m) for m in plan.moves]
    if as_json:
        print(json.dumps({"score": plan.total, "upper_bound": bound, "moves": line,
                          "nodes": plan.nodes}))
    else:
        print(f"best found: {plan.total} points (upper bound {bound}), "
              f"rating {state.table.rating(plan.total)[0]}")
        for number, text in enumerate(line, state.round + 1):
            print(f"  task {number:2d}: {text}")
    return 0


def puzzle(args: list[str]) -> int:
    """``asobiba puzzle patapata [--course dice|1|2|3] [--seed N] [--top K] [MOVES...]``."""
    parser = argparse.ArgumentParser(prog="asobiba puzzle patapata")
    parser.add_argument("--course", default="dice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("moves", nargs="*")
    ns = parser.parse_args(args)
    try:
        state = _replay({"course": ns.course}, ns.seed, ns.moves)
    except AsobibaError as exc:
        print(f"error: {exc}")
        return 2
    if state.is_over:
        print(state.render(0))
        return 0
    view = state.view(0)
    ranked = hints(view)
    if ns.json:
        print(json.dumps([h.to_json() for h in ranked[:ns.top]], ensure_ascii=False))
        return 0
    print(state.render(0))
    print(f"{len(ranked) - 1} ways to clear this task; best by the optimiser's estimate:")
    for h in ranked[:ns.top]:
        est = "?" if h.estimate is None else str(h.estimate)
        turn = f"turn {h.rotation}°, switches {h.switches}" if h.move != "pass" else ""
        print(f"  {h.move:34s} est. {est:>3s} (after next task {h.lookahead}, "
              f"now {h.score_now})  {turn}")
    return 0
