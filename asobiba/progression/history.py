"""A player's game history: every finished game they played, newest first, filtered by
game, result, opponent and rated/casual in the query (not after loading), a page at a time.

Pages are keyset pages (``before``: the last game's id of the previous page), so a player
with thousands of games costs the same per page as one with ten: the seats' index on
``player_id`` finds the player's games, the filters are ``EXISTS`` on the game's other seats,
and the record text is never loaded for a listing (:func:`records` loads it for the export).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, exists, func, not_, select
from sqlalchemy.orm import Session, aliased

from ..core.jsontypes import JSONObject
from .models import GameRow, GameSeatRow, PlayerRow

RESULTS = ("win", "draw", "loss")
"""A game's result for one seat (:func:`asobiba.progression.ratings.result_word`)."""
KINDS = ("rated", "casual")
"""``rated``: the game changed ratings; ``casual``: it did not (casual, against the CPU, a
daily challenge, or not rated for a fair-play reason)."""
MAX_PAGE = 50
"""Games in one page at most."""


@dataclass(frozen=True)
class Filters:
    """What a history is narrowed to; ``None`` is "any". Checked by the caller (the route
    answers a bad value with 400 ``bad_filter``)."""

    game: str | None = None
    result: str | None = None
    opponent: str | None = None
    """An opponent's name, matched whole and without regard to case."""
    kind: str | None = None


def _query(player_id: int, f: Filters, before: int | None):  # type: ignore[no-untyped-def]
    mine = aliased(GameSeatRow)
    q = (select(GameRow.id, GameRow.game, GameRow.context, GameRow.rated, GameRow.finished,
                GameRow.record.is_not(None).label("has_record"), GameRow.result, mine.seat,
                mine.rank,
                mine.score, mine.rating_before, mine.rating_after)
         .join(mine, mine.game_id == GameRow.id)
         .where(mine.player_id == player_id))
    if before is not None:
        q = q.where(GameRow.id < before)
    if f.game is not None:
        q = q.where(GameRow.game == f.game)
    if f.kind is not None:
        q = q.where(GameRow.rated.is_(f.kind == "rated"))
    if f.result is not None:
        other = aliased(GameSeatRow)
        shared_first = exists().where(other.game_id == GameRow.id, other.seat != mine.seat,
                                      other.rank == 1)
        q = q.where({"loss": mine.rank != 1,
                     "win": and_(mine.rank == 1, not_(shared_first)),
                     "draw": and_(mine.rank == 1, shared_first)}[f.result])
    if f.opponent is not None:
        other = aliased(GameSeatRow)
        q = q.where(exists().where(other.game_id == GameRow.id, other.seat != mine.seat,
                                   other.player_id == PlayerRow.id,
                                   func.lower(PlayerRow.name) == f.opponent.lower()))
    return q.order_by(GameRow.id.desc())


def _opponents(session: Session, game_ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    """Every seat of these games: (seat, name), by game (the caller leaves out its own)."""
    if not game_ids:
        return {}
    out: dict[int, list[tuple[int, str]]] = {}
    for r in session.execute(
            select(GameSeatRow.game_id, GameSeatRow.seat, PlayerRow.name)
            .join(PlayerRow, PlayerRow.id == GameSeatRow.player_id)
            .where(GameSeatRow.game_id.in_(list(game_ids)))
            .order_by(GameSeatRow.game_id, GameSeatRow.seat)).all():
        out.setdefault(r.game_id, []).append((r.seat, r.name))
    return out


def page(session: Session, player_id: int, filters: Filters = Filters(),
         before: int | None = None, limit: int = 20) -> JSONObject:
    """One page of the player's games, newest first: ``games`` and ``next`` (the ``before``
    of the following page, ``None`` at the end)."""
    limit = max(1, min(limit, MAX_PAGE))
    rows = session.execute(_query(player_id, filters, before).limit(limit + 1)).all()
    more = len(rows) > limit
    rows = rows[:limit]
    others = _opponents(session, [r.id for r in rows])
    ranks = _ranks(session, [r.id for r in rows])
    games: list[JSONObject] = []
    for r in rows:
        games.append({
            "game_row_id": r.id, "game": r.game, "context": r.context, "rated": bool(r.rated),
            "seat": r.seat, "result": _word(r.rank, ranks.get(r.id, [])), "score": r.score,
            "rating_before": r.rating_before, "rating_after": r.rating_after,
            "opponents": [name for seat, name in others.get(r.id, []) if seat != r.seat],
            "finished": r.finished, "has_record": bool(r.has_record),
            "aborted": _aborted(r.result)})
    return {"games": games, "next": rows[-1].id if more else None}


def _ranks(session: Session, game_ids: Sequence[int]) -> dict[int, list[int]]:
    if not game_ids:
        return {}
    out: dict[int, list[int]] = {}
    for gid, rank in session.execute(select(GameSeatRow.game_id, GameSeatRow.rank)
                                     .where(GameSeatRow.game_id.in_(list(game_ids)))).all():
        out.setdefault(gid, []).append(rank)
    return out


def _aborted(result: str | None) -> bool:
    """Whether the stored result is an abort (nobody won, nothing rated): the room ends an
    aborted game with a reason that starts "aborted" (server.table.abort, the fair-play
    claim and sweep), so the history says "aborted — not rated", not "drawn"."""
    try:
        reason = json.loads(result or "{}").get("reason", "")
    except ValueError:
        return False
    return isinstance(reason, str) and reason.startswith("aborted")


def _word(rank: int, ranks: Sequence[int]) -> str:
    """The same words as ratings.result_word, from the seats' ranks (what the filter reads)."""
    if rank != 1:
        return "loss"
    return "win" if list(ranks).count(1) == 1 else "draw"


def records(session: Session, player_id: int, filters: Filters = Filters(),
            before: int | None = None, batch: int = 100) -> Iterator[JSONObject]:
    """The player's games with their records, newest first, ``batch`` rows per query (the
    export reads as many as its budget allows and stops: nothing loads them all at once)."""
    while True:
        q = _query(player_id, filters, before).add_columns(GameRow.record).limit(batch)
        rows = session.execute(q).all()
        if not rows:
            return
        ranks = _ranks(session, [r.id for r in rows])
        others = _opponents(session, [r.id for r in rows])
        for r in rows:
            yield {"game_row_id": r.id, "game": r.game, "context": r.context,
                   "rated": bool(r.rated), "seat": r.seat,
                   "result": _word(r.rank, ranks.get(r.id, [])),
                   "opponents": [name for seat, name in others.get(r.id, []) if seat != r.seat],
                   "finished": r.finished, "record": r.record}
        before = rows[-1].id
        if len(rows) < batch:
            return


def record_of(session: Session, game_row_id: int) -> tuple[str, str, str | None] | None:
    """(context, finished, record text) of one stored game, or None when there is none."""
    row = session.execute(select(GameRow.context, GameRow.finished, GameRow.record)
                          .where(GameRow.id == game_row_id)).first()
    return (row.context, row.finished, row.record) if row is not None else None
