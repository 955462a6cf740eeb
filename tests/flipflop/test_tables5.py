"""The per-count builder and the 5-piece layer of the 5×5 endgame tables.

* The builder, run one layer at a time (2, then 3 from 2, then 4 from ≤ 3), reproduces the
  shipped ≤ 4 table built by the older all-at-once builder, entry by entry.
* The 5-piece layer (``endgame5.bin.xz``) is checked against the rules engine: random
  positions obey the retrograde equations with the engine's own move generator; wins and
  losses are re-proved by df-pn over the rules engine with only the ≤ 4 tables at its
  leaves (an independent search: it never reads the 5-piece layer); short wins agree with
  the bounded AND/OR search; a damaged entry is caught by the same checks.
* Level 5 plays perfectly inside the layer: from 5-piece table wins it wins in exactly the
  table's distance against itself.
"""

from __future__ import annotations

import pytest

from asobiba.games import get
from asobiba.games.flipflop import analysis, tables
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop.proof import DfPn

np = pytest.importorskip("numpy")

GAME = get("flipflop")
GEO = bd.GEOMETRY[5]
BASE = tables.load(4)
FULL = tables.load(5)
FIVE_MISSING = ("the 5-piece layer is not on disk: python -m asobiba.games.flipflop.tables "
                "build --pieces 5")


def _codes_by_index(tab: tables.Tables) -> tuple[object, object]:
    """(canonical mask, code per full index) of a table, as NumPy arrays."""
    bits = np.unpackbits(np.frombuffer(tab._bits, dtype=np.uint8), bitorder="little")
    canon = bits[:tab.size].astype(bool)
    codes = np.zeros(tab.size, dtype=np.int64)
    codes[canon] = np.frombuffer(tab._values, dtype="<u2")
    return canon, codes


def _same_as_base(layer: tables.Tables) -> int:
    """Every entry of ``layer`` equals the shipped ≤ 4 table's; returns the count."""
    assert BASE is not None
    canon, codes = _codes_by_index(layer)
    bcanon, bcodes = _codes_by_index(BASE)
    count = 0
    for sig in layer.sigs:
        lo, n = layer.offsets[sig], tables.signature_size(*sig)
        blo = BASE.offsets[sig]
        assert (canon[lo:lo + n] == bcanon[blo:blo + n]).all(), sig
        mask = canon[lo:lo + n]
        diff = np.flatnonzero(codes[lo:lo + n][mask] != bcodes[blo:blo + n][mask])
        assert not len(diff), (sig, len(diff))
        count += int(mask.sum())
    return count


def test_the_layered_builder_reproduces_the_two_and_three_piece_layers():
    two, s2 = tables.build_layer(2, None, log=False)
    three, s3 = tables.build_layer(3, two, log=False)
    assert (two.low, two.pieces, three.low, three.pieces) == (2, 2, 3, 3)
    assert _same_as_base(two) + _same_as_base(three) == 56_880
    # the older solver's ≤ 3 counts (docs/benchmarks.md)
    assert (s2["win"] + s3["win"], s2["loss"] + s3["loss"], s2["draw"] + s3["draw"]) == (
        130_224, 92_728, 2_648)


def test_a_layer_file_round_trips_and_knows_its_piece_count(tmp_path):
    two, _ = tables.build_layer(2, None, log=False)
    path = tmp_path / "layer2.bin.xz"
    two.dump(path, preset=1)
    again = tables.Tables.load(path)
    assert (again.low, again.pieces, len(again)) == (2, 2, len(two))
    pos = next(p for p in tables.iter_positions(again, 1, 50))
    assert again.lookup(*pos) == two.lookup(*pos)
    three_piece = (0b111, 1 << 24, 0, bd.WHITE)
    assert not again.covers(three_piece[0], three_piece[1])


def test_a_layer_file_written_plain_is_mapped_and_reads_the_same(tmp_path):
    """A table written without ``.xz`` (the 6-piece layer's form) is mapped, not read, and
    answers as the compressed one; an empty or foreign file is refused with a clear error."""
    two, _ = tables.build_layer(2, None, log=False)
    plain, packed = tmp_path / "layer2.bin", tmp_path / "layer2.bin.xz"
    two.dump(plain)
    two.dump(packed, preset=1)
    mapped, read = tables.Tables.load(plain), tables.Tables.load(packed)
    assert plain.stat().st_size > packed.stat().st_size
    assert isinstance(mapped._values, memoryview) and not isinstance(mapped._values.obj, bytes)
    for pos in tables.iter_positions(mapped, 5, 300):
        assert mapped.get(*pos) == read.get(*pos) == two.get(*pos)
    assert not list(tmp_path.glob("*.part"))
    (tmp_path / "empty.bin").write_bytes(b"")
    (tmp_path / "other.bin").write_bytes(b"PK\x03\x04" + bytes(40))
    for bad in ("empty.bin", "other.bin"):
        with pytest.raises(ValueError, match="not a FlipFlop endgame table"):
            tables.Tables.load(tmp_path / bad)


