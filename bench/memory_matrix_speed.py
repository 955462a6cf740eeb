"""Memory Matrix speed: random games per second on the bitboard rules (what search uses)
against the same games through the protocol (text moves, checks, new State objects), and
the mean time each bot level takes per decision.

Run: ``nice -n 10 .venv/bin/python bench/memory_matrix_speed.py [games]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import Any

from asobiba.core import Bot, Rng
from asobiba.games import get
from asobiba.games.memory_matrix import rules
from asobiba.play.runner import play_game

GAME = get("memory_matrix")


def engine_games(options: dict, games: int) -> tuple[float, int]:
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.new_game(options, seed)
        cfg, pos, rng = state.cfg, state.pos, Rng(seed, "bench")
        while pos.turn >= 0:
            moves = rules.legal_moves(cfg, pos)
            pos = rules.apply(cfg, pos, moves[rng.below(len(moves))])[0]
            plies += 1
    return time.perf_counter() - start, plies


def protocol_games(options: dict, games: int) -> tuple[float, int]:
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.new_game(options, seed)
        rng = Rng(seed, "bench")
        while not state.is_over:
            texts = state.legal_moves().texts()
            state = state.play(texts[rng.below(len(texts))])
            plies += 1
    return time.perf_counter() - start, plies


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print("| options | engine games/s | protocol games/s | ratio | engine µs/ply |")
    print("|---|---|---|---|---|")
    for label, options in (("4p 8x8", {}), ("2p 8x8", {"players": 2}),
                           ("6p 10x10 2 colours", {"players": 6, "colours": 2,
                                                    "shape": "10x10"})):
        e_sec, e_plies = engine_games(options, games)
        p_sec, _ = protocol_games(options, games)
        print(f"| {label} | {games / e_sec:.0f} | {games / p_sec:.0f} | "
              f"{p_sec / e_sec:.1f}× | {1e6 * e_sec / e_plies:.0f} |", flush=True)
    print("\n| level | 4p s/decision (mean, max) | 2p s/decision (mean, max) |")
    print("|---|---|---|")
    for level in GAME.level_names():
        cells = []
        for players in (4, 2):
            tally = [0.0, 0.0, 0.0]
            bots = [Timed(GAME.make_bot(level, seed=s), tally) for s in range(players)]
            for seed in range(3):
                play_game(GAME, bots, {"players": players}, seed)
            cells.append(f"{tally[0] / tally[1]:.3f}, {tally[2]:.3f}")
        print(f"| {level} | {cells[0]} | {cells[1]} |", flush=True)


class Timed(Bot):
    """Wraps a bot and adds its thinking time to ``tally`` = [seconds, decisions, longest]."""

    def __init__(self, inner: Bot, tally: list[float]) -> None:
        super().__init__(inner.seed)
        self.inner, self.tally = inner, tally

    def reset(self, seat: int, options: Mapping[str, Any]) -> None:
        self.inner.reset(seat, options)

    def observe(self, view: Mapping[str, Any]) -> None:
        self.inner.observe(view)

    def choose(self, view: Mapping[str, Any]) -> str:
        start = time.perf_counter()
        move = self.inner.choose(view)
        took = time.perf_counter() - start
        self.tally[0] += took
        self.tally[1] += 1
        self.tally[2] = max(self.tally[2], took)
        return move


if __name__ == "__main__":
    main()
