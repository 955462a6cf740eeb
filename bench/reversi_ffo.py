"""Reversi endgame solver on the FFO endgame test suite (positions #1-#19 by default).

Each position is solved from scratch (a fresh transposition table) by the pure-Python solver
of ``asobiba/games/reversi/endgame.py`` and checked against the file's published exact score
(tests/reversi/ffo/fforum-1-19.obf, from edax's problem files); the script exits 1 on any
disagreement. Per position: empties, score (standard scoring: empties to the winner), best
move, nodes, nodes per CPU second, CPU time, wall time, and the 1-minute load average when
it finished (the machine is shared: CPU time is the figure to compare).

    .venv/bin/python bench/reversi_ffo.py                  # #1-#19 (~20 s CPU)
    nice -n 5 .venv/bin/python bench/reversi_ffo.py --markdown
    .venv/bin/python bench/reversi_ffo.py --positions 5 7 17
    .venv/bin/python bench/reversi_ffo.py --file other.obf  # any .obf file, numbered from 1
    nice -n 5 .venv/bin/python bench/reversi_ffo.py --peer --positions 1 2 3 4 5 6 7

``--peer`` also runs, on each position, the exact endgame the Reversi bots use (the generic
``asobiba.search.alphabeta.AlphaBeta`` with ``bots.ReversiAdapter`` to depth empties + 4, as
``AlphaBetaBot`` does within 2N empties), capped at ``--peer-limit`` seconds (wall: the search's own time limit): its CPU
time, the ratio to the solver's, and its value, which is the game's own scoring (raw disc
difference, no empties to the winner) offset by ``bots.WIN``: the sign must agree.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asobiba.games.reversi.endgame import Solver  # noqa: E402
from asobiba.games.reversi.game import square_name  # noqa: E402
from asobiba.games.reversi.obf import SIDE_NAMES, ObfPosition, parse_obf  # noqa: E402

FFO = ROOT / "tests" / "reversi" / "ffo" / "fforum-1-19.obf"


def run_peer(pos: ObfPosition, limit: float) -> tuple[int, int, float, bool]:
    """The bots' exact endgame on ``pos``: (raw disc difference, nodes, CPU s, finished)."""
    from asobiba.games.reversi.bots import WIN, ReversiAdapter
    from asobiba.search.alphabeta import AlphaBeta

    p, o = pos.mover
    cpu0 = time.process_time()
    result = AlphaBeta(ReversiAdapter()).search((p, o, pos.turn), pos.empties + 4, limit)
    cpu = time.process_time() - cpu0
    value = int(result.value)
    raw = value - WIN if value > WIN // 2 else value + WIN if value < -WIN // 2 else value
    return raw, result.nodes, cpu, result.complete


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, default=FFO)
    ap.add_argument("--positions", type=int, nargs="*", help="line numbers (default: all)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--peer", action="store_true", help="also the bots' generic alpha-beta")
    ap.add_argument("--peer-limit", type=float, default=120.0, help="seconds per position")
    args = ap.parse_args()
    lines = [x for x in args.file.read_text(encoding="utf-8").splitlines() if x.strip()]
    wanted = args.positions or list(range(1, len(lines) + 1))
    print(f"# {platform.python_implementation()} {platform.python_version()}, "
          f"{args.file.name}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load at start {os.getloadavg()[0]:.2f}")
    head: tuple[str, ...] = ("#", "empties", "to move", "score", "expected", "best move",
                             "nodes", "nodes/s", "CPU s", "wall s", "load")
    if args.peer:
        head += ("bots' alpha-beta: raw diff", "its nodes", "its CPU s", "ratio")
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---:|" * len(head))
    else:
        print(f"{'#':>3} {'emp':>3} {'side':>4} {'score':>5} {'exp':>4} {'move':>4} "
              f"{'nodes':>10} {'nodes/s':>9} {'CPU s':>7} {'wall s':>7} {'load':>5}")
    bad = 0
    nodes_total = 0
    cpu_total = wall_total = 0.0
    for number in wanted:
        pos = parse_obf(lines[number - 1], number)
        sol = Solver().solve(*pos.mover)
        load = os.getloadavg()[0]
        move = "pass" if sol.move < 0 else square_name(sol.move)
        ok = sol.score == pos.expected
        bad += not ok
        nodes_total += sol.nodes
        cpu_total += sol.seconds
        wall_total += sol.wall
        rate = sol.nodes / sol.seconds if sol.seconds > 0 else 0.0
        exp = "?" if pos.expected is None else f"{pos.expected:+d}"
        mark = "" if ok else " MISMATCH"
        peer = []
        if args.peer:
            value, pnodes, pcpu, done = run_peer(pos, args.peer_limit)
            if done and ((value > 0) != (sol.score > 0) or (value == 0) != (sol.score == 0)):
                bad += 1
                mark += " PEER-SIGN-MISMATCH"
            peer = [f"{value:+d}" if done else "unfinished", f"{pnodes:,}",
                    f"{pcpu:.2f}" if done else f"> {pcpu:.0f}", f"{pcpu / sol.seconds:.1f}×"]
        if args.markdown:
            print(f"| {number} | {pos.empties} | {SIDE_NAMES[pos.turn]} | {sol.score:+d}{mark} | "
                  f"{exp} | {move} | {sol.nodes:,} | {rate:,.0f} | {sol.seconds:.2f} | "
                  f"{sol.wall:.2f} | {load:.2f} |" + "".join(f" {x} |" for x in peer),
                  flush=True)
        else:
            print(f"{number:>3} {pos.empties:>3} {SIDE_NAMES[pos.turn]:>4} {sol.score:>+5d} "
                  f"{exp:>4} {move:>4} {sol.nodes:>10,} {rate:>9,.0f} {sol.seconds:>7.2f} "
                  f"{sol.wall:>7.2f} {load:>5.2f}" + "".join(f" {x:>10}" for x in peer) + mark,
                  flush=True)
    rate = nodes_total / cpu_total if cpu_total > 0 else 0.0
    print(f"# {len(wanted) - bad}/{len(wanted)} exact; {nodes_total:,} nodes, "
          f"{cpu_total:.2f} s CPU, {wall_total:.2f} s wall, {rate:,.0f} nodes/CPU s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
