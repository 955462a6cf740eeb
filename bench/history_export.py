"""A player with thousands of games (issue 27 item 8): what the history page and the export
cost, beside the old player page that read every one of the player's games per request.

    PYTHONPATH=. python bench/history_export.py [games]

Stores ``games`` (default 3,000) Reversi games of one player against five others on SQLite
(each with its record: random bots, ~60 moves), then times, in this thread:

* the old way: ``ratings.player_page`` (every seat of the player, every opponent row);
* one page of 20 of the new history (``history.page``), unfiltered and filtered (an
  opponent, a result: the EXISTS filters);
* one export (``history_routes.build_export``: 500 games at most, each replayed for its
  text notation, within EXPORT_CPU).

Prints wall and CPU time (``time.thread_time``), the ratios, the export's size, and the
load average: a loaded machine stretches wall time, not CPU time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from sqlalchemy import create_engine

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import Progression, ratings
from asobiba.progression import history as hist
from asobiba.server import history_routes as hr


def timed(fn: Callable[[], object], repeat: int = 3) -> tuple[float, float, object]:
    best_wall, best_cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.thread_time()
        out = fn()
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.thread_time() - c)
    return best_wall, best_cpu, out


def main(n: int) -> None:
    d = Path(tempfile.mkdtemp())
    prog = Progression(create_engine(f"sqlite:///{d / 'bench.db'}"))
    me = prog.register("bench_me", "a long password")[0]["id"]
    rivals = [prog.register(f"bench_rival{i}", "a long password")[0]["id"] for i in range(5)]
    game = get("reversi")
    records = [play_game(game, [game.make_bot("random", s), game.make_bot("random", s + 1)],
                         {}, s).record for s in range(20)]
    t0 = time.perf_counter()
    for i in range(n):
        prog.record_game([me, rivals[i % 5]] if i % 2 else [rivals[i % 5], me],
                         records[i % 20], rated=False, context="casual")
    print(f"stored {n} games in {time.perf_counter() - t0:.1f} s")
    with prog.session() as s:
        old = timed(lambda: ratings.player_page(s, me))
        new = timed(lambda: hist.page(s, me))
        filt = timed(lambda: hist.page(s, me, hist.Filters(opponent="BENCH_RIVAL3",
                                                            result="loss")))
        exp = timed(lambda: hr.build_export(hist.records(s, me), {"id": me}, hist.Filters(),
                                            date.today()), repeat=1)
    data = exp[2]
    assert isinstance(data, bytes)
    print(f"old player page (all {n} games read): wall {old[0] * 1000:.1f} ms, "
          f"cpu {old[1] * 1000:.1f} ms")
    print(f"history page of 20:                  wall {new[0] * 1000:.1f} ms, "
          f"cpu {new[1] * 1000:.1f} ms  (old/new cpu {old[1] / max(new[1], 1e-9):.1f}x)")
    print(f"filtered page (opponent + result):   wall {filt[0] * 1000:.1f} ms, "
          f"cpu {filt[1] * 1000:.1f} ms")
    print(f"export (cap {hr.EXPORT_MAX_GAMES} games, {hr.EXPORT_CPU:g} s cpu): "
          f"wall {exp[0]:.2f} s, cpu {exp[1]:.2f} s, {len(data) / 1e6:.2f} MB zip")
    import io
    import json
    import zipfile

    index = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("index.json"))
    print(f"export holds {len(index['games'])} games, truncated={index['truncated']}, "
          f"next={index['next']}")
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
