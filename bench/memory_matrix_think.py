"""Memory Matrix thinking time: the CPU seconds of each decision of one bot level.

Plays ``games`` games of the level against level 4 (4 players: three of them) or level 5
(2 players), the level in seat i mod players in game i, and times every ``choose`` of that
seat in CPU seconds of this process (``time.process_time``), so the figure does not depend
on how busy the machine is. 2-player games alternate the default rules and
``white_any_time=false``. Prints the count, mean, 90th percentile and maximum; the server
gives a bot move 10 s of wall time (``asobiba/server/bots.py``), so the maximum is what
matters there.

Run: ``nice -n 5 .venv/bin/python bench/memory_matrix_think.py LEVEL PLAYERS GAMES``
(``LEVEL`` may be a bench variant of ``bench/memory_matrix_arena.py``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from memory_matrix_arena import GAME, make_bot  # noqa: E402

from asobiba.core.bot import Bot  # noqa: E402
from asobiba.play.runner import play_game  # noqa: E402


class Timed(Bot):
    """A bot that records the CPU time of each of its inner bot's decisions."""

    def __init__(self, inner: Any, spent: list[float]) -> None:
        super().__init__(0)
        self.inner, self.spent = inner, spent

    def reset(self, seat: int, options: Any) -> None:
        super().reset(seat, options)
        self.inner.reset(seat, options)

    def observe(self, view: Any) -> None:
        self.inner.observe(view)

    def choose(self, view: Any) -> str:
        start = time.process_time()
        move: str = self.inner.choose(view)
        self.spent.append(time.process_time() - start)
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("level")
    parser.add_argument("players", type=int, choices=[2, 4])
    parser.add_argument("games", type=int)
    args = parser.parse_args()
    other = "5" if args.players == 2 else "4"
    spent: list[float] = []
    for i in range(args.games):
        options: dict[str, Any] = {"players": args.players}
        if args.players == 2 and i % 2:
            options["white_any_time"] = False
        seat = i % args.players
        bots = [make_bot(args.level if s == seat else other, 77 + i * 31 + s)
                for s in range(args.players)]
        bots[seat] = Timed(bots[seat], spent)
        play_game(GAME, bots, options, 3000 + i)
    spent.sort()
    print(f"level {args.level}, {args.players} players, {args.games} games against level "
          f"{other}: {len(spent)} decisions, CPU mean {sum(spent) / len(spent):.2f} s, "
          f"90th percentile {spent[int(0.9 * len(spent))]:.2f} s, max {spent[-1]:.2f} s; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
