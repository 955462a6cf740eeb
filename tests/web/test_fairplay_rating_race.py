"""Issue 25 item 2: the daily pair limit and the recording of a game are one atomic step on
both databases. Games between one pair finishing at the same moment (threads released
together, each on its own connection) must rate exactly ``PAIR_RATED_PER_DAY`` of them and
store every one in both players' histories — a race that loses is run again, never dropped.

Attacks measured on the old code, PostgreSQL: 10 games of one pair at once were all rated
(1742 → 2081); for a new pair the race raised a duplicate key (two first ratings inserted at
once) and 12 of 15 games were never recorded."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, func, select, update

from asobiba.core import Record
from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import Progression
from asobiba.progression.fairplay import PAIR_RATED_PER_DAY, pair_games_today
from asobiba.progression.models import GameSeatRow, RatingRow
from asobiba.progression.ratings import LEADERBOARD_GAMES
from asobiba.server.db import make_engine

GAMES = 12


def _record() -> Record:
    game = get("reversi")
    rec = play_game(game, [game.make_bot("random", 1), game.make_bot("random", 2)], {}, 7).record
    assert rec.result is not None and {m.seat for m in rec.moves} == {0, 1}
    return rec


def _at_once(prog: Progression, pairs: list[list[int]], rec: Record) -> list[dict[str, Any]]:
    """Record one game per entry of ``pairs``, every thread released at the same moment."""
    barrier = threading.Barrier(len(pairs))
    results: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def go(players: list[int]) -> None:
        barrier.wait()
        try:
            out = prog.record_game(players, rec)
            with lock:
                results.append(out)
        except BaseException as exc:  # noqa: BLE001 - reported below
            with lock:
                errors.append(exc)
    threads = [threading.Thread(target=go, args=(p,)) for p in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a recording hung"
    assert errors == [], f"games were lost: {errors!r}"
    return results


def _history(prog: Progression, pid: int) -> int:
    with prog.session() as s:
        return int(s.scalar(select(func.count()).select_from(GameSeatRow)
                            .where(GameSeatRow.player_id == pid)) or 0)


@pytest.mark.parametrize("engine_kind", ["server", "plain"])
def test_rule_the_pair_limit_holds_when_games_finish_at_once(db_url: str,
                                                             engine_kind: str) -> None:
    if engine_kind == "plain" and not db_url.startswith("sqlite"):
        pytest.skip("the plain engine differs from the server's on SQLite only")
    # the server's engine (SQLite: BEGIN IMMEDIATE) and a plain one (SQLite's deferred
    # transactions: the lock must come from the recording itself)
    engine = make_engine(db_url) if engine_kind == "server" else create_engine(
        db_url, connect_args={"timeout": 30, "check_same_thread": False})
    prog = Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    rec = _record()
    # a new pair: neither has a rating yet (two first ratings raced to be inserted)
    a, _ = prog.register("winner", "a long password 9")
    b, _ = prog.register("feeder", "a long password 9")
    pair = [[a["id"], b["id"]] if i % 2 == 0 else [b["id"], a["id"]] for i in range(GAMES)]
    results = _at_once(prog, pair, rec)
    assert len(results) == GAMES
    assert sum(r["rated"] for r in results) == PAIR_RATED_PER_DAY, results
    assert sorted(r["unrated"]["code"] for r in results if not r["rated"]) == \
        ["pair_limit"] * (GAMES - PAIR_RATED_PER_DAY)
    assert _history(prog, a["id"]) == _history(prog, b["id"]) == GAMES
    with prog.session() as s:
        assert pair_games_today(s, a["id"], b["id"]) == PAIR_RATED_PER_DAY
        # the leaderboard's opponents query runs on this database too: the winner, made
        # established here, met one person only (and a provisional one)
        s.execute(update(RatingRow).where(RatingRow.player_id == a["id"])
                  .values(provisional=False, games=LEADERBOARD_GAMES))
    assert prog.leaderboard("reversi") == []
    assert len(prog.leaderboard("reversi", include_provisional=True)) == 2
    # a pair with ratings already (each played someone else before): the same
    c, _ = prog.register("climber", "a long password 9")
    d, _ = prog.register("helper", "a long password 9")
    e, _ = prog.register("someone", "a long password 9")
    prog.record_game([c["id"], e["id"]], rec)
    prog.record_game([d["id"], e["id"]], rec)
    results = _at_once(prog, [[c["id"], d["id"]]] * GAMES, rec)
    assert sum(r["rated"] for r in results) == PAIR_RATED_PER_DAY, results
    assert _history(prog, c["id"]) == _history(prog, d["id"]) == GAMES + 1
    engine.dispose()


def test_rule_first_games_against_a_new_cpu_level_at_once_are_all_recorded(db_url: str) -> None:
    """Games against a CPU level nobody has played yet, finishing together: each recording
    creates the level's player first; the losers of that race (a duplicate name) retry and
    find it, so every game is stored (unrated: it is against the CPU)."""
    engine = make_engine(db_url)
    prog = Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    rec = _record()
    people = [prog.register(f"player{i}", "a long password 9")[0]["id"] for i in range(8)]
    barrier = threading.Barrier(len(people))
    outs: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def go(pid: int) -> None:
        barrier.wait()
        try:
            outs.append(prog.record_game([pid, prog.bot_id("reversi", "4")], rec))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=go, args=(p,)) for p in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == [], f"games were lost: {errors!r}"
    assert len(outs) == len(people) and all(o["unrated"]["code"] == "cpu" for o in outs)
    assert all(_history(prog, p) == 1 for p in people)
    assert _history(prog, prog.bot_id("reversi", "4")) == len(people)
    engine.dispose()


def test_rule_two_first_daily_attempts_at_once_count_once_and_both_are_kept(db_url: str) -> None:
    """A daily counts once per account per day (docs/fair-play.md, "Replaying a day"), also
    when two attempts finish at the same moment (two tabs): exactly one scores, the others
    are practice, and none is lost to the race for the day's row (on the old code PostgreSQL
    answered one of them with a duplicate-key error: a 500)."""
    from datetime import UTC, datetime

    from asobiba.core import Outcome
    engine = make_engine(db_url)
    prog = Progression(engine, PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    pid = prog.register("dailyplayer", "a long password 9")[0]["id"]
    day = datetime.now(UTC).date()
    attempts = 6
    barrier = threading.Barrier(attempts)
    outs: list[list[dict[str, Any]]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def go() -> None:
        barrier.wait()
        try:
            events = prog.daily_result(pid, "reversi", day, Outcome((64.0, 0.0), (1, 2)),
                                       today=day)
            with lock:
                outs.append(events)
        except BaseException as exc:  # noqa: BLE001 - reported below
            with lock:
                errors.append(exc)
    threads = [threading.Thread(target=go) for _ in range(attempts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == [], f"attempts were lost: {errors!r}"
    practice = [events for events in outs if any(e["type"] == "practice" for e in events)]
    assert len(outs) == attempts and len(practice) == attempts - 1, outs
    assert prog.daily_attempts(pid, "reversi", day) == attempts
    engine.dispose()
