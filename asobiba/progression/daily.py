"""Daily challenges: per game and per date one challenge, the same for everyone that day.

Everything is derived from the day's seed: on a server an HMAC of (game, date) under a secret
the server creates on first start and keeps in its database (``server_secret``), so no one
can compute a coming day's deal; the seed is published, with the commitment shown during the
day, once the day is over (docs/fair-play.md). Offline (the CLI, no secret) the seed is the
public ``derive_seed("daily", game, date)``: practice, not the server's challenge. Two kinds:

* **opponent** (two-seat games): a seeded start — a few seeded random opening moves from the
  start (for games with chance, the seed also deals) — and a CPU level that grows over the
  week (Monday easiest, Sunday hardest); a win clears the day.
* **puzzle** (a game whose ``daily`` hook says so — Patapata): the day's solo course; beat the
  named bot's score on the same course to clear it;
* **tsume** (a game whose ``daily`` hook makes answered puzzles — Algo's tsume-algo, 詰めアルゴ):
  the day's deduction puzzle from the game's own generator, harder through the week; answering
  every question right clears it.

Puzzle and tsume attempts are rated, lichess-style, as a Glicko-2 game of the player against
the puzzle (pool ``"<game>:puzzle"``), first attempt only.

A calendar shows cleared days; clearing every day of a month earns that month's trophy. Only
today's challenge can be cleared (the app's calendar: "a win clears the day").
"""

from __future__ import annotations

import calendar as _calendar
import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import ClassVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core import Bot, Outcome, Puzzle, Rng, State, derive_seed
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get as get_game
from ..play.runner import play_game
from ..tables import now
from . import accounts, ratings
from .errors import ProgressionError
from .ladder_data import TIERS, ladder_options, tier_levels
from .matches import play_from, random_opening
from .models import DailyRow, SecretRow, TrophyRow, utcnow

WEEKDAY_TIER = ("lv2", "lv3", "lv3", "lv4", "lv4", "lv5", "max")
"""CPU tier by weekday (Monday first), like a newspaper puzzle that hardens through the week."""


PUZZLE_KINDS = ("puzzle", "tsume")


class DailyError(ProgressionError):
    """A daily-challenge action on the wrong day or for a game without challenges."""

    code: ClassVar[str] = "daily_refused"


@dataclass(frozen=True)
class DailyChallenge:
    game: str
    day: date
    kind: str  # opponent | puzzle
    options: JSONMapping
    seed: int
    opening: tuple[tuple[int, str], ...] = ()
    player_seat: int = 0
    bot_level: str | None = None
    target: float | None = None
    rules_version: int = 1
    description: Mapping[str, str] = field(default_factory=dict)
    puzzle: JSONMapping | None = None
    """The tsume-algo puzzle as the player sees it (face-up numbers and questions only)."""

    @property
    def id(self) -> str:
        return f"{self.game}:{self.day.isoformat()}"

    def start(self) -> State:
        """The position the player starts from (the opening replayed through the protocol)."""
        if self.kind == "tsume":
            raise DailyError(f"the {self.game} puzzle is answered, not played: use grade()")
        return get_game(self.game).replay(list(self.opening), self.options, self.seed)[-1]

    def grade(self, answers: Sequence[str]) -> Outcome:
        """Score tsume-algo answers (one per question, e.g. ``"w7"`` or ``"B3"``): the
        outcome's score is the number answered right."""
        if self.kind != "tsume":
            raise DailyError(f"the {self.game} challenge is played, not answered")
        pz = _tsume(self.game, self.seed, self.day)
        if len(answers) != len(pz.questions):
            raise DailyError(f"give {len(pz.questions)} answers, one per question")
        right = sum(str(a).strip().lower() == pz.answer(q).lower()
                    for a, q in zip(answers, pz.questions, strict=True))
        return Outcome((float(right),), (1,), "puzzle answers")

    def cleared_by(self, outcome: Outcome) -> bool:
        """A win (sole first place) for opponent challenges; score ≥ target for puzzles."""
        if self.kind in PUZZLE_KINDS:
            assert self.target is not None
            return float(outcome.scores[self.player_seat]) >= self.target
        ranks = outcome.ranks
        return ranks[self.player_seat] == 1 and list(ranks).count(1) == 1

    def public_json(self) -> JSONObject:
        """What a client may see: for games with chance or hidden information the seed would
        reveal the deal, so it is left out and the player's start view is given instead."""
        game = get_game(self.game)
        out = self.to_json()
        if game.chance or not game.perfect_information:
            del out["seed"]
        if self.kind != "tsume":
            out["view"] = self.start().view(self.player_seat)
        return out

    def to_json(self) -> JSONObject:
        """Everything, the seed included (server side and records)."""
        return {"id": self.id, "game": self.game, "day": self.day.isoformat(), "kind": self.kind,
                "options": dict(self.options), "seed": self.seed,
                "opening": [{"seat": s, "move": m} for s, m in self.opening],
                "player_seat": self.player_seat, "bot_level": self.bot_level,
                "target": self.target, "rules_version": self.rules_version,
                "description": dict(self.description),
                "puzzle": None if self.puzzle is None else dict(self.puzzle)}