def test_the_rank_directory_is_the_same_by_numpy_and_by_python():
    """The 6-piece layer's 11 M bitmap words are counted by NumPy; small tables in pure
    Python — the same counts."""
    from array import array

    rnd = np.random.default_rng(7)
    words = array("Q")
    words.frombytes(rnd.integers(0, 2**63, size=(1 << 20) + 3, dtype=np.int64).tobytes())
    by_numpy = tables._rank_directory(words)
    assert len(by_numpy) == len(words) + 1
    small = array("Q", words[:1000])
    assert list(tables._rank_directory(small)) == list(by_numpy[:1001])
    assert by_numpy[-1] == sum(w.bit_count() for w in words)


@pytest.mark.slow
def test_a_layer_built_in_a_work_directory_resumes_where_it_stopped(tmp_path):
    """Layer 4 from the ≤ 3 part equals the shipped file (the older builder): the per-count
    method is the same solve. Built with a work directory (how the 6-piece layer is built):
    the moves go through a file and each solved component is saved; a build that lost a component's results solves
    only that one again and gives the same table — equal to the shipped ≤ 4 entries."""
    two, _ = tables.build_layer(2, None, log=False)
    three, _ = tables.build_layer(3, two, log=False)
    work = tmp_path / "work"
    four, stats = tables.build_layer(4, three, log=False, work=work)
    assert stats["components_resumed"] == 0
    assert _same_as_base(four) == stats["canonical_positions"] == 1_476_820 - 56_880
    saved = sorted(p.name for p in work.iterdir())
    assert saved == ["layer4-1-3.done", "layer4-2-2.done"]   # the moves' files are gone
    # a component whose results were half written (no done.json) is solved again
    (work / "layer4-2-2.done" / "done.json").unlink()
    again, stats2 = tables.build_layer(4, three, log=False, work=work)
    assert stats2["components_resumed"] == 1
    assert stats2["moves"] == stats["moves"]
    assert bytes(again._bits) == bytes(four._bits)
    assert bytes(again._values) == bytes(four._values)


# ---- the 5-piece layer ----------------------------------------------------------------------
need5 = pytest.mark.skipif(FULL is None, reason=FIVE_MISSING)


def _five(seed: int, count: int):
    assert FULL is not None
    layer = FULL.layer(5) if isinstance(FULL, tables.TableSet) else FULL
    return tables.iter_positions(layer, seed, count)


def _child_values(tab, pos):
    out = []
    for frm, to in bd.legal_moves(GEO, *pos):
        w, b, x, t = bd.apply_move(*pos, frm, to)
        out.append((tables.LOSS, 0) if not (w and b) else tab.lookup(w, b, x, t))
    return out


def consistent(tab, pos) -> bool:
    """The retrograde equations at ``pos`` with the rules engine's own moves."""
    value, dist = tab.lookup(*pos)
    w, b, _, t = pos
    if bd.holds_goal(GEO, w, b, t):
        return (value, dist) == (tables.WIN, 0)
    kids = _child_values(tab, pos)
    if not kids:
        return (value, dist) == (tables.LOSS, 0)
    losses = [d for v, d in kids if v == tables.LOSS]
    if value == tables.WIN:
        return bool(losses) and dist == min(losses) + 1
    if value == tables.LOSS:
        return all(v == tables.WIN for v, _ in kids) and dist == max(d for _, d in kids) + 1
    return not losses and any(v == tables.DRAW for v, _ in kids)


@need5
def test_the_five_piece_layer_ships_with_its_counts():
    assert isinstance(FULL, tables.TableSet) and FULL.pieces == 5
    layer = FULL.layer(5)
    assert (layer.low, layer.pieces) == (5, 5)
    assert len(layer) == 25_519_480
    start = bd.start_position(5)
    assert FULL.get(*start) is None


@need5
def test_five_piece_positions_obey_the_retrograde_equations():
    seen = {tables.WIN: 0, tables.LOSS: 0, tables.DRAW: 0}
    for pos in _five(31, 3000):
        assert consistent(FULL, pos), (pos, FULL.lookup(*pos))
        seen[FULL.lookup(*pos)[0]] += 1
    assert min(seen[tables.WIN], seen[tables.LOSS]) > 500, seen
    # draws are 0.2 % of the layer: check 30 of them, picked from a larger sample
    for pos in _draws(37, 30):
        assert consistent(FULL, pos), pos


