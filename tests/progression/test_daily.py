"""Daily challenges: deterministic per date, calendar, monthly trophy, puzzle ratings."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from asobiba.core import Outcome
from asobiba.games import available, get
from asobiba.games.algo.progression import WEEKDAY_TSUME_LEVEL
from asobiba.progression import accounts, daily, ratings
from asobiba.progression.daily import DailyError, challenge

DAY = date(2026, 11, 29)


def test_challenge_is_the_same_for_everyone_on_a_date_and_differs_across_dates() -> None:
    fresh = challenge.__wrapped__  # computed anew each call, not from the cache
    for gid in available():  # every registered game, plug-ins included
        a, b = fresh(gid, DAY), fresh(gid, DAY)
        assert a is not b and a == b and a.to_json() == b.to_json()
        others = {challenge(gid, DAY + timedelta(days=k)).to_json()["seed"] for k in range(1, 8)}
        assert a.seed not in others


def test_opponent_challenge_starts_with_the_player_to_move() -> None:
    for k in range(7):
        ch = challenge("reversi", DAY + timedelta(days=k))
        state = ch.start()
        assert not state.is_over and state.to_move == ch.player_seat
        assert len(state.legal_moves()) > 1


def test_cpu_level_grows_through_the_week() -> None:
    monday = DAY - timedelta(days=DAY.weekday())
    levels = [challenge("reversi", monday + timedelta(days=k)).bot_level for k in range(7)]
    assert levels == ["1", "2", "2", "3", "3", "4", "5"]


@pytest.mark.parametrize("gid", [g for g in available() if get(g).progression().daily is None])
def test_every_two_seat_game_with_bots_has_a_daily_challenge(gid: str) -> None:
    """Every game without a daily hook of its own (a puzzle, a tsume) gets an opponent."""
    ch = challenge(gid, DAY)
    assert ch.kind == "opponent" and ch.bot_level in get(gid).level_names()
    assert not ch.start().is_over


def test_puzzle_target_is_one_more_than_the_greedy_bot_scores() -> None:
    ch = challenge("patapata", DAY)
    assert ch.kind == "puzzle"
    greedy = daily.play_challenge(ch, get("patapata").make_bot("greedy", ch.seed))
    assert greedy.outcome.scores[0] == ch.target - 1
    assert not ch.cleared_by(greedy.outcome)


def test_a_real_win_clears_the_day(session, hasher) -> None:
    pid = accounts.register(session, "daily1", "long enough", hasher).id
    monday = date(2026, 11, 23)
    ch = challenge("reversi", monday)  # Monday: Lv.2, reversi level 1
    final = daily.play_challenge(ch, get("reversi").make_bot("4", 1))
    events = daily.record_attempt(session, pid, "reversi", monday, final.outcome, today=monday)
    assert ch.cleared_by(final.outcome)  # level 4 beats level 1 from this start
    assert events == [{"type": "cleared", "day": "2026-11-23"}]
    assert daily.month_calendar(session, pid, "reversi", 2026, 11)["cleared"] == [23]


def _win(ch: daily.DailyChallenge) -> Outcome:
    return Outcome.from_scores((40, 24) if ch.player_seat == 0 else (24, 40))


def test_only_todays_challenge_can_be_cleared(session, hasher) -> None:
    pid = accounts.register(session, "daily2", "long enough", hasher).id
    with pytest.raises(DailyError, match="only today's"):
        daily.record_attempt(session, pid, "reversi", DAY - timedelta(days=1),
                             _win(challenge("reversi", DAY)), today=DAY)
    assert daily.month_calendar(session, pid, "reversi", 2026, 11)["cleared"] == []


def test_full_month_earns_a_trophy_once(session, hasher) -> None:
    pid = accounts.register(session, "daily3", "long enough", hasher).id
    trophies = []
    for d in range(1, 29):  # February 2026 has 28 days
        day = date(2026, 2, d)
        ch = challenge("flipflop", day)
        ev = daily.record_attempt(session, pid, "flipflop", day, _win(ch), today=day)
        trophies += [e for e in ev if e["type"] == "trophy"]
        if d == 10:  # a later attempt that day is practice: a loss takes nothing back
            lose = Outcome.from_scores((0, 1) if ch.player_seat == 0 else (1, 0))
            again = daily.record_attempt(session, pid, "flipflop", day, lose, today=day)
            assert [(e["type"], e["cleared"]) for e in again] == [("practice", False)]
        cal = daily.month_calendar(session, pid, "flipflop", 2026, 2)
        assert cal["trophy"] == (d == 28)
    assert trophies == [{"type": "trophy", "period": "2026-02"}]
    assert daily.trophies(session, pid)[0]["period"] == "2026-02"
    assert daily.month_calendar(session, pid, "reversi", 2026, 2)["trophy"] is False


def test_puzzle_first_attempt_is_rated_against_the_puzzle(session, hasher) -> None:
    pid = accounts.register(session, "daily4", "long enough", hasher).id
    ch = challenge("patapata", DAY)
    solved = Outcome.from_scores((ch.target,))
    ev = daily.record_attempt(session, pid, "patapata", DAY, solved, today=DAY)
    rating = [e for e in ev if e["type"] == "rating"][0]
    assert rating["pool"] == "patapata:puzzle" and rating["after"] > rating["before"]
    ev2 = daily.record_attempt(session, pid, "patapata", DAY, solved, today=DAY)
    # the second attempt is practice: not rated, said so
    assert [(e["type"], e["attempt"]) for e in ev2] == [("practice", 2)]
    puzzle = accounts.puzzle_player(session, "patapata", DAY.isoformat())
    assert ratings.current_rating(session, puzzle.id, "patapata:puzzle")["rating"] < 1500


@pytest.mark.parametrize("gid", ["memory_matrix"])
def test_public_challenge_hides_the_seed_of_games_with_secrets(gid: str) -> None:
    """The seed deals the hidden cards/colours: a client gets only its own start view."""
    ch = challenge(gid, DAY)
    public = ch.public_json()
    assert "seed" not in public and "seed" in ch.to_json()
    assert public["view"] == ch.start().view(ch.player_seat)
    assert str(ch.seed) not in str(public)


def test_public_challenge_of_a_perfect_information_game_keeps_the_seed() -> None:
    ch = challenge("reversi", DAY)
    assert ch.public_json()["seed"] == ch.seed


def test_tsume_algo_daily_shows_no_hidden_number_and_grades_answers(session, hasher) -> None:
    from asobiba.games.algo.tsume import generate

    ch = challenge("algo", DAY)
    assert ch.kind == "tsume"
    public = ch.public_json()
    assert "seed" not in public and "seed" not in public["puzzle"]
    pz = generate(WEEKDAY_TSUME_LEVEL[DAY.weekday()], ch.seed)
    shown = sum("number" in card for row in public["puzzle"]["rows"] for card in row)
    assert shown == sum(sum(up) for up in pz.up) < sum(len(r) for r in pz.rows)
    right = [pz.answer(q) for q in pz.questions]
    assert ch.cleared_by(ch.grade([a.upper() for a in right]))
    wrong = ch.grade(["x9"] + right[1:])
    assert wrong.scores[0] == len(right) - 1 and not ch.cleared_by(wrong)
    with pytest.raises(DailyError, match="answers"):
        ch.grade(right[:1])
    pid = accounts.register(session, "daily5", "long enough", hasher).id
    ev = daily.record_attempt(session, pid, "algo", DAY, wrong, today=DAY)
    assert [e["type"] for e in ev] == ["rating"] and ev[0]["after"] < ev[0]["before"]
    ev = daily.record_attempt(session, pid, "algo", DAY, ch.grade(right), today=DAY)
    # the day counts once: the right answers of a retry are practice (rated once, not cleared)
    assert [(e["type"], e["cleared"]) for e in ev] == [("practice", True)]
    assert daily.month_calendar(session, pid, "algo", DAY.year, DAY.month)["cleared"] == []


def test_tsume_algo_gets_harder_through_the_week() -> None:
    monday = DAY - timedelta(days=DAY.weekday())
    levels = [challenge("algo", monday + timedelta(days=k)).puzzle["level"] for k in range(7)]
    assert levels == [1, 1, 2, 2, 3, 3, 4]
