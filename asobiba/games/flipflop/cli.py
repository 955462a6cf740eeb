"""Hooks for the ``asobiba`` command: ``asobiba solve flipflop``.

3×3: the exact value of the start (or of the position after the given moves) from the
retrograde table, respecting the game's history for the repetition rule. 5×5: the board is
far too large to solve here; the command runs the bounded exact search of
:mod:`.analysis` and says precisely what it proved.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...core import MoveError, OptionError
from ...core.jsontypes import JSONObject
from . import solver3
from .bots import move_scores, perfect_move
from .game import COLOUR, GAME, FlipFlopState


def analyse3(state: FlipFlopState) -> JSONObject:
    """Value, distance, positions examined and one principal line for a 3×3 state."""
    table = solver3.table()
    examined = table.positions
    out = state.outcome
    if out is not None:  # the game is over
        result = "draw" if out.is_draw else ("win" if out.ranks[state.turn] == 1 else "loss")
        return {"to_move": COLOUR[state.turn], "value": result, "plies": 0,
                "positions": examined, "line": [], "over": True, "reason": out.reason,
                "seconds": round(table.seconds, 3)}
    _, value, dist = perfect_move(state)
    line: list[str] = []
    cur = state
    while not cur.is_over and len(line) < 200:
        mv, _, _ = perfect_move(cur)
        line.append(cur.move_text(mv))
        cur = cur.child(mv)  # (a legal move: perfect_move chose it among them)
    twice = [k for k, c in _counts(state).items() if c >= 2]
    if twice:
        w, b, x, t = state.tuple4()
        examined += solver3.solve_with_history(w, b, x, t, twice).positions
    return {
        "to_move": COLOUR[state.turn],
        "value": solver3.VALUE_NAMES[value],
        "plies": dist if value != solver3.DRAW else None,
        "positions": examined,
        "line": line,
        "line_result": cur.outcome.reason if cur.outcome else None,
        "moves": {state.move_text(m): {"value": solver3.VALUE_NAMES[v], "plies": d}
                  for m, v, d in move_scores(state)},
        "seconds": round(table.seconds, 3),
        "over": False,
    }


def _counts(state: FlipFlopState) -> dict[int, int]:
    counts: dict[int, int] = {}
    for k in (*state.history, state.key):
        counts[k] = counts.get(k, 0) + 1
    return counts


def solve(options: JSONObject, moves: list[str], as_json: bool) -> int:
    """``asobiba solve flipflop --option board=3x3 [--json] [MOVES...]``."""
    try:
        state = GAME.replay(list(moves), options)[-1]
    except (MoveError, OptionError) as exc:
        print(f"error: {exc}")
        return 2
    if not isinstance(state, FlipFlopState):
        raise TypeError(f"the FlipFlop game replayed into a {type(state).__name__}")
    if state.n == 5:
        from .analysis import report5

        data = report5(state)
    else:
        data = analyse3(state)
    if as_json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print(_human(data, list(moves)))
    return 0


def _human(data: JSONObject, moves: Sequence[str]) -> str:
    where = "the start" if not moves else "after " + " ".join(moves)
    if data.get("board") == "5x5":
        return str(data["summary"])
    if data["over"]:
        return f"Position {where}: the game is over ({data['reason']})."
    plies = "" if data["plies"] is None else f" in {data['plies']} plies"
    return "\n".join([
        f"Position {where}: {data['to_move']} to move — {data['value']}{plies} "
        f"with best play (fastest win / slowest loss).",
        f"Positions examined: {data['positions']:,} (solved in {data['seconds']} s)",
        "Principal line: " + " ".join(data["line"]) + f"  ({data['line_result']})",
    ])
