"""The 5×5 endgame tables (≤ 4 pieces): every value checked three ways — against the rules
engine's own move generator (consistency of win/loss/draw and distances), against the
older endgame solver on every position with ≤ 3 pieces, and against an independent
bounded AND/OR search for short wins."""

from __future__ import annotations

import pytest

from asobiba.games import get
from asobiba.games.flipflop import analysis, tables
from asobiba.games.flipflop import board as bd

GAME = get("flipflop")
GEO = bd.GEOMETRY[5]
TAB = tables.load(4)


def test_the_table_ships_and_covers_four_pieces():
    assert TAB is not None
    assert TAB.pieces == 4
    assert len(TAB) == 1_476_820          # canonical: relative to the mover, mirror folded


def _child_values(pos: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """(value, distance) of each child for the child's mover, with the engine's moves."""
    assert TAB is not None
    out = []
    for frm, to in bd.legal_moves(GEO, *pos):
        w, b, x, t = bd.apply_move(*pos, frm, to)
        if not (w and b):                      # the opponent's last piece taken
            out.append((tables.LOSS, 0))
        else:
            out.append(TAB.lookup(w, b, x, t))
    return out


def check_consistent(pos: tuple[int, int, int, int]) -> tuple[int, int]:
    """Assert the stored value follows from the children's (the retrograde equations)."""
    assert TAB is not None
    value, dist = TAB.lookup(*pos)
    w, b, _, t = pos
    if bd.holds_goal(GEO, w, b, t):
        assert (value, dist) == (tables.WIN, 0)
        return value, dist
    kids = _child_values(pos)
    if not kids:
        assert (value, dist) == (tables.LOSS, 0)
        return value, dist
    losses = [d for v, d in kids if v == tables.LOSS]
    if value == tables.WIN:
        assert losses and dist == min(losses) + 1, (pos, value, dist, kids)
    elif value == tables.LOSS:
        assert all(v == tables.WIN for v, _ in kids), (pos, kids)
        assert dist == max(d for _, d in kids) + 1, (pos, dist, kids)
    else:
        assert not losses, (pos, kids)
        assert any(v == tables.DRAW for v, _ in kids), (pos, kids)
    return value, dist


def test_random_positions_obey_the_retrograde_equations():
    assert TAB is not None
    seen = {tables.WIN: 0, tables.LOSS: 0, tables.DRAW: 0}
    for pos in tables.iter_positions(TAB, 31, 3000):
        value, _ = check_consistent(pos)
        seen[value] += 1
    assert min(seen.values()) > 20, seen


def test_the_longest_win_line_is_consistent_all_the_way():
    """Follow a fastest-win / slowest-loss line from random long wins: each step keeps the
    equations and the distance drops by one."""
    assert TAB is not None
    longest = None
    for pos in tables.iter_positions(TAB, 7, 4000):
        value, dist = TAB.lookup(*pos)
        if value == tables.WIN and (longest is None or dist > longest[1]):
            longest = (pos, dist)
    assert longest is not None and longest[1] >= 15
    pos, dist = longest
    while dist > 0:
        value, got = check_consistent(pos)
        assert got == dist
        best = None
        for frm, to in bd.legal_moves(GEO, *pos):
            child = bd.apply_move(*pos, frm, to)
            if not (child[0] and child[1]):
                cv, cd = tables.LOSS, 0
            else:
                cv, cd = TAB.lookup(*child)
            want = tables.LOSS if value == tables.WIN else tables.WIN
            if cv == want and cd == dist - 1:
                best = child
                break
        assert best is not None
        if not (best[0] and best[1]):
            break
        pos, dist = best, dist - 1


def test_agrees_with_the_older_endgame_solver_on_every_three_piece_position():
    assert TAB is not None
    result = analysis.solve_endgames(5, 3, keep_values=True)
    values = result["values"]
    assert len(values) == 225_600
    names = {analysis.WIN: tables.WIN, analysis.LOSS: tables.LOSS, analysis.DRAW: tables.DRAW}
    for key, (v, d) in values.items():
        got = TAB.lookup(*bd.unpack_key(key))
        assert got[0] == names[v]
        if v != analysis.DRAW:
            assert got[1] == d, (bd.unpack_key(key), got, (v, d))


def test_short_wins_agree_with_an_independent_bounded_search():
    """A win in d plies is found by the AND/OR search at depth d and not at d - 1."""
    assert TAB is not None
    checked = 0
    for pos in tables.iter_positions(TAB, 11, 3000):
        value, dist = TAB.lookup(*pos)
        if value != tables.WIN or not 1 <= dist <= 6:
            continue
        assert analysis.forced_win_within(5, pos, dist)
        assert not analysis.forced_win_within(5, pos, dist - 1)
        checked += 1
        if checked >= 40:
            break
    assert checked >= 40


def test_lookup_is_the_same_for_mirror_images_and_colour_swaps():
    assert TAB is not None
    for w, b, x, t in tables.iter_positions(TAB, 5, 300):
        got = TAB.lookup(w, b, x, t)
        assert TAB.lookup(bd.mirror_mask(5, w), bd.mirror_mask(5, b), bd.mirror_mask(5, x),
                          t) == got
        # colour swap: Black's pieces become White's, seen from the other side
        assert TAB.lookup(bd.flip_ranks(5, b), bd.flip_ranks(5, w), bd.flip_ranks(5, x),
                          1 - t) == got


def test_outside_the_table_is_a_key_error_and_get_says_none():
    assert TAB is not None
    start = bd.start_position(5)
    assert TAB.get(*start) is None
    with pytest.raises(KeyError):
        TAB.lookup(*start)


def test_the_builder_reproduces_the_three_piece_part():
    """Rebuild the ≤ 3-piece table with NumPy (a second, one-second run of the builder)
    and compare with the shipped table wherever both know the position."""
    pytest.importorskip("numpy")
    assert TAB is not None
    small, stats = tables.build(3, log=False)
    assert (stats["win"], stats["loss"], stats["draw"]) == (130_224, 92_728, 2_648)
    for pos in tables.iter_positions(small, 3, 2000):
        assert small.lookup(*pos) == TAB.lookup(*pos)


# ---- the level-5 bot inside the tables, and the search's exact leaves -------------------
def _state(pos: tuple[int, int, int, int]):
    from asobiba.games.flipflop.notation import to_fen

    return GAME.from_position(to_fen(5, *pos), {"board": "5x5"})


def test_level5_wins_a_table_win_in_exactly_its_distance_against_perfect_defence():
    """Level 5 against level 5 from won table positions: the winner wins, in exactly the
    table's distance (fastest win against slowest loss) — a search to a fixed depth would
    miss the long ones (the seed picks wins of 9 to 40 plies)."""
    from asobiba.games.flipflop.bots import make_bot

    assert TAB is not None
    picked = []
    for pos in tables.iter_positions(TAB, 23, 20_000):
        value, dist = TAB.lookup(*pos)
        w, b, _, t = pos
        if value == tables.WIN and 9 <= dist <= 40 and not bd.holds_goal(GEO, w, b, t):
            picked.append((pos, dist))
        if len(picked) == 3:
            break
    assert len(picked) == 3
    for pos, dist in picked:
        state = _state(pos)
        winner = state.turn
        bots = [make_bot("5", 1), make_bot("5", 2)]
        for seat, bot in enumerate(bots):
            bot.reset(seat, {"board": "5x5"})
        plies = 0
        while not state.is_over:
            text = bots[state.turn].choose(state.view(state.turn))
            state = state.play(text)
            plies += 1
            assert plies <= dist
        assert state.outcome is not None and state.outcome.ranks[winner] == 1
        assert not state.outcome.is_draw
        assert plies == dist


def test_level5_never_steps_into_a_third_occurrence_when_it_can_win():
    """A table move that would repeat a position a third time is the draw it is."""
    from asobiba.games.flipflop.bots import table_scores

    assert TAB is not None
    for pos in tables.iter_positions(TAB, 41, 2000):
        value, dist = TAB.lookup(*pos)
        w, b, _, t = pos
        if value != tables.WIN or dist < 3 or bd.holds_goal(GEO, w, b, t):
            continue
        state = _state(pos)
        scored = table_scores(state, TAB)
        best = [mv for mv, v, d in scored if v == tables.WIN and d == dist]
        assert best
        # pretend the best move's child has been seen twice already
        child = state.child(best[0])
        seen = GAME.from_position(_fen(state), {"board": "5x5"},
                                  history=[_fen(child), _fen(child)])
        rescored = {m: (v, d) for m, v, d in table_scores(seen, TAB)}
        assert rescored[best[0]] == (tables.DRAW, 1)
        break


def _fen(state) -> str:
    from asobiba.games.flipflop.notation import to_fen

    return to_fen(5, *state.tuple4())


def test_search_scores_table_positions_exactly_at_its_leaves():
    """A one-ply search from a 4-piece position sees only table leaves: its score is the
    table's own value of the root (win/loss in d as WIN - d), and it counted the hits."""
    from asobiba.games.flipflop.search import Searcher, table_score

    assert TAB is not None
    done = hits = 0
    for pos in tables.iter_positions(TAB, 13, 400):
        w, b, x, t = pos
        if (w | b).bit_count() != 4 or bd.holds_goal(GEO, w, b, t):
            continue
        if not bd.legal_moves(GEO, *pos):
            continue
        s = Searcher(5, tables=TAB)
        res = s.search(pos, 1)
        assert res.value == table_score(*TAB.lookup(*pos)), pos
        hits += s.adapter.table_hits
        done += 1
    assert done > 100
    assert hits > done