def daily_seed(game_id: str, day: date, secret: bytes = b"") -> int:
    """The day's seed. On a server it is an HMAC of the game and date under the server's
    secret (kept in its database, or configured), so nobody can compute a day's deal ahead;
    without a secret (the CLI's offline practice) it is the public ``derive_seed``.
    48 bits, as a room's own seed: exact in JavaScript (a browser reads the record's seed as a
    number) and within the API's bounded integers, so a daily's record replays and reviews
    like any other (63-bit seeds had up to 19 digits, which /api/replay refuses)."""
    if not secret:
        return derive_seed("daily", game_id, day.isoformat()) >> 16
    mac = hmac.new(secret, f"asobiba-daily|{game_id}|{day.isoformat()}".encode(), "sha256")
    return int.from_bytes(mac.digest()[:6], "big")


def commitment(seed: int) -> str:
    """Published with the day's challenge while it runs; once the day is over the seed is
    published too, and anyone can check ``commitment(seed)`` against what they were shown
    (and rebuild the deal from the seed): the server cannot have changed the deal midway."""
    return hashlib.sha256(f"asobiba-daily-seed:{seed}".encode()).hexdigest()


SECRET_NAME = "daily"


def server_secret(session: Session, name: str = SECRET_NAME) -> bytes:
    """The server's secret ``name``, created (32 random bytes) on first use and kept in the
    database so every process and every restart uses the same one."""
    row = session.get(SecretRow, name)
    if row is None:
        row = SecretRow(name=name, value=secrets.token_hex(32))
        session.add(row)
        session.flush()
    return bytes.fromhex(row.value)


def _tsume(game_id: str, seed: int, day: date) -> Puzzle:
    """The game's own answered puzzle of the day (its ``daily`` hook, kind ``tsume``)."""
    hook = get_game(game_id).progression().daily
    if hook is None or hook.puzzle is None:
        raise DailyError(f"{game_id} has no daily puzzle to answer")
    return hook.puzzle(day.weekday(), seed)


@lru_cache(maxsize=128)
def challenge(game_id: str, day: date, secret: bytes = b"") -> DailyChallenge:
    """The challenge of ``game_id`` on ``day`` under the server's ``secret`` (deterministic:
    same for everyone; cached, since a Patapata target costs a bot's whole course)."""
    return build(game_id, day, daily_seed(game_id, day, secret))


