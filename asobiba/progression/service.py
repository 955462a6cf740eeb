"""One object for the web app and the CLI: :class:`Progression` wraps an ``Engine`` and runs
each call in its own transaction (committed on success, rolled back on any error, so bad
input changes nothing). Every method returns plain JSON-ready data.

    prog = Progression(create_engine("sqlite:///asobiba.db"))
    player, token = prog.register("hanako", "a long password")
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import TypeVar

from argon2 import PasswordHasher
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..core import Outcome, Record
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get as get_game
from . import accounts, daily, fairplay, feedback, ladder, ratings, tutorials
from .errors import ProgressionError
from .matches import Match
from .models import create_all

T = TypeVar("T")

RETRIES = 10
"""Attempts of a transaction that lost a race (a unique key another transaction inserted
first, a PostgreSQL deadlock or serialization failure, SQLite's "database is locked"): it is
run again from the start, never dropped."""


class Progression:
    def __init__(self, engine: Engine, hasher: PasswordHasher | None = None,
                 daily_key: bytes | None = None) -> None:
        self.engine = engine
        self.hasher = hasher or accounts.DEFAULT_HASHER
        self._daily_key = daily_key
        create_all(engine)

    @property
    def daily_secret(self) -> bytes:
        """The key of the daily challenges' seeds: the configured one, else the database's
        (created on first use; a second process racing to create it reads the winner's)."""
        if self._daily_key is None:
            try:
                self._daily_key = self._run(daily.server_secret)
            except IntegrityError:
                self._daily_key = self._run(daily.server_secret)
        return self._daily_key

    def daily_public(self, game_id: str, day: date, today: date) -> JSONObject:
        """A day's challenge as anyone may see it: nothing for a coming day; today's without
        its seed (it would give the deal and the CPU's choices) but with the seed's
        commitment; a finished day's with its seed, to check against that commitment."""
        if day > today:
            raise daily.DailyError(f"the {day.isoformat()} challenge is not out yet "
                                   f"(today is {today.isoformat()}, UTC)")
        ch = daily.challenge(game_id, day, self.daily_secret)
        out = ch.public_json()
        out.pop("seed", None)
        out["commitment"] = daily.commitment(ch.seed)
        out["revealed"] = day < today
        if day < today:
            out["seed"] = ch.seed
        return out

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine) as s, s.begin():
            yield s

    def _run(self, fn: Callable[[Session], T]) -> T:
        with self.session() as s:
            return fn(s)

    def _run_retrying(self, fn: Callable[[Session], T]) -> T:
        """:meth:`_run`, again (after a short random wait) when the transaction lost a race
        with another one; everything it did was rolled back, so running it again is safe."""
        for attempt in range(RETRIES):
            try:
                return self._run(fn)
            except (IntegrityError, OperationalError):
                if attempt == RETRIES - 1:
                    raise
                time.sleep(random.uniform(0.0, 0.005 * 2 ** min(attempt, 6)))
        raise AssertionError("unreachable")

    # ---- accounts --------------------------------------------------------------------------
    def register(self, name: str, password: str) -> tuple[JSONObject, str]:
        """A new account, logged in: (player, session token)."""
        def go(s: Session) -> tuple[JSONObject, str]:
            p = accounts.register(s, name, password, self.hasher)
            return vars(p), accounts.new_session(s, p.id)
        return self._run(go)

    def login(self, name: str, password: str) -> tuple[JSONObject, str]:
        def go(s: Session) -> tuple[JSONObject, str]:
            p, token = accounts.login(s, name, password, self.hasher)
            return vars(p), token
        return self._run(go)

    def guest(self) -> tuple[JSONObject, str]:
        def go(s: Session) -> tuple[JSONObject, str]:
            p, token = accounts.guest(s)
            return vars(p), token
        return self._run(go)

    def claim_guest(self, token: str, name: str, password: str) -> tuple[JSONObject, str]:
        """The guest of ``token`` becomes an account (keeping its history): (player, a new
        session token). Every session of the guest ends, ``token`` too: a guest cookie
        planted in someone's browser must not become their account (session fixation)."""
        def go(s: Session) -> tuple[JSONObject, str]:
            g = accounts.player_for_token(s, token)
            p = accounts.claim_guest(s, g.id, name, password, self.hasher)
            return vars(p), accounts.renew_sessions(s, p.id)
        return self._run(go)

    def whoami(self, token: str) -> JSONObject:
        return self._run(lambda s: vars(accounts.player_for_token(s, token)))

    def logout(self, token: str) -> None:
        self._run(lambda s: accounts.logout(s, token))

    def bot_id(self, game_id: str, level: str) -> int:
        # two first games against a level at once both create it: the loser of the race
        # finds the winner's row on its retry
        return self._run_retrying(lambda s: accounts.bot_player(s, game_id, level).id)

    # ---- games, ratings, pages --------------------------------------------------------------
    def record_game(self, players: Sequence[int], record: Record, *, rated: bool = True,
                    context: str = "casual", match_id: str | None = None) -> JSONObject:
        """Store a finished game (players by seat) and rate it; returns the rating changes.

        Counting the pair limit and recording happen in one transaction under the people's
        locks (:func:`fairplay.lock_people`); a transaction that loses a race is run again
        (:meth:`_run_retrying`), so every game is stored, in both histories."""
        if record.result is None:
            raise ProgressionError("the record has no result: the game is not over")
        outcome: Outcome = record.result

        def go(s: Session) -> JSONObject:
            why = None
            if rated:
                fairplay.lock_people(s, players)
                why = fairplay.unrated_reason(s, players, record)
            # the reason is the stored context — except that a ladder, exam or match game
            # against the CPU keeps saying what it was
            ctx = context if why is None or (why.code == "cpu" and context != "rated") \
                else why.code
            res = ratings.record_result(
                s, record.game, players, outcome, options=record.options, seed=record.seed,
                record=record.to_json(), rated=rated and why is None,
                context=ctx, match_id=match_id)
            out = {"game_row_id": res.game_row_id, "pool": res.pool, "rated": res.rated,
                   "changes": [vars(c) for c in res.changes]}
            if why is not None:
                out["unrated"] = why.to_json()
            return out
        return self._run_retrying(go)

    def suspicious_pairs(self, days: int = 7, min_games: int = 4) -> list[JSONObject]:
        """Pairs of accounts an operator should look at (``asobiba admin pairs``)."""
        return self._run(lambda s: fairplay.suspicious_pairs(s, days, min_games))

    def leaderboard(self, pool: str, limit: int = 50, include_provisional: bool = False
                    ) -> list[JSONObject]:
        return self._run(lambda s: ratings.leaderboard(
            s, pool, limit, include_provisional=include_provisional))

    def leaderboards(self, game_id: str, limit: int = 20) -> dict[str, list[JSONObject]]:
        """Every rated pool of a game (one-on-one, multi-player, teams, puzzles) and its best."""
        def go(s: Session) -> dict[str, list[JSONObject]]:
            return {pool: ratings.leaderboard(s, pool, limit) for pool in ratings.pools(s, game_id)}
        return self._run(go)

    def suggest_bot(self, player_id: int, game_id: str) -> str | None:
        """The calibrated bot level nearest the player's rating (None before calibration)."""
        return self._run(lambda s: ratings.suggest_bot(s, player_id, game_id))

    def player_page(self, player_id: int) -> JSONObject:
        def go(s: Session) -> JSONObject:
            page = ratings.player_page(s, player_id)
            page["trophies"] = daily.trophies(s, player_id)
            return page
        return self._run(go)

    # ---- ladder ------------------------------------------------------------------------------
    def ladder(self, player_id: int, game_id: str) -> JSONObject:
        return self._run(lambda s: ladder.status(s, player_id, game_id))

    def ladder_result(self, player_id: int, game_id: str, level: str, won: bool | None,
                      tier: str | None = None) -> list[JSONObject]:
        return self._run(lambda s: ladder.report_cpu_result(s, player_id, game_id, level, won,
                                                            tier))

    def ladder_match(self, player_id: int, game_id: str, level: str, match: JSONMapping,
                     tier: str | None = None) -> list[JSONObject]:
        """A match against the CPU (``Match.to_json()``, the player as side A): each finished
        game, or reverse set from Lv.5, counts once."""
        m = Match.from_json(match)
        return self._run(lambda s: ladder.report_cpu_match(s, player_id, game_id, level, m, tier))

    def start_exam(self, player_id: int, game_id: str) -> JSONObject:
        return self._run(lambda s: ladder.start_exam(s, player_id, game_id))

    def exam_game(self, player_id: int, game_id: str, outcome: Outcome,
                  tiebreak: Sequence[float] | None = None) -> list[JSONObject]:
        return self._run(lambda s: ladder.report_exam_game(s, player_id, game_id, outcome,
                                                           tiebreak))

    def leave_exam(self, player_id: int, game_id: str, reason: str = "left"
                   ) -> list[JSONObject]:
        """The exam fails: ``left`` (the player said so) or ``abandoned`` (its game's page
        was gone past the grace, :data:`asobiba.server.progress.exams.EXAM_GRACE`)."""
        return self._run(lambda s: ladder.abandon_exam(s, player_id, game_id, reason))

    # ---- daily -------------------------------------------------------------------------------
    def daily_challenge(self, game_id: str, day: date) -> JSONObject:
        """The day's challenge as a client may see it (no seed where it would reveal a deal)."""
        return daily.challenge(game_id, day, self.daily_secret).public_json()

    def daily_full(self, game_id: str, day: date) -> daily.DailyChallenge:
        """The challenge with its seed: for the server only (opening a daily room)."""
        return daily.challenge(game_id, day, self.daily_secret)

    def daily_result(self, player_id: int, game_id: str, day: date, outcome: Outcome,
                     today: date | None = None, scoring: bool | None = None
                     ) -> list[JSONObject]:
        """A finished attempt; only the day's first counts (``daily.record_attempt``)."""
        key = self.daily_secret
        # two first attempts at once (two tabs answering together) race to insert the day's
        # row: the loser is rolled back and run again, and then finds the row (practice)
        return self._run_retrying(lambda s: daily.record_attempt(s, player_id, game_id, day,
                                                                 outcome, today, key, scoring))

    def daily_attempts(self, player_id: int, game_id: str, day: date) -> int:
        """Attempts at ``day``'s challenge recorded for the player (0: the next one scores)."""
        return self._run(lambda s: daily.attempted(s, player_id, game_id, day))

    def daily_answer(self, player_id: int, game_id: str, day: date, answers: Sequence[str],
                     today: date | None = None) -> list[JSONObject]:
        """Answers to a tsume-algo daily (graded on the server; the answers never go out)."""
        outcome = daily.challenge(game_id, day, self.daily_secret).grade(answers)
        return self.daily_result(player_id, game_id, day, outcome, today)

    def daily_calendar(self, player_id: int, game_id: str, year: int, month: int
                       ) -> JSONObject:
        return self._run(lambda s: daily.month_calendar(s, player_id, game_id, year, month))

    # ---- tutorials and feedback (no database) ------------------------------------------------
    @staticmethod
    def tutorial(game_id: str) -> JSONObject:
        return tutorials.tutorial(game_id).to_json()

    @staticmethod
    def tutorial_attempt(game_id: str, step: str, move: str) -> JSONObject:
        result = tutorials.tutorial(game_id).step(step).attempt(move)
        # the position after the move as the player sees it (the next seat's view would show
        # the tutorial opponent's hidden cards in Algo)
        seat = None if result.state is None else result.seat
        return {"done": result.done, "message": result.message.to_json(),
                "view": None if result.state is None else result.state.view(seat)}

    @staticmethod
    def move_feedback(game_id: str, moves: Sequence[tuple[int, str]], move: str,
                      options: JSONMapping | None = None, seed: int = 0,
                      seat: int | None = None) -> JSONObject | None:
        """Feedback on ``move`` played by ``seat`` (default: the seat to move) after
        ``moves`` (None for games without feedback). Judged by what that seat knew: its
        views of the replayed game, for games with hidden information."""
        game = get_game(game_id)
        if not feedback.has_feedback(game_id, game.validate_options(options)):
            return None
        states = game.replay(list(moves), options, seed)
        return feedback.move_feedback(states[-1], move, len(moves) + 1, seat=seat,
                                      history=states).to_json()

    @staticmethod
    def review(record: Record, deadline: float | None = None, cpu: float | None = None
               ) -> JSONObject | None:
        """The record's review; with a ``deadline`` (a ``time.monotonic()`` time) or ``cpu``
        (seconds of the calling thread's CPU) it deepens pass by pass and answers when either
        runs out with what it has, ``"partial": true`` (feedback.review)."""
        if not feedback.has_feedback(record.game, record.options):
            return None
        return feedback.review(record.game, [(m.seat, m.move) for m in record.moves],
                               record.options, record.seed, deadline=deadline,
                               cpu=cpu).to_json()
