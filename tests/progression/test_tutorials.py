"""Tutorial steps: each is completable by its intended moves through the protocol, and the
other legal moves do not complete it unless they reach the same goal."""

from __future__ import annotations

import json

import pytest

from asobiba.progression.tutorials import games_with_tutorials, tutorial

STEPS = [(g, s.key) for g in games_with_tutorials() for s in tutorial(g).steps]


@pytest.mark.parametrize("game_id,key", STEPS)
def test_step_is_completed_by_each_intended_move(game_id: str, key: str) -> None:
    step = tutorial(game_id).step(key)
    start = step.start()
    assert not start.is_over
    for move in step.solutions:
        assert move in start.legal_moves(), f"{move} is not legal in {game_id}/{key}"
        result = step.attempt(move)
        assert result.done, f"{game_id}/{key}: {move} did not complete the step"
        assert result.state is not None and result.state is not start


@pytest.mark.parametrize("game_id,key", STEPS)
def test_step_view_is_json_and_names_its_rule(game_id: str, key: str) -> None:
    step = tutorial(game_id).step(key)
    data = json.loads(json.dumps(step.to_json(), ensure_ascii=False))
    assert data["rule"] and data["goal"]["en"] and data["goal"]["ja"]
    assert data["view"]["legal_moves"]