def build(game_id: str, day: date, seed: int) -> DailyChallenge:
    """The challenge of ``game_id`` on ``day`` from its seed: how anyone checks a finished
    day's published seed against the challenge they were shown."""
    game = get_game(game_id)
    rng = Rng(seed, "daily")
    hook = game.progression().daily
    if hook is not None and hook.kind == "tsume":
        pz = _tsume(game_id, seed, day)
        public = pz.to_json()
        del public["seed"]  # the seed regenerates the hidden cards
        n = len(pz.questions)
        return DailyChallenge(game_id, day, "tsume", {}, seed, target=float(n),
                              rules_version=game.rules_version, puzzle=public, description={
                                  "en": f"{hook.name.get('en', 'Puzzle')}, level {pz.level}: "
                                        f"answer all {n} questions.",
                                  "ja": f"{hook.name.get('ja', 'パズル')}（レベル{pz.level}）："
                                        f"{n}問すべてに答えよう"})
    if hook is not None and hook.kind == "puzzle":
        options = game.validate_options(hook.options)
        level = hook.target_level or game.level_names()[-1]
        bot = play_game(game, [game.make_bot(level, seed)], dict(options), seed)
        outcome = bot.states[-1].outcome
        assert outcome is not None
        target = float(outcome.scores[0]) + 1
        return DailyChallenge(game_id, day, "puzzle", options, seed, target=target,
                              rules_version=game.rules_version, description={
                                  "en": f"Score at least {target:g} points on today's course "
                                        f"(the {level.capitalize()} bot made one less).",
                                  "ja": f"今日のコースで{target:g}点以上を取ろう"})
    if not game.level_names():
        raise DailyError(f"{game_id} has no CPU levels and no puzzles for daily challenges")
    options = game.validate_options(ladder_options(game))
    if game.num_seats(options) != 2:
        raise DailyError(f"{game_id} has no two-seat form for a daily challenge")
    opening = random_opening(game, options, seed)
    state = game.replay(list(opening), options, seed)[-1]
    seat = state.to_move if opening else rng.below(2)
    assert seat is not None
    tier = WEEKDAY_TIER[day.weekday()]
    level = tier_levels(game)[TIERS.index(tier)]
    return DailyChallenge(game_id, day, "opponent", options, seed, opening, seat, level,
                          rules_version=game.rules_version, description={
                              "en": f"Win from today's position as seat {seat + 1} against "
                                    f"level {level}.",
                              "ja": f"今日の局面から CPU（{level}）に勝とう"})


# ---- the calendar --------------------------------------------------------------------------

def _today() -> date:
    return now().date()


def record_attempt(session: Session, player_id: int, game_id: str, day: date,
                   outcome: Outcome, today: date | None = None, secret: bytes = b"",
                   scoring: bool | None = None) -> list[JSONObject]:
    """A finished attempt at ``day``'s challenge. Returns events: cleared, trophy, rating —
    or, for any attempt after the day's first, one ``practice`` event (the day counts once
    per account: a later attempt neither clears the day nor moves a rating; it says how it
    went, ``cleared`` and ``score``). ``scoring`` says whether this is the day's first
    attempt when the caller knows better than the count of finished attempts (a daily room:
    the first one *opened* scores, even if a later one finishes first); None: the first
    recorded attempt scores (answers)."""
    today = today or _today()
    if day != today:
        raise DailyError(f"only today's challenge ({today.isoformat()}) can be cleared, "
                         f"not {day.isoformat()}'s")
    ch = challenge(game_id, day, secret)
    # the row is locked (PostgreSQL: FOR UPDATE) so that two attempts finishing together
    # cannot both read ``attempts == 0``; a missing row is inserted, and a second insert of
    # the same key fails and is retried by the caller (``Progression._run_retrying``)
    row = session.get(DailyRow, (player_id, game_id, day.isoformat()), with_for_update=True)
    if row is None:
        row = DailyRow(player_id=player_id, game=game_id, day=day.isoformat(), attempts=0,
                       cleared=False)
        session.add(row)
    first = row.attempts == 0 if scoring is None else scoring
    row.attempts += 1
    won = ch.cleared_by(outcome)
    events: list[JSONObject] = []
    if not first:
        session.flush()
        return [{"type": "practice", "day": day.isoformat(), "attempt": row.attempts,
                 "cleared": won, "score": float(outcome.scores[ch.player_seat])}]
    if ch.kind in PUZZLE_KINDS:
        puzzle = accounts.puzzle_player(session, game_id, day.isoformat())
        rated = ratings.record_result(
            session, game_id, [player_id, puzzle.id],
            Outcome((1.0, 0.0) if won else (0.0, 1.0), (1, 2) if won else (2, 1)),
            seed=ch.seed, context="daily", pool=(f"{game_id}:puzzle", ratings.GLICKO2))
        change = rated.changes[0]
        events.append({"type": "rating", "pool": rated.pool, "before": change.before,
                       "after": change.after})
    if won and not row.cleared:
        row.cleared, row.cleared_at = True, utcnow()
        events.append({"type": "cleared", "day": day.isoformat()})
        session.flush()
        if _month_complete(session, player_id, game_id, day.year, day.month):
            period = f"{day.year:04d}-{day.month:02d}"
            session.add(TrophyRow(player_id=player_id, game=game_id, kind="daily-month",
                                  period=period))
            events.append({"type": "trophy", "period": period})
    session.flush()
    return events


