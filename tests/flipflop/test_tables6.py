"""The 6-piece layer of the 5×5 endgame tables — built on this machine, not shipped.

The layer is 790 MB (702,732,800 indices) and takes over an hour of CPU to build, so it is
not in the repository and a clean checkout does not have it: these tests are **skipped
where it is not on disk** and say which command builds it. What every machine checks is
the builder that made it (``test_tables5.py``: the per-count method rebuilds layers 2–4
equal to the older builder, through the same work-directory path — moves in a file, each
component saved and resumed — that built this layer).

Where it is built, the layer itself is checked against the rules engine as the 5-piece
layer is: random positions obey the retrograde equations with the engine's own moves;
a damaged entry is refused by the same equations; wins and losses are re-proved by df-pn
reading only the ≤ 5 tables (it never reads this layer); level 5 plays inside it.
"""

from __future__ import annotations

import pytest

from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import tables
from asobiba.games.flipflop.proof import DfPn

from .test_tables5 import consistent, wins_from_the_tables_in

GEO = bd.GEOMETRY[5]
SIX = tables.load(6)
FIVE = tables.load(5)
need6 = pytest.mark.skipif(
    SIX is None, reason="the 6-piece layer is not built here: python -m "
    "asobiba.games.flipflop.tables build --pieces 6 (about 80 CPU minutes, 12 GB)")


def _six(seed: int, count: int):
    assert isinstance(SIX, tables.TableSet)
    return tables.iter_positions(SIX.layer(6), seed, count)


def _draws(seed: int, count: int, sample: int = 100_000) -> list[tuple[int, int, int, int]]:
    assert SIX is not None
    out = [p for p in _six(seed, sample) if SIX.lookup(*p)[0] == tables.DRAW][:count]
    assert len(out) == count
    return out


@need6
def test_the_six_piece_layer_covers_exactly_six_pieces():
    assert isinstance(SIX, tables.TableSet) and SIX.pieces == 6
    layer = SIX.layer(6)
    assert (layer.low, layer.pieces) == (6, 6)
    assert layer.size == 702_732_800
    five = (0b1111 << 5, 1 << 22, 0, bd.WHITE)
    assert SIX.get(*five) is not None and not layer.covers(five[0], five[1])
    seven = (0b1111 << 5, 0b111 << 20, 0, bd.WHITE)
    assert SIX.get(*seven) is None


@need6
def test_six_piece_positions_obey_the_retrograde_equations():
    seen = {tables.WIN: 0, tables.LOSS: 0, tables.DRAW: 0}
    for pos in _six(41, 2000):
        assert consistent(SIX, pos), (pos, SIX.lookup(*pos))
        seen[SIX.lookup(*pos)[0]] += 1
    assert min(seen[tables.WIN], seen[tables.LOSS]) > 300, seen
    for pos in _draws(43, 10):
        assert consistent(SIX, pos), pos


@need6
def test_a_damaged_six_piece_entry_fails_the_checks():
    assert isinstance(SIX, tables.TableSet)
    layer = SIX.layer(6)
    picked = {}
    for pos in [*_six(5, 300), *_draws(5, 2)]:
        value, dist = layer.lookup(*pos)
        w, b, _, t = pos
        if not bd.holds_goal(GEO, w, b, t) and bd.legal_moves(GEO, *pos):
            picked.setdefault(value, (pos, dist))
    assert len(picked) == 3
    for value, (pos, dist) in picked.items():
        bad_code = {tables.WIN: 32768 + dist, tables.LOSS: 1 + dist + 1, tables.DRAW: 1 + 3}
        slot = layer.slot(layer.index_of(*pos))
        damaged = _Patched(SIX, layer, slot, bad_code[value])
        assert consistent(SIX, pos)
        assert not consistent(damaged, pos), (value, dist)


class _Patched:
    """The table with one 6-piece entry changed (no copy of the 700 MB of values)."""

    def __init__(self, full: tables.TableSet, layer: tables.Tables, slot: int, code: int
                 ) -> None:
        self.full, self.layer, self.slot, self.code = full, layer, slot, code

    def lookup(self, white: int, black: int, bishops: int, turn: int) -> tuple[int, int]:
        if (white | black).bit_count() == 6:
            if self.layer.slot(self.layer.index_of(white, black, bishops, turn)) == self.slot:
                return tables.decode_value(self.code)
        return self.full.lookup(white, black, bishops, turn)


@need6
def test_dfpn_with_only_the_five_piece_tables_agrees_with_the_layer():
    """df-pn over the rules engine reading only the ≤ 5 tables proves sampled 6-piece wins
    (for the mover) and losses (for the opponent)."""
    assert FIVE is not None
    wins = losses = 0
    for pos in _six(19, 3000):
        value, dist = SIX.lookup(*pos)
        w, b, _, t = pos
        if bd.holds_goal(GEO, w, b, t):
            continue
        if value == tables.WIN and 3 <= dist <= 21 and wins < 8:
            assert DfPn(t, FIVE, 200_000).prove(pos).proven is True, pos
            wins += 1
        elif value == tables.LOSS and 2 <= dist <= 21 and losses < 8:
            assert DfPn(1 - t, FIVE, 200_000).prove(pos).proven is True, pos
            losses += 1
    assert (wins, losses) == (8, 8)


@need6
def test_level5_plays_a_six_piece_table_win_in_exactly_its_distance():
    picked = None
    for pos in _six(29, 20_000):
        value, dist = SIX.lookup(*pos)
        w, b, _, t = pos
        if value == tables.WIN and 15 <= dist <= 60 and not bd.holds_goal(GEO, w, b, t):
            picked = (pos, dist)
            break
    assert picked is not None
    wins_from_the_tables_in(*picked)
