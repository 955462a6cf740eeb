"""The opening explorer's costs (docs/explorer.md, docs/benchmarks.md): N random Reversi
games (random players, so nearly every game leaves the others' paths early: the worst case
for the table's size) stored on SQLite or PostgreSQL; per game the CPU the finishing hook adds
(index_game inside record_result), the rebuild of the whole index from the games table, and
one explorer query (replaying the line, the canonical key, the rows and the book).

Usage: python bench/explorer_index.py [N=500] [URL=sqlite:///<tmp>/bench.db]
CPU seconds (process_time: this process; the database server's own work on PostgreSQL is
not in it, so wall seconds are printed too) and the load average beside each figure.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time

from argon2 import PasswordHasher
from sqlalchemy import func, select

from asobiba.core import Outcome, Record
from asobiba.core.record import MoveEntry
from asobiba.explorer import index as ix
from asobiba.explorer.positions import explorers
from asobiba.progression import Progression, ratings
from asobiba.server.db import make_engine
from asobiba.server.explorer_routes import answer
from asobiba.server.schema import upgrade
from asobiba.tables import EXPLORER_MOVES


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def random_line(rng: random.Random) -> tuple[list[str], tuple[int, int]]:
    state = explorers()["reversi"].new_state()
    line = []
    while not state.is_over:
        move = rng.choice(state.legal_moves().texts())
        line.append(move)
        state = state.play(move)
    black, white = getattr(state, "counts")()  # noqa: B009
    return line, (black, white)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    url = sys.argv[2] if len(sys.argv) > 2 else \
        f"sqlite:///{tempfile.mkdtemp(prefix='asobiba-explorer-')}/bench.db"
    engine = make_engine(url)
    upgrade(engine)
    prog = Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    players = [prog.register(f"bench{i}", "a long password")[0]["id"] for i in range(20)]
    rng = random.Random(7)
    games = [random_line(rng) for _ in range(n)]
    hook_cpu = 0.0
    original = ix.index_game

    def timed(*a: object, **k: object) -> int:
        nonlocal hook_cpu
        c = time.process_time()
        out = original(*a, **k)  # type: ignore[arg-type]
        hook_cpu += time.process_time() - c
        return out
    ratings_hook = ix.index_game
    import asobiba.explorer.index as mod
    mod.index_game = timed  # type: ignore[assignment]
    cpu, wall = time.process_time(), time.perf_counter()
    for i, (line, scores) in enumerate(games):
        rec = Record(game="reversi", options={}, seed=0,
                     moves=tuple(MoveEntry(j % 2, m) for j, m in enumerate(line)))
        a, b = rng.sample(players, 2)
        with prog.session() as s:
            ratings.record_result(s, "reversi", [a, b], Outcome.from_scores(scores),
                                  record=rec.to_json(), rated=i % 2 == 0)
    store_cpu, store_wall = time.process_time() - cpu, time.perf_counter() - wall
    mod.index_game = ratings_hook  # type: ignore[assignment]
    with prog.session() as s:
        rows = s.execute(select(func.count()).select_from(EXPLORER_MOVES)).scalar_one()
    print(f"{engine.dialect.name}: {n} games stored in {store_cpu:.2f} s CPU "
          f"({store_wall:.2f} s wall); the explorer hook's share {hook_cpu:.2f} s CPU = "
          f"{1000 * hook_cpu / n:.2f} ms per game; {rows} rows; {load()}")
    cpu, wall = time.process_time(), time.perf_counter()
    with prog.session() as s:
        out = ix.rebuild(s)
    print(f"rebuild from the games table: {out['games']} games in "
          f"{time.process_time() - cpu:.2f} s CPU ({time.perf_counter() - wall:.2f} s wall); "
          f"{load()}")
    lines = [",".join(g[0][:k]) for g in games[:50] for k in (0, 2, 6, 12)]
    cpu, wall = time.process_time(), time.perf_counter()
    for line in lines:
        answer(engine, "reversi", line)
    per = (time.process_time() - cpu) / len(lines)
    print(f"query: {len(lines)} positions (0-12 plies deep), {1000 * per:.2f} ms CPU each "
          f"({1000 * (time.perf_counter() - wall) / len(lines):.2f} ms wall); {load()}")


if __name__ == "__main__":
    main()
