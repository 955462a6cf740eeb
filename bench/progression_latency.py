"""What the progression layer costs per request, on SQLite in a temporary file:

* argon2id with argon2-cffi's default parameters (one login) next to the cheap test hasher;
* recording a rated game (Glicko-2 update + rows) and a 4-player openskill game;
* a leaderboard query over a pool of 1,000 rated players; player pages;
* Reversi move feedback (per move) and a whole-game review.

    nice -n 10 .venv/bin/python bench/progression_latency.py
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from asobiba.core import Outcome
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import accounts, feedback, ratings
from asobiba.progression.models import PlayerRow, create_all


def timed(label: str, n: int, fn: Callable[[int], object]) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        fn(i)
    per = (time.perf_counter() - t0) / n
    print(f"{label:<46} {per * 1000:9.2f} ms  (n={n})")
    return per


def main() -> None:
    strong, cheap = PasswordHasher(), PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    h = strong.hash("a long password")
    a = timed("argon2id hash, default parameters", 5, lambda i: strong.hash("a long password"))
    timed("argon2id verify, default parameters", 5, lambda i: strong.verify(h, "a long password"))
    b = timed("argon2id hash, test parameters", 20, lambda i: cheap.hash("a long password"))
    print(f"{'default / test parameters':<46} {a / b:9.1f} ×")
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_engine(f"sqlite:///{Path(tmp) / 'bench.db'}")
        create_all(engine)
        with Session(engine) as s:
            ids = []
            for i in range(1000):
                row = PlayerRow(name=f"p{i}", kind="human")
                s.add(row)
                s.flush()
                ids.append(row.id)
            s.commit()

            def rated(i: int) -> None:
                x, y = ids[i % 1000], ids[(i * 7 + 1) % 1000]
                ratings.record_result(s, "reversi", [x, y], Outcome.from_scores((40, 24)))
                s.commit()

            timed("record a rated 1-on-1 game (commit each)", 2000, rated)

            def multi(i: int) -> None:
                ps = [ids[(i * 4 + k) % 1000] for k in range(4)]
                ratings.record_result(s, "memory_matrix", ps, Outcome.from_scores((9, 7, 7, 3)))
                s.commit()

            timed("record a rated 4-player game (openskill)", 300, multi)
            timed("leaderboard top 50 of 1,000", 50,
                  lambda i: ratings.leaderboard(s, "reversi", 50, include_provisional=True))
            timed("player page (history 20)", 50, lambda i: ratings.player_page(s, ids[i]))
            for i in range(1000):
                ratings.record_result(s, "reversi", [ids[0], ids[1 + i % 999]],
                                      Outcome.from_scores((40, 24)))
            s.commit()
            timed("player page of a player with 1,000+ games", 10,
                  lambda i: ratings.player_page(s, ids[0]))
            accounts.register(s, "someone", "a long password", cheap)
    game = get("reversi")
    res = play_game(game, [game.make_bot("2", 1), game.make_bot("3", 2)], {}, 0)
    ev = feedback.evaluator_for("reversi")
    states = res.states[:-1]
    timed("Reversi move feedback (depth 3), per move", len(states),
          lambda i: feedback.move_feedback(states[i], res.moves[i].move, i + 1, ev))
    timed("Reversi post-game review, per game", 1,
          lambda i: feedback.review("reversi", [(m.seat, m.move) for m in res.moves]))


if __name__ == "__main__":
    main()
