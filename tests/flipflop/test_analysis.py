"""5×5 analysis tools, checked on cases with known answers and against the 3×3 table."""

from __future__ import annotations

from asobiba.games import get
from asobiba.games.flipflop import analysis, solver3, tables
from asobiba.games.flipflop import board as bd

GAME = get("flipflop")


def test_state_space_bound_matches_a_square_by_square_count_on_3x3():
    """Count boards square by square (empty, W+, W×, B+, B×) with ≤ 3 pieces a side."""
    ways = {(0, 0): 1}
    for _ in range(9):
        nxt: dict[tuple[int, int], int] = {}
        for (w, b), c in ways.items():
            for dw, db, mult in ((0, 0, 1), (1, 0, 2), (0, 1, 2)):
                if w + dw <= 3 and b + db <= 3:
                    key = (w + dw, b + db)
                    nxt[key] = nxt.get(key, 0) + c * mult
        ways = nxt
    assert analysis.state_space_upper_bound(3) == 2 * sum(ways.values()) == 444_746


def test_forced_win_within_known_cases():
    state = GAME.from_position("b3b/5/2R2/5/R3R w")   # Rc3-c5 and nothing can retake
    assert analysis.forced_win_within(5, state.tuple4(), 2)
    assert not analysis.forced_win_within(5, state.tuple4(), 1)
    start3 = bd.start_position(3)
    assert analysis.forced_win_within(3, start3, 15)      # the table: White wins in 15
    assert not analysis.forced_win_within(3, start3, 13)


def test_endgame_solver_agrees_with_the_3x3_table():
    """The endgame enumerator (absolute positions, no symmetry) on 3×3 with ≤ 3 pieces
    gives the same values as the retrograde table wherever both know the position."""
    result = analysis.solve_endgames(3, 3, keep_values=True)
    table = solver3.table()
    shared = 0
    for key, got in result["values"].items():
        rel = solver3.canonical(solver3.relative_key(*bd.unpack_key(key)))
        if rel in table.index:
            assert table.lookup(rel) == got
            shared += 1
    assert shared > 100


def test_report5_is_honest_about_what_it_proved():
    data = analysis.report5(GAME.new_game({"board": "5x5"}), max_depth=4, time_budget=30)
    assert data["no_win_for_mover_within"] == 4 and "Not solved" in data["summary"]


def test_report5_reads_the_endgame_tables_when_few_pieces_are_left():
    # 7 pieces: past every table, bounded search (6 would be in the tables where the 6-piece
    # layer is built)
    big = GAME.from_position("b1b1b/5/2R2/5/R1R1R w", {"board": "5x5"})
    assert "source" not in analysis.report5(big, max_depth=2, time_budget=5)
    five = GAME.from_position("b3b/5/2R2/5/R3R w", {"board": "5x5"})  # 5: the 5-piece layer
    on_disk = tables.load()
    if tables.load(5) is not None and on_disk is not None:
        data = analysis.report5(five)
        assert f"endgame tables (≤ {on_disk.pieces} pieces)" == data["source"]
        assert data["value"] in ("win", "loss", "draw")
    small = GAME.from_position("b1b2/5/2R2/5/R4 w", {"board": "5x5"})  # 4 pieces
    data = analysis.report5(small)
    assert data["value"] == "win" and data["plies"] == 2      # Rc3xc5, no retake: held
    assert "endgame tables" in data["summary"]
