"""The game as a whole: protocol conformance, lockstep multi-seat play, what each seat sees,
bots, hints and the CLI hooks."""

from __future__ import annotations

import json

import pytest

from asobiba.core import IllegalMoveError, NotYourTurnError, OptionError
from asobiba.games import get
from asobiba.games.patapata.cli import puzzle, solve
from asobiba.games.patapata.game import GAME, PatapataState
from asobiba.games.patapata.hints import hints
from asobiba.games.patapata.tasks import dice_course
from asobiba.play.runner import play_game
from tests.conformance import assert_views_equal_for, check_random_games


def test_conformance_solo_and_three_players() -> None:
    check_random_games("patapata", [{}], games=4, probe_every=3)
    check_random_games("patapata", [{"players": 3, "course": "2"}], games=2, probe_every=5)


def test_registry_and_options() -> None:
    assert get("patapata") is GAME
    with pytest.raises(OptionError, match="course"):
        GAME.new_game({"course": "4"})
    with pytest.raises(OptionError, match="players"):
        GAME.new_game({"players": 0})


def test_rule_all_seats_work_on_the_same_task_and_advance_together() -> None:
    s = GAME.new_game({"players": 2, "course": "1"}, 0)
    assert s.acting_seats == (0, 1)
    with pytest.raises(NotYourTurnError):
        s.play("pass")  # several seats act: the seat must be named
    s = s.play("clear e2X f2X e3O f3B", 0)
    assert s.round == 0 and s.acting_seats == (1,)
    with pytest.raises(IllegalMoveError):
        s.play("pass", 0)  # seat 0 is done with task 1 and waits
    s = s.play("pass", 1)
    assert s.round == 1 and s.acting_seats == (0, 1)


def test_hidden_information_others_see_only_work_on_finished_tasks() -> None:
    """Other players' writes on the current task stay hidden until the task is over for all,
    and the course beyond the current task stays covered (the cover sheet)."""
    base = GAME.new_game({"players": 2, "course": "1"}, 0)
    a = base.play("clear e2X f2X e3O f3B", 0)
    b = base.play("clear a1X b1X a2O b2B", 0)
    assert_views_equal_for(1, a, b)
    assert_views_equal_for(None, a, b)
    bot = GAME.make_bot("god", 3)
    bot.reset(1, a.options)
    move_a = bot.choose(a.view(1))
    bot = GAME.make_bot("god", 3)
    bot.reset(1, b.options)
    assert bot.choose(b.view(1)) == move_a
    # seat 0 sees its own work
    assert a.view(0)["sheets"][0]["marks"] != b.view(0)["sheets"][0]["marks"]


def test_hidden_information_future_die_rolls_are_covered() -> None:
    seeds = [s for s in range(200) if dice_course(s)[0] == dice_course(0)[0]]
    other = next(s for s in seeds[1:] if dice_course(s)[1:] != dice_course(0)[1:])
    a, b = GAME.new_game({}, 0), GAME.new_game({}, other)
    assert isinstance(a, PatapataState) and isinstance(b, PatapataState)
    assert a.rows != b.rows
    assert_views_equal_for(0, a, b)
    bots = [GAME.make_bot("god", 1) for _ in range(2)]
    for bot, st in zip(bots, (a, b), strict=True):
        bot.reset(0, st.options)
    assert bots[0].choose(a.view(0)) == bots[1].choose(b.view(0))


def test_views_are_json_and_the_finished_game_shows_everything() -> None:
    result = play_game(GAME, [GAME.make_bot("greedy", 0), GAME.make_bot("random", 1)],
                       {"players": 2}, 4)
    final = result.states[-1]
    assert final.is_over and final.outcome is not None
    view = final.view(None)
    json.dumps(view)
    assert all("window" in sheet for sheet in view["sheets"])
    scores = [sheet["score"]["total"] for sheet in view["sheets"]]
    assert list(final.outcome.scores) == scores
    text = GAME.render_view(final.view(0))
    assert "final scores" in text


def test_bot_levels_are_ordered_on_a_few_courses() -> None:
    totals = {}
    for level in ("random", "greedy"):
        totals[level] = sum(
            play_game(GAME, [GAME.make_bot(level, seed)], {"course": "3"}, seed)
            .states[-1].outcome.scores[0] for seed in range(3))
    assert totals["greedy"] > totals["random"]


def test_god_bot_reaches_god_rating_on_a_fixed_course() -> None:
    result = play_game(GAME, [GAME.make_bot("god", 0)], {"course": "1"}, 0)
    score = result.states[-1].outcome.scores[0]
    assert score >= 40, score


def test_hint_lists_every_way_to_clear_ranked_by_estimate() -> None:
    s = GAME.new_game({"course": "1"}, 0).play("clear e2X f2X e3O f3B", 0)
    ranked = hints(s.view(0), searched=4, width=8)
    clears = [t for t in s.legal_moves(0).texts() if t.startswith("clear")]
    assert sorted(h.move for h in ranked if h.move != "pass") == sorted(clears)
    searched = [h.estimate for h in ranked if h.estimate is not None and h.move != "pass"]
    assert len(searched) == 4 and searched == sorted(searched, reverse=True)
    top = ranked[0]
    assert top.estimate is not None and top.estimate >= top.score_now - 5
    # the witness shows where: switches needed and writes inside the occurrence
    assert all(w in top.move for w in top.writes)


def test_cli_hooks(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve({"course": "2", "seed": 1}, ["pass"], True, width=8) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["moves"]) == 11 and out["score"] <= out["upper_bound"]
    assert puzzle(["--course", "1", "--top", "3"]) == 0
    assert "ways to clear" in capsys.readouterr().out
    assert solve({"course": "1"}, ["fold"], False) == 2
