"""Issue 14 item 6: the review has a wall-clock budget. It deepens pass by pass (every move
at depth 1, then 2, … up to the evaluator's depth) and, when the deadline comes, answers
with what it has: each verdict says the depth it was searched to, the review says whether it
is complete, and the JSON stays finite. No timing asserts: the clock is a counter here."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from asobiba.games import get
from asobiba.progression.feedback import review


def _moves(game_id: str, seed: int, plies: int) -> list[tuple[int, str]]:
    game = get(game_id)
    state = game.new_game(game.validate_options({}), seed)
    rng = random.Random(seed)
    out: list[tuple[int, str]] = []
    while not state.is_over and len(out) < plies:
        seat = state.acting_seats[0]
        legal = state.legal_moves(seat).texts()
        out.append((seat, legal[rng.randrange(len(legal))]))
        state = state.play(out[-1][1], seat)
    return out


def _ticks(limit: int) -> tuple[Callable[[], float], float]:
    """A clock that moves one unit per reading, and a deadline ``limit`` readings away."""
    now = [0.0]

    def clock() -> float:
        now[0] += 1
        return now[0]
    return clock, float(limit)


def _finite_json(data: object) -> dict:
    return json.loads(json.dumps(data, allow_nan=False))  # NaN/Infinity would raise


MOVES = _moves("reversi", 1, 60)


def test_full_budget_reaches_the_evaluators_depth_and_matches_the_plain_review() -> None:
    plain = review("reversi", MOVES).to_json()
    clock, _ = _ticks(0)
    deep = review("reversi", MOVES, deadline=1e12, clock=clock).to_json()
    assert deep["complete"] is True and deep["depth"] == 3 and deep["plies"] == len(MOVES)
    assert len(deep["moves"]) == len(MOVES)
    # forced moves need no search (depth 0); every other verdict is a depth-3 one
    assert {m["depth"] for m in deep["moves"]} <= {0, 3}
    assert any(m["depth"] == 3 for m in deep["moves"])
    assert deep["moves"] == plain["moves"] and deep["turning_points"] == plain["turning_points"]
    _finite_json(deep)


def test_an_exhausted_budget_answers_with_what_it_has_and_says_so() -> None:
    # readings: one per move of each pass; 60 moves at depth 1 then 25 at depth 2
    clock, deadline = _ticks(len(MOVES) + 25)
    part = _finite_json(review("reversi", MOVES, deadline=deadline, clock=clock).to_json())
    assert part["complete"] is False and part["plies"] == len(MOVES)
    depths = [m["depth"] for m in part["moves"]]
    assert len(depths) == len(MOVES)  # the first pass finished: every move has a verdict
    assert 2 in depths and 1 in depths and 3 not in depths
    # the deeper pass went in order: verdicts of depth 2 come first, then depth 1
    searched = [d for d in depths if d]
    assert searched == sorted(searched, reverse=True)
    assert sum(sum(c.values()) for c in part["counts"].values()) == len(MOVES)


def test_a_budget_gone_before_the_first_pass_ends_gives_a_prefix() -> None:
    clock, deadline = _ticks(20)
    part = _finite_json(review("reversi", MOVES, deadline=deadline, clock=clock).to_json())
    assert part["complete"] is False and part["plies"] == len(MOVES)
    assert [m["ply"] for m in part["moves"]] == list(range(1, len(part["moves"]) + 1))
    assert 0 < len(part["moves"]) < len(MOVES)
    assert {m["depth"] for m in part["moves"]} <= {0, 1}
    clock, _ = _ticks(0)
    none = _finite_json(review("reversi", MOVES, deadline=0.5, clock=clock).to_json())
    assert none["moves"] == [] and none["complete"] is False and none["turning_points"] == []


def test_every_game_answers_finite_json_under_a_tiny_budget() -> None:
    from asobiba.games import available
    from asobiba.progression.feedback import has_feedback

    for game_id in available():
        if not has_feedback(game_id, get(game_id).validate_options({})):
            continue
        moves = _moves(game_id, 3, 12)
        clock, deadline = _ticks(len(moves) // 2)
        out = _finite_json(review(game_id, moves, seed=3, deadline=deadline,
                                  clock=clock).to_json())
        assert out["complete"] is False and len(out["moves"]) < len(moves), game_id
        assert all(m["depth"] is None or m["depth"] >= 0 for m in out["moves"]), game_id


def test_the_review_endpoint_answers_with_the_depth_of_each_verdict(tmp_path) -> None:
    """POST /api/review of a 60-move Reversi record, through the app: whatever the machine's
    load, the answer is the documented Review (api_schema), each verdict with its depth,
    and ``complete`` tells whether every move got the full depth."""
    from starlette.testclient import TestClient

    from asobiba.core import MoveEntry, Record
    from asobiba.server import api_schema, create_app
    from asobiba.server.limits import Limits

    rec = Record(game="reversi", options={}, seed=1,
                 moves=tuple(MoveEntry(s, m) for s, m in MOVES))
    with TestClient(create_app(str(tmp_path), bot_processes=0,
                               limits=Limits(scale=1000))) as client:
        res = client.post("/api/review", content=rec.dumps(),
                          headers={"content-type": "application/json"})
    assert res.status_code == 200, res.text
    data = api_schema.Review.model_validate(_finite_json(res.json())).model_dump()
    rv = data["review"]
    assert rv["plies"] == len(MOVES) and rv["depth"] == 3
    assert [m["ply"] for m in rv["moves"]] == list(range(1, len(rv["moves"]) + 1))
    assert all(m["depth"] in (0, 1, 2, 3) for m in rv["moves"])
    if rv["complete"]:
        assert len(rv["moves"]) == len(MOVES)
        assert {m["depth"] for m in rv["moves"]} <= {0, 3}
