"""Hook for the ``asobiba`` command: ``asobiba solve reversi POSITION | FILE | -``.

The position is an FFO/edax ``.obf`` line (:mod:`.obf`): given on the command line (one
argument, or the board and the side as two), or read from a file (one position a line; blank
lines and lines starting with ``#`` or ``%`` skipped) or from stdin (``-``, or no argument
with input piped in). Every line is parsed before anything is solved: one bad line and
nothing is solved (exit status 2, ``error: bad_position (REASON): …`` on stderr).

Each position prints its exact score (standard scoring, empties to the winner: see
:mod:`.endgame`) and a best move; when the line carries annotations the printed score is
compared with the best of them, and any disagreement makes the exit status 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ...core.jsontypes import JSONObject
from .endgame import Solver
from .game import square_name
from .obf import SIDE_NAMES, ObfPosition, PositionError, parse_obf


def read_positions(args: list[str], stdin_text: str | None = None) -> list[tuple[int | None,
                                                                                 ObfPosition]]:
    """The positions the arguments name, with their line numbers (``None`` for a position
    given on the command line). ``stdin_text`` stands for stdin (tests)."""
    if not args or args == ["-"]:
        if stdin_text is None:
            if not args and sys.stdin.isatty():
                raise PositionError("no_position", "give a position: 64 squares and the side "
                                    "to move (an .obf line), a file of them, or - for stdin")
            stdin_text = sys.stdin.read()
        return _lines(stdin_text)
    if len(args) == 1 and Path(args[0]).is_file():
        try:
            text = Path(args[0]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PositionError("no_file", f"cannot read {args[0]}: {exc}") from exc
        return _lines(text)
    line = " ".join(args)
    try:
        return [(None, parse_obf(line))]
    except PositionError as exc:
        if len(args) == 1 and exc.reason == "length" and not any(c.isspace() for c in line):
            raise PositionError("length", f"{exc} (and there is no file named {line!r})"
                                ) from exc
        raise


def _lines(text: str) -> list[tuple[int | None, ObfPosition]]:
    out: list[tuple[int | None, ObfPosition]] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped[0] in "#%":
            continue
        out.append((number, parse_obf(stripped, number)))
    if not out:
        raise PositionError("no_position", "no position in the input (every line was blank "
                            "or a comment)")
    return out


def solve_position(pos: ObfPosition, solver: Solver | None = None) -> JSONObject:
    """Solve one parsed position; the JSON object the command prints for it."""
    p, o = pos.mover
    result = (solver or Solver()).solve(p, o)
    expected = pos.expected
    return {
        "board": pos.board_text(),
        "to_move": SIDE_NAMES[pos.turn],
        "empties": pos.empties,
        "score": result.score,
        "best_move": "pass" if result.move < 0 else square_name(result.move),
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "wall_seconds": round(result.wall, 4),
        "nodes_per_second": round(result.nodes / result.seconds) if result.seconds > 0 else None,
        "expected": expected,
        "agrees": None if expected is None else expected == result.score,
    }


def solve(options: JSONObject, moves: list[str], as_json: bool) -> int:
    """``asobiba solve reversi [--json] (POSITION | FILE | -)``."""
    try:
        positions = read_positions(moves)
    except PositionError as exc:
        where = f" (line {exc.line})" if exc.line is not None else ""
        if as_json:
            print(json.dumps({"error": {"code": exc.code, "reason": exc.reason,
                                        "line": exc.line, "message": str(exc)}}))
        else:
            print(f"error: {exc.code} ({exc.reason}){where}: {exc}", file=sys.stderr)
        return 2
    disagree = 0
    for number, pos in positions:
        data = solve_position(pos)
        data["line"] = number
        if data["agrees"] is False:
            disagree += 1
        if as_json:
            print(json.dumps(data), flush=True)
        else:
            print(_human(data), flush=True)
    return 1 if disagree else 0


def _human(d: JSONObject) -> str:
    head = f"line {d['line']}: " if d["line"] is not None else ""
    score = int(str(d["score"]))
    check = ""
    if d["expected"] is not None:
        check = ("  [agrees with the annotation]" if d["agrees"] else
                 f"  [DISAGREES with the annotation {int(str(d['expected'])):+d}]")
    rate = f", {d['nodes_per_second']:,} nodes/s" if d["nodes_per_second"] else ""
    return (f"{head}{d['to_move']} to move, {d['empties']} empties: best move "
            f"{d['best_move']}, final disc difference {score:+d} for {d['to_move']} "
            f"(exact){check}\n    {d['nodes']:,} nodes, {d['seconds']} s CPU{rate}")
