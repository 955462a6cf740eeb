"""The ladder's rules: climbing by wins, rank-up exams, unlocks (seed §9, REFERENCE "Ranks").

:class:`LadderProgress` is one player's progress in one game, immutable; each action returns
the new progress and a list of events (promotions, unlocks, exam results) for the page to show.
The database side (load/save per player and game) is at the end of this module.

Rules as implemented (interpretations marked in docs/progression.md):

* wins are counted per CPU tier, for ordinary games against the CPU (from Lv.5 up a "win" is a
  reverse-match set won); a condition "N wins at tier T" is met when the tier's count reaches N
  — counts are cumulative, so Iron (5) and Steel (10) both count wins at Lv.2;
* an exam is due when the next rank's condition is an exam; it is one series of best-of-N
  games (reverse sets from Lv.5) played consecutively, colours alternating; the player is A;
* leaving mid-series fails the exam (seed: "途中で他の画面に移動すると不合格になります"): the
  web app calls :func:`abandon_exam` when the player leaves, and starting any other ladder game
  while an exam runs counts as leaving; a failed exam may be retried at any time;
* the career alternative: units won in an exam's games add up over all attempts; reaching the
  exam's ``career`` count promotes at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from sqlalchemy.orm import Session

from ..core import Game, Outcome
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get as get_game
from .errors import LadderError
from .ladder_data import (
    RANKS,
    TIER_TITLES,
    TIERS,
    Exam,
    Rank,
    Wins,
    has_ladder,
    ladder_options,
    tier_levels,
    unlocked_tiers,
)
from .matches import A, GameSlot, Match, MatchFormat
from .models import LadderRow, utcnow

Event = JSONObject


@dataclass(frozen=True)
class ExamRun:
    target: int
    match: Match


@dataclass(frozen=True)
class LadderProgress:
    rank: int = 0
    wins: Mapping[str, int] = field(default_factory=dict)
    exam_wins: Mapping[str, int] = field(default_factory=dict)
    exam: ExamRun | None = None
    attempts: Mapping[str, int] = field(default_factory=dict)
    last_exam: Mapping[str, object] | None = None
    """How the last exam ended, for the ladder page: ``{"rank", "passed", "reason",
    "wins"}`` (reason ``exam``/``career`` when passed; ``lost``, ``left`` — the Leave
    button — or ``abandoned`` — its game's page gone past the grace — when failed)."""

    # ---- what the player may do ------------------------------------------------------------
    @property
    def current(self) -> Rank:
        return RANKS[self.rank]

    @property
    def next_rank(self) -> Rank | None:
        return RANKS[self.rank + 1] if self.rank + 1 < len(RANKS) else None

    def unlocked(self) -> list[str]:
        return unlocked_tiers(self.rank)

    def exam_due(self) -> Exam | None:
        nxt = self.next_rank
        return nxt.condition if nxt is not None and isinstance(nxt.condition, Exam) else None

    # ---- ordinary games against the CPU -----------------------------------------------------
    def record_cpu_unit(self, tier: str, won: bool | None) -> tuple[LadderProgress, list[Event]]:
        """A game (or, from Lv.5, a reverse set) against tier ``tier``: won True/False, None
        for a draw. Playing it while an exam runs means the exam was left: it fails first."""
        if tier not in TIERS:
            raise LadderError(f"unknown CPU tier {tier!r}; tiers: {', '.join(TIERS)}")
        if tier not in self.unlocked():
            raise LadderError(f"{TIER_TITLES[tier]} is locked at rank {self.current.en}")
        progress, events = (self.abandon_exam() if self.exam else (self, []))
        if won:
            wins = dict(progress.wins)
            wins[tier] = wins.get(tier, 0) + 1
            progress = replace(progress, wins=wins)
        progress, more = progress._climb()
        return progress, events + more

    def _met(self, cond: Wins) -> bool:
        if cond.tier is None:
            return sum(self.wins.values()) >= cond.count
        return self.wins.get(cond.tier, 0) >= cond.count

    def _climb(self) -> tuple[LadderProgress, list[Event]]:
        progress, events = self, []
        while (nxt := progress.next_rank) is not None and isinstance(nxt.condition, Wins) \
                and progress._met(nxt.condition):
            progress, ev = progress._promote(nxt, "wins")
            events += ev
        return progress, events

    def _promote(self, rank: Rank, how: str) -> tuple[LadderProgress, list[Event]]:
        event: Event = {"type": "promoted", "rank": rank.key, "en": rank.en, "ja": rank.ja,
                        "by": how}
        if rank.unlocks:
            event["unlocked"] = rank.unlocks
        return replace(self, rank=rank.index, exam=None), [event]

    # ---- exams --------------------------------------------------------------------------------
    def start_exam(self) -> LadderProgress:
        exam = self.exam_due()
        if exam is None:
            nxt = self.next_rank
            raise LadderError("no rank-up exam is due: " + (
                f"{nxt.en} is reached by wins" if nxt else "this is the top rank"))
        if self.exam is not None:
            raise LadderError("an exam is already running; finish or leave it first")
        target = self.rank + 1
        key = RANKS[target].key
        attempts = dict(self.attempts)
        attempts[key] = attempts.get(key, 0) + 1
        match = Match(MatchFormat(exam.best_of, exam.reverse), first=0)
        return replace(self, exam=ExamRun(target, match), attempts=attempts)

    def exam_next(self) -> tuple[str, GameSlot] | None:
        """(tier, slot) of the next exam game: the slot says which seat the player takes."""
        if self.exam is None:
            return None
        slot = self.exam.match.next_game()
        cond = RANKS[self.exam.target].condition
        assert isinstance(cond, Exam) and slot is not None
        return cond.tier, slot

    def record_exam_game(self, outcome: Outcome, tiebreak: Sequence[float] | None = None
                         ) -> tuple[LadderProgress, list[Event]]:
        """The next exam game ended with ``outcome`` (seats as played, see :meth:`exam_next`)."""
        if self.exam is None:
            raise LadderError("no exam is running")
        target = RANKS[self.exam.target]
        cond = target.condition
        assert isinstance(cond, Exam)
        before = self.exam.match.wins()[0]
        match = self.exam.match.add(outcome, tiebreak)
        won_units = match.wins()[0] - before
        exam_wins = dict(self.exam_wins)
        exam_wins[target.key] = exam_wins.get(target.key, 0) + won_units
        progress = replace(self, exam=ExamRun(self.exam.target, match), exam_wins=exam_wins)
        wins = list(match.wins())
        if match.is_over and match.winner == A:
            p, ev = progress._promote(target, "exam")
            p = replace(p, last_exam={"rank": target.key, "passed": True, "reason": "exam",
                                      "wins": wins})
            return p, [{"type": "exam_passed", "rank": target.key, "wins": wins}] + ev
        if cond.career is not None and exam_wins[target.key] >= cond.career:
            p, ev = progress._promote(target, "career")
            p = replace(p, last_exam={"rank": target.key, "passed": True, "reason": "career",
                                      "wins": wins})
            return p, [{"type": "exam_passed", "rank": target.key, "by": "career"}] + ev
        if match.is_over:
            return replace(progress, exam=None, last_exam={
                "rank": target.key, "passed": False, "reason": "lost", "wins": wins}), [
                {"type": "exam_failed", "rank": target.key, "reason": "lost", "wins": wins}]
        return progress, []

    def abandon_exam(self, reason: str = "left") -> tuple[LadderProgress, list[Event]]:
        """The player left mid-series (``left``: the Leave button; ``abandoned``: the exam
        game's page gone past its grace): the exam fails (retry any time)."""
        if self.exam is None:
            raise LadderError("no exam is running")
        key = RANKS[self.exam.target].key
        wins = list(self.exam.match.wins())
        return replace(self, exam=None, last_exam={"rank": key, "passed": False,
                                                   "reason": reason, "wins": wins}), [
            {"type": "exam_failed", "rank": key, "reason": reason, "wins": wins}]

    # ---- JSON ------------------------------------------------------------------------------
    def to_json(self) -> JSONObject:
        return {"rank": self.rank, "wins": dict(self.wins), "exam_wins": dict(self.exam_wins),
                "attempts": dict(self.attempts),
                "last_exam": None if self.last_exam is None else dict(self.last_exam),
                "exam": None if self.exam is None else
                {"target": self.exam.target, "match": self.exam.match.to_json()}}

    @classmethod
    def from_json(cls, data: JSONMapping) -> LadderProgress:
        exam = data.get("exam")
        return cls(int(data["rank"]), dict(data.get("wins", {})), dict(data.get("exam_wins", {})),
                   None if exam is None else ExamRun(int(exam["target"]),
                                                     Match.from_json(exam["match"])),
                   dict(data.get("attempts", {})),
                   data.get("last_exam"))


# ---- descriptions for pages ----------------------------------------------------------------

def describe(rank: Rank, game: Game | None = None) -> dict[str, str]:
    """The condition of ``rank`` in words (en/ja), naming the game's bot level when given."""
    cond = rank.condition

    def tier_name(tier: str) -> str:
        if game is None:
            return TIER_TITLES[tier]
        return f"{TIER_TITLES[tier]} ({tier_levels(game)[TIERS.index(tier)]})"

    if cond is None:
        return {"en": "where everyone starts", "ja": "スタート"}
    if isinstance(cond, Wins):
        if cond.tier is None:
            return {"en": "win any game against the CPU", "ja": "CPUに1勝"}
        unit = "reverse-match wins" if TIERS.index(cond.tier) >= 4 else "wins"
        return {"en": f"{cond.count} {unit} against {tier_name(cond.tier)}",
                "ja": f"{TIER_TITLES[cond.tier]}に{cond.count}勝"
                      + ("（RM）" if TIERS.index(cond.tier) >= 4 else "")}
    rm = "reverse-match " if cond.reverse else ""
    en = f"best-of-{cond.best_of} {rm}exam against {tier_name(cond.tier)}"
    ja = f"{TIER_TITLES[cond.tier]}と{'RM ' if cond.reverse else ''}{cond.best_of}番勝負"
    if cond.career:
        en += f", or {cond.career} exam wins in all"
        ja += f"（通算{cond.career}勝でも可）"
    return {"en": en, "ja": ja}


# ---- persistence -----------------------------------------------------------------------------

def _game(game_id: str) -> Game:
    game = get_game(game_id)
    if not has_ladder(game):
        raise LadderError(f"{game.id} has no ladder (it needs CPU levels and a two-seat form)")
    return game


def load(session: Session, player_id: int, game_id: str) -> LadderProgress:
    row = session.get(LadderRow, (player_id, game_id))
    return LadderProgress() if row is None else LadderProgress.from_json(json.loads(row.state))


def save(session: Session, player_id: int, game_id: str, progress: LadderProgress) -> None:
    row = session.get(LadderRow, (player_id, game_id))
    text = json.dumps(progress.to_json(), sort_keys=True)
    if row is None:
        session.add(LadderRow(player_id=player_id, game=game_id, state=text))
    else:
        row.state, row.updated = text, utcnow()
    session.flush()


def status(session: Session, player_id: int, game_id: str) -> JSONObject:
    """Everything a ladder page shows: rank, next condition, counts, unlocked levels, exam."""
    game = _game(game_id)
    p = load(session, player_id, game_id)
    levels = tier_levels(game)
    nxt = p.next_rank
    out: JSONObject = {
        "game": game_id,
        "options": ladder_options(game),
        "rank": {"index": p.rank, "key": p.current.key, "en": p.current.en, "ja": p.current.ja},
        "next": None if nxt is None else {"key": nxt.key, "en": nxt.en, "ja": nxt.ja,
                                         "condition": describe(nxt, game)},
        "wins": dict(p.wins),
        "exam_wins": dict(p.exam_wins),
        "unlocked": [{"tier": t, "title": TIER_TITLES[t], "level": levels[TIERS.index(t)],
                      "reverse": TIERS.index(t) >= 4} for t in p.unlocked()],
        "exam_due": p.exam_due() is not None,
        "exam": None,
        "last_exam": None,
    }
    if p.last_exam is not None:  # why the last exam ended (the ladder page says so)
        rank = next(r for r in RANKS if r.key == p.last_exam["rank"])
        out["last_exam"] = {**p.last_exam, "en": rank.en, "ja": rank.ja}
    nxt_game = p.exam_next()
    if nxt_game is not None and p.exam is not None:
        tier, slot = nxt_game
        out["exam"] = {"target": RANKS[p.exam.target].key, "match": p.exam.match.to_json(),
                       "level": levels[TIERS.index(tier)], "player_seat": slot.seat_of_a,
                       "game_index": slot.index}
    return out


def _act(session: Session, player_id: int, game_id: str,
         fn: Callable[[LadderProgress], tuple[LadderProgress, list[Event]]]) -> list[Event]:
    _game(game_id)
    progress, events = fn(load(session, player_id, game_id))
    save(session, player_id, game_id, progress)
    return events


def start_exam(session: Session, player_id: int, game_id: str) -> JSONObject:
    _act(session, player_id, game_id, lambda p: (p.start_exam(), []))
    return status(session, player_id, game_id)


def report_exam_game(session: Session, player_id: int, game_id: str, outcome: Outcome,
                     tiebreak: Sequence[float] | None = None) -> list[Event]:
    return _act(session, player_id, game_id, lambda p: p.record_exam_game(outcome, tiebreak))


def abandon_exam(session: Session, player_id: int, game_id: str, reason: str = "left"
                 ) -> list[Event]:
    return _act(session, player_id, game_id, lambda p: p.abandon_exam(reason))


def report_cpu_result(session: Session, player_id: int, game_id: str, level: str,
                      won: bool | None, tier: str | None = None) -> list[Event]:
    """An ordinary game (reverse set from Lv.5) against the CPU at bot ``level``.

    ``tier`` says which ladder tier the game was played as; without it, a level that fills
    several tiers counts for the highest tier the player has open."""
    game = _game(game_id)
    levels = tier_levels(game)
    p = load(session, player_id, game_id)
    open_tiers = [t for t in p.unlocked() if levels[TIERS.index(t)] == level]
    if tier is not None:
        if tier not in TIERS or levels[TIERS.index(tier)] != level:
            raise LadderError(f"{game_id} tier {tier!r} is not played by level {level!r}")
        open_tiers = [t for t in open_tiers if t == tier]
    if not open_tiers:
        raise LadderError(f"{game_id} level {level!r} is not unlocked at rank {p.current.en}; "
                          f"open: {', '.join(levels[TIERS.index(t)] for t in p.unlocked())}")
    chosen = open_tiers[-1]
    return _act(session, player_id, game_id, lambda q: q.record_cpu_unit(chosen, won))


def report_cpu_match(session: Session, player_id: int, game_id: str, level: str, match: Match,
                     tier: str | None = None) -> list[Event]:
    """Every finished unit of a match against the CPU (the player is side A): from Lv.5 each
    reverse-match set counts once, won or lost on the combined score."""
    events: list[Event] = []
    for unit in match.units():
        won = None if unit.winner is None else unit.winner == A
        events += report_cpu_result(session, player_id, game_id, level, won, tier)
    return events
