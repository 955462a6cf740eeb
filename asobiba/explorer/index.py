"""The opening explorer's index of played games (docs/explorer.md, "The index").

One row per (explorer, canonical position, move) in ``explorer_moves``: how many finished
games played that move there, their results for the side to move, the sum and count of the
games' ratings, and when it was last played. A game is added when it finishes, in the same
transaction that stores it (:func:`index_game`, called from
:func:`asobiba.progression.ratings.record_result`), by one multi-row upsert (``INSERT … ON
CONFLICT DO UPDATE`` on SQLite and PostgreSQL alike, rows in key order so two games
finishing at once on PostgreSQL lock the same rows in the same order). :func:`rebuild`
fills it from the stored games (``asobiba explorer index``: a database made before the
explorer, or after a change of what counts).

What counts: a finished game of an explorer's game and options with a stored record whose
moves replay; not a daily challenge (its record waits for the day's end, so must its moves),
not a puzzle pool, not a hot-seat game (one player holding both seats: anyone could fill the
explorer with lines of their own), and only its first :data:`MAX_PLIES` plies. Rated and
casual games both count; only rated games carry a rating (``rated`` counts them). Aborted
games are never stored, so never counted; a resigned or timed-out game counts with its
stored result (the ranks), which is why results come from the seats, not from replaying.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..core.jsontypes import JSONObject
from ..tables import EXPLORER_MOVES, GameRow, GameSeatRow
from .positions import ExplorerGame, canonical, explorer_for, explorers

log = logging.getLogger(__name__)

MAX_PLIES = 30
"""Plies of each game indexed: an opening explorer, not a game database (Reversi games
leave every earlier game's path within ~15 plies; the table stays small)."""
EXCLUDED_CONTEXTS = frozenset({"daily"})


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rating_sum: float = 0.0
    rated: int = 0
    last_played: str = ""

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.rating_sum += other.rating_sum
        self.rated += other.rated
        self.last_played = max(self.last_played, other.last_played)


Key = tuple[str, str, str]
"""(explorer, position, move)."""


def result_for(seat: int, ranks: Sequence[int]) -> str:
    """``win``, ``draw`` or ``loss`` for ``seat`` (a shared first place is a draw)."""
    if ranks[seat] != 1:
        return "loss"
    return "win" if list(ranks).count(1) == 1 else "draw"


def game_plies(ex: ExplorerGame, moves: Iterable[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """(canonical position, stored move, seat to move) of each of the first
    :data:`MAX_PLIES` plies of a game given as (seat, move text); raises the game's
    MoveError when a move does not replay."""
    state = ex.new_state()
    out: list[tuple[str, str, int]] = []
    for seat, text in moves:
        if len(out) >= MAX_PLIES or state.is_over:
            break
        move = state.parse(text, seat)
        shown = state.move_text(move, seat)  # the game's own spelling ("D3" is "d3")
        pos = canonical(ex, state)
        out.append((pos.key, pos.store_move(ex, shown), seat))
        state = state.play(move, seat)
    return out


def tallies(ex: ExplorerGame, moves: Iterable[tuple[int, str]], ranks: Sequence[int],
            rating: float | None, finished: str) -> dict[Key, Tally]:
    """One game's contribution: each (position, move) once, even if the game passed
    through it twice (a repetition)."""
    out: dict[Key, Tally] = {}
    for key, move, seat in game_plies(ex, moves):
        k = (ex.id, key, move)
        if k in out:
            continue
        word = result_for(seat, ranks)
        out[k] = Tally(1, int(word == "win"), int(word == "draw"), int(word == "loss"),
                       rating or 0.0, int(rating is not None), finished)
    return out


def counts(game: str, options: Mapping[str, object], record: Mapping[str, object] | None,
           players: Sequence[int], context: str, pool: str) -> ExplorerGame | None:
    """The explorer a finished game counts in, or None (see the module's rules)."""
    if record is None or context in EXCLUDED_CONTEXTS or pool.endswith(":puzzle"):
        return None
    if len(players) != 2 or len(set(players)) != 2:
        return None
    return explorer_for(game, options)


def _moves_of(record: Mapping[str, object]) -> list[tuple[int, str]]:
    raw = record.get("moves")
    if not isinstance(raw, list):
        return []
    out = []
    for entry in raw:
        if isinstance(entry, Mapping) and isinstance(entry.get("move"), str) \
                and isinstance(entry.get("seat"), int):
            out.append((int(entry["seat"]), str(entry["move"])))
    return out


def _rating(rated: bool, before: Sequence[float | None]) -> float | None:
    if not rated or any(b is None for b in before) or not before:
        return None
    return sum(b for b in before if b is not None) / len(before)


def upsert(session: Session, rows: Mapping[Key, Tally]) -> None:
    """Add ``rows`` to the table: one ``INSERT … ON CONFLICT DO UPDATE``, in key order."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert
        stmt = pg_insert(EXPLORER_MOVES)
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        stmt = sqlite_insert(EXPLORER_MOVES)  # type: ignore[assignment]
    t, ex = EXPLORER_MOVES.c, stmt.excluded
    stmt = stmt.on_conflict_do_update(  # type: ignore[assignment]
        index_elements=[t.explorer, t.position, t.move],
        set_={"games": t.games + ex.games, "wins": t.wins + ex.wins,
              "draws": t.draws + ex.draws, "losses": t.losses + ex.losses,
              "rating_sum": t.rating_sum + ex.rating_sum, "rated": t.rated + ex.rated,
              "last_played": ex.last_played})
    values = [{"explorer": k[0], "position": k[1], "move": k[2], "games": v.games,
               "wins": v.wins, "draws": v.draws, "losses": v.losses,
               "rating_sum": v.rating_sum, "rated": v.rated, "last_played": v.last_played}
              for k, v in sorted(rows.items())]
    for i in range(0, len(values), 500):
        session.execute(stmt, values[i:i + 500])


_HAS_TABLE: set[str] = set()


def _has_table(session: Session) -> bool:
    """Whether this database has the explorer's table: a database used by progression alone
    (the CLI, ``Progression.create_all``: only the ``prog_`` tables) has none, and its games
    are simply not indexed (``asobiba explorer index`` fills the table once it exists).
    Only a found table is remembered, so a database migrated later is seen."""
    from sqlalchemy import inspect

    bind = session.get_bind()
    url = str(bind.engine.url if hasattr(bind, "engine") else bind)
    if url in _HAS_TABLE:
        return True
    if inspect(session.connection()).has_table(EXPLORER_MOVES.name):
        _HAS_TABLE.add(url)
        return True
    return False


def index_game(session: Session, game: str, options: Mapping[str, object],
               record: Mapping[str, object] | None, players: Sequence[int],
               ranks: Sequence[int], before: Sequence[float | None], rated: bool,
               context: str, pool: str, finished: str) -> int:
    """Add one finished game to the index (in the caller's transaction); the rows touched.
    A record that does not replay is logged and left out: it never fails the game's storing."""
    ex = counts(game, options, record, players, context, pool)
    if ex is None or record is None or not _has_table(session):
        return 0
    try:
        rows = tallies(ex, _moves_of(record), ranks, _rating(rated, before), finished)
    except Exception:  # noqa: BLE001 - a record of older rules: logged, not indexed
        log.warning("explorer: a finished %s game does not replay; not indexed", game,
                    exc_info=True)
        return 0
    upsert(session, rows)
    return len(rows)


def rebuild(session: Session, only: str | None = None, batch: int = 500) -> JSONObject:
    """The index made again from every stored game (of one explorer, or all): the rows
    removed, the games read in id order ``batch`` at a time, their rows summed in memory
    and written at the end (in the caller's transaction)."""
    import json

    chosen = [only] if only else list(explorers())
    session.execute(delete(EXPLORER_MOVES).where(EXPLORER_MOVES.c.explorer.in_(chosen)))
    games = sorted({explorers()[e].game for e in chosen})
    total: dict[Key, Tally] = {}
    counted = skipped = 0
    last = 0
    while True:
        rows = session.execute(
            select(GameRow.id, GameRow.game, GameRow.options, GameRow.record, GameRow.rated,
                   GameRow.context, GameRow.pool, GameRow.finished)
            .where(GameRow.game.in_(games), GameRow.id > last, GameRow.record.is_not(None))
            .order_by(GameRow.id).limit(batch)).all()
        if not rows:
            break
        last = rows[-1].id
        seats: dict[int, list[tuple[int, int, int, float | None]]] = {}
        for s in session.execute(
                select(GameSeatRow.game_id, GameSeatRow.seat, GameSeatRow.player_id,
                       GameSeatRow.rank, GameSeatRow.rating_before)
                .where(GameSeatRow.game_id.in_([r.id for r in rows]))).all():
            seats.setdefault(s.game_id, []).append((s.seat, s.player_id, s.rank,
                                                    s.rating_before))
        for r in rows:
            sl = sorted(seats.get(r.id, []))
            record = json.loads(r.record)
            options = json.loads(r.options)
            ex = counts(r.game, options, record, [x[1] for x in sl], r.context, r.pool)
            if ex is None or ex.id not in chosen:
                continue
            try:
                part = tallies(ex, _moves_of(record), [x[2] for x in sl],
                               _rating(r.rated, [x[3] for x in sl]), r.finished)
            except Exception:  # noqa: BLE001 - counted as skipped, named in the answer
                skipped += 1
                continue
            counted += 1
            for k, v in part.items():
                if k in total:
                    total[k].add(v)
                else:
                    total[k] = v
    upsert(session, total)
    return {"explorers": chosen, "games": counted, "skipped": skipped, "rows": len(total)}


def moves_at(session: Session, ex: ExplorerGame, state: object) -> list[JSONObject]:
    """The moves played from ``state`` (a State of ``ex``'s game), most played first, each
    shown in the state's own orientation."""
    from ..core import State

    assert isinstance(state, State)
    pos = canonical(ex, state)
    t = EXPLORER_MOVES.c
    rows = session.execute(
        select(t.move, t.games, t.wins, t.draws, t.losses, t.rating_sum, t.rated,
               t.last_played)
        .where(t.explorer == ex.id, t.position == pos.key)
        .order_by(t.games.desc(), t.move)).all()
    return [{"move": pos.show_move(ex, r.move), "games": r.games, "wins": r.wins,
             "draws": r.draws, "losses": r.losses,
             "rating": round(r.rating_sum / r.rated) if r.rated else None,
             "last_played": r.last_played} for r in rows]
