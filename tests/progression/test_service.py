"""The facade the web app calls, end to end on SQLite: every call is one transaction."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import create_engine

from asobiba.core import Outcome
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import AccountError, Progression
from asobiba.progression.calibrate import calibrate_bots
from asobiba.progression.errors import AuthError, LadderError


@pytest.fixture
def prog(tmp_path, hasher) -> Progression:
    return Progression(create_engine(f"sqlite:///{tmp_path / 'svc.db'}"), hasher)


def test_register_play_rate_and_show_the_player_page(prog: Progression) -> None:
    me, token = prog.register("hanako", "a long password")
    assert prog.whoami(token)["id"] == me["id"]
    bot = prog.bot_id("reversi", "1")
    game = get("reversi")
    result = play_game(game, [game.make_bot("3", 1), game.make_bot("1", 2)], {}, 0)
    # against the CPU: stored and counted, never rated (docs/fair-play.md)
    out = prog.record_game([me["id"], bot], result.record, context="ladder")
    assert not out["rated"] and out["unrated"]["code"] == "cpu" and out["changes"] == []
    page = prog.player_page(me["id"])
    assert page["stats"]["reversi"]["games"] == 1 and page["ratings"] == []
    assert page["history"][0]["context"] == "ladder"
    # against a person: rated
    you, _ = prog.register("taro", "a long password")
    out = prog.record_game([me["id"], you["id"]], result.record)
    assert out["rated"] and out["pool"] == "reversi"
    page = prog.player_page(me["id"])
    assert page["stats"]["reversi"]["games"] == 2 and page["ratings"][0]["provisional"]
    board = prog.leaderboard("reversi", include_provisional=True)
    assert {row["name"] for row in board} == {"hanako", "taro"}
    assert prog.leaderboard("reversi") == []  # provisional: not on the public board


def test_a_failed_call_changes_nothing(prog: Progression) -> None:
    prog.register("hanako", "a long password")
    with pytest.raises(AccountError):
        prog.register("hanako", "another password")
    with pytest.raises(LadderError):
        prog.start_exam(1, "reversi")  # Paper: no exam due
    assert prog.ladder(1, "reversi")["exam"] is None


def test_guest_then_claim_keeps_the_history(prog: Progression) -> None:
    g, token = prog.guest()
    other, _ = prog.register("taro", "a long password")
    game = get("reversi")
    result = play_game(game, [game.make_bot("2", 1), game.make_bot("random", 2)], {}, 3)
    prog.record_game([g["id"], other["id"]], result.record)
    claimed, new_token = prog.claim_guest(token, "jiro", "a long password")
    assert claimed["id"] == g["id"] and prog.whoami(new_token)["name"] == "jiro"
    with pytest.raises(AuthError):  # the guest's token is not the account's (fixation)
        prog.whoami(token)
    assert prog.player_page(g["id"])["stats"]["reversi"]["games"] == 1


def test_ladder_daily_tutorial_and_feedback_through_the_facade(prog: Progression) -> None:
    me, _ = prog.register("hanako", "a long password")
    events = prog.ladder_result(me["id"], "reversi", "random", True)
    assert events[0]["rank"] == "leather"
    day = date(2026, 11, 29)
    ch = prog.daily_challenge("reversi", day)
    seat = ch["player_seat"]
    win = Outcome.from_scores((40, 24) if seat == 0 else (24, 40))
    assert prog.daily_result(me["id"], "reversi", day, win, today=day)[0]["type"] == "cleared"
    assert prog.daily_calendar(me["id"], "reversi", 2026, 11)["cleared"] == [29]
    tut = prog.tutorial("reverstargo")
    assert prog.tutorial_attempt("reverstargo", tut["steps"][0]["key"], "BQ")["done"]
    fb = prog.move_feedback("reversi", [(0, "d3")], "c3")
    assert fb is not None and fb["ply"] == 2 and fb["quality"] in (
        "best", "good", "inaccuracy", "mistake", "blunder")
    assert prog.move_feedback("flipflop", [], "Rb1-b2")["quality"] == "blunder"
    assert prog.move_feedback("flipflop", [], "Ra1-a2", {"board": "5x5"})["ply"] == 1


def test_calibration_orders_bot_levels_by_strength(session) -> None:
    rows = calibrate_bots(session, "reversi", ["random", "2"], rounds=6, seed=1, gap=1)
    by = {r.level: r for r in rows}
    assert by["2"].rating > by["random"].rating and by["2"].games == 6
