"""Swiss pairing of 200 players (issue 28 item 6: ≤ 1 s CPU a round), round by round.

    PYTHONPATH=. python bench/tournament_pairing.py [--players 200] [--rounds 9] [--seed 1]

Random ratings (normal, 1500 ± 200) and results drawn from the Elo expectation (a draw
one game in five); each round's pairing is timed in CPU seconds (``time.process_time``),
printed with the load average beside it. Also an Arena wave of all the players free at once.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from asobiba.tournaments import arena, swiss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    players = [(i, rng.gauss(1500, 200)) for i in range(a.players)]
    rating = dict(players)
    games: list[swiss.Game] = []
    byes: list[int] = []
    worst = 0.0
    print(f"Swiss, {a.players} players, {a.rounds} rounds (seed {a.seed})")
    for r in range(1, a.rounds + 1):
        recs = swiss.records(players, games, byes)
        t0 = time.process_time()
        pairing = swiss.pair_round(recs)
        cpu = time.process_time() - t0
        worst = max(worst, cpu)
        repeats = sum(1 for w, b in pairing.games if b in recs[w].opponents)
        print(f"round {r}: {len(pairing.games)} games, bye {pairing.bye}, repeats {repeats}, "
              f"CPU {cpu:.3f} s, load {os.getloadavg()[0]:.1f}")
        for w, b in pairing.games:
            e = 1 / (1 + 10 ** ((rating[b] - rating[w]) / 400))
            x = rng.random()
            games.append(swiss.Game(w, b, 0.5 if x < 0.2 else 1.0 if x < 0.2 + 0.8 * e else 0.0))
        if pairing.bye is not None:
            byes.append(pairing.bye)
    print(f"worst round: CPU {worst:.3f} s (target 1 s)")
    free = [arena.Free(p, rng.randint(0, 30), r) for p, r in players]
    t0 = time.process_time()
    pairs = arena.pair_free(free, {})
    print(f"Arena wave, {a.players} free at once: {len(pairs)} games, CPU "
          f"{time.process_time() - t0:.3f} s, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
