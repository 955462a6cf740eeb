"""The 30-rank ladder: data, transitions, unlocks, exams (seed §9, REFERENCE "Ranks")."""

from __future__ import annotations

import pytest

from asobiba.core import Outcome
from asobiba.games import available, get
from asobiba.play.runner import play_game
from asobiba.progression import accounts, ladder
from asobiba.progression.errors import LadderError
from asobiba.progression.ladder import LadderProgress
from asobiba.progression.ladder_data import RANKS, Exam, has_ladder, tier_levels, unlocked_tiers

WIN0 = Outcome.from_scores((40, 24))
WIN1 = Outcome.from_scores((24, 40))


def player_wins(p: LadderProgress) -> Outcome:
    nxt = p.exam_next()
    assert nxt is not None
    return WIN0 if nxt[1].seat_of_a == 0 else WIN1


def player_loses(p: LadderProgress) -> Outcome:
    return WIN1 if player_wins(p) is WIN0 else WIN0


def win_exam(p: LadderProgress) -> tuple[LadderProgress, list]:
    p = p.start_exam()
    events: list = []
    while p.exam is not None:
        p, ev = p.record_exam_game(player_wins(p))
        events += ev
    return p, events


def test_rule_thirty_ranks_paper_to_zeus_with_the_seed_exams() -> None:
    assert len(RANKS) == 30 and RANKS[0].en == "Paper" and RANKS[-1].en == "Zeus"
    exams = {r.en: (r.condition.best_of, r.condition.reverse) for r in RANKS
             if isinstance(r.condition, Exam)}
    # seed §9 ①: ウッド→3番勝負→ストーン … ゴッド→RM 21番勝負→ゼウス
    assert exams == {"Stone": (3, False), "Bronze": (5, False), "Platinum": (7, False),
                     "Topaz": (7, False), "Diamond": (5, True), "Legend": (7, True),
                     "Grandmaster": (15, True), "God": (11, True), "Zeus": (21, True)}
    assert {r.en: r.unlocks for r in RANKS if r.unlocks} == {
        "Paper": "lv1", "Stone": "lv2", "Bronze": "lv3", "Platinum": "lv4", "Topaz": "lv5",
        "Diamond": "max", "Grandmaster": "final"}
    # seed: プラチナからレジェンドまでの昇格試験は、通算20勝でも昇格できます
    assert [r.en for r in RANKS if isinstance(r.condition, Exam) and r.condition.career] == [
        "Platinum", "Topaz", "Diamond", "Legend"]


def test_rule_any_win_gives_leather_then_three_lv1_wins_wood() -> None:
    p = LadderProgress()
    p, ev = p.record_cpu_unit("lv1", False)
    assert p.current.en == "Paper" and ev == []
    p, ev = p.record_cpu_unit("lv1", True)
    assert p.current.en == "Leather" and ev[0]["rank"] == "leather"
    p, _ = p.record_cpu_unit("lv1", None)
    p, _ = p.record_cpu_unit("lv1", True)
    assert p.current.en == "Leather"
    p, _ = p.record_cpu_unit("lv1", True)
    assert p.current.en == "Wood" and p.exam_due() is not None


def test_rule_locked_levels_cannot_be_played() -> None:
    with pytest.raises(LadderError, match="locked"):
        LadderProgress().record_cpu_unit("lv2", True)
    assert unlocked_tiers(0) == ["lv1"]


def test_rule_exam_passed_promotes_and_unlocks_next_level() -> None:
    p = LadderProgress(rank=2, wins={"lv1": 3})
    p, events = win_exam(p)
    assert p.current.en == "Stone" and "lv2" in p.unlocked()
    assert events[0]["type"] == "exam_passed" and events[1]["unlocked"] == "lv2"
    # Iron and Steel count cumulative wins at Lv.2
    for _ in range(5):
        p, _ = p.record_cpu_unit("lv2", True)
    assert p.current.en == "Iron"
    for _ in range(5):
        p, _ = p.record_cpu_unit("lv2", True)
    assert p.current.en == "Steel"


