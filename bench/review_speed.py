"""How long the review page waits: ``POST /api/review`` for a 60-move Reversi game (the
issue's target: an answer within 5 s), beside ``POST /api/replay`` of the same record as the
peer (the cheapest request that reads a whole record), and a review of a random game of every
game. Prints wall time, this process's CPU time (the server runs in-process, so its worker
threads count) and the load average.

    python bench/review_speed.py [repeats]
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time

from starlette.testclient import TestClient

from asobiba.core import MoveEntry, Record
from asobiba.games import available, get
from asobiba.server import create_app
from asobiba.server.limits import Limits


def random_record(game_id: str, seed: int, plies: int) -> Record:
    game = get(game_id)
    state = game.new_game(game.validate_options({}), seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_over and len(moves) < plies:
        seat = state.acting_seats[0]
        legal = state.legal_moves(seat).texts()
        text = legal[rng.randrange(len(legal))]
        moves.append(MoveEntry(seat, text))
        state = state.play(text, seat)
    return Record(game=game_id, options=dict(state.options), seed=seed, moves=tuple(moves))


def timed(client: TestClient, path: str, body: str) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    res = client.post(path, content=body, headers={"content-type": "application/json"})
    return time.perf_counter() - wall, time.process_time() - cpu, res.status_code


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(f"load average before: {os.getloadavg()}")
    with TestClient(create_app(tempfile.mkdtemp(), bot_processes=0, limits=Limits(scale=1000),
                               allowed_hosts=["testserver"])) as client:
        for seed in range(repeats):
            rec = random_record("reversi", seed, 60)
            body = rec.dumps()
            rw, rc, rs = timed(client, "/api/review", body)
            pw, pc, ps = timed(client, "/api/replay", body)
            print(f"reversi seed {seed}: {len(rec.moves)} moves  review {rw:.2f} s wall "
                  f"{rc:.2f} s CPU ({rs})  replay {pw:.2f} s wall {pc:.2f} s CPU ({ps})  "
                  f"review/replay {rw / max(pw, 1e-9):.1f}x wall  load {os.getloadavg()[0]:.2f}")
        for game_id in sorted(available()):
            rec = random_record(game_id, 7, 3 if game_id == "patapata" else 40)
            rw, rc, rs = timed(client, "/api/review", rec.dumps())
            print(f"{game_id}: {len(rec.moves)} moves  review {rw:.2f} s wall {rc:.2f} s CPU "
                  f"({rs})  load {os.getloadavg()[0]:.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
