"""The analysis board's engine side (issue 29 item 1): multi-PV against a brute-force search,
exact verdicts against the solvers, coded errors for positions that are none, and the
hidden-information analysis reading only the seat's views."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from asobiba.analysis import AnalysisError, Position, load, seat_analysis, step
from asobiba.core import Rng, State
from asobiba.games import get
from asobiba.games.reversi.bots import WIN, ReversiAdapter
from asobiba.games.reversi.game import PASS, ReversiState
from asobiba.search.alphabeta import AlphaBeta
from asobiba.search.multipv import multipv

Pos = tuple[int, int, int]


def random_line(game_id: str, plies: int, seed: int, options: dict | None = None) -> list[str]:
    state = get(game_id).new_game(options or {}, seed)
    rng = Rng(seed, "analysis-test")
    out = []
    for _ in range(plies):
        if state.is_over:
            break
        seat = state.acting_seats[0]
        moves = list(state.legal_moves(seat))
        text = state.move_text(moves[rng.below(len(moves))], seat)
        out.append(text)
        state = state.play(text, seat)
    return out


def brute(adapter: ReversiAdapter, pos: Pos, depth: int) -> float:
    """Plain negamax, no pruning, no table: the value every multi-PV line must have."""
    decided = adapter.decided(pos)
    if decided is not None:
        return decided
    if depth == 0:
        return adapter.evaluate(pos)
    return max(-brute(adapter, adapter.play(pos, m), depth - 1) for m in adapter.moves(pos))


def _pos(state: State) -> Pos:
    assert isinstance(state, ReversiState)
    b, w, t = state.black, state.white, state.turn
    return (b, w, t) if t == 0 else (w, b, t)


@pytest.mark.parametrize("plies,depth", [(10, 2), (20, 3), (30, 3)])
def test_multipv_lines_are_the_three_best_moves_of_a_brute_force_search(plies: int,
                                                                         depth: int) -> None:
    adapter = ReversiAdapter()
    for seed in range(3):
        position = load({"game": "reversi", "moves": random_line("reversi", plies, seed)})
        pos = _pos(position.state)
        values = {m: -brute(adapter, adapter.play(pos, m), depth - 1)
                  for m in adapter.moves(pos)}
        ranked = sorted(values.values(), reverse=True)
        lines = multipv(AlphaBeta(adapter), pos, list(values), depth, 3)
        assert [ln.value for ln in lines] == ranked[:3]
        for ln in lines:
            assert values[ln.move] == ln.value
            assert ln.pv[0] == ln.move and len(ln.pv) <= depth


def exact_margin(adapter: ReversiAdapter, pos: Pos) -> int:
    """The final disc difference under perfect play, by plain negamax to the end."""
    decided = adapter.decided(pos)
    if decided is not None:
        d = int(decided)
        return d - WIN if d >= WIN else d + WIN if d <= -WIN else d
    return max(-exact_margin(adapter, adapter.play(pos, m)) for m in adapter.moves(pos))


def test_reversi_endgame_verdicts_agree_with_a_full_solve_and_the_endgame_solver() -> None:
    from asobiba.games.reversi.endgame import Solver

    adapter = ReversiAdapter()
    checked = 0
    for seed in range(6):
        position = load({"game": "reversi", "moves": random_line("reversi", 53, seed)})
        position.key = f"endgame-{seed}"
        if position.state.is_over:
            continue
        pos = _pos(position.state)
        depth, result = 1, step(position, 1, 60.0)
        while not result.done:
            depth += 1
            result = step(position, depth, 60.0)
        margins = sorted((-exact_margin(adapter, adapter.play(pos, m))
                          for m in adapter.moves(pos)), reverse=True)
        got = [ln["margin"] for ln in result.lines]
        assert got == margins[:len(got)]
        for ln in result.lines:
            m = ln["margin"]
            assert ln["verdict"] == ("win" if m > 0 else "loss" if m < 0 else "draw")
        if adapter.moves(pos) != [PASS]:
            assert Solver().solve(pos[0], pos[1]).score == margins[0]
        checked += 1
    assert checked >= 4


def test_flipflop_3x3_is_exact_everywhere_and_agrees_with_the_solved_table() -> None:
    from asobiba.games.flipflop import solver3
    from asobiba.games.flipflop.bots import move_scores

    for seed in range(4):
        position = load({"game": "flipflop", "moves": random_line("flipflop", 4, seed)})
        if position.state.is_over:
            continue
        result = step(position, 1, 60.0)
        assert result.done and result.lines
        table = {position.state.move_text(mv): (v, d) for mv, v, d in move_scores(
            position.state)}  # type: ignore[arg-type]
        names = {solver3.WIN: "win", solver3.LOSS: "loss", solver3.DRAW: "draw"}
        best = result.lines[0]["verdict"]
        assert best == min((names[v] for v, _ in table.values()),
                           key=["win", "draw", "loss"].index)
        for ln in result.lines:
            v, d = table[ln["move"]]
            assert ln["verdict"] == names[v]
            assert ln["margin"] == (None if v == solver3.DRAW else d)


def test_reverstargo_endings_are_exact_and_agree_with_its_own_full_search() -> None:
    from asobiba.games.reverstargo.progression import ReverStarGoEvaluator

    checked = 0
    for seed in range(8):
        line = random_line("reverstargo", 200, seed)
        position = load({"game": "reverstargo", "moves": line[:-5]})
        position.key = f"rsg-{seed}"
        if position.state.is_over:
            continue
        depth, result = 1, step(position, 1, 60.0)
        while not result.done and depth < 12:
            depth += 1
            result = step(position, depth, 60.0)
        if not result.done:
            continue
        values = ReverStarGoEvaluator(depth=12, endgame_empties=36).move_values(position.state)
        assert result.lines[0]["value"] == max(values.values())
        assert result.lines[0]["verdict"] in ("win", "loss", "draw")
        checked += 1
    assert checked >= 2


def test_deepening_reports_a_timeout_and_never_a_half_searched_depth() -> None:
    position = load({"game": "reversi", "moves": random_line("reversi", 12, 1)})
    result = step(position, 30, 0.0)
    assert result.timeout and result.lines == []


# ---- positions and their coded errors -------------------------------------------------------
START = ["........", "........", "........", "...BW...", "...WB...", "........", "........",
         "........"]


@pytest.mark.parametrize("spec,code,args", [
    ({"game": "chess"}, "analysis_unknown_game", {"game": "chess"}),
    ({"game": "reversi", "moves": ["d3", "z9"]}, "analysis_bad_move",
     {"ply": 2, "move": "z9", "reason": "malformed"}),
    ({"game": "reversi", "moves": ["d3", "d3"]}, "analysis_bad_move",
     {"ply": 2, "move": "d3", "reason": "illegal"}),
    ({"game": "reversi", "setup": {"board": START[:7], "turn": 0}}, "analysis_bad_board",
     {"reason": "shape"}),
    ({"game": "reversi", "setup": {"board": ["........"] * 3 + ["...BX..."] + START[4:],
                                   "turn": 0}}, "analysis_bad_board", {"reason": "cell"}),
    ({"game": "reversi", "setup": {"board": ["........"] * 3 + ["...B...."] + START[4:],
                                   "turn": 0}}, "analysis_bad_board",
     {"reason": "centre_empty"}),
    ({"game": "reversi", "setup": {"board": START, "turn": 2}}, "analysis_bad_board",
     {"reason": "turn"}),
    ({"game": "flipflop", "setup": {"board": ["RRR", "R..", "rrr"], "turn": 0}},
     "analysis_bad_board", {"reason": "too_many_pieces"}),
    ({"game": "flipflop", "setup": {"board": ["...", "...", "rrr"], "turn": 0}},
     "analysis_bad_board", {"reason": "no_pieces"}),
    ({"game": "reverstargo", "setup": {"board": "B" * 36 + ".", "turn": 0}},
     "analysis_bad_board", {"reason": "cell"}),
    ({"game": "algo", "setup": {"board": [], "turn": 0}}, "analysis_no_setup",
     {"game": "algo"}),
    ({"game": "reversi", "record": {"game": "reversi"}}, "analysis_bad_record", None),
    ({"game": "reversi", "notation": "not a record"}, "analysis_bad_record", None),
])
def test_a_description_that_is_no_position_gets_a_coded_error(spec: dict, code: str,
                                                              args: dict | None) -> None:
    with pytest.raises(AnalysisError) as err:
        load(spec)
    assert err.value.code == code
    if args is not None:
        assert err.value.args_ == args
    assert set(err.value.to_json()) == {"code", "args"}


def test_positions_from_a_record_at_a_ply_from_notation_and_from_the_editor() -> None:
    from asobiba.core import MoveEntry, Record
    from asobiba.formats import export_record

    line = random_line("reversi", 20, 4)
    states = get("reversi").replay(line)
    record = Record(game="reversi", options={}, seed=0, moves=tuple(
        MoveEntry(s.to_move, m) for s, m in zip(states, line, strict=False)))
    at = load({"game": "reversi", "record": record.to_json(), "ply": 7})
    assert at.moves == line[:7] and at.state.view(None) == states[7].view(None)
    text = export_record(record, "text")
    assert load({"game": "reversi", "notation": text}).state.view(None) == \
        states[-1].view(None)
    with pytest.raises(AnalysisError) as err:
        load({"game": "reversi", "record": record.to_json(), "ply": 21})
    assert err.value.to_json() == {"code": "analysis_bad_ply", "args": {"ply": "21",
                                                                        "plies": 20}}
    board = ["........", "........", "........", "...BBB..", "...WB...", "........",
             "........", "........"]
    edited = load({"game": "reversi", "setup": {"board": board, "turn": 1}, "moves": []})
    assert edited.state.view(None)["board"] == board
    assert edited.state.to_move == 1


# ---- hidden information: the seat's views only ----------------------------------------------
def _same_for_seat(make_pair: Callable[[], tuple[list[State], list[State], int]]) -> None:
    a_states, b_states, seat = make_pair()
    assert a_states[-1].to_json() != b_states[-1].to_json()
    game = a_states[-1].game
    a = Position(game, dict(a_states[-1].options), a_states, [])
    b = Position(game, dict(b_states[-1].options), b_states, [])
    assert seat_analysis(a, seat) == seat_analysis(b, seat)


def test_algo_seat_analysis_is_the_same_for_deals_the_seat_cannot_tell_apart() -> None:
    from tests.algo.test_views import swapped, walk

    checked = 0
    for s in walk({}, 0, 60)[::5]:
        if s.is_over or s.phase == "setup":
            continue
        for seat in range(s.num_seats):
            other = swapped(s, seat)
            if other is None:
                continue
            _same_for_seat(lambda s=s, o=other, seat=seat: ([s], [o], seat))
            result = seat_analysis(Position(s.game, dict(s.options), [s], []), seat)
            assert result["kind"] == "algo" and result["cards"]
            checked += 1
    assert checked > 3


def test_algo_best_guess_is_the_likeliest_card_of_the_exact_posterior() -> None:
    from tests.algo.test_views import walk

    s = walk({}, 2, 30)[10]
    result = seat_analysis(Position(s.game, dict(s.options), [s], []), s.acting_seats[0])
    best = result["best"]
    assert best is not None
    top = max(p for card in result["cards"] for p in card["numbers"].values())
    assert best["p"] == top


def test_memory_matrix_seat_analysis_is_the_same_for_hidden_colours_it_never_saw() -> None:
    from tests.memory_matrix.test_hidden import hidden_pair, random_states, swapped

    states = random_states({"players": 2}, seed=11, plies=60)
    checked = 0
    for i, state in enumerate(states):
        pair = hidden_pair(state)
        if pair is None:
            continue
        other = swapped(state, *pair)
        for seat in range(state.num_seats):
            _same_for_seat(lambda i=i, st=state, o=other, seat=seat:
                           (states[:i] + [st], states[:i] + [o], seat))
        checked += 1
    assert checked >= 3
    result = seat_analysis(Position(states[-1].game, dict(states[-1].options), states, []), 0)
    assert any(p["known"] is not None for p in result["pieces"])


def test_patapata_seat_analysis_ignores_another_players_unfinished_task() -> None:
    game = get("patapata")
    base = game.new_game({"players": 2, "course": "1"}, 0)
    a = base.play("clear e2X f2X e3O f3B", 0)
    b = base.play("clear a1X b1X a2O b2B", 0)
    _same_for_seat(lambda: ([base, a], [base, b], 1))
    mine = seat_analysis(Position(game, dict(a.options), [base, a], []), 1)
    assert mine["kind"] == "patapata" and len(mine["ways"]) == 3


def test_perfect_information_games_refuse_seat_analysis_and_hidden_ones_the_engine() -> None:
    with pytest.raises(AnalysisError) as err:
        seat_analysis(load({"game": "reversi"}), 0)
    assert err.value.code == "analysis_no_seat_analysis"
    with pytest.raises(AnalysisError) as err:
        step(load({"game": "algo"}), 1, 1.0)
    assert err.value.code == "analysis_no_engine"
