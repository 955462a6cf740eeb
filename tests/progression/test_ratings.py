"""Glicko-2, openskill and the rated-result service."""

from __future__ import annotations

import pytest

from asobiba.core import Outcome
from asobiba.progression import accounts, glicko2, ratings, skill
from asobiba.progression.errors import ProgressionError


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    player = glicko2.Glicko2Rating(1500, 200, 0.06)
    results = [(glicko2.Glicko2Rating(1400, 30, 0.06), 1.0),
               (glicko2.Glicko2Rating(1550, 100, 0.06), 0.0),
               (glicko2.Glicko2Rating(1700, 300, 0.06), 0.0)]
    new = glicko2.update(player, results, glicko2.PAPER)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_lichess_defaults_and_provisional_flag() -> None:
    r = glicko2.Glicko2Rating.new()
    assert (r.rating, r.deviation, r.volatility) == (1500, 500, 0.09)
    assert r.provisional()
    a, b = r, r
    for _ in range(40):
        a, b = glicko2.rate_pair(a, b, 0.5)
    assert a.rating == pytest.approx(1500)
    assert a.deviation >= 45.0  # the floor
    assert not a.provisional()


def test_glicko2_deviation_floor_and_inactivity() -> None:
    opp = glicko2.Glicko2Rating(2000, 30, 0.06)
    after = unclamped = glicko2.Glicko2Rating(2000, 46, 0.001)
    for _ in range(30):
        after = glicko2.update(after, [(opp, 0.5)])
        unclamped = glicko2.update(unclamped, [(opp, 0.5)], glicko2.Glicko2Config(min_deviation=0))
    assert unclamped.deviation < 40.0
    assert after.deviation == 45.0
    assert glicko2.inactive(after, 100).deviation > 45.0
    assert glicko2.inactive(glicko2.Glicko2Rating(1500, 499, 0.09), 10).deviation == 500.0


def test_glicko2_rejects_bad_scores() -> None:
    with pytest.raises(ValueError, match="score"):
        glicko2.update(glicko2.Glicko2Rating(), [(glicko2.Glicko2Rating(), 2.0)])


def test_openskill_free_for_all_ties_share_the_update() -> None:
    p = [skill.SkillRating() for _ in range(4)]
    new = skill.rate_free_for_all(p, [1, 2, 2, 4])
    assert new[0].mu > new[1].mu > new[3].mu
    assert new[1].mu == pytest.approx(new[2].mu)
    assert all(n.sigma < skill.SkillRating().sigma for n in new)


def _players(session, hasher, n):
    return [accounts.register(session, f"player{i}", "correct horse", hasher).id for i in range(n)]


def test_rated_two_player_game_uses_glicko2(session, hasher) -> None:
    a, b = _players(session, hasher, 2)
    res = ratings.record_result(session, "reversi", [a, b], Outcome.from_scores((40, 24)))
    assert res.pool == "reversi" and res.rated
    ch = {c.player_id: c for c in res.changes}
    assert ch[a].after > 1500 > ch[b].after
    assert ch[a].provisional
    assert ratings.current_rating(session, a, "reversi")["system"] == "glicko2"


def test_multi_player_game_with_tie_uses_openskill(session, hasher) -> None:
    ps = _players(session, hasher, 4)
    out = Outcome.from_scores((10, 7, 7, 3))
    res = ratings.record_result(session, "memory_matrix", ps, out, options={"players": 4})
    assert res.pool == "memory_matrix:multi"
    r = [ratings.current_rating(session, p, res.pool) for p in ps]
    assert r[0]["mu"] > r[1]["mu"] == r[2]["mu"] > r[3]["mu"]


def test_algo_pairs_are_rated_as_teams(session, hasher) -> None:
    ps = _players(session, hasher, 4)
    out = Outcome((1, 0, 1, 0), (1, 2, 1, 2))
    res = ratings.record_result(session, "algo", ps, out, options={"mode": "pair", "players": 4})
    assert res.pool == "algo:teams"
    r = [ratings.current_rating(session, p, res.pool)["mu"] for p in ps]
    assert r[0] == pytest.approx(r[2]) and r[1] == pytest.approx(r[3]) and r[0] > r[1]


def test_bot_ratings_are_anchors_unless_calibrating(session, hasher) -> None:
    (a,) = _players(session, hasher, 1)
    bot = accounts.bot_player(session, "reversi", "3").id
    ratings.record_result(session, "reversi", [a, bot], Outcome.from_scores((50, 14)))
    assert ratings.current_rating(session, bot, "reversi")["rating"] == 1500
    ratings.record_result(session, "reversi", [a, bot], Outcome.from_scores((50, 14)),
                          update_bots=True)
    assert ratings.current_rating(session, bot, "reversi")["rating"] < 1500


