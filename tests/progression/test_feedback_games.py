"""Move feedback for FlipFlop 5×5, Memory Matrix, Algo and Patapata: a position where the best
move is known independently (a win on the spot, an exact solve through the game's own rules,
an exact hit, the real final score), and a clearly bad move classified as a mistake or a
blunder."""

from __future__ import annotations

from typing import Any

from asobiba.core import State
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression.feedback import (
    evaluator_for,
    move_feedback,
    review,
    thresholds_for,
)


def test_flipflop_5x5_takes_the_win_and_calls_missing_it_a_blunder() -> None:
    """White can step onto its goal at once (Rd1-d2 wins: the game says so); any move
    that does not win is a blunder when the opponent is not lost anyway."""
    game = get("flipflop")
    state = game.from_position("2b1b/1B1b1/2B1b/1B3/b2RR w")
    win = state.play("Rd1-d2")
    assert win.outcome is not None and win.outcome.winners == (state.to_move,)
    best = move_feedback(state, "Rd1-d2")
    assert best.quality == "best" and best.best_move == "Rd1-d2" and best.chance_after == 1.0
    others = [move_feedback(state, m) for m in state.legal_moves().texts() if m != "Rd1-d2"]
    assert others and all(f.best_move == "Rd1-d2" for f in others)
    assert all(f.quality == "blunder" for f in others if f.chance_after < 0.7)
    assert any(f.quality == "blunder" for f in others)
    assert thresholds_for("flipflop", {"board": "5x5"}).win_value > 1000  # not 3×3's table


def test_flipflop_5x5_values_do_not_depend_on_earlier_calls() -> None:
    """Fixed depth, fresh table per position: the same position gets the same values."""
    state = get("flipflop").new_game({"board": "5x5"}).play("Rb1-b2")
    ev = evaluator_for("flipflop", {"board": "5x5"})
    assert ev is not None
    first = ev.move_values(state)  # type: ignore[union-attr]
    ev.move_values(get("flipflop").new_game({"board": "5x5"}))  # type: ignore[union-attr]
    assert ev.move_values(state) == first  # type: ignore[union-attr]


def _solve(state: State, seat: int) -> float:
    """Exact final margin for ``seat`` (own score minus the best other), both sides
    playing it out through the game's own rules — an independent check of the search."""
    if state.is_over:
        scores = state.outcome.scores  # type: ignore[union-attr]
        return scores[seat] - max(s for k, s in enumerate(scores) if k != seat)
    mover = state.to_move
    vals = [_solve(state.play(m), seat) for m in state.legal_moves().texts()]
    return max(vals) if mover == seat else min(vals)


def test_memory_matrix_endgame_feedback_agrees_with_an_exact_solve() -> None:
    """A two-player 6×6 game played to four empty cells: the evaluator's best move
    reaches the best final margin found by playing every line out, and a move that
    throws the game away is a blunder."""
    game = get("memory_matrix")
    options = {"players": 2, "shape": "6x6", "layout": "windmill"}
    found = 0
    for seed in range(12):
        res = play_game(game, [game.make_bot("2", seed), game.make_bot("2", seed + 50)],
                        options, seed)
        states = res.states
        for k, state in enumerate(states[:-1]):
            empty = sum(row.count(".") for row in state.view(None)["board"])
            if state.is_over or empty != 4 or len(state.legal_moves()) < 2:
                continue
            seat = state.to_move
            assert seat is not None
            exact = {m: _solve(state.play(m), seat) for m in state.legal_moves().texts()}
            best_margin = max(exact.values())
            fb = {m: move_feedback(state, m, seat=seat, history=states[: k + 1])
                  for m in exact}
            chosen = next(iter(fb.values())).best_move
            assert exact[chosen] == best_margin, (seed, k, exact, chosen)
            for m, f in fb.items():
                if best_margin > 0 >= exact[m]:  # a won game thrown away
                    assert f.quality == "blunder", (m, exact, f)
                    found += 1
            break
    assert found >= 1, "no position in these games let a move throw a win away"


def _algo_state(deck: list[int]) -> Any:
    from asobiba.games.algo.game import deal_from

    options = get("algo").validate_options({"players": 2})
    return deal_from(options, deck)


def _key(colour: str, number: int) -> int:
    return number * 2 + "bw".index(colour)


# seat A: b0 b1 w0 w1; seat B: b2 w2 b3 w3 (sorted: b2 w2 b3 w3); A's first draw: b11
ALGO_DECK = [_key("b", 0), _key("b", 1), _key("w", 0), _key("w", 1),
             _key("b", 2), _key("w", 2), _key("b", 3), _key("w", 3),
             _key("b", 11)] + [_key(c, n) for n in range(4, 11) for c in "bw"] + [_key("w", 11)]