def _draws(seed: int, count: int) -> list[tuple[int, int, int, int]]:
    out = [p for p in _five(seed, 60_000) if FULL.lookup(*p)[0] == tables.DRAW][:count]
    assert len(out) == count
    return out


@need5
def test_a_damaged_entry_fails_the_checks():
    """The check above can fail: change one stored value (a win made a loss, a distance
    off by one, a draw made a win) and the same equations refuse it."""
    assert isinstance(FULL, tables.TableSet)
    layer = FULL.layer(5)
    picked = {}
    for pos in [*_five(3, 200), *_draws(3, 3)]:
        value, dist = layer.lookup(*pos)
        w, b, _, t = pos
        if not bd.holds_goal(GEO, w, b, t) and bd.legal_moves(GEO, *pos):
            picked.setdefault(value, (pos, dist))
    assert len(picked) == 3
    for value, (pos, dist) in picked.items():
        bad_code = {tables.WIN: 32768 + dist, tables.LOSS: 1 + dist + 1, tables.DRAW: 1 + 3}
        slot = layer.slot(layer.index_of(*pos))
        values = bytearray(layer._values)
        values[2 * slot:2 * slot + 2] = bad_code[value].to_bytes(2, "little")
        damaged = tables.TableSet(FULL.base, {5: tables.Tables(5, layer._bits, bytes(values),
                                                                low=5)})
        assert consistent(FULL, pos)
        assert not consistent(damaged, pos), (value, dist)


@need5
def test_short_wins_agree_with_the_bounded_search():
    """A 5-piece win in d ≤ 6 plies is found by the AND/OR search at depth d, not d - 1."""
    checked = 0
    for pos in _five(11, 6000):
        value, dist = FULL.lookup(*pos)
        if value != tables.WIN or not 1 <= dist <= 6:
            continue
        assert analysis.forced_win_within(5, pos, dist), pos
        assert not analysis.forced_win_within(5, pos, dist - 1), pos
        checked += 1
        if checked >= 30:
            break
    assert checked >= 30


@need5
def test_dfpn_with_only_the_four_piece_tables_agrees_with_the_layer():
    """df-pn over the rules engine, reading only the ≤ 4 tables (never the 5-piece layer),
    proves every sampled win (for the mover) and loss (for the opponent), and never proves
    a win on either side of a sampled table draw."""
    assert BASE is not None
    wins = losses = draws = 0
    for pos in [*_draws(17, 6), *_five(17, 3000)]:
        value, dist = FULL.lookup(*pos)
        w, b, _, t = pos
        if bd.holds_goal(GEO, w, b, t):
            continue
        if value == tables.WIN and 3 <= dist <= 25 and wins < 12:
            assert DfPn(t, BASE, 200_000).prove(pos).proven is True, pos
            wins += 1
        elif value == tables.LOSS and 2 <= dist <= 25 and losses < 12:
            assert DfPn(1 - t, BASE, 200_000).prove(pos).proven is True, pos
            losses += 1
        elif value == tables.DRAW and draws < 6:
            for side in (t, 1 - t):
                assert DfPn(side, BASE, 3_000).prove(pos).proven is not True, pos
            draws += 1
    assert (wins, losses, draws) == (12, 12, 6)


@need5
def test_level5_plays_a_five_piece_table_win_in_exactly_its_distance():
    """Level 5 against level 5 from 5-piece table wins: the mover wins in exactly the
    table's distance, choosing from the tables (no search) — before the 5-piece layer,
    level 5 searched these positions."""

    picked = []
    for pos in _five(23, 20_000):
        value, dist = FULL.lookup(*pos)
        w, b, _, t = pos
        if value == tables.WIN and 15 <= dist <= 60 and not bd.holds_goal(GEO, w, b, t):
            picked.append((pos, dist))
        if len(picked) == 2:
            break
    assert len(picked) == 2
    for pos, dist in picked:
        wins_from_the_tables_in(pos, dist)


def wins_from_the_tables_in(pos, dist: int) -> None:
    """Level 5 against level 5 from ``pos``: the mover wins in exactly ``dist`` plies, every
    move taken from the tables."""
    from asobiba.games.flipflop.bots import make_bot
    from asobiba.games.flipflop.notation import to_fen

    state = GAME.from_position(to_fen(5, *pos), {"board": "5x5"})
    winner = state.turn
    bots = [make_bot("5", 1), make_bot("5", 2)]
    for seat, bot in enumerate(bots):
        bot.reset(seat, {"board": "5x5"})
    plies = 0
    while not state.is_over:
        bot = bots[state.turn]
        state = state.play(bot.choose(state.view(state.turn)))
        assert "table" in bot.last_info
        plies += 1
        assert plies <= dist
    assert state.outcome is not None and state.outcome.ranks[winner] == 1
    assert plies == dist
