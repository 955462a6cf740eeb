"""Which finished games may move ratings (docs/fair-play.md states each rule and why).

One function, :func:`unrated_reason`, decides; the progression service asks it before every
rated recording, whatever called it (the web app, the CLI, the scale helper's retention
sweep), so no path can rate a game that the policy refuses. The game is still stored — in
the player's history, unrated, with the reason — so an operator can see what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import combinations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from ..core import Record
from ..core.jsontypes import JSONObject
from ..tables import now as clock
from .models import GameRow, GameSeatRow, PlayerRow

PAIR_RATED_PER_DAY = 3
"""Rated games between the same two accounts that move ratings per UTC day; later ones that
day are stored unrated (lichess reviews such pairs by hand; we cap them mechanically and
list them for an operator as well)."""


NOT_PEOPLE = ("bot", "puzzle")
"""Kinds of player that are not a person: a game with one in it never moves the people's
ratings (the CPU's strength is not a person's; lichess never rates games against its
computer opponent and keeps BOT accounts off its leaderboards)."""


@dataclass(frozen=True)
class Unrated:
    code: str  # aborted | guest | cpu | pair_limit
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def aborted(record: Record, seats: int) -> bool:
    """A game that ended before every seat made a move (lichess: "aborted"). A resignation,
    a fallen flag or an abandonment at that point rates nobody."""
    moved = {m.seat for m in record.moves}
    return seats > 1 and any(s not in moved for s in range(seats))


def _day_start(now: datetime) -> str:
    start = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return start.isoformat(timespec="seconds")


def pair_games_today(session: Session, a: int, b: int, now: datetime | None = None) -> int:
    """Rated games (that moved ratings) between accounts ``a`` and ``b`` since midnight UTC."""
    sa, sb = aliased(GameSeatRow), aliased(GameSeatRow)
    since = _day_start(now or clock())
    q = (select(func.count(func.distinct(GameRow.id)))
         .join(sa, sa.game_id == GameRow.id).join(sb, sb.game_id == GameRow.id)
         .where(GameRow.rated.is_(True), GameRow.finished >= since,
                sa.player_id == a, sb.player_id == b))
    return int(session.scalar(q) or 0)


def lock_people(session: Session, players: Sequence[int]) -> None:
    """Take the write lock of every person of a game before its pair limit is counted, held
    until the transaction that records the game commits: two games of one pair finishing at
    once are then counted and recorded one after the other, never both from the same count.

    PostgreSQL: ``SELECT … ORDER BY id FOR UPDATE`` on the people's ``prog_players`` rows
    (always in id order, so two games never wait for each other in a circle). SQLite locks
    the whole database for a writer: a no-op ``UPDATE`` of those rows takes that lock now
    (the server's engine already began with ``BEGIN IMMEDIATE``; this covers any other)."""
    ids = sorted(set(players))
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(PlayerRow).where(PlayerRow.id.in_(ids), PlayerRow.kind == "human")
                        .values(last_seen=PlayerRow.last_seen)
                        .execution_options(synchronize_session=False))
    else:
        session.execute(select(PlayerRow.id).where(PlayerRow.id.in_(ids),
                                                   PlayerRow.kind == "human")
                        .order_by(PlayerRow.id).with_for_update())


def unrated_reason(session: Session, players: Sequence[int], record: Record,
                   now: datetime | None = None) -> Unrated | None:
    """Why this game must not move ratings (None: it may). The caller holds
    :func:`lock_people` (the pair limit's count is only true under it)."""
    rows = [session.get(PlayerRow, p) for p in players]
    if aborted(record, len(players)):
        return Unrated("aborted", "the game ended before every side had moved: it is "
                       "aborted and unrated")
    if any(r is not None and r.kind == "guest" for r in rows):
        return Unrated("guest", "guest accounts play casual games only; register to play "
                       "rated games")
    if any(r is not None and r.kind in NOT_PEOPLE for r in rows):
        return Unrated("cpu", "games against the CPU are not rated: ratings measure play "
                       "between people (the game still counts for the ladder)")
    people = sorted({p for p, r in zip(players, rows, strict=True)
                     if r is not None and r.kind == "human"})
    for a, b in combinations(people, 2):
        if pair_games_today(session, a, b, now) >= PAIR_RATED_PER_DAY:
            return Unrated("pair_limit", f"these two accounts have already played "
                           f"{PAIR_RATED_PER_DAY} rated games today; more games between "
                           "them count from tomorrow (stored unrated)")
    return None


def suspicious_pairs(session: Session, days: int = 7, min_games: int = 4,
                     one_sided: float = 0.8, now: datetime | None = None
                     ) -> list[JSONObject]:
    """Pairs of people an operator should look at: at least ``min_games`` games against each
    other in the last ``days`` days (rated or capped), one side winning at least
    ``one_sided`` of them, or games that were capped by the pair limit. Ordered by count."""
    # whole seconds: the inclusive lower bound of stored times with or without milliseconds
    since = ((now or clock()) - timedelta(days=days)).isoformat(timespec="seconds")
    sa, sb = aliased(GameSeatRow), aliased(GameSeatRow)
    pa, pb = aliased(PlayerRow), aliased(PlayerRow)
    rows = session.execute(
        select(GameRow.id, GameRow.rated, GameRow.context, sa.player_id, sb.player_id,
               sa.rank, sb.rank, pa.name, pb.name)
        .join(sa, sa.game_id == GameRow.id).join(sb, sb.game_id == GameRow.id)
        .join(pa, pa.id == sa.player_id).join(pb, pb.id == sb.player_id)
        .where(GameRow.finished >= since, sa.player_id < sb.player_id,
               pa.kind.in_(("human", "guest")), pb.kind.in_(("human", "guest")),
               GameRow.context.in_(("rated", "pair_limit")))).all()
    pairs: dict[tuple[int, int], JSONObject] = {}
    for _gid, rated, context, a, b, ra, rb, na, nb in rows:
        p = pairs.setdefault((a, b), {"players": [a, b], "names": [na, nb], "games": 0,
                                      "rated": 0, "capped": 0, "wins": [0, 0]})
        p["games"] += 1
        p["rated"] += int(bool(rated))
        p["capped"] += int(context == "pair_limit")
        if ra < rb:
            p["wins"][0] += 1
        elif rb < ra:
            p["wins"][1] += 1
    out = []
    for p in pairs.values():
        top = max(p["wins"]) / p["games"] if p["games"] else 0.0
        p["one_sided"] = round(top, 2)
        reasons = []
        if p["games"] >= min_games and top >= one_sided:
            reasons.append(f"{p['games']} games in {days} days, one side won {top:.0%}")
        if p["capped"]:
            reasons.append(f"{p['capped']} game(s) over the daily pair limit")
        if reasons:
            p["reasons"] = reasons
            out.append(p)
    return sorted(out, key=lambda p: (-p["games"], p["players"]))
