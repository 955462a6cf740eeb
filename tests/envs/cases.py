"""Game/option cases every binding test runs over: every game, and the variants that change
the encoding's shape (board size, seat counts, jokers, pair play, several colours)."""

from __future__ import annotations

CASES: list[tuple[str, dict]] = [
    ("reversi", {}),
    ("flipflop", {}),
    ("flipflop", {"variant": "5x5"}),
    ("reverstargo", {}),
    ("memory_matrix", {}),
    ("memory_matrix", {"variant": "2p2c-adults", "memory_aid": True}),
    ("memory_matrix", {"players": 3, "shape": "cross"}),
    ("algo", {}),
    ("algo", {"jokers": True, "chips": True}),
    ("algo", {"variant": "pair"}),
    ("algo", {"players": 3, "colours": 3}),
    ("patapata", {}),
    ("patapata", {"players": 3, "course": "2", "scores": "steep"}),
]


def case_id(case: tuple[str, dict]) -> str:
    game, opts = case
    return game + ("-" + "-".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
