"""Rating pools, rated results, leaderboards and player pages.

A *pool* is where one rating lives. One-on-one games are rated with Glicko-2 in the pool named
after the game (``"reversi"``); games of more than two seats in ``"<game>:multi"`` and team
games (Algo pairs) in ``"<game>:teams"``, both with openskill. Bots and puzzles are players too
(see ``accounts.bot_player`` / ``puzzle_player``), so their ratings sit in the same pools.

Bot ratings are anchors: a game against a human moves the human's rating but leaves the bot's,
unless ``update_bots=True`` (what calibration runs, ``calibrate.calibrate_bots``, pass). The
people's pools hold no game against a bot: ``Progression.record_game`` never rates one
(``fairplay.unrated_reason``, code ``cpu``); the bot rows of a pool are the calibration's
(bot against bot), kept for ``suggest_bot`` and never listed on a leaderboard.

Fair play (docs/fair-play.md): a game against a *provisional* person moves a rating by
:data:`PROVISIONAL_OPPONENT_WEIGHT` of its Glicko-2 / openskill change, so fresh accounts
are no source of rating; a leaderboard lists established people only (:func:`leaderboard`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Integer, Row, Select, String, and_, bindparam, select
from sqlalchemy.orm import Session, aliased

from ..core import Outcome
from ..core.jsontypes import JSONMapping, JSONObject
from ..games import get as get_game
from ..tables import now as clock
from . import glicko2, skill
from .errors import ProgressionError
from .models import GameRow, GameSeatRow, PlayerRow, RatingRow, utcnow

GLICKO2 = "glicko2"
OPENSKILL = "openskill"

PROVISIONAL_OPPONENT_WEIGHT = 0.1
"""The share of a rating change (gain or loss, so the pool neither inflates nor deflates)
kept from a game against a person whose rating is still provisional: a new account, whose
strength nobody knows, cannot hand out rating. Its deviation still shrinks as usual (the
game is evidence of the player's own strength). Measured: 15 wins against 5 fresh
accounts take a new account from 1500 to 1622 (to 2168 undamped) and an established one
(deviation 60) from 1500 to 1507 (tests/web/test_fairplay_rating.py)."""
LEADERBOARD_GAMES = 10
"""Rated games in the pool a leaderboard entry needs (lichess: 30; we are smaller)."""
LEADERBOARD_OPPONENTS = 3
"""Distinct opponents, each established (not provisional) people, a leaderboard entry needs
rated games against: a ring of fresh accounts feeding one another lists nobody."""


def teams_for(game_id: str, options: JSONMapping, seats: int) -> list[list[int]] | None:
    """Partners, for games that have teams (the game's ``teams`` hook; Algo pair play seats
    partners opposite)."""
    hook = get_game(game_id).progression().teams
    return hook(options, seats) if hook is not None else None


def pool_for(game_id: str, seats: int, teams: Sequence[Sequence[int]] | None = None
             ) -> tuple[str, str]:
    """(pool, system) for a game with this many seats and these teams."""
    if teams:
        return f"{game_id}:teams", OPENSKILL
    if seats == 2:
        return game_id, GLICKO2
    if seats > 2:
        return f"{game_id}:multi", OPENSKILL
    raise ProgressionError(f"a {seats}-seat game has no opponent to be rated against")


@dataclass
class RatingChange:
    seat: int
    player_id: int
    before: float | None
    after: float | None
    provisional: bool


@dataclass
class RatedGame:
    game_row_id: int
    pool: str
    rated: bool
    changes: list[RatingChange] = field(default_factory=list)


def _row(session: Session, player_id: int, pool: str, system: str) -> RatingRow:
    # row lock (PostgreSQL; SQLite serialises writers anyway): two games ending at once for
    # one player must not both rate from the same old value
    row = session.get(RatingRow, (player_id, pool), with_for_update=True)
    if row is None:
        if system == GLICKO2:
            g = glicko2.Glicko2Rating.new()
            row = RatingRow(player_id=player_id, pool=pool, system=system, rating=g.rating,
                            deviation=g.deviation, volatility=g.volatility, provisional=True,
                            games=0)
        else:
            s = skill.SkillRating()
            row = RatingRow(player_id=player_id, pool=pool, system=system, rating=s.ordinal,
                            mu=s.mu, sigma=s.sigma, provisional=True, games=0)
        session.add(row)
    return row


def current_rating(session: Session, player_id: int, pool: str) -> JSONObject | None:
    row = session.get(RatingRow, (player_id, pool))
    return None if row is None else _rating_json(row)


def _rating_json(row: RatingRow) -> JSONObject:
    out: JSONObject = {"pool": row.pool, "system": row.system, "rating": round(row.rating, 1),
                           "provisional": row.provisional, "games": row.games}
    if row.system == GLICKO2:
        out["deviation"] = round(row.deviation, 1)
    else:
        out["mu"], out["sigma"] = round(row.mu, 3), round(row.sigma, 3)
    return out


def _frozen(kind: str, update_bots: bool) -> bool:
    return kind == "bot" and not update_bots


def record_result(
    session: Session,
    game_id: str,
    players: Sequence[int],
    outcome: Outcome,
    *,
    options: JSONMapping | None = None,
    seed: int = 0,
    record: JSONMapping | None = None,
    rated: bool = True,
    context: str = "casual",
    match_id: str | None = None,
    teams: Sequence[Sequence[int]] | None = None,
    update_bots: bool = False,
    pool: tuple[str, str] | None = None,
) -> RatedGame:
    """Store a finished game (players by seat) and, when rated, update the pool's ratings.

    A game where one player holds several seats (hot-seat play) is stored but never rated.
    ``pool`` = (name, system) overrides the pool (puzzles use ``"<game>:puzzle"``).
    """
    options = dict(options or {})
    n = len(players)
    if len(outcome.ranks) != n:
        raise ProgressionError(f"the outcome has {len(outcome.ranks)} seats; got {n} players")
    rows = [session.get(PlayerRow, p) for p in players]
    if any(r is None for r in rows):
        raise ProgressionError(f"unknown player among {list(players)}")
    kinds = [r.kind for r in rows if r is not None]
    if teams is None:
        teams = teams_for(game_id, options, n)
    if n < 2 or len(set(players)) < n:
        rated = False
    if pool is None:
        pool = pool_for(game_id, n, teams) if n >= 2 else (game_id, GLICKO2)
    pool_name, system = pool
    game_row = GameRow(game=game_id, pool=pool_name, rated=rated, context=context, match_id=match_id,
                       options=json.dumps(options, sort_keys=True), seed=str(int(seed)),
                       record=json.dumps(record, ensure_ascii=False) if record else None,
                       result=json.dumps(outcome.to_json()))
    session.add(game_row)
    session.flush()
    result = RatedGame(game_row.id, pool_name, rated)
    team_of = {s: t for t, members in enumerate(teams or []) for s in members}
    before: list[float | None] = [None] * n
    after: list[float | None] = [None] * n
    if rated:
        rating_rows = [_row(session, p, pool_name, system) for p in players]
        before = [r.rating for r in rating_rows]
        weights = _weights(rating_rows, kinds, teams)
        if system == GLICKO2:
            _rate_glicko(rating_rows, outcome, [_frozen(k, update_bots) for k in kinds],
                         weights=weights)
        else:
            _rate_skill(rating_rows, outcome, teams, [_frozen(k, update_bots) for k in kinds],
                        weights)
        for r, k in zip(rating_rows, kinds, strict=True):
            if not _frozen(k, update_bots):
                r.games += 1
                r.updated = utcnow()
        after = [r.rating for r in rating_rows]
        result.changes = [RatingChange(s, players[s], before[s], after[s],
                                       rating_rows[s].provisional) for s in range(n)]
    for seat, pid in enumerate(players):
        session.add(GameSeatRow(game_id=game_row.id, seat=seat, player_id=pid,
                                team=team_of.get(seat, seat), rank=outcome.ranks[seat],
                                score=float(outcome.scores[seat]), points=outcome.points(seat),
                                rating_before=before[seat], rating_after=after[seat]))
    session.flush()
    from ..explorer.index import index_game  # the opening explorer (docs/explorer.md)

    index_game(session, game_id, options, record, players, outcome.ranks, before, rated,
               context, pool_name, game_row.finished)
    return result


def _weights(rows: Sequence[RatingRow], kinds: Sequence[str],
             teams: Sequence[Sequence[int]] | None) -> list[float]:
    """Per seat, the share of its rating change it keeps: the mean, over its opponents
    (seats of other teams), of :data:`PROVISIONAL_OPPONENT_WEIGHT` for a person whose rating
    is provisional before the game and 1 for anyone else (bots and puzzles are calibrated
    anchors, not new accounts). Read before any row is updated."""
    team_of = {s: t for t, members in enumerate(teams or []) for s in members}
    out = []
    for s in range(len(rows)):
        opp = [o for o in range(len(rows)) if team_of.get(o, o) != team_of.get(s, s)]
        w = [PROVISIONAL_OPPONENT_WEIGHT if kinds[o] == "human" and rows[o].provisional
             else 1.0 for o in opp]
        out.append(sum(w) / len(w) if w else 1.0)
    return out


def _idle_days(row: RatingRow, now: datetime) -> float:
    if not row.games:
        return 0.0
    try:
        last = datetime.fromisoformat(row.updated)
    except ValueError:
        return 0.0
    return max(0.0, (now - last).total_seconds() / 86400.0)


def _rate_glicko(rows: list[RatingRow], outcome: Outcome, frozen: list[bool],
                 now: datetime | None = None, weights: Sequence[float] = (1.0, 1.0)) -> None:
    now = now or clock()
    a, b = (glicko2.after_idle(glicko2.Glicko2Rating(r.rating, r.deviation, r.volatility),
                               _idle_days(r, now)) for r in rows)
    new = glicko2.rate_pair(a, b, outcome.points(0))
    for row, old, rating, keep, w in zip(rows, (a, b), new, frozen, weights, strict=True):
        if keep:
            continue
        row.rating = old.rating + w * (rating.rating - old.rating)
        row.deviation, row.volatility = rating.deviation, rating.volatility
        row.provisional = rating.provisional()


def _rate_skill(rows: list[RatingRow], outcome: Outcome, teams: Sequence[Sequence[int]] | None,
                frozen: list[bool], weights: Sequence[float] | None = None) -> None:
    groups = [list(t) for t in teams] if teams else [[s] for s in range(len(rows))]
    ranks = [min(outcome.ranks[s] for s in g) for g in groups]
    new = skill.rate([[skill.SkillRating(rows[s].mu, rows[s].sigma) for s in g] for g in groups],
                     ranks)
    for g, ratings in zip(groups, new, strict=True):
        for s, rating in zip(g, ratings, strict=True):
            if frozen[s]:
                continue
            w = 1.0 if weights is None else weights[s]
            mu = rows[s].mu + w * (rating.mu - rows[s].mu)
            now = skill.SkillRating(mu, rating.sigma)
            rows[s].mu, rows[s].sigma = now.mu, now.sigma
            rows[s].rating, rows[s].provisional = now.ordinal, now.provisional()


def pools(session: Session, game_id: str) -> list[str]:
    """The pools of a game that hold ratings (the game's own first, then :multi, :teams...)."""
    names = session.scalars(select(RatingRow.pool).distinct().where(
        (RatingRow.pool == game_id) | RatingRow.pool.like(f"{game_id}:%"))).all()
    return sorted(names, key=lambda n: (n != game_id, n))


@functools.cache
def _opponents_query(puzzles: bool) -> Select[int]:
    """Distinct established opponents of ``:player_id`` in ``:pool`` — people whose rating in
    the pool is not provisional now (in a puzzle pool, puzzles) — met in rated games;
    partners (the same team) are not opponents. Built once (ORM aliases are costly to make:
    building it per call was most of a leaderboard's time)."""
    mine, other = aliased(GameSeatRow), aliased(GameSeatRow)
    theirs, who = aliased(RatingRow), aliased(PlayerRow)
    player, pool = bindparam("player_id", type_=Integer), bindparam("pool", type_=String)
    q = (select(other.player_id).distinct()
         .select_from(mine)
         .join(GameRow, GameRow.id == mine.game_id)
         .join(other, and_(other.game_id == mine.game_id, other.player_id != player,
                           other.team != mine.team))
         .join(who, who.id == other.player_id)
         .where(mine.player_id == player, GameRow.rated.is_(True), GameRow.pool == pool))
    if puzzles:
        return q.where(who.kind == "puzzle").limit(bindparam("enough", type_=Integer))
    return (q.join(theirs, and_(theirs.player_id == other.player_id, theirs.pool == pool))
            .where(who.kind == "human", theirs.provisional.is_(False))
            .limit(bindparam("enough", type_=Integer)))


def _met_established(session: Session, player_id: int, pool: str, enough: int) -> bool:
    """Whether ``player_id`` has rated games in ``pool`` against at least ``enough`` distinct
    established opponents (:func:`_opponents_query`). Stops at ``enough`` (DISTINCT with
    LIMIT, through the player's index: a few of the player's games)."""
    q = _opponents_query(pool.endswith(":puzzle"))
    found = session.scalars(q, {"player_id": player_id, "pool": pool, "enough": enough}).all()
    return len(found) >= enough


def leaderboard(session: Session, pool: str, limit: int = 50, *, include_provisional: bool = False,
                kinds: Sequence[str] = ("human",)) -> list[JSONObject]:
    """The best established people of a pool: a rating that is not provisional, at least
    :data:`LEADERBOARD_GAMES` rated games, against at least :data:`LEADERBOARD_OPPONENTS`
    distinct established opponents. No bot is listed (lichess keeps BOT accounts off its
    leaderboards too). ``include_provisional`` lists every rating of those kinds, marked
    — for operators and tests, not the public board.

    The opponents are checked best rating first, one short query each, until the board is
    full: 30 ms of CPU for a board of 50 from 20,000 games of 300 people on SQLite, where
    one aggregate over every game of the pool took 320 ms (the plain ordered list: 5–8)."""
    limit = max(1, min(limit, 500))
    q = (select(RatingRow, PlayerRow).join(PlayerRow, PlayerRow.id == RatingRow.player_id)
         .where(RatingRow.pool == pool, PlayerRow.kind.in_(list(kinds)))
         .order_by(RatingRow.rating.desc(), PlayerRow.name))
    rows: list[tuple[RatingRow, PlayerRow]] = []
    if include_provisional:
        rows = [(r, p) for r, p in session.execute(q.limit(limit)).all()]
    else:
        q = q.where(RatingRow.provisional.is_(False), RatingRow.games >= LEADERBOARD_GAMES)
        for r, p in session.execute(q).all():
            if _met_established(session, p.id, pool, LEADERBOARD_OPPONENTS):
                rows.append((r, p))
                if len(rows) == limit:
                    break
    return [{"place": place, "player_id": p.id, "name": p.name, "kind": p.kind,
             **_rating_json(r)} for place, (r, p) in enumerate(rows, 1)]


def suggest_bot(session: Session, player_id: int, game_id: str,
                levels: Sequence[str] | None = None) -> str | None:
    """The bot level whose calibrated rating is nearest the player's (None when no bot of
    the game is rated yet): a fair first opponent, and a next one after each game."""
    pool, _ = pool_for(game_id, 2)
    mine = session.get(RatingRow, (player_id, pool))
    target = mine.rating if mine is not None else glicko2.LICHESS.rating
    q = (select(PlayerRow.level, RatingRow.rating)
         .join(RatingRow, RatingRow.player_id == PlayerRow.id)
         .where(PlayerRow.kind == "bot", PlayerRow.game == game_id, RatingRow.pool == pool))
    rows = [(str(lv), r) for lv, r in session.execute(q).all()
            if levels is None or lv in levels]
    if not rows:
        return None
    return min(rows, key=lambda x: abs(x[1] - target))[0]


def result_word(rank: int, ranks: Sequence[int]) -> str:
    """win (sole first), draw (first shared with every seat... or part of a shared first), loss."""
    if rank != 1:
        return "loss"
    return "win" if list(ranks).count(1) == 1 else "draw"


def player_page(session: Session, player_id: int, recent: int = 20) -> JSONObject:
    """What a player page shows: ratings per pool, statistics per game, recent games.

    Two queries whatever the history's length: the player's seats with their games, and
    the other seats of those games (a self-join), grouped here."""
    player = session.get(PlayerRow, player_id)
    if player is None:
        raise ProgressionError(f"no player {player_id}")
    ratings = session.scalars(select(RatingRow).where(RatingRow.player_id == player_id)).all()
    rows = session.execute(
        select(GameSeatRow, GameRow).join(GameRow, GameRow.id == GameSeatRow.game_id)
        .where(GameSeatRow.player_id == player_id)
        .order_by(GameRow.id.desc(), GameSeatRow.seat)).all()
    mine = aliased(GameSeatRow)
    other = aliased(GameSeatRow)
    opp_rows = session.execute(
        select(other.game_id, other.seat, PlayerRow.name, PlayerRow.kind, PlayerRow.level)
        .join(mine, mine.game_id == other.game_id)
        .join(PlayerRow, PlayerRow.id == other.player_id)
        .where(mine.player_id == player_id).order_by(other.game_id, other.seat)
        .distinct()).all()
    seats_of: dict[int, list[Row[int, int, str, str, str | None]]] = {}
    for r in opp_rows:
        seats_of.setdefault(r.game_id, []).append(r)
    stats: dict[str, JSONObject] = {}
    history: list[JSONObject] = []
    for seat_row, game_row in rows:
        ranks = json.loads(game_row.result)["ranks"]
        word = result_word(seat_row.rank, ranks)
        s = stats.setdefault(game_row.game, {"games": 0, "win": 0, "draw": 0, "loss": 0,
                                             "points": 0.0, "vs_bots": {}})
        s["games"] += 1
        s[word] += 1
        s["points"] += seat_row.points
        opponents = [o for o in seats_of.get(game_row.id, []) if o.seat != seat_row.seat]
        if len(opponents) == 1 and opponents[0].kind == "bot":
            per = s["vs_bots"].setdefault(str(opponents[0].level),
                                          {"games": 0, "win": 0, "draw": 0, "loss": 0})
            per["games"] += 1
            per[word] += 1
        if len(history) < recent:
            history.append({
                "game_row_id": game_row.id, "game": game_row.game, "context": game_row.context,
                "seat": seat_row.seat, "result": word, "score": seat_row.score,
                "rating_before": seat_row.rating_before, "rating_after": seat_row.rating_after,
                "opponents": [o.name for o in opponents], "finished": game_row.finished,
            })
    for s in stats.values():
        s["score_rate"] = round(s.pop("points") / s["games"], 3)
    return {
        "player": {"id": player.id, "name": player.name, "kind": player.kind,
                   "created": player.created},
        "ratings": [_rating_json(r) for r in ratings],
        "stats": stats,
        "history": history,
    }