def test_hotseat_game_is_stored_but_not_rated(session, hasher) -> None:
    (a,) = _players(session, hasher, 1)
    res = ratings.record_result(session, "reversi", [a, a], Outcome.from_scores((40, 24)))
    assert not res.rated and ratings.current_rating(session, a, "reversi") is None
    assert ratings.player_page(session, a)["stats"]["reversi"]["games"] == 2


def test_leaderboard_lists_established_people_with_enough_established_opponents(
        session, hasher) -> None:
    ps = _players(session, hasher, 4)
    # a round-robin of four people until every rating is established
    for i in range(8):
        for x, y in ((0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)):
            score = (24, 40) if (i + x + y) % 3 == 2 else (40, 24)
            ratings.record_result(session, "reversi", [ps[x], ps[y]],
                                  Outcome.from_scores(score))
    board = ratings.leaderboard(session, "reversi")
    assert {row["name"] for row in board} == {f"player{i}" for i in range(4)}
    assert all(not row["provisional"] and row["games"] >= ratings.LEADERBOARD_GAMES
               for row in board)
    # established, but only ever against two people: not listed
    e = accounts.register(session, "player4", "correct horse", hasher).id
    for i in range(20):
        score = (24, 40) if i % 3 == 2 else (40, 24)
        ratings.record_result(session, "reversi", [e, ps[i % 2]], Outcome.from_scores(score))
    assert not ratings.current_rating(session, e, "reversi")["provisional"]
    assert "player4" not in [r["name"] for r in ratings.leaderboard(session, "reversi")]
    ratings.record_result(session, "reversi", [e, ps[2]], Outcome.from_scores((40, 24)))
    assert "player4" in [r["name"] for r in ratings.leaderboard(session, "reversi")]
    # a new player: provisional, listed only when asked (marked)
    c = accounts.register(session, "player5", "correct horse", hasher).id
    ratings.record_result(session, "reversi", [c, ps[0]], Outcome.from_scores((40, 24)))
    assert "player5" not in [r["name"] for r in ratings.leaderboard(session, "reversi")]
    asked = {r["name"]: r for r in ratings.leaderboard(session, "reversi",
                                                       include_provisional=True)}
    assert asked["player5"]["provisional"]


def test_a_provisional_opponent_moves_a_rating_by_a_tenth(session, hasher) -> None:
    """The damping, exactly: the same game against a fresh and an established person."""
    a, fresh, est = _players(session, hasher, 3)
    row = ratings.RatingRow(player_id=est, pool="reversi", system="glicko2", rating=1500.0,
                            deviation=60.0, volatility=0.06, provisional=False, games=40)
    session.add(row)
    session.flush()
    win = Outcome.from_scores((40, 24))
    first = ratings.record_result(session, "reversi", [a, fresh], win).changes[0]
    from asobiba.progression import glicko2
    full = glicko2.rate_pair(glicko2.Glicko2Rating.new(), glicko2.Glicko2Rating.new(), 1.0)[0]
    assert first.after - 1500 == pytest.approx(
        ratings.PROVISIONAL_OPPONENT_WEIGHT * (full.rating - 1500))
    # the fresh account's own change is not damped: its opponent was a new account too...
    # but against an established person it is the full Glicko-2 change
    g = accounts.register(session, "newcomer", "correct horse", hasher).id
    vs_est = ratings.record_result(session, "reversi", [g, est], win).changes
    full = glicko2.rate_pair(glicko2.Glicko2Rating.new(),
                             glicko2.Glicko2Rating(1500.0, 60.0, 0.06), 1.0)
    assert vs_est[0].after == pytest.approx(full[0].rating)
    # ...and the established person's loss to the newcomer is damped
    assert 1500 - vs_est[1].after == pytest.approx(
        ratings.PROVISIONAL_OPPONENT_WEIGHT * (1500 - full[1].rating))


def test_player_page_counts_results_per_game(session, hasher) -> None:
    a, b = _players(session, hasher, 2)
    ratings.record_result(session, "reversi", [a, b], Outcome.from_scores((40, 24)))
    ratings.record_result(session, "reversi", [b, a], Outcome.from_scores((32, 32)))
    ratings.record_result(session, "flipflop", [b, a], Outcome.from_scores((1, 0)))
    page = ratings.player_page(session, a)
    assert page["stats"]["reversi"] == {"games": 2, "win": 1, "draw": 1, "loss": 0,
                                        "score_rate": 0.75, "vs_bots": {}}
    assert page["stats"]["flipflop"]["loss"] == 1
    assert page["history"][0]["game"] == "flipflop" and page["history"][0]["opponents"] == ["player1"]


def test_result_with_wrong_seat_count_is_refused_and_stores_nothing(session, hasher) -> None:
    a, b = _players(session, hasher, 2)
    with pytest.raises(ProgressionError, match="seats"):
        ratings.record_result(session, "reversi", [a, b, a], Outcome.from_scores((40, 24)))
    assert ratings.player_page(session, a)["history"] == []