def test_steps_that_have_wrong_moves_refuse_them_with_a_hint() -> None:
    checked = 0
    for game_id, key in STEPS:
        step = tutorial(game_id).step(key)
        start = step.start()
        wrong = 0
        snapshot = json.dumps(start.to_json(), sort_keys=True, default=str)
        texts = start.legal_moves().texts()
        for move in texts[:: max(1, len(texts) // 60)]:  # Patapata has ~350: a spread
            if move in step.solutions:
                continue
            result = step.attempt(move, start)
            if result.done:
                assert step.many_ways, f"{game_id}/{key}: {move} should not complete the step"
                continue
            assert result.state is start
            wrong += 1
        assert json.dumps(start.to_json(), sort_keys=True, default=str) == snapshot
        # a step with one right answer refuses every other legal move
        if not step.many_ways:
            checked += wrong
    assert checked >= 50


def test_rule_ko_step_refuses_the_forbidden_call_with_the_ko_reason() -> None:
    step = tutorial("reverstargo").step("ko")
    result = step.attempt("B1[W]")
    assert not result.done and "ko" in result.message.en.lower()


def test_rule_cp_call_step_wrong_call_flips_only_a1() -> None:
    step = tutorial("reverstargo").step("call")
    result = step.attempt("B1[B]")
    assert not result.done
    assert step.attempt("garbage!").message.en.startswith("'garbage!'")


def test_unknown_tutorial_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="reversi"):
        tutorial("chess")


def test_algo_tutorial_deal_is_the_one_the_texts_describe() -> None:
    """The texts name the cards of the seeded deal; the full state confirms them."""
    full = tutorial("algo").step("attack").start().to_json()
    assert full["rows_full"][1] == ["b0*", "w5*", "b11*", "w11*"]
    assert full["hand_full"] == "b1"


def test_algo_tutorial_views_hide_the_opponents_numbers() -> None:
    view = tutorial("algo").step("attack").to_json()["view"]
    assert all("number" not in card for card in view["rows"][1])
    assert all("number" in card for card in view["rows"][0])


def test_memory_matrix_tutorial_start_is_the_one_the_texts_describe() -> None:
    step = tutorial("memory_matrix").step("colour")
    board = step.start().view(0)["board"]
    assert board[3][3] == "B" and board[3][4] == "R"  # d4 blue, e4 red
    # d4 really hides blue when the memory step starts (the full state, never a view)
    full = tutorial("memory_matrix").step("memory").start().to_json()
    assert full["under"][3][3] == "b"


def test_flipflop_blocked_step_refuses_the_jump_and_the_capture_with_their_rules() -> None:
    step = tutorial("flipflop").step("blocked")
    jump, capture = step.attempt("Ra1-a3"), step.attempt("Ra1xa2")
    assert not jump.done and "jump" in jump.message.en
    assert not capture.done and "goal squares" in capture.message.en
    assert "Ra1-a3" not in step.start().legal_moves().texts()


def test_flipflop_retake_step_every_other_black_move_loses() -> None:
    step = tutorial("flipflop").step("retake")
    start = step.start()
    assert start.view(1)["threat"] == "b3"
    for move in start.legal_moves().texts():
        after = start.play(move)
        assert after.is_over
        assert after.outcome is not None
        assert after.outcome.winners == ((1,) if move == "Rc3xb3" else (0,))


def test_flipflop_repetition_step_third_occurrence_draws_and_others_do_not() -> None:
    step = tutorial("flipflop").step("repetition")
    start = step.start()
    view = start.view(0)
    # the position Rc1-c2 brings back is in the history exactly twice
    assert view["history"].count("2r/2B/3 b") == 2
    for move in start.legal_moves().texts():
        after = start.play(move)
        assert after.is_over == (move == "Rc1-c2")
    result = step.attempt("Rc1-c2")
    assert result.state is not None and result.state.outcome is not None
    assert result.state.outcome.is_draw
    # the step rebuilt from its own view plays the same (the history travels in the view)
    from asobiba.games import get as get_game

    rebuilt = get_game("flipflop").state_from_view(view)
    assert rebuilt.play("Rc1-c2").is_over


def test_memory_matrix_views_never_show_a_hidden_colour() -> None:
    for step in tutorial("memory_matrix").steps:
        start = step.start()
        under = start.to_json()["under"]
        view = step.to_json()["view"]
        assert "under" not in view and not view.get("memory_aid")
        for row_view, row_full in zip(view["board"], under, strict=True):
            for shown, full in zip(row_view, row_full, strict=True):
                if full.islower() or full == "*":
                    assert shown == "W", (step.key, row_view, row_full)
                else:
                    assert shown in (full, "-", " ", "#") or full in ".-", (step.key, shown, full)
        for move in step.solutions:
            after = step.attempt(move).state
            assert after is not None
            assert all(ch in "BRW.- " for row in after.view(0)["board"] for ch in row)


def test_memory_matrix_run_step_hides_blue_under_c3() -> None:
    step = tutorial("memory_matrix").step("run")
    assert step.start().to_json()["under"][2][2] == "b"
    assert step.to_json()["view"]["board"][2][2] == "W"
    assert not step.attempt("a3w").done


def test_memory_matrix_white_sandwich_step_really_has_no_colour_move() -> None:
    start = tutorial("memory_matrix").step("white-sandwich").start()
    view = start.view(0)
    assert view["white_any_time"] is False and view["to_move_colour"] == "B"
    moves = start.legal_moves().texts()
    assert moves and all(m.endswith("w") for m in moves)
    # a white piece that sandwiches nothing is refused while a sandwich exists
    assert "a6w" not in moves


def test_memory_matrix_white_any_time_step_has_a_colour_move_too() -> None:
    start = tutorial("memory_matrix").step("white-any-time").start()
    assert start.view(0)["white_any_time"] is True
    moves = start.legal_moves().texts()
    assert "d4w" in moves and any(not m.endswith("w") for m in moves)


def test_memory_matrix_lost_step_blue_has_nothing_face_up_and_no_sandwich() -> None:
    start = tutorial("memory_matrix").step("lost").start()
    view = start.view(0)
    blue = next(c for c in view["colours"] if c["letter"] == "B")
    assert blue["showing"] == 0
    empty = sum(row.count(".") for row in view["board"])
    # white anywhere: every empty cell, white side up, and nothing else
    moves = start.legal_moves().texts()
    assert len(moves) == empty and all(m.endswith("w") for m in moves)


def test_memory_matrix_end_step_score_is_pieces_showing_colour() -> None:
    step = tutorial("memory_matrix").step("end")
    after = step.attempt("c1").state
    assert after is not None and after.outcome is not None
    assert after.outcome.scores == (3, 2)
    wrong = step.attempt("c1w")
    assert not wrong.done and "b1" in wrong.message.en


def test_algo_order_step_is_a_sure_deduction_from_the_players_view() -> None:
    from asobiba.games.algo.infer import infer_view

    step = tutorial("algo").step("order")
    view = step.to_json()["view"]
    assert view["seat"] == 0
    last = view["rows"][1][4]
    assert not last["up"] and "number" not in last
    assert [c.get("number") for c in view["rows"][1][:4]] == [0, 3, 5, 11]
    best = infer_view(view).best()
    assert best[0][0] == 1.0 and best[0][2] == 11
    assert not step.attempt("attack B5=10").done


def test_algo_attempt_shows_the_players_own_view_after_the_move() -> None:
    """After stay the turn passes to B, but the tutorial shows the player's view: its own
    numbers, never the opponent's."""
    from asobiba.progression.service import Progression

    data = Progression.tutorial_attempt("algo", "stay", "stay")
    assert data["done"]
    view = data["view"]
    assert view["seat"] == 0
    assert all("number" in c for c in view["rows"][0])
    assert all("number" not in c for c in view["rows"][1] if not c["up"])


def test_patapata_write_step_refuses_a_mark_the_pattern_cannot_use() -> None:
    step = tutorial("patapata").step("write")
    result = step.attempt("write b2O")
    assert not result.done and "Q2" in result.message.en


def test_patapata_reuse_and_pass_steps() -> None:
    reuse = tutorial("patapata").step("reuse")
    start = reuse.start()
    before = sum(len(r) - r.count(".") for r in start.view(0)["sheets"][0]["marks"])
    for move in reuse.solutions:
        assert len(move.split()) - 1 < 4
        after = reuse.attempt(move).state
        assert after is not None
        marks = sum(len(r) - r.count(".") for r in after.view(0)["sheets"][0]["marks"])
        assert marks - before == len(move.split()) - 1
    four = next(m for m in start.legal_moves().texts() if len(m.split()) == 5)
    assert not reuse.attempt(four).done
    score = tutorial("patapata").step("score")
    assert not score.attempt("pass").done
    done = score.attempt(score.solutions[0]).state
    assert done is not None and done.outcome is not None
    assert done.view(0)["sheets"][0]["score"]["pass_points"] == 5


# ---- tutorials are data: the file format and its safe check expressions --------------------

def _file(check: str, **extra: object) -> str:
    step = {"key": "k", "rule": "placing and flipping", "title": {"en": "t", "ja": "t"},
            "explain": {"en": "e", "ja": "e"}, "goal": {"en": "g", "ja": "g"},
            "solutions": ["d3"], "check": check, **extra}
    return json.dumps({"game": "reversi", "steps": [step]})


def test_every_shipped_tutorial_is_a_data_file_naming_the_rule_of_each_step() -> None:
    from importlib import resources

    from asobiba.games import get

    for game_id in games_with_tutorials():
        hooks = get(game_id).progression()
        assert hooks.tutorial and hooks.tutorial.endswith(".json")
        data = json.loads(resources.files(hooks.package).joinpath(hooks.tutorial).read_text())
        assert data["game"] == game_id
        assert all(step["rule"] and step["check"] for step in data["steps"])


def test_a_check_expression_reads_the_views_and_the_game_helpers() -> None:
    from asobiba.progression.tutorials import load_tutorial

    step = load_tutorial("reversi", _file(
        "after.counts.white < before.counts.white and disc(after, 'd3') == 'B'")).steps[0]
    assert step.attempt("d3").done and not step.attempt("c4").done


@pytest.mark.parametrize("check", [
    "__import__('os').system('true')",          # unknown name
    "(lambda: 1)()",                             # no lambdas
    "[x for x in after.board]",                  # no comprehensions
    "after.board.count('B') > 0",                # no method calls, only named helpers
    "open('/etc/passwd')",                       # not a helper
    "after.counts.white <",                      # not an expression
])
def test_a_check_that_is_not_in_the_safe_subset_is_refused_when_read(check: str) -> None:
    from asobiba.progression.tutorials import TutorialFileError, load_tutorial

    with pytest.raises(TutorialFileError, match="check"):
        load_tutorial("reversi", _file(check))


def test_a_malformed_tutorial_file_names_the_problem() -> None:
    from asobiba.progression.tutorials import TutorialFileError, load_tutorial

    with pytest.raises(TutorialFileError, match="not JSON"):
        load_tutorial("reversi", "{")
    with pytest.raises(TutorialFileError, match="unknown field"):
        load_tutorial("reversi", _file("after.over", bogus=1))
    with pytest.raises(TutorialFileError, match="not both"):
        load_tutorial("reversi", _file("after.over", view={"board": []}, position="x"))
    with pytest.raises(TutorialFileError, match="expected"):
        load_tutorial("reversi", json.dumps({"game": "flipflop", "steps": []}))
