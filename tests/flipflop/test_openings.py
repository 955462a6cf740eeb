"""The certified 5×5 openings (docs/flipflop-solving.md § 4): every certificate written by
``bench/flipflop_dfpn.py --certs`` and shipped under ``certificates/openings/`` (``openings6/``: proved with the 6-piece layer at
the leaves, replayed where that layer is built) replays
against the rules engine (every defender reply followed, no repetition, leaves won or
table wins), and its root really is a position after that many plies from the start."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asobiba.games import get
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import tables
from asobiba.games.flipflop.proof import canonical_key, verify

GAME = get("flipflop")
GEO = bd.GEOMETRY[5]
HERE = Path(__file__).parent / "certificates"
CERTS = sorted(HERE.joinpath("openings").glob("ply*.json"))
# proved with the 6-piece layer at the leaves (built here, not shipped): replayed where it is
# on disk, skipped elsewhere
CERTS6 = sorted(HERE.joinpath("openings6").glob("ply*.json"))


def _after(plies: int) -> set[int]:
    frontier = [bd.start_position(5)]
    for _ in range(plies):
        frontier = [bd.apply_move(*p, frm, to) for p in frontier
                    for frm, to in bd.legal_moves(GEO, *p)]
    return {canonical_key(p) for p in frontier}


def test_the_opening_certificates_ship():
    assert len(CERTS) >= 10


def test_the_six_piece_opening_certificates_ship():
    assert len(CERTS6) >= 20
    assert all(json.loads(p.read_text())["tables_pieces"] == 6 for p in CERTS6)


@pytest.mark.parametrize("path", CERTS + CERTS6,
                         ids=[f"{p.parent.name}-{p.stem}" for p in CERTS + CERTS6])
def test_an_opening_certificate_replays(path):
    cert = json.loads(path.read_text())
    plies = int(path.stem.split("-")[0].removeprefix("ply"))
    root = GAME.from_position(cert["root"], {"board": "5x5"}).tuple4()
    assert canonical_key(root) in _after(plies)
    tab = tables.load(int(cert["tables_pieces"]))
    if tab is None:
        pytest.skip(f"the ≤ {cert['tables_pieces']}-piece tables are not on disk")
    assert verify(cert, tab) >= 1
