"""CPU per move of Algo's level 8 ("Seer", ``games/algo/rollout.py``) without its clock:
how often the shipped level's 5 s clock would cut its deals short. One level-8 seat (seat
``g % seats`` in game ``g``, game seeds 1000, 1001, …) among level-4 bots; every move of the
level-8 seat is timed (CPU) until ``moves`` are in. Prints the count, the percentiles, how
many moves need more than the shipped clock's search budget on a quiet machine (the limit
less :class:`~asobiba.search.budget.MoveClock`'s first reserve) and more than the server's
10 s, with CPU beside wall and the load average.

    nice -n 5 .venv/bin/python bench/algo_seer_think.py [pair|four|two] [moves=60]
"""

from __future__ import annotations

import inspect
import os
import sys
import time

from asobiba.core.jsontypes import JSONMapping
from asobiba.games import get
from asobiba.games.algo.rollout import TIME_LIMIT, AlgoRolloutBot
from asobiba.play.runner import play_game
from asobiba.search.budget import BASE_RESERVE
from asobiba.server.bots import BotPool

GAME = get("algo")
OPTIONS = {"pair": {"variant": "pair"}, "four": {"players": 4}, "two": {}}
SERVER_LIMIT: float = inspect.signature(BotPool).parameters["time_limit"].default
"""Seconds after which the server's bot pool replaces a bot that has not answered."""


class TimedSeer(AlgoRolloutBot):
    """Level 8 without a clock, recording the CPU seconds of each move."""

    def __init__(self, seed: int, spent: list[float]) -> None:
        super().__init__(seed)
        self.spent = spent

    def choose(self, view: JSONMapping) -> str:
        started = time.process_time()
        move = super().choose(view)
        self.spent.append(time.process_time() - started)
        return move


def main(mode: str = "pair", wanted: int = 60) -> None:
    options = OPTIONS[mode]
    seats = GAME.new_game(options, 0).num_seats
    spent: list[float] = []
    cpu, wall, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
    g = 0
    while len(spent) < wanted:
        me = g % seats
        bots = [TimedSeer(g * 10 + s, spent) if s == me else GAME.make_bot("4", g * 10 + s)
                for s in range(seats)]
        play_game(GAME, bots, options, seed=1000 + g)
        g += 1
    ordered = sorted(spent)
    budget = TIME_LIMIT * (1 - BASE_RESERVE)

    def pct(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    print(f"{mode}: {len(spent)} moves of level 8 (no clock) in {g} games against level 4")
    print(f"  CPU a move: mean {sum(spent) / len(spent):.2f} s, median {pct(0.5):.2f} s, "
          f"90th pct {pct(0.9):.2f} s, max {ordered[-1]:.2f} s")
    print(f"  over the shipped clock's quiet-machine budget ({budget:.1f} s of {TIME_LIMIT:.0f} s): "
          f"{sum(t > budget for t in spent)}; over the server's {SERVER_LIMIT:.0f} s: "
          f"{sum(t > SERVER_LIMIT for t in spent)}")
    print(f"  cpu {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load average {load0:.1f} → {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "pair", int(args[1]) if len(args) > 1 else 60)
