"""Protocol properties (tests/conformance.py) over every variant family: players 2-6,
colours 1-2, every named shape, a custom mask, the layouts and both lost-colour rules."""

from __future__ import annotations

import pytest

from asobiba.games import get
from tests.conformance import check_one_game, check_random_games

VARIANTS = [
    {},
    {"players": 2},
    {"players": 3},
    {"players": 5},
    {"players": 6},
    {"players": 2, "colours": 2},
    {"players": 2, "colours": 2, "lost_colour": "pass"},
    {"players": 3, "colours": 2, "shape": "6x6"},
    {"shape": "cross", "layout": "windmill"},
    {"shape": "diamond", "players": 3, "layout": "butterfly"},
    {"shape": "octagon", "players": 5},
    {"shape": "10x10", "players": 6, "colours": 2},
    {"shape": "custom", "mask": "..####../.######./########/###..###/###..###/########/"
                                ".######./..####.."},
    {"players": 2, "white_any_time": False},
    {"players": 7},
    {"players": 8, "colours": 2, "shape": "10x10", "layout": "windmill"},
    {"players": 4, "white_any_time": True, "memory_aid": True},
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(
    f"{k}={v}" for k, v in o.items() if k != "mask") or "default")
def test_conformance_random_games(options: dict) -> None:
    check_random_games("memory_matrix", [options], games=2, probe_every=5)


def test_conformance_every_ply_probed_default() -> None:
    check_one_game("memory_matrix", {}, seed=99, probe_every=1)


def test_game_registered() -> None:
    game = get("memory_matrix")
    assert game.id == "memory_matrix"
    assert not game.perfect_information
