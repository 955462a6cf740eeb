"""Game/option cases every binding test runs over: every game, and the variants that change
the encoding's shape (board size, seat counts, jokers, pair play, several colours)."""

from __future__ import annotations

from asobiba.envs import encoded_games

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
# every other registered game with an encoding (a plug-in): its default options
CASES += [(gid, {}) for gid in encoded_games() if gid not in {g for g, _ in CASES}]


def case_id(case: tuple[str, dict]) -> str:
    game, opts = case
    return game + ("-" + "-".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
