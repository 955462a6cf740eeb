"""Fixed-depth answers and speed of every game's alpha-beta, on the same seeded positions.

Each engine searches positions reached by seeded random play, at a fixed depth (no clock, so
the answer cannot depend on the machine): the move, the value and the nodes are recorded,
and nodes per second (wall and CPU) are printed per engine. Run once before a change to the
search code with ``--write golden.json`` and once after with ``--check golden.json``: the
check fails (exit 1) on any position whose move or value changed, so a refactor that claims
"same strength" is held to the same answers, and the speed lines give the before/after
ratio on the same positions.

    .venv/bin/python bench/search_golden.py [--write F | --check F] [--only reversi,...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from asobiba.core import Rng
from asobiba.games import get

Case = tuple[str, Callable[[], tuple[Any, Any, int]]]


def positions(game_id: str, options: dict[str, Any], seeds: range, plies: tuple[int, ...]
              ) -> Iterator[Any]:
    """States after ``k`` random plies of seeded games (games that end early are skipped)."""
    game = get(game_id)
    for seed in seeds:
        for k in plies:
            state = game.new_game(options, seed)
            rng = Rng(seed, "golden", k)
            for _ in range(k):
                if state.is_over:
                    break
                moves = state.legal_moves()
                state = state.child(moves[rng.below(len(moves))])
            if not state.is_over:
                yield state


def reversi_cases() -> Iterator[Case]:
    from asobiba.games.reversi.bots import ReversiAdapter
    from asobiba.search.alphabeta import AlphaBeta

    for i, s in enumerate(positions("reversi", {}, range(6), (10, 24, 40, 50))):
        mine, theirs = (s.black, s.white) if s.turn == 0 else (s.white, s.black)
        empties = 64 - (mine | theirs).bit_count()
        depth = empties + 4 if empties <= 10 else 5

        def run(pos: Any = (mine, theirs, s.turn), d: int = depth) -> tuple[Any, Any, int]:
            r = AlphaBeta(ReversiAdapter()).search(pos, d)
            return r.move, r.value, r.nodes

        yield f"reversi/{i}/d{depth}", run


def flipflop_cases() -> Iterator[Case]:
    from asobiba.games.flipflop.search import MATERIAL_ONLY, Searcher, Weights

    for n, depth in ((3, 4), (5, 5)):
        opts = {"board": f"{n}x{n}"}
        for i, s in enumerate(positions("flipflop", opts, range(6), (2, 8, 16))):
            counts = Counter(s.history)
            counts[s.key] += 1
            for wname, w in (("default", Weights()), ("material", MATERIAL_ONLY)):
                def run(s: Any = s, counts: Any = counts, w: Any = w, d: int = depth,
                        n: int = n) -> tuple[Any, Any, int]:
                    r = Searcher(n, w).search(s.tuple4(), d, None, counts, None)
                    return list(r.move) if r.move else None, r.value, r.nodes

                yield f"flipflop{n}/{i}/{wname}/d{depth}", run


def reverstargo_cases() -> Iterator[Case]:
    from asobiba.games.reverstargo.board import STONE_CELLS
    from asobiba.games.reverstargo.bots import root_children
    from asobiba.games.reverstargo.search import AlphaBeta, app_evaluation, our_evaluation

    for i, s in enumerate(positions("reverstargo", {}, range(5), (4, 20, 36, 44))):
        empties = (STONE_CELLS & ~(s.black | s.white)).bit_count()
        for kind in ("ours", "app"):
            if kind == "ours":
                engine = AlphaBeta(our_evaluation, endgame_empties=8)
                depth = 5
            else:
                engine = AlphaBeta(lambda n: app_evaluation(n, n[4]), auto_only=True,
                                   terminal=lambda n: app_evaluation(n, n[4]))
                depth = 4
            kids = root_children(s, auto_only=kind == "app")
            if len(kids) < 2:
                continue

            def run(engine: Any = engine, kids: Any = kids, e: int = empties,
                    d: int = depth) -> tuple[Any, Any, int]:
                r = engine.search(kids, e, d)
                return list(r.move) if r.move else None, r.value, r.nodes

            yield f"reverstargo/{i}/{kind}/e{empties}", run


def memory_matrix_cases() -> Iterator[Case]:
    from asobiba.games.memory_matrix.bots import LEVELS, move_values

    # start_pieces=1: the two-player start these answers were recorded on (rules version 1),
    # played out past a dead board as version 1 did (version 3 ends the game there, and one
    # position, 0 at level 3, then values its move 500 instead of 0: a terminal in reach)
    for i, s in enumerate(positions("memory_matrix", {"players": 2, "start_pieces": 1,
                                                      "end_at_dead_board": False},
                                    range(5), (2, 12, 20))):
        cfg, pos = s.cfg, s.pos
        seat = cfg.seat_of(pos.turn)
        for level in ("3", "4"):
            def run(cfg: Any = cfg, pos: Any = pos, seat: int = seat,
                    level: str = level) -> tuple[Any, Any, int]:
                values = move_values(cfg, pos, seat, LEVELS[level], Rng(0))
                best = max(values.values())
                moves = sorted(m for m, v in values.items() if v >= best - 1e-9)
                return moves, round(best, 6), 0

            yield f"memory_matrix/{i}/level{level}", run


ENGINES = {"reversi": reversi_cases, "flipflop": flipflop_cases,
           "reverstargo": reverstargo_cases, "memory_matrix": memory_matrix_cases}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", help="record the answers in this JSON file")
    ap.add_argument("--check", help="compare the answers with this JSON file")
    ap.add_argument("--only", default=",".join(ENGINES))
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    answers: dict[str, Any] = {}
    for name in args.only.split(","):
        wall = cpu = 0.0
        nodes = count = 0
        for label, run in ENGINES[name]():
            w0, c0 = time.perf_counter(), time.process_time()
            move, value, n = run()
            wall += time.perf_counter() - w0
            cpu += time.process_time() - c0
            nodes += n
            count += 1
            answers[label] = {"move": move, "value": value, "nodes": n}
        rate = f", {nodes / cpu:,.0f} nodes per CPU second" if nodes else ""
        print(f"{name:14} {count:3} positions: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
              f"{nodes:,} nodes{rate}")
    print(f"load average at end: {os.getloadavg()}")
    if args.write:
        with open(args.write, "w") as f:
            json.dump(answers, f, indent=0, sort_keys=True)
    if args.check:
        with open(args.check) as f:
            want = json.load(f)
        bad = 0
        for label, got in answers.items():
            ref = want.get(label)
            if ref is None:
                print(f"  {label}: not in {args.check}")
                continue
            if ref["move"] != got["move"] or ref["value"] != got["value"]:
                bad += 1
                print(f"  CHANGED {label}: {ref['move']} {ref['value']} -> "
                      f"{got['move']} {got['value']}")
            elif ref["nodes"] != got["nodes"]:
                print(f"  {label}: same answer, nodes {ref['nodes']} -> {got['nodes']}")
        print(f"{bad} of {len(answers)} answers changed")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
