"""Tutorial steps: each is completable by its intended moves through the protocol, and the
other legal moves do not complete it unless they reach the same goal."""

from __future__ import annotations

import json

import pytest

from asobiba.games import available
from asobiba.progression.tutorials import TUTORIALS, tutorial

STEPS = [(g, s.key) for g in TUTORIALS if g in available() for s in tutorial(g).steps]


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
    if "algo" not in available():
        pytest.skip("algo not built")
    full = tutorial("algo").step("attack").start().to_json()
    assert full["rows_full"][1] == ["b0*", "w5*", "b11*", "w11*"]
    assert full["hand_full"] == "b1"


def test_algo_tutorial_views_hide_the_opponents_numbers() -> None:
    if "algo" not in available():
        pytest.skip("algo not built")
    view = tutorial("algo").step("attack").to_json()["view"]
    assert all("number" not in card for card in view["rows"][1])
    assert all("number" in card for card in view["rows"][0])


def test_memory_matrix_tutorial_start_is_the_one_the_texts_describe() -> None:
    if "memory_matrix" not in available():
        pytest.skip("memory_matrix not built")
    step = tutorial("memory_matrix").step("colour")
    board = step.start().view(0)["board"]
    assert board[3][3] == "B" and board[3][4] == "R"  # d4 blue, e4 red
    # d4 really hides blue when the memory step starts (the full state, never a view)
    full = tutorial("memory_matrix").step("memory").start().to_json()
    assert full["under"][3][3] == "b"
