"""Match formats: single, reverse match (seed §8), best-of-N series."""

from __future__ import annotations

import pytest

from asobiba.core import Outcome
from asobiba.games import get
from asobiba.progression.errors import MatchError
from asobiba.progression.matches import (
    REVERSE,
    SINGLE,
    Match,
    MatchFormat,
    format_vs_cpu,
    play_match,
    tiebreak_for,
)


def win_for(seat: int, a: float = 40, b: float = 24) -> Outcome:
    return Outcome.from_scores((a, b) if seat == 0 else (b, a))


def test_rule_reverse_match_colours_swap_within_and_alternate_across_sets() -> None:
    """Seed §8 ③: 1 セット目：黒 → 白 / 2 セット目：白 → 黒 / 3 セット目：黒 → 白."""
    m = Match(MatchFormat(5, True))
    assert [m.seat_of_a(i) for i in range(6)] == [0, 1, 1, 0, 0, 1]


def test_rule_series_colours_alternate_every_game() -> None:
    """Seed §9 ②: 白黒は1試合ごとに自動で交代します."""
    m = Match(MatchFormat(5), first=1)
    assert [m.seat_of_a(i) for i in range(5)] == [1, 0, 1, 0, 1]


def test_rule_reverse_match_combined_score_decides_even_after_losing_game_one() -> None:
    """Seed §8 ②: 1 局目で負けても、2 局目で大きく勝てば逆転できます."""
    m = Match(REVERSE)
    m = m.add(Outcome.from_scores((20, 17)))  # A is seat 0 and wins 20-17
    m = m.add(Outcome.from_scores((30, 7)))  # A is seat 1 and loses 7-30: 27 against 47
    assert m.is_over and m.winner == "B"
    m2 = Match(REVERSE).add(Outcome.from_scores((10, 27))).add(Outcome.from_scores((2, 35)))
    assert m2.winner == "A"  # lost game 1 by 17, won game 2 by 33


def test_rule_reverse_match_tie_goes_to_tiebreak_then_draw() -> None:
    m = Match(REVERSE).add(Outcome.from_scores((20, 17)), (3, 1))
    tied = m.add(Outcome.from_scores((20, 17)), (2, 1))  # A seat 1: scores 37-37
    assert tied.units()[0].score_a == tied.units()[0].score_b == 37
    assert tied.winner == "A"  # captures 3+1 = 4 against 1+2 = 3 (A is seat 1 in game 2)
    drawn = m.add(Outcome.from_scores((20, 17)), (3, 1))  # captures 3+1 against 1+3
    assert drawn.is_over and drawn.winner is None


def test_series_ends_at_target_and_draws_count_for_neither() -> None:
    m = Match(MatchFormat(3))
    m = m.add(win_for(0))            # A wins (A seat 0)
    assert not m.is_over
    m = m.add(Outcome.from_scores((32, 32)))  # draw
    assert m.wins() == (1, 0) and not m.is_over
    m = m.add(win_for(0))            # A is seat 0 again in game 3
    assert m.is_over and m.wins() == (2, 0) and m.winner == "A"
    with pytest.raises(MatchError, match="over"):
        m.add(win_for(0))


def test_series_after_n_units_without_target_goes_to_more_wins_or_draw() -> None:
    m = Match(MatchFormat(3)).add(win_for(0)).add(win_for(0)).add(Outcome.from_scores((1, 1)))
    assert m.is_over and m.wins() == (1, 1) and m.winner is None


def test_format_parse_and_errors() -> None:
    assert MatchFormat.parse("rm-bo5") == MatchFormat(5, True)
    assert MatchFormat.parse("single") == SINGLE and MatchFormat.parse("rm") == REVERSE
    for bad in ("bo4", "best of 3", "rm-bo0"):
        with pytest.raises(MatchError):
            MatchFormat.parse(bad)


def test_match_json_roundtrip() -> None:
    m = Match(MatchFormat(3, True), 1).add(win_for(1)).add(win_for(0))
    assert Match.from_json(m.to_json()) == m


def test_rule_reverse_match_automatic_from_lv5_against_cpu() -> None:
    """Seed §8 ④: Lv.5 以上のすべての対戦 — the fifth CPU level and above."""
    rsg = get("reverstargo")
    assert not format_vs_cpu(rsg, "advanced").reverse
    assert format_vs_cpu(rsg, "formidable").reverse and format_vs_cpu(rsg, "final").reverse
    reversi = get("reversi")
    assert not format_vs_cpu(reversi, "3").reverse and format_vs_cpu(reversi, "4").reverse


def test_reverstargo_tiebreak_reads_captures_from_the_public_view() -> None:
    rsg = get("reverstargo")
    tb = tiebreak_for(rsg)
    assert tb is not None
    assert tb(rsg.new_game().view(None)) == (0.0, 0.0)
    assert tiebreak_for(get("reversi")) is None


def test_play_match_between_bots_same_seed_per_reverse_set() -> None:
    game = get("reversi")
    res = play_match(game, lambda s: game.make_bot("2", s), lambda s: game.make_bot("random", s),
                     MatchFormat(3, True), seed=5)
    assert res.match.is_over
    seats = [g.seat_of_a for g in res.match.games]
    assert seats == [res.match.seat_of_a(i) for i in range(len(seats))]
    # both legs of a set share the seed (same deal with colours swapped)
    assert res.games[0].record.seed == res.games[1].record.seed
    assert res.games[0].record.seats[0].level == "2"  # A (level 2) is black in game 1
    assert res.games[1].record.seats[1].level == "2"


def test_random_opening_is_seeded_and_leaves_a_choice() -> None:
    from asobiba.progression.matches import random_opening

    game = get("reversi")
    lo, hi = get("reversi").progression().opening_plies
    openings = {random_opening(game, {}, seed) for seed in range(12)}
    assert len(openings) > 6  # seeds give different openings
    for seed in range(12):
        op = random_opening(game, {}, seed)
        assert op == random_opening(game, {}, seed) and lo <= len(op) <= hi
        state = game.replay(list(op))[-1]
        assert not state.is_over and len(state.legal_moves()) > 1


def test_play_from_hands_bots_views_only_and_replays_exactly() -> None:
    from asobiba.core import RandomBot
    from asobiba.progression.matches import play_from, random_opening

    class Watcher(RandomBot):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.seen: list[dict] = []

        def observe(self, view) -> None:  # type: ignore[no-untyped-def]
            self.seen.append(dict(view))

    game = get("reversi")
    opening = random_opening(game, {}, 3)
    bots = [Watcher(1), Watcher(2)]
    states = play_from(game, bots, {}, 3, opening)
    assert states[-1].is_over
    assert all(isinstance(v, dict) and v["seat"] == s for s, b in enumerate(bots) for v in b.seen)
    assert len(bots[0].seen) == len(states)  # one view per state, from the start
    texts = [v["last_move"] for v in bots[0].seen[1:]]  # the opening came first
    assert [t for _, t in opening] == texts[: len(opening)]