def test_algo_a_sure_hit_is_best_and_an_impossible_number_is_a_blunder() -> None:
    """A holds the four lowest cards b0 b1 w0 w1, so B's leftmost card, black, is at
    least b2 — and B's first two cards are b/w of the same number or rising: deduction
    gives B1 = 2 with the highest chance; naming 0 there (A holds b0) can never hit."""
    state = _algo_state(ALGO_DECK)
    assert state.to_move == 0
    view = state.view(0)
    from asobiba.games.algo.infer import infer_view

    probs = infer_view(view).numbers(view["rows"][1][0]["id"])
    best_number = max(probs, key=probs.__getitem__)
    fb_best = move_feedback(state, f"attack B1={best_number}")
    assert fb_best.quality == "best"
    assert probs[best_number] > 0.3
    bad = move_feedback(state, "attack B1=0")
    assert bad.value < 0 and bad.quality in ("mistake", "blunder"), bad
    assert probs.get(0, 0.0) == 0.0


def test_patapata_last_task_feedback_matches_the_real_final_scores() -> None:
    """On the last task of a fixed course the value of a clear is its final score, which
    the game itself computes: the best clear by the game's own scoring is called best, and
    a clear that ends ≥ 7 points lower is a blunder."""
    game = get("patapata")
    options = {"course": "1"}
    res = play_game(game, [game.make_bot("random", 3)], options, 3)  # a messy sheet
    states = res.states
    last = len(states) - 2
    state = states[last]
    assert state.view(0)["course"]["number"] == 12
    real = {m: state.play(m, 0).outcome.scores[0]  # type: ignore[union-attr]
            for m in state.legal_moves(0).texts() if m.startswith("clear") or m == "pass"}
    top = max(real.values())
    best_move = max(real, key=lambda m: (real[m], m))
    fb = move_feedback(state, best_move, seat=0, history=states[: last + 1])
    assert fb.quality == "best" and fb.value == 0.0
    worse = [m for m in real if real[m] <= top - 7]
    assert worse, real
    for m in real:
        f = move_feedback(state, m, seat=0, history=states[: last + 1])
        assert f.value == real[m] - top, (m, f, real)
        assert f.quality == ("blunder" if m in worse else "best" if real[m] == top
                             else f.quality), (m, f)


def test_reviews_cover_every_move_of_each_hidden_information_game() -> None:
    for game_id, options, levels in [("algo", {}, ("3", "4")),
                                     ("memory_matrix", {"players": 3, "shape": "6x6"},
                                      ("2", "2", "3")),
                                     ("patapata", {"course": "2"}, ("greedy",))]:
        game = get(game_id)
        res = play_game(game, [game.make_bot(lv, i) for i, lv in enumerate(levels)],
                        options, 5)
        moves = [(m.seat, m.move) for m in res.moves]
        rv = review(game_id, moves, options, 5)
        assert [m.move for m in rv.moves] == [m for _, m in moves]
        assert sum(sum(c.values()) for c in rv.counts.values()) == len(moves)
        assert thresholds_for(game_id).scale > 0


def test_algo_pair_play_judges_which_card_to_show_and_to_attack_with() -> None:
    """Pair play: ``show N`` is judged by the partner's best hit chance after seeing the
    card, ``use N`` by how much of the own row a miss would expose — both from the mover's
    view; a card that gives the partner nothing to go on is never 'best' over one that does."""
    game = get("algo")
    options = {"players": 4, "mode": "pair"}
    res = play_game(game, [game.make_bot("4", i) for i in range(4)], options, 2)
    moves = [(m.seat, m.move) for m in res.moves]
    rv = review("algo", moves, options, 2)
    kinds = {fb.move.split()[0] for fb in rv.moves}
    assert {"pass!", "show", "use", "attack"} <= kinds
    ev = evaluator_for("algo", options)
    judged = 0
    for k, (seat, text) in enumerate(moves):
        if not text.startswith(("show", "use")) or len(res.states[k].legal_moves(seat)) < 2:
            continue
        values = ev.values_from_views(  # type: ignore[union-attr]
            [st.view(seat) for st in res.states[: k + 1]], text)
        assert set(values) == set(res.states[k].legal_moves(seat).texts())
        fb = rv.moves[k]
        assert fb.value == values[text] and fb.best_value == max(values.values()) == 0.0
        judged += 1
    assert judged >= 4