def attempted(session: Session, player_id: int, game_id: str, day: date) -> int:
    """How many attempts at ``day``'s challenge the player has recorded (0: the next one
    scores)."""
    row = session.get(DailyRow, (player_id, game_id, day.isoformat()))
    return 0 if row is None else row.attempts


def _cleared_days(session: Session, player_id: int, game_id: str, year: int, month: int
                  ) -> list[int]:
    prefix = f"{year:04d}-{month:02d}-"
    days = session.scalars(select(DailyRow.day).where(
        DailyRow.player_id == player_id, DailyRow.game == game_id, DailyRow.cleared.is_(True),
        DailyRow.day.like(prefix + "%"))).all()
    return sorted(int(d[-2:]) for d in days)


def _month_complete(session: Session, player_id: int, game_id: str, year: int, month: int
                    ) -> bool:
    n = _calendar.monthrange(year, month)[1]
    return _cleared_days(session, player_id, game_id, year, month) == list(range(1, n + 1))


def month_calendar(session: Session, player_id: int, game_id: str, year: int, month: int
                   ) -> JSONObject:
    """The calendar page: cleared days of the month and whether its trophy is earned."""
    n = _calendar.monthrange(year, month)[1]
    period = f"{year:04d}-{month:02d}"
    trophy = session.scalar(select(TrophyRow.id).where(
        TrophyRow.player_id == player_id, TrophyRow.game == game_id,
        TrophyRow.kind == "daily-month", TrophyRow.period == period)) is not None
    return {"game": game_id, "month": period, "days": n,
            "cleared": _cleared_days(session, player_id, game_id, year, month),
            "trophy": trophy}


def trophies(session: Session, player_id: int) -> list[dict[str, str]]:
    rows = session.scalars(select(TrophyRow).where(TrophyRow.player_id == player_id)
                           .order_by(TrophyRow.period)).all()
    return [{"game": r.game, "kind": r.kind, "period": r.period, "earned": r.earned}
            for r in rows]


def play_challenge(ch: DailyChallenge, player: Bot, seed: int = 0) -> State:
    """Play a challenge with a bot in the player's seat (CLI, tests): the CPU sits in the other
    seat; each bot sees only its views. Returns the final state."""
    game = get_game(ch.game)
    bots: list[Bot] = [player]
    if ch.kind == "opponent":
        assert ch.bot_level is not None
        cpu = game.make_bot(ch.bot_level, seed)
        bots = [player, cpu] if ch.player_seat == 0 else [cpu, player]
    return play_from(game, bots, ch.options, ch.seed, ch.opening)[-1]
