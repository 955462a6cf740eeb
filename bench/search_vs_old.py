"""Per-node search speed of FlipFlop and Memory Matrix on the project's one alpha-beta
(``asobiba.search.alphabeta``) against their old engines, in the same run (issue 17 item 2).

The peers are the games' own searches as they were at commit b10213c, before the move onto
the library, kept verbatim in ``bench/peers/`` and run on today's rules and evaluation, so
the comparison isolates the search engines. Positions are the golden set's
(``bench/search_golden.py``: seeded random plies, fixed depth, no clock) plus more seeds;
old and new alternate position by position, in alternating order, ``--passes`` times.
Every answer (move and value; FlipFlop also the node count) must be the same, or the
script says so and exits 1. Prints CPU seconds (wall beside), nodes/s and new/old.

    .venv/bin/python bench/search_vs_old.py [--passes 3] [--seeds 6] [--only flipflop]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peers import flipflop_search_b10213c as old_ff  # noqa: E402
from peers import memory_matrix_search_b10213c as old_mm  # noqa: E402
from search_golden import positions  # noqa: E402

from asobiba.core import Rng  # noqa: E402
from asobiba.games.flipflop import search as new_ff  # noqa: E402
from asobiba.games.memory_matrix import bots as new_mm  # noqa: E402

Run = Callable[[], tuple[Any, Any, int]]
Pair = tuple[str, Run, Run]


def flipflop_pairs(seeds: int) -> list[Pair]:
    out = []
    for n, depth in ((3, 4), (5, 5)):
        opts = {"board": f"{n}x{n}"}
        for i, s in enumerate(positions("flipflop", opts, range(seeds), (2, 8, 16))):
            counts = Counter(s.history)
            counts[s.key] += 1
            for wname in ("default", "material"):
                def old(s: Any = s, counts: Any = counts, wname: str = wname, d: int = depth,
                        n: int = n) -> tuple[Any, Any, int]:
                    w = old_ff.Weights() if wname == "default" else old_ff.MATERIAL_ONLY
                    r = old_ff.Searcher(n, w).search(s.tuple4(), d, None, counts, None)
                    return r.move, r.value, r.nodes

                def new(s: Any = s, counts: Any = counts, wname: str = wname, d: int = depth,
                        n: int = n) -> tuple[Any, Any, int]:
                    w = new_ff.Weights() if wname == "default" else new_ff.MATERIAL_ONLY
                    r = new_ff.Searcher(n, w).search(s.tuple4(), d, None, counts, None)
                    return r.move, r.value, r.nodes

                out.append((f"flipflop{n}/{i}/{wname}/d{depth}", old, new))
    return out


def memory_matrix_pairs(seeds: int) -> list[Pair]:
    out = []
    for i, s in enumerate(positions("memory_matrix", {"players": 2, "start_pieces": 1},
                                    range(seeds), (2, 12, 20, 26))):
        cfg, pos = s.cfg, s.pos
        seat = cfg.seat_of(pos.turn)
        for level in ("3", "4"):
            spec = new_mm.LEVELS[level]

            def old(cfg: Any = cfg, pos: Any = pos, seat: int = seat, spec: Any = spec
                    ) -> tuple[Any, Any, int]:
                values = old_mm.move_values_2p(cfg, pos, seat, spec)
                return sorted(values.items()), None, 0

            def new(cfg: Any = cfg, pos: Any = pos, seat: int = seat, spec: Any = spec
                    ) -> tuple[Any, Any, int]:
                values = new_mm.move_values(cfg, pos, seat, spec, Rng(0))
                return sorted(values.items()), None, 0

            out.append((f"memory_matrix/{i}/level{level}", old, new))
    return out


GAMES = {"flipflop": flipflop_pairs, "memory_matrix": memory_matrix_pairs}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--only", default=",".join(GAMES))
    args = ap.parse_args()
    print(f"# search vs the old engines (b10213c) — load average at start {os.getloadavg()}")
    print(f"{'game':14} {'positions':>9} {'old CPU (wall)':>18} {'new CPU (wall)':>18} "
          f"{'new/old CPU':>11} {'old nodes/s':>12} {'new nodes/s':>12}")
    bad = 0
    for name in args.only.split(","):
        pairs = GAMES[name](args.seeds)
        cpu = {"old": 0.0, "new": 0.0}
        wall = {"old": 0.0, "new": 0.0}
        nodes = {"old": 0, "new": 0}
        for p in range(args.passes):
            for k, (label, old, new) in enumerate(pairs):
                order = [("old", old), ("new", new)]
                if (p + k) % 2:
                    order.reverse()
                got = {}
                for which, fn in order:
                    w0, c0 = time.perf_counter(), time.process_time()
                    got[which] = fn()
                    cpu[which] += time.process_time() - c0
                    wall[which] += time.perf_counter() - w0
                    nodes[which] += got[which][2]
                if got["old"] != got["new"]:
                    bad += 1
                    print(f"  DIFFERENT {label}: old {got['old']} new {got['new']}")
        rates = ""
        if nodes["old"]:
            rates = f"{nodes['old'] / cpu['old']:12,.0f} {nodes['new'] / cpu['new']:12,.0f}"
        print(f"{name:14} {len(pairs):9d} {cpu['old']:8.2f} s ({wall['old']:5.1f}) "
              f"{cpu['new']:8.2f} s ({wall['new']:5.1f}) {cpu['new'] / cpu['old']:11.3f} {rates}")
    print(f"load average at end {os.getloadavg()}; {bad} answers differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
