"""The 3×3 retrograde table and the perfect level-5 bot, checked against an independent
exhaustive search that applies the real rules (repetition with history included)."""

from __future__ import annotations

from collections import Counter

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.flipflop import board as bd
from asobiba.games.flipflop import solver3
from asobiba.games.flipflop.bots import make_bot, perfect_move
from asobiba.games.flipflop.cli import analyse3, solve

from . import reference as ref

GAME = get("flipflop")
S3 = {"board": "3x3"}
REF_DEPTH = 5


def random_states(count: int, seed: int, max_plies: int = 30):
    """States reached by random play from the start (with their real history)."""
    rng = Rng(seed, "positions")
    out = []
    while len(out) < count:
        state = GAME.new_game(S3)
        for _ in range(rng.below(max_plies)):
            if state.is_over:
                break
            state = state.play(rng.choice(list(state.legal_moves())))
        if not state.is_over:
            out.append(state)
    return out


def table_value(state):
    return solver3.value_of(*state.tuple4())


def test_solver_start_is_a_first_player_win_in_15():
    value, dist = table_value(GAME.new_game(S3))
    assert (value, dist) == (solver3.WIN, 15)
    sol = solver3.table()
    assert sol.positions == 91_229
    assert set(Counter(sol.value)) == {solver3.WIN, solver3.LOSS}   # no draws ignoring history


def test_solver_symmetric_table_agrees_with_plain_absolute_solve():
    """The relative + mirrored table equals a solve on absolute positions with no symmetry."""
    plain = solver3.solve_with_history(*bd.start_position(3), [])
    assert plain.positions > solver3.table().positions
    for key, i in plain.index.items():
        got = solver3.value_of(*bd.unpack_key(key))
        assert got == (plain.value[i], plain.dist[i]), bd.unpack_key(key)


def test_solver_matches_exhaustive_search_on_random_positions():
    checked = 0
    for state in random_states(400, seed=1):
        value, dist = table_value(state)
        if dist > REF_DEPTH or any(c >= 2 for c in Counter(state.history).values()):
            continue
        assert ref.exact(state, REF_DEPTH) == (value, dist), state.fen()
        checked += 1
        if checked >= 40:
            break
    assert checked >= 25


def test_solver_distance_is_not_beaten_by_a_shallower_search():
    """For deeper positions: no result exists before the table's distance."""
    for state in random_states(200, seed=2)[:60]:
        value, dist = table_value(state)
        if 6 <= dist <= 9:
            assert not ref.win_within(state, 4) and not ref.loss_within(state, 4)


def test_perfect_bot_moves_keep_the_exact_value_on_random_positions():
    bot_rng = Rng(7, "perfect")
    checked = 0
    for state in random_states(300, seed=3):
        value, dist = table_value(state)
        if dist > REF_DEPTH or any(c >= 2 for c in Counter(state.history).values()):
            continue
        mv, v, d = perfect_move(state, bot_rng)
        assert (v, d) == (value, dist)
        child = state.play(mv)
        want = (ref.LOSS if value == solver3.WIN else ref.WIN, dist - 1)
        assert ref.exact(child, REF_DEPTH) == want, (state.fen(), state.move_text(mv))
        checked += 1
    assert checked >= 25


def test_perfect_bot_uses_views_only_and_wins_as_white_against_anyone():
    from asobiba.play.runner import play_game

    for seed in range(4):
        result = play_game(GAME, [make_bot("5", seed), make_bot("1", seed + 9)], S3, seed)
        assert result.states[-1].outcome.winners == (0,)
        assert len(result.moves) <= 15


def _with_history(state, history_keys):
    from asobiba.games.flipflop.notation import to_fen

    fens = [to_fen(3, *bd.unpack_key(k)) for k in history_keys]
    return GAME.from_position(state.fen(), history=fens)


