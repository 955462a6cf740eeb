"""Property tests: match bookkeeping and rating updates on random inputs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.core import Outcome
from asobiba.progression import glicko2, skill
from asobiba.progression.matches import Match, MatchFormat

formats = st.builds(MatchFormat, st.sampled_from([1, 3, 5, 7]), st.booleans())
scores = st.tuples(st.integers(0, 64), st.integers(0, 64))


@settings(max_examples=80, deadline=None)
@given(fmt=formats, first=st.integers(0, 1), games=st.lists(scores, min_size=1, max_size=30))
def test_match_bookkeeping(fmt: MatchFormat, first: int, games: list[tuple[int, int]]) -> None:
    m = Match(fmt, first)
    for i, (a, b) in enumerate(games):
        if m.is_over:
            break
        slot = m.next_game()
        assert slot is not None and slot.index == i
        m = m.add(Outcome.from_scores((a, b)))
    wa, wb = m.wins()
    assert wa + wb <= len(m.units()) <= fmt.best_of
    assert max(wa, wb) <= fmt.target
    if m.is_over:
        assert m.next_game() is None
        assert m.winner == ("A" if wa > wb else "B" if wb > wa else None)
    # in every reverse set both sides play both colours
    if fmt.reverse:
        for k in range(0, len(m.games) - 1, 2):
            assert {m.games[k].seat_of_a, m.games[k + 1].seat_of_a} == {0, 1}
    assert Match.from_json(m.to_json()) == m


ratings = st.builds(glicko2.Glicko2Rating, st.floats(800, 2800), st.floats(45, 500),
                    st.floats(0.03, 0.12))


@settings(max_examples=150, deadline=None)
@given(a=ratings, b=ratings, score=st.sampled_from([0.0, 0.5, 1.0]))
def test_glicko2_pair_update(a: glicko2.Glicko2Rating, b: glicko2.Glicko2Rating,
                             score: float) -> None:
    na, nb = glicko2.rate_pair(a, b, score)
    expected = glicko2.expected_score(a, b)
    # a result better than expected raises the rating, worse lowers it
    if score > expected + 1e-6:
        assert na.rating > a.rating
    elif score < expected - 1e-6:
        assert na.rating < a.rating
    else:
        assert abs(na.rating - a.rating) < 1e-3
    for r in (na, nb):
        assert 45.0 <= r.deviation <= 500.0 and r.volatility > 0


@settings(max_examples=60, deadline=None)
@given(ranks=st.lists(st.integers(1, 4), min_size=3, max_size=6))
def test_openskill_better_rank_never_gains_less(ranks: list[int]) -> None:
    new = skill.rate_free_for_all([skill.SkillRating() for _ in ranks], ranks)
    for i, ri in enumerate(ranks):
        for j, rj in enumerate(ranks):
            if ri < rj:
                assert new[i].mu > new[j].mu
            elif ri == rj:
                assert abs(new[i].mu - new[j].mu) < 1e-9
