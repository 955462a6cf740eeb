"""Puzzles mined from games and verified by each game's engine (docs/puzzles.md).

Game-independent: a game takes part through its ``GameProgression.puzzles`` hook (a
:class:`~asobiba.core.hooks.PuzzleJudge`), reached through the registry like every shared
layer. No web import: the CLI builds puzzle sets with the default install."""

from __future__ import annotations

from .mine import (
    KINDS,
    Puzzle,
    build,
    load_set,
    mine_record,
    mine_selfplay,
    player_seat,
    puzzle_id,
    shipped_path,
    solution_line,
    unique_best,
    verify,
)

__all__ = ["KINDS", "Puzzle", "build", "load_set", "mine_record", "mine_selfplay",
           "player_seat", "puzzle_id", "shipped_path", "solution_line", "unique_best",
           "verify"]