def test_openskill_tie_for_first_still_ranks_the_second_place_below() -> None:
    """Plackett–Luce gave the runner-up the winners' gain here; Bradley–Terry does not."""
    new = skill.rate_free_for_all([skill.SkillRating() for _ in range(4)], [1, 1, 2, 3])
    assert new[0].mu == pytest.approx(new[1].mu)
    assert new[1].mu > new[2].mu > new[3].mu


def test_player_page_counts_results_per_bot_level(session, hasher) -> None:
    (a,) = _players(session, hasher, 1)
    b1 = accounts.bot_player(session, "reversi", "1").id
    b3 = accounts.bot_player(session, "reversi", "3").id
    ratings.record_result(session, "reversi", [a, b1], Outcome.from_scores((40, 24)))
    ratings.record_result(session, "reversi", [b1, a], Outcome.from_scores((40, 24)))
    ratings.record_result(session, "reversi", [a, b3], Outcome.from_scores((20, 44)))
    vs = ratings.player_page(session, a)["stats"]["reversi"]["vs_bots"]
    assert vs == {"1": {"games": 2, "win": 1, "draw": 0, "loss": 1},
                  "3": {"games": 1, "win": 0, "draw": 0, "loss": 1}}


def test_suggested_bot_is_the_one_rated_nearest(session, hasher) -> None:
    from asobiba.progression.calibrate import calibrate_bots

    a, b = _players(session, hasher, 2)
    assert ratings.suggest_bot(session, a, "reversi") is None
    calibrate_bots(session, "reversi", ["random", "2"], rounds=6, seed=1, gap=1)
    ratings.record_result(session, "reversi", [a, b], Outcome.from_scores((40, 24)))
    # a is above 1500 and b below: the stronger bot suits a, the weaker b
    assert ratings.suggest_bot(session, a, "reversi") == "2"
    assert ratings.suggest_bot(session, b, "reversi") == "random"
    assert ratings.suggest_bot(session, a, "reversi", ["random"]) == "random"


def test_glicko2_time_away_widens_the_deviation_before_a_game(session, hasher) -> None:
    """As on lichess: 0.21436 rating periods a day of inactivity."""
    r = glicko2.Glicko2Rating(1800, 60, 0.06)
    assert glicko2.after_idle(r, 0).deviation == pytest.approx(60)
    year = glicko2.after_idle(r, 365)
    expected = ((60 / glicko2.SCALE) ** 2 + 365 * 0.21436 * 0.06 ** 2) ** 0.5 * glicko2.SCALE
    assert year.deviation == pytest.approx(expected)
    a, b = _players(session, hasher, 2)
    for i in range(20):
        ratings.record_result(session, "reversi", [a, b], Outcome.from_scores(
            (40, 24) if i % 2 else (24, 40)))
    from asobiba.progression.models import RatingRow
    fresh = session.get(RatingRow, (a, "reversi")).deviation
    session.get(RatingRow, (a, "reversi")).updated = "2020-01-01T00:00:00+00:00"
    before = session.get(RatingRow, (a, "reversi")).rating
    before_b = session.get(RatingRow, (b, "reversi")).rating
    ratings.record_result(session, "reversi", [a, b], Outcome.from_scores((40, 24)))
    idle_gain = session.get(RatingRow, (a, "reversi")).rating - before
    active_loss = before_b - session.get(RatingRow, (b, "reversi")).rating
    # the idle player's rating is less certain, so it moves more than the active one's
    assert idle_gain > active_loss > 0
    assert fresh < 110


def test_player_page_lists_every_opponent_of_a_multi_player_game(session, hasher) -> None:
    ps = _players(session, hasher, 4)
    ratings.record_result(session, "memory_matrix", ps, Outcome.from_scores((10, 7, 7, 3)),
                          options={"players": 4})
    ratings.record_result(session, "reversi", [ps[1], ps[0]], Outcome.from_scores((10, 7)))
    hist = ratings.player_page(session, ps[0])["history"]
    assert hist[0]["opponents"] == ["player1"] and hist[0]["result"] == "loss"
    assert hist[1]["opponents"] == ["player1", "player2", "player3"]
    assert hist[1]["result"] == "win"


def test_pools_of_a_game_list_its_own_first(session, hasher) -> None:
    ps = _players(session, hasher, 4)
    ratings.record_result(session, "memory_matrix", ps, Outcome.from_scores((10, 7, 7, 3)),
                          options={"players": 4})
    ratings.record_result(session, "memory_matrix", ps[:2], Outcome.from_scores((10, 7)))
    ratings.record_result(session, "reversi", ps[:2], Outcome.from_scores((10, 7)))
    assert ratings.pools(session, "memory_matrix") == ["memory_matrix", "memory_matrix:multi"]