def test_rule_exam_lost_fails_and_can_be_retried() -> None:
    p = LadderProgress(rank=2, wins={"lv1": 3}).start_exam()
    p, _ = p.record_exam_game(player_loses(p))
    p, ev = p.record_exam_game(player_loses(p))
    assert ev == [{"type": "exam_failed", "rank": "stone", "reason": "lost", "wins": [0, 2]}]
    assert p.current.en == "Wood" and p.exam is None
    p, _ = win_exam(p)  # retry any time
    assert p.current.en == "Stone" and p.attempts["stone"] == 2


def test_rule_leaving_mid_series_fails_the_exam() -> None:
    """Seed §9 ②: 途中で他の画面に移動すると不合格になります."""
    p = LadderProgress(rank=2, wins={"lv1": 3}).start_exam()
    p, _ = p.record_exam_game(player_wins(p))
    left, ev = p.abandon_exam()
    assert ev[0]["reason"] == "left" and left.exam is None and left.current.en == "Wood"
    # playing an ordinary game while an exam runs is leaving it too
    other, ev = p.record_cpu_unit("lv1", True)
    assert ev[0]["type"] == "exam_failed" and other.exam is None and other.current.en == "Wood"


def test_rule_exam_colours_alternate_each_game() -> None:
    p = LadderProgress(rank=5, wins={"lv2": 10}).start_exam()  # Bronze: best of 5
    seats = []
    while p.exam is not None:
        seats.append(p.exam_next()[1].seat_of_a)
        p, _ = p.record_exam_game(player_wins(p) if len(seats) % 2 else player_loses(p))
    assert seats == [0, 1, 0, 1, 0]
    assert p.current.en == "Bronze"


def test_rule_career_exam_wins_promote_without_passing_a_series() -> None:
    """Platinum: best-of-7 exam at Lv.3 or 20 career exam wins."""
    p = LadderProgress(rank=8, wins={"lv3": 10})
    for _ in range(6):  # six failed attempts of 3 wins and 4 losses each: 18 career wins
        p = p.start_exam()
        for outcome in ("w", "l", "w", "l", "w", "l", "l"):
            p, _ = p.record_exam_game(player_wins(p) if outcome == "w" else player_loses(p))
        assert p.exam is None and p.current.en == "Gold"
    assert p.exam_wins["platinum"] == 18
    p = p.start_exam()
    p, _ = p.record_exam_game(player_wins(p))
    p, ev = p.record_exam_game(player_wins(p))
    assert p.current.en == "Platinum" and ev[0].get("by") == "career"


def test_rule_stone_exam_has_no_career_alternative() -> None:
    p = LadderProgress(rank=2, wins={"lv1": 3}, exam_wins={"stone": 100}).start_exam()
    p, _ = p.record_exam_game(player_wins(p))
    assert p.exam is not None


def test_rule_reverse_match_exams_from_lv5_use_sets() -> None:
    p = LadderProgress(rank=17, wins={"lv5": 20}).start_exam()  # Diamond: RM best of 5
    assert p.exam.match.format.reverse and p.exam.match.format.best_of == 5
    seats = []
    while p.exam is not None:
        seats.append(p.exam_next()[1].seat_of_a)
        p, _ = p.record_exam_game(player_wins(p))
    assert seats == [0, 1, 1, 0, 0, 1] and p.current.en == "Diamond"
    assert "max" in p.unlocked()


def test_full_climb_paper_to_zeus_visits_every_rank_once() -> None:
    p = LadderProgress()
    seen = [p.current.en]
    tiers = ["lv1", "lv2", "lv3", "lv4", "lv5", "max", "final"]
    while p.next_rank is not None:
        if p.exam_due():
            p, ev = win_exam(p)
        else:
            p, ev = p.record_cpu_unit(p.unlocked()[-1], True)
        seen += [e["en"] for e in ev if e["type"] == "promoted"]
    assert seen == [r.en for r in RANKS]
    assert p.unlocked() == tiers
    with pytest.raises(LadderError, match="top rank"):
        p.start_exam()


def test_no_exam_when_next_rank_is_by_wins() -> None:
    with pytest.raises(LadderError, match="by wins"):
        LadderProgress().start_exam()
    with pytest.raises(LadderError, match="no exam"):
        LadderProgress().abandon_exam()


def test_progress_json_roundtrip() -> None:
    p = LadderProgress(rank=17, wins={"lv5": 20}).start_exam()
    p, _ = p.record_exam_game(player_wins(p))
    assert LadderProgress.from_json(p.to_json()) == p