def test_rule_repetition_perfect_bot_avoids_a_third_occurrence_when_it_can_still_win():
    """Block the fastest win's first step (seen twice): the bot must find another win if
    one exists (checked by the reference with the history), else take the draw."""
    deviations = draws = 0
    for state in random_states(600, seed=4):
        value, dist = table_value(state)
        if value != solver3.WIN or dist > 3:
            continue
        fast = [m for m in state.legal_moves()
                if not state.child(m).is_over and table_value(state.child(m)) ==
                (solver3.LOSS, dist - 1)]
        if len(fast) != 1:
            continue
        blocked = state.child(fast[0]).key
        hist_state = _with_history(state, [blocked, blocked])
        mv, v, d = perfect_move(hist_state)
        expected = ref.exact(hist_state, REF_DEPTH + 2)
        if v == solver3.DRAW:
            assert expected is None and hist_state.play(mv).outcome.is_draw
            draws += 1
        else:
            assert mv != fast[0] and expected == (v, d) and d > dist
            assert ref.exact(hist_state.play(mv), REF_DEPTH + 2) == (ref.LOSS, d - 1)
            deviations += 1
        if deviations >= 2 and draws >= 1:
            break
    assert deviations >= 1


def test_rule_repetition_losing_perfect_bot_takes_the_draw_by_third_occurrence():
    for state in random_states(200, seed=5):
        value, _ = table_value(state)
        if value != solver3.LOSS:
            continue
        escape = next(m for m in state.legal_moves() if not state.child(m).is_over)
        target = state.child(escape).key
        hist_state = _with_history(state, [target, target])
        mv, v, _ = perfect_move(hist_state)
        assert v == solver3.DRAW
        assert hist_state.play(mv).outcome.is_draw
        return
    pytest.fail("no losing position found")


def test_perfect_bot_with_deep_history_agrees_with_exhaustive_search():
    """Positions seen twice deeper in the tree (not only children) change the best play;
    the history-aware re-solve must agree with the reference search."""
    rng = Rng(11, "deep")
    checked = 0
    for state in random_states(300, seed=6):
        value, dist = table_value(state)
        if dist > 4 or state.is_over:
            continue
        # block two random grandchildren
        grand = []
        for m in state.legal_moves():
            c = state.child(m)
            if not c.is_over:
                grand += [c.child(r).key for r in c.legal_moves() if not c.child(r).is_over]
        if len(grand) < 2:
            continue
        blocked = [rng.choice(grand), rng.choice(grand)]
        hist_state = _with_history(state, blocked * 2)
        mv, v, d = perfect_move(hist_state)
        expected = ref.exact(hist_state, REF_DEPTH + 1)
        if v == solver3.DRAW:
            assert expected is None
        else:
            assert expected == (v, d)
        checked += 1
        if checked >= 3:
            break
    assert checked >= 2


def test_cli_solve_reports_value_distance_positions_and_line(capsys):
    assert solve(S3, [], as_json=True) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "win" and data["plies"] == 15 and data["positions"] == 91_229
    final = GAME.replay(data["line"], S3)[-1]
    assert final.is_over and final.outcome.winners == (0,) and len(data["line"]) == 15
    assert solve(S3, ["Rb1xb3"], as_json=False) == 0
    assert "loss in 14 plies" in capsys.readouterr().out
    assert solve(S3, ["Zz9"], as_json=False) == 2


def test_analyse_finished_game():
    final = GAME.replay(["Rb1xb3", "Rc3-c2"], S3)[-1]
    assert analyse3(final)["over"] and analyse3(final)["value"] == "win"


def test_perfect_play_from_positions_the_start_cannot_reach():
    """Hand-set positions outside the start's reachable set are solved on demand."""
    rng = Rng(3, "setup")
    table = solver3.table()
    checked = 0
    for _ in range(400):
        squares = rng.shuffled(list(range(9)))
        nw, nb = 1 + rng.below(3), 1 + rng.below(3)
        white = sum(1 << s for s in squares[:nw])
        black = sum(1 << s for s in squares[nw:nw + nb])
        bishops = sum(1 << s for s in squares[:nw + nb] if rng.below(2))
        turn = rng.below(2)
        key = solver3.canonical(solver3.relative_key(white, black, bishops, turn))
        if key in table.index:
            continue
        from asobiba.games.flipflop.notation import to_fen

        state = GAME.from_position(to_fen(3, white, black, bishops, turn))
        if state.is_over:
            continue
        mv, v, d = perfect_move(state)
        if d <= REF_DEPTH:
            assert ref.exact(state, REF_DEPTH) == (v, d), state.fen()
            checked += 1
        if checked >= 10:
            break
    assert checked >= 5