def test_level_mapping_covers_seven_tiers_weakest_first_for_every_game() -> None:
    for gid in available():
        game = get(gid)
        if not has_ladder(game):
            continue
        levels = tier_levels(game)
        assert len(levels) == 7 and set(levels) <= set(game.level_names())
    assert tier_levels(get("reversi")) == ("random", "1", "2", "3", "4", "5", "6")
    # FINAL plays the strongest level in the ladder's two-player form (docs/progression.md):
    # Memory Matrix's level 6 (75.8 % over level 5), Algo's level 6 (level 5 is level 4's equal)
    assert tier_levels(get("memory_matrix"))[-1] == "6"
    assert tier_levels(get("algo")) == ("1", "2", "2", "3", "4", "4", "6")


def test_stone_exam_played_by_real_bots_through_the_service(session, hasher) -> None:
    """A strong bot takes the Stone exam against the Lv.1 CPU, via the DB service."""
    game = get("reversi")
    pid = accounts.register(session, "climber", "long enough", hasher).id
    for _ in range(3):
        ladder.report_cpu_result(session, pid, "reversi", "random", True)
    with pytest.raises(LadderError, match="not unlocked"):
        ladder.report_cpu_result(session, pid, "reversi", "1", True)
    st = ladder.start_exam(session, pid, "reversi")
    seed = 0
    events: list = []
    while st["exam"] is not None:
        ex = st["exam"]
        bots = [None, None]
        bots[ex["player_seat"]] = game.make_bot("2", seed)
        bots[1 - ex["player_seat"]] = game.make_bot(ex["level"], seed)
        result = play_game(game, bots, st["options"], seed)
        events += ladder.report_exam_game(session, pid, "reversi", result.states[-1].outcome)
        st = ladder.status(session, pid, "reversi")
        seed += 1
    assert events[-1]["type"] in ("promoted", "exam_failed")
    if events[-1]["type"] == "promoted":
        assert st["rank"]["en"] == "Stone" and [u["level"] for u in st["unlocked"]] == ["random", "1"]
    else:
        assert st["rank"]["en"] == "Wood"


def test_a_level_that_fills_two_tiers_counts_for_the_tier_played(session, hasher) -> None:
    from asobiba.progression.matches import format_vs_cpu

    game = get("memory_matrix")
    assert tier_levels(game)[3] == tier_levels(game)[4] == "3"
    assert not format_vs_cpu(game, "3", tier="lv4").reverse
    assert format_vs_cpu(game, "3", tier="lv5").reverse
    pid = accounts.register(session, "mmplayer", "long enough", hasher).id
    ladder.save(session, pid, "memory_matrix", LadderProgress(rank=13))  # Topaz: lv5 open
    ladder.report_cpu_result(session, pid, "memory_matrix", "3", True, tier="lv4")
    ladder.report_cpu_result(session, pid, "memory_matrix", "3", True)  # highest open: lv5
    assert ladder.load(session, pid, "memory_matrix").wins == {"lv4": 1, "lv5": 1}
    with pytest.raises(LadderError, match="not played by"):
        ladder.report_cpu_result(session, pid, "memory_matrix", "3", True, tier="max")


def test_reverse_sets_against_the_cpu_count_once_each(session, hasher) -> None:
    from asobiba.progression.matches import Match, MatchFormat

    pid = accounts.register(session, "rmplayer", "long enough", hasher).id
    ladder.save(session, pid, "reversi", LadderProgress(rank=13))  # Topaz
    m = Match(MatchFormat(3, True))
    # set 1: A wins 40-24 as black, loses 30-34 as white: 70-58, won
    m = m.add(Outcome.from_scores((40, 24))).add(Outcome.from_scores((34, 30)))
    # set 2: A (white, then black) loses 20-44 and wins 33-31: 53-75, lost
    m = m.add(Outcome.from_scores((44, 20))).add(Outcome.from_scores((33, 31)))
    assert [u.winner for u in m.units()] == ["A", "B"]
    events = ladder.report_cpu_match(session, pid, "reversi", "4", m)
    assert ladder.load(session, pid, "reversi").wins == {"lv5": 1}
    assert events == []  # Amethyst needs 2 set wins
