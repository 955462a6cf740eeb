"""Tournaments on the server (issue 28 item 1; docs/tournaments.md): the routes, the
snapshot every page reads (and hears pushed over server-sent events), and the driver that
starts tournaments, pairs rounds and Arena waves, and collects results.

Several web processes (``serve --redis``) each run the driver. A pairing decision is one
database transaction that first takes the tournament row's write lock (a no-op ``UPDATE``:
a row lock on PostgreSQL, the write lock on SQLite), re-reads the state, and inserts the
decision's row in ``web_tournament_rounds`` (primary key (tournament, round)) with its games
— their rooms' ids and keys chosen in advance. A second process that arrives at the same
decision waits for the lock, then sees the round taken and does nothing: one pairing
decision per round, no player paired twice. The rooms are made after the commit, from the
stored rows (a room that is missing later — its process died — is made by any process).

The games are ordinary rooms (watchable at ``/r/<room>``, stored, replayable, rated through
the same recording and fair-play limits as any game: the players' seats are held by their
accounts from the start).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

import anyio
import anyio.to_thread
from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ..core import Game, OptionError
from ..core.jsontypes import JSONObject
from ..tables import (
    SEAT_PLAYERS,
    TOURNAMENT_ENTRIES,
    TOURNAMENT_GAMES,
    TOURNAMENT_ROUNDS,
    TOURNAMENTS,
    RoomRow,
    now,
    stamp,
)
from ..tournaments import arena, seating, swiss
from . import fairplay, tournament_schema
from .clock import ClockError, check_clock
from .db import reader
from .rooms import ClientError, new_key

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

    from .rooms import Hub

log = logging.getLogger(__name__)

#: Tournaments one registered player may create per UTC day (operators: no limit).
CREATE_PER_DAY = 3
#: A player none of whose tournament pages has been open for this long is away: at the next
#: pairing he is withdrawn (he missed it) — docs/tournaments.md.
AWAY_AFTER = timedelta(seconds=60)
#: Seconds between the driver's looks at the running tournaments.
TICK = 1.0
#: Seconds between two looks of one open event stream at its tournament.
STREAM_EVERY = 1.0
#: Seconds a tournament's snapshot is shared by the pages reading it (TournamentWeb.read).
SNAPSHOT_TTL = 0.5
PAGE_THREADS = 2
T = TypeVar("T")
Ts = TypeVarTuple("Ts")
#: Seconds a paired game's room may be missing before any process makes it.
MISSING_ROOM_AFTER = timedelta(seconds=10)
DEFAULT_RATING = 1500.0
KINDS = ("swiss", "arena", "tables")


def _parse(when: str) -> datetime:
    return datetime.fromisoformat(when)


# ---- reading a tournament --------------------------------------------------------------------
@dataclass
class State:
    """One tournament as stored: the row, the entries, the games (in pairing order)."""

    row: JSONObject
    entries: list[JSONObject]
    games: list[JSONObject]
    round: int


def load(conn: Connection, tid: int) -> State | None:
    row = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)).mappings().first()
    if row is None:
        return None
    entries = [dict(r) for r in conn.execute(
        select(TOURNAMENT_ENTRIES).where(TOURNAMENT_ENTRIES.c.tournament_id == tid)
        .order_by(TOURNAMENT_ENTRIES.c.joined, TOURNAMENT_ENTRIES.c.player_id)).mappings()]
    games = []
    for g in conn.execute(select(TOURNAMENT_GAMES).where(TOURNAMENT_GAMES.c.tournament_id == tid)
                          .order_by(TOURNAMENT_GAMES.c.id)).mappings():
        d = dict(g)
        d["players"] = json.loads(d["players"])
        d["keys"] = json.loads(d["keys"]) if d["keys"] else None
        d["points"] = json.loads(d["points"]) if d["points"] else None
        games.append(d)
    rnd = conn.execute(select(func.max(TOURNAMENT_ROUNDS.c.round))
                       .where(TOURNAMENT_ROUNDS.c.tournament_id == tid)).scalar() or 0
    return State(dict(row), entries, games, int(rnd))


def info(row: JSONObject) -> JSONObject:
    return {"id": row["id"], "name": row["name"], "kind": row["kind"], "game": row["game"],
            "status": row["status"], "casual": bool(row["casual"]),
            "options": json.loads(str(row["options"])),
            "clock": json.loads(str(row["clock"])) if row["clock"] else None,
            "rounds": row["rounds"], "minutes": row["minutes"], "starts": row["starts"],
            "ends": row["ends"], "operator": row["creator_id"] is None}


def standings(st: State) -> list[JSONObject]:
    """Every entry with its points, games and tie-breaks, best first."""
    kind = st.row["kind"]
    names = {int(e["player_id"]): e for e in st.entries}
    done = [g for g in st.games if g["points"] is not None]
    out: list[JSONObject] = []
    if kind == "swiss":
        sgames = [swiss.Game(g["players"][0], g["players"][1], float(g["points"][0]))
                  for g in done if len(g["players"]) == 2]
        byes = [g["players"][0] for g in st.games if g["room_id"] is None]
        for row in swiss.standings([(p, float(e["rating"])) for p, e in names.items()],
                                   sgames, byes):
            out.append({"player": row.player, "points": row.score, "games": row.games,
                        "buchholz": row.buchholz, "sonneborn_berger": row.sonneborn_berger})
    elif kind == "arena":
        results: dict[int, list[float]] = {p: [] for p in names}
        for g in done:
            for p, outcome in zip(g["players"], g["points"], strict=True):
                results.setdefault(int(p), []).append(float(outcome))
        for p in names:
            pts, fire = arena.points(results[p])
            out.append({"player": p, "points": pts, "games": len(results[p]), "fire": fire})
        out.sort(key=lambda s: (-float(s["points"]), -float(names[int(s["player"])]["rating"]),
                                int(s["player"])))
    else:
        totals = {p: 0.0 for p in names}
        count = {p: 0 for p in names}
        for g in done:
            for p, pts in zip(g["players"], g["points"], strict=True):
                totals[int(p)] = totals.get(int(p), 0.0) + float(pts)
                count[int(p)] = count.get(int(p), 0) + (1 if g["room_id"] else 0)
        for p in names:
            out.append({"player": p, "points": totals[p], "games": count[p]})
        out.sort(key=lambda s: (-float(s["points"]), -float(names[int(s["player"])]["rating"]),
                                int(s["player"])))
    for i, s in enumerate(out):
        e = names[int(s["player"])]
        s.update(rank=i + 1, name=e["name"], status=e["status"], rating=round(e["rating"]))
    return out


def snapshot(st: State, me: int | None) -> JSONObject:
    """What a page shows: the tournament, standings, rounds with their games (linked), and
    for a signed-in player in it, their entry and current game (with their seat's key)."""
    return {**public_part(st), "you": you_part(st, me)}


def public_part(st: State) -> JSONObject:
    """The part of :func:`snapshot` that is the same for every page (cached by
    :meth:`TournamentWeb.read`)."""
    names = {int(e["player_id"]): str(e["name"]) for e in st.entries}
    rounds: dict[int, list[JSONObject]] = {}
    for g in st.games:
        players = [int(p) for p in g["players"]]
        rounds.setdefault(int(g["round"]), []).append({
            "room": g["room_id"], "url": f"/r/{g['room_id']}" if g["room_id"] else None,
            "replay": f"/replay?room={g['room_id']}" if g["room_id"] else None,
            "players": [{"id": p, "name": names.get(p, "")} for p in players],
            "points": g["points"]})
    return {"tournament": info(st.row), "standings": standings(st),
            "rounds": [{"round": r, "games": gs} for r, gs in sorted(rounds.items())]}


def you_part(st: State, me: int | None) -> JSONObject | None:
    """A signed-in entrant's own part of :func:`snapshot`: their status and current game."""
    if me is None:
        return None
    entry = next((e for e in st.entries if int(e["player_id"]) == me), None)
    if entry is None:
        return None
    names = {int(e["player_id"]): str(e["name"]) for e in st.entries}
    you: JSONObject = {"status": entry["status"], "game": None}
    for g in reversed(st.games):
        players = [int(p) for p in g["players"]]
        if me in players and g["room_id"] and g["points"] is None:
            seat = players.index(me)
            you["game"] = {"room": g["room_id"], "url": f"/r/{g['room_id']}",
                           "seat": seat, "key": g["keys"][seat] if g["keys"] else None,
                           "round": g["round"],
                           "opponents": [names.get(p, "") for p in players if p != me]}
            break
    return you


# ---- pairing decisions ---------------------------------------------------------------------
def lock(conn: Connection, tid: int) -> None:
    """Take the tournament's write lock for this transaction (see the module docstring)."""
    conn.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)
                 .values(status=TOURNAMENTS.c.status))


def _outcome(result: JSONObject | None, seats: int) -> list[float]:
    """Each seat's result: two seats 1 / ½ / 0; more seats the points of their places."""
    ranks = result.get("ranks") if result else None
    if not isinstance(ranks, list) or len(ranks) != seats:
        return [0.0] * seats  # no result (an aborted game): nothing for anyone
    if seats == 2:
        a, b = int(ranks[0]), int(ranks[1])
        return [1.0, 0.0] if a < b else [0.0, 1.0] if b < a else [0.5, 0.5]
    return seating.placing_points([int(r) - 1 for r in ranks])


def _insert_games(conn: Connection, st: State, rnd: int,
                  tables: list[list[int]], byes: list[int], bye_points: float) -> None:
    at = stamp(now())
    conn.execute(insert(TOURNAMENT_ROUNDS).values(tournament_id=st.row["id"], round=rnd,
                                                  created=at))
    for players in tables:
        room_id = secrets.token_urlsafe(6)
        keys = [new_key() for _ in players]
        conn.execute(insert(TOURNAMENT_GAMES).values(
            tournament_id=st.row["id"], round=rnd, room_id=room_id,
            players=json.dumps(players), keys=json.dumps(keys), points=None, created=at))
        for seat, pid in enumerate(players):  # the seats are the accounts' from the start
            conn.execute(insert(SEAT_PLAYERS).values(room_id=room_id, seat=seat,
                                                     player_id=pid))
    for pid in byes:
        conn.execute(insert(TOURNAMENT_GAMES).values(
            tournament_id=st.row["id"], round=rnd, room_id=None, players=json.dumps([pid]),
            keys=None, points=json.dumps([bye_points]), created=at))


def _away(st: State, busy: set[int], t: datetime) -> list[int]:
    """The active players who are away at a pairing (not playing, no page open lately)."""
    cutoff = t - AWAY_AFTER
    return [int(e["player_id"]) for e in st.entries
            if e["status"] == "active" and int(e["player_id"]) not in busy
            and _parse(str(e["seen"])) < cutoff]


@dataclass
class Plan:
    """What one look at a tournament decided (:func:`plan`), written by :func:`apply`."""

    #: (game id, points) of the games that have ended since the last look
    points: list[tuple[int, list[float]]]
    #: the tournament row's new values (status, ends), if any
    values: JSONObject
    #: the players withdrawn because they were away at this pairing
    withdraw: list[int]
    #: the next round or wave: (round, tables, byes, a bye's points), if one is paired
    pairing: tuple[int, list[list[int]], list[int], float] | None
    #: when it was decided (the away cut-off is measured from it)
    at: datetime

    def __bool__(self) -> bool:
        return bool(self.points or self.values or self.withdraw or self.pairing)


def _ended(conn: Connection, st: State) -> list[tuple[int, list[float]]]:
    """The points of ``st``'s unfinished games whose rooms have ended (a read)."""
    open_games = {str(g["room_id"]): g for g in st.games
                  if g["room_id"] and g["points"] is None}
    if not open_games:
        return []
    rooms = RoomRow.__table__
    out = []
    for room_id, result in conn.execute(
            select(rooms.c.id, rooms.c.result)
            .where(rooms.c.id.in_(list(open_games)), rooms.c.status != "active")):
        g = open_games[room_id]
        out.append((int(g["id"]), _outcome(json.loads(result) if result else None,
                                           len(g["players"]))))
    return out


def plan(conn: Connection, st: State, seats_of: Callable[[str, JSONObject], int],
         t: datetime) -> Plan:
    """One look at a tournament, from a read: start it, store results, pair the next round
    or wave, or finish it. Nothing is written (``st`` is not changed either)."""
    decided = Plan([], {}, [], None, t)
    if st.row["status"] in ("finished", "cancelled"):
        return decided
    kind = str(st.row["kind"])
    decided.points = _ended(conn, st)
    ended = dict(decided.points)
    games = [{**g, "points": ended[int(g["id"])]} if int(g["id"]) in ended else g
             for g in st.games]
    row = dict(st.row)
    if row["status"] == "open":
        if _parse(str(row["starts"])) > t:
            return decided
        if sum(1 for e in st.entries if e["status"] == "active") < 2:
            return decided  # waits for players (an operator may cancel it)
        decided.values = {"status": "running"}
        if kind == "arena":
            decided.values["ends"] = stamp(t + timedelta(minutes=int(row["minutes"])))
        row.update(decided.values)
    now_st = State(row, st.entries, games, st.round)
    unfinished = [g for g in games if g["room_id"] and g["points"] is None]
    busy = {int(p) for g in unfinished for p in g["players"]}
    if kind == "arena":
        if _parse(str(row["ends"])) <= t:
            if not unfinished:  # games started before the end still count
                decided.values = {**decided.values, "status": "finished"}
            return decided
        decided.withdraw = _away(now_st, busy, t)
        gone = set(decided.withdraw)
        free_ids = [int(e["player_id"]) for e in st.entries
                    if e["status"] == "active" and int(e["player_id"]) not in busy | gone]
        if len(free_ids) < 2:
            return decided
        table = standings(now_st)
        score = {int(s["player"]): int(s["points"]) for s in table}
        last: dict[int, int] = {}
        whites: dict[int, int] = {}
        blacks: dict[int, int] = {}
        pair_games: dict[frozenset[int], int] = {}
        for g in games:
            ps = [int(p) for p in g["players"]]
            if len(ps) != 2:
                continue
            last[ps[0]], last[ps[1]] = ps[1], ps[0]
            whites[ps[0]] = whites.get(ps[0], 0) + 1
            blacks[ps[1]] = blacks.get(ps[1], 0) + 1
            key = frozenset(ps)
            pair_games[key] = pair_games.get(key, 0) + 1
        rating = {int(e["player_id"]): float(e["rating"]) for e in st.entries}
        free = [arena.Free(p, score.get(p, 0), rating[p], last.get(p), whites.get(p, 0),
                           blacks.get(p, 0)) for p in free_ids]
        pairs = arena.pair_free(free, pair_games)
        if pairs:
            decided.pairing = (st.round + 1, [list(p) for p in pairs], [], 0.0)
        return decided
    # Swiss and tables: the next round once every game of this one has ended
    if unfinished:
        return decided
    if st.round >= int(row["rounds"]):
        decided.values = {**decided.values, "status": "finished"}
        return decided
    decided.withdraw = _away(now_st, busy, t)
    gone = set(decided.withdraw)
    present = [e for e in st.entries
               if e["status"] == "active" and int(e["player_id"]) not in gone]
    if len(present) < 2:
        decided.values = {**decided.values, "status": "finished"}
        return decided
    rnd = st.round + 1
    if kind == "swiss":
        sgames = [swiss.Game(g["players"][0], g["players"][1], float(g["points"][0]))
                  for g in games if len(g["players"]) == 2]
        byes = [int(g["players"][0]) for g in games if g["room_id"] is None]
        recs = swiss.records([(int(e["player_id"]), float(e["rating"])) for e in present],
                             sgames, byes)
        pairing = swiss.pair_round(recs)
        decided.pairing = (rnd, [list(wb) for wb in pairing.games],
                           [pairing.bye] if pairing.bye is not None else [], 1.0)
        return decided
    size = seats_of(str(row["game"]), json.loads(str(row["options"])))
    placed = {int(s["player"]): s for s in standings(now_st)}
    seated = []
    for e in present:
        pid = int(e["player_id"])
        seats = []
        byes_had = 0
        for g in games:
            ps = [int(p) for p in g["players"]]
            if pid in ps:
                if g["room_id"] is None:
                    byes_had += 1
                else:
                    seats.append(ps.index(pid))
        seated.append(seating.Seated(pid, float(placed[pid]["points"]) if pid in placed else 0.0,
                                     float(e["rating"]), seats, byes_had))
    tables, byes = seating.seat_round(seated, size, size, first_round=(rnd == 1))
    decided.pairing = (rnd, tables, byes, (size - 1) / 2)
    return decided


def fingerprint(conn: Connection, tid: int) -> tuple[object, ...]:
    """What a :class:`Plan` depends on, read cheaply: the row's status and end, the last
    round, how many games have points, and every entry's status. Equal before and under the
    lock: the plan made from the unlocked read still holds (the away players are checked by
    :func:`apply` itself)."""
    row = conn.execute(select(TOURNAMENTS.c.status, TOURNAMENTS.c.ends)
                       .where(TOURNAMENTS.c.id == tid)).first()
    rnd = conn.execute(select(func.max(TOURNAMENT_ROUNDS.c.round))
                       .where(TOURNAMENT_ROUNDS.c.tournament_id == tid)).scalar() or 0
    scored = conn.execute(select(func.count()).select_from(TOURNAMENT_GAMES).where(
        TOURNAMENT_GAMES.c.tournament_id == tid,
        TOURNAMENT_GAMES.c.points.is_not(None))).scalar() or 0
    entries = tuple((int(p), str(s)) for p, s in conn.execute(
        select(TOURNAMENT_ENTRIES.c.player_id, TOURNAMENT_ENTRIES.c.status)
        .where(TOURNAMENT_ENTRIES.c.tournament_id == tid)
        .order_by(TOURNAMENT_ENTRIES.c.player_id)))
    return ((row[0], row[1]) if row else None, int(rnd), int(scored), entries)


def state_fingerprint(st: State) -> tuple[object, ...]:
    """:func:`fingerprint` of a loaded state."""
    return ((st.row["status"], st.row["ends"]), st.round,
            sum(1 for g in st.games if g["points"] is not None),
            tuple(sorted((int(e["player_id"]), str(e["status"])) for e in st.entries)))


def apply(conn: Connection, st: State, decided: Plan) -> bool:
    """Write ``decided`` (inside the locked transaction). False, writing nothing, if one of
    the players it withdraws has opened a page since (the caller plans again)."""
    tid = int(st.row["id"])
    if decided.withdraw:
        cutoff = stamp(decided.at - AWAY_AFTER)
        still = set(conn.execute(select(TOURNAMENT_ENTRIES.c.player_id).where(
            TOURNAMENT_ENTRIES.c.tournament_id == tid,
            TOURNAMENT_ENTRIES.c.player_id.in_(decided.withdraw),
            TOURNAMENT_ENTRIES.c.seen < cutoff)).scalars())
        if still != set(decided.withdraw):
            return False
        conn.execute(update(TOURNAMENT_ENTRIES).where(
            TOURNAMENT_ENTRIES.c.tournament_id == tid,
            TOURNAMENT_ENTRIES.c.player_id.in_(decided.withdraw)).values(status="withdrawn"))
    for gid, pts in decided.points:
        conn.execute(update(TOURNAMENT_GAMES).where(TOURNAMENT_GAMES.c.id == gid)
                     .values(points=json.dumps(pts)))
    if decided.values:
        conn.execute(update(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)
                     .values(**decided.values))
    if decided.pairing is not None:
        _insert_games(conn, st, *decided.pairing)
    return True


def decide(conn: Connection, tid: int, seats_of: Callable[[str, JSONObject], int]) -> bool:
    """One look at a tournament inside a locked transaction (the slow path of
    :meth:`TournamentWeb.step`, taken when the unlocked plan no longer holds): plan from
    a locked read and write it. True when something changed (rooms may be due)."""
    lock(conn, tid)
    st = load(conn, tid)
    if st is None:
        return False
    decided = plan(conn, st, seats_of, now())
    return bool(decided) and apply(conn, st, decided)


def create_tournament(engine: Engine, get_game: Callable[[str], Game], data: JSONObject,
                      creator: int | None) -> JSONObject:
    """Validate and store a new tournament (``creator`` None: an operator's, no daily
    limit); bad input raises :class:`ClientError` and stores nothing."""
    try:
        game = get_game(str(data.get("game")))
    except Exception:
        raise ClientError("unknown_game", f"unknown game {data.get('game')!r}",
                          args={"game": str(data.get("game"))[:40]}) from None
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ClientError("bad_options", "'options' must be an object")
    try:
        options = game.validate_options(options)
    except OptionError as exc:
        raise ClientError("bad_options", str(exc), args=exc.detail()) from None
    kind = str(data.get("kind"))
    if kind not in KINDS:
        raise ClientError("bad_field", "kind must be swiss, arena or tables",
                          args={"field": "kind"})
    seats = game.num_seats(options)
    if (kind == "tables") != (seats >= 3):
        raise ClientError("tournament_kind", "Swiss and Arena are for two-player games, "
                          "tables for games of three or more",
                          args={"game": game.id, "seats": str(seats)})
    try:
        clock = check_clock(data.get("clock"))
    except ClockError as exc:
        raise ClientError("bad_clock", str(exc), args=exc.details) from None
    casual = bool(data.get("casual", True))
    fairplay.check_rated_timing(game, [{"kind": "human"}] * seats, casual, clock)
    t = now()
    starts = t + timedelta(minutes=int(data.get("starts_in", 5)))
    name = str(data.get("name") or "").strip() or f"{game.id} {kind}"
    with engine.begin() as conn:
        if creator is not None:
            day = stamp(t.replace(hour=0, minute=0, second=0, microsecond=0))
            made = conn.execute(select(func.count()).select_from(TOURNAMENTS).where(
                TOURNAMENTS.c.creator_id == creator, TOURNAMENTS.c.created >= day)
            ).scalar() or 0
            if made >= CREATE_PER_DAY:
                raise ClientError("tournament_limit", f"at most {CREATE_PER_DAY} "
                                  "tournaments a day per player", status=429,
                                  args={"limit": str(CREATE_PER_DAY)})
        key = conn.execute(insert(TOURNAMENTS).values(
            name=name[:80], kind=kind, game=game.id, options=json.dumps(options),
            clock=json.dumps(clock) if clock else None, casual=casual,
            rounds=int(data.get("rounds", 5)) if kind != "arena" else 0,
            minutes=int(data.get("minutes", 30)) if kind == "arena" else 0,
            starts=stamp(starts), ends=None, status="open", creator_id=creator,
            created=stamp(t))).inserted_primary_key
        assert key is not None
        tid = key[0]
        row = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)
                           ).mappings().one()
    return info(dict(row))


def list_rows(engine: Engine) -> list[JSONObject]:
    """Every tournament's row, newest first (the operator's list)."""
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(TOURNAMENTS)
                                              .order_by(TOURNAMENTS.c.id.desc())).mappings()]


def cancel_tournament(engine: Engine, tid: int) -> bool:
    """Cancel an open or running tournament (its games stay); False if there is none."""
    with engine.begin() as conn:
        got = conn.execute(update(TOURNAMENTS).where(
            TOURNAMENTS.c.id == tid,
            TOURNAMENTS.c.status.in_(("open", "running"))).values(status="cancelled"))
    return bool(got.rowcount)


# ---- the web part ----------------------------------------------------------------------------
class TournamentWeb:
    """The tournaments' part of the app, kept at ``AppContext.tournaments`` and read by each
    handler with :func:`tweb`: the database, the rooms' Hub, the games, the pages, the route
    table (:attr:`routes`) and the pairing driver (:meth:`driver`: run it as a task for the
    app's life; :meth:`tick` is one look at every open and running tournament)."""

    def __init__(self, engine: Engine, hub: Callable[[], Hub],
                 get_game: Callable[[str], Game], web_dir: object) -> None:
        from pathlib import Path

        tournament_schema.register()
        self.engine = engine
        #: reads that take no write lock (:func:`db.reader`): the pages' snapshots and the
        #: driver's looks, many a second, must not queue the rooms' commits on SQLite
        self.reader = reader(engine)
        self.hub = hub
        self.get_game = get_game
        self.pages = Path(str(web_dir))
        self.routes: list[BaseRoute] = route_table()
        #: tournament id -> (monotonic time, its state, the text of the part every reader
        #: shares, without its closing brace):
        #: 200 open pages polling each second load and rank it once a second, not 200 times
        #: (bench/tournament_load.py). This process's own writes drop the entry at once;
        #: another process's show within SNAPSHOT_TTL.
        self._snapshots: dict[int, tuple[float, State, str]] = {}
        self._snapshots_lock = threading.Lock()
        #: one load of a tournament at a time (:meth:`read`), and how many times this
        #: process's writes dropped its snapshot (a load begun before a drop is not kept)
        self._loading: dict[int, threading.Lock] = {}
        self._dropped: dict[int, int] = {}
        #: the pages' reads (who is asking, the snapshot) run in at most PAGE_THREADS
        #: threads: at a round's pairing 200 pages ask at once, and 40 worker threads
        #: running Python at once kept the event loop, which acknowledges every room's
        #: moves, waiting for the interpreter; the pages wait their turn instead
        self.page_work = anyio.CapacityLimiter(PAGE_THREADS)
        #: (tournament, player) -> when a page of theirs was last open, not yet stored: the
        #: driver stores them in one transaction a tick (a write per page read, 10 a second
        #: with 200 players, queued the rooms' own commits behind SQLite's one writer)
        self._seen: dict[tuple[int, int], str] = {}

    async def in_page_thread(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """``fn(*args)`` in one of the pages' threads (``page_work``)."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self.page_work)

    def forget(self, tid: int) -> None:
        """Drop ``tid``'s cached snapshot (after a write of this process)."""
        with self._snapshots_lock:
            self._snapshots.pop(tid, None)
            self._dropped[tid] = self._dropped.get(tid, 0) + 1

    # -- who is asking
    def seats_of(self, game_id: str, options: JSONObject) -> int:
        return self.get_game(game_id).num_seats(options)

    def me_of(self, token: str | None) -> tuple[int, str, str] | None:
        from sqlalchemy.orm import Session

        from ..progression import accounts
        from ..progression.errors import AuthError

        if not token:
            return None
        with Session(self.reader) as s:
            try:
                p = accounts.player_for_token(s, token)
            except AuthError:
                return None
            return int(p.id), str(p.name), str(p.kind)

    def rating_of(self, pid: int, game_id: str, seats: int) -> float:
        from sqlalchemy.orm import Session

        from ..progression import ratings

        with Session(self.reader) as s:
            pool, _system = ratings.pool_for(game_id, seats)
            got = ratings.current_rating(s, pid, pool)
            return float(got["rating"]) if got else DEFAULT_RATING

    # -- create / list
    def make(self, data: JSONObject, creator: int | None) -> JSONObject:
        return create_tournament(self.engine, self.get_game, data, creator)

    def listing(self) -> list[JSONObject]:
        with self.reader.connect() as conn:
            rows = conn.execute(select(TOURNAMENTS).order_by(TOURNAMENTS.c.id.desc())
                                .limit(100)).mappings().all()
            counts: dict[int, int] = dict(conn.execute(
                select(TOURNAMENT_ENTRIES.c.tournament_id, func.count())
                .where(TOURNAMENT_ENTRIES.c.status == "active")
                .group_by(TOURNAMENT_ENTRIES.c.tournament_id)).all())
        return [{**info(dict(r)), "players": int(counts.get(r["id"], 0))} for r in rows]

    # -- one tournament
    def read(self, tid: int, me: int | None, touch: bool) -> str:
        """The snapshot a page of ``me`` shows, as JSON text (keys sorted). The part every
        page shares is loaded, ranked and serialised once per ``SNAPSHOT_TTL``; each reader
        adds only his own part (``you``, the last key). 200 pages serialising a whole
        200-player snapshot each, in the event loop, held up every room's acknowledgement
        (bench/tournament_load.py)."""
        if me is not None and touch:  # a page of theirs is open: present (stored a tick on)
            with self._snapshots_lock:
                self._seen[(tid, me)] = stamp(now())
        st, head = self._shared(tid)
        you = json.dumps(you_part(st, me), sort_keys=True)
        return f'{head}, "you": {you}}}' if head != "{" else f'{{"you": {you}}}'

    def _cached(self, tid: int) -> tuple[State, str] | None:
        with self._snapshots_lock:
            cached = self._snapshots.get(tid)
        if cached is not None and time.monotonic() - cached[0] < SNAPSHOT_TTL:
            return cached[1], cached[2]
        return None

    def _shared(self, tid: int) -> tuple[State, str]:
        """``tid``'s state and the text every reader shares, loaded by one thread at a time:
        when a round is paired, 200 pages ask at once, and each loading and serialising
        the whole tournament in its own worker thread starved the event loop of the GIL
        (py-spy of bench/tournament_load.py); the others wait for the one load."""
        got = self._cached(tid)
        if got is not None:
            return got
        with self._snapshots_lock:
            gate = self._loading.setdefault(tid, threading.Lock())
        with gate:
            got = self._cached(tid)  # loaded by the thread this one waited for
            if got is not None:
                return got
            with self._snapshots_lock:
                dropped = self._dropped.get(tid, 0)
            at = time.monotonic()
            with self.reader.connect() as conn:
                state = load(conn, tid)
            if state is None:
                raise ClientError("no_tournament", "there is no such tournament", status=404)
            # the shared part's text without its closing brace; "you" sorts after its keys
            head = json.dumps(public_part(state), sort_keys=True)[:-1]
            with self._snapshots_lock:
                if self._dropped.get(tid, 0) == dropped:  # no write of ours since the load
                    self._snapshots[tid] = (at, state, head)
            return state, head

    def enter(self, tid: int, pid: int, name: str, kind: str) -> JSONObject:
        with self.reader.connect() as conn:
            game_row = conn.execute(select(TOURNAMENTS.c.game, TOURNAMENTS.c.options)
                                    .where(TOURNAMENTS.c.id == tid)).first()
        if game_row is None:
            raise ClientError("no_tournament", "there is no such tournament", status=404)
        seats = self.get_game(str(game_row[0])).num_seats(json.loads(str(game_row[1])))
        rating = self.rating_of(pid, str(game_row[0]), seats)  # before the write lock
        with self.engine.begin() as conn:
            lock(conn, tid)
            row = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)
                               ).mappings().first()
            if row is None:
                raise ClientError("no_tournament", "there is no such tournament", status=404)
            if kind == "guest" and not row["casual"]:
                raise ClientError("guest_casual", "guest accounts play casual games only; "
                                  "register to play rated tournaments", status=403)
            late_ok = row["status"] == "open" or (
                row["status"] == "running" and (
                    (row["kind"] == "arena" and row["ends"] and _parse(str(row["ends"])) > now())
                    or (row["kind"] != "arena" and (conn.execute(
                        select(func.max(TOURNAMENT_ROUNDS.c.round))
                        .where(TOURNAMENT_ROUNDS.c.tournament_id == tid)).scalar() or 0)
                        < int(row["rounds"]))))
            if not late_ok:
                raise ClientError("tournament_closed", "this tournament takes no more players",
                                  status=409, args={"status": str(row["status"])})
            t = stamp(now())
            have = conn.execute(select(TOURNAMENT_ENTRIES.c.status).where(
                TOURNAMENT_ENTRIES.c.tournament_id == tid,
                TOURNAMENT_ENTRIES.c.player_id == pid)).scalar()
            if have is None:
                conn.execute(insert(TOURNAMENT_ENTRIES).values(
                    tournament_id=tid, player_id=pid, name=name, rating=rating,
                    status="active", joined=t, seen=t))
            else:  # back after withdrawing: a late join with what he had
                conn.execute(update(TOURNAMENT_ENTRIES).where(
                    TOURNAMENT_ENTRIES.c.tournament_id == tid,
                    TOURNAMENT_ENTRIES.c.player_id == pid).values(status="active", seen=t))
        self.forget(tid)
        return {"status": "active"}

    def leave(self, tid: int, pid: int) -> JSONObject:
        with self.engine.begin() as conn:
            got = conn.execute(update(TOURNAMENT_ENTRIES).where(
                TOURNAMENT_ENTRIES.c.tournament_id == tid,
                TOURNAMENT_ENTRIES.c.player_id == pid).values(status="withdrawn"))
            if not got.rowcount:
                raise ClientError("not_entered", "you are not in this tournament", status=409)
        self.forget(tid)
        return {"status": "withdrawn"}

    # -- the driver
    def running(self) -> list[int]:
        with self.reader.connect() as conn:
            return [int(i) for i in conn.execute(select(TOURNAMENTS.c.id).where(
                TOURNAMENTS.c.status.in_(("open", "running"))))
                .scalars()]

    def look(self, tid: int) -> tuple[State, Plan] | None:
        """What is due in ``tid`` now, planned from a read that takes no lock; None if
        nothing is."""
        with self.reader.connect() as conn:
            st = load(conn, tid)
            if st is None:
                return None
            decided = plan(conn, st, self.seats_of, now())
        return (st, decided) if decided else None

    def write(self, st: State, decided: Plan) -> None:
        """Write a plan of :meth:`look` in one transaction under the tournament's lock, after
        checking that what it rests on has not changed since (another process's pairing or
        results, a join or a leave, an away player back): if it has, plan again under the
        lock."""
        tid = int(st.row["id"])
        with self.engine.begin() as conn:
            lock(conn, tid)
            if not (fingerprint(conn, tid) == state_fingerprint(st)
                    and apply(conn, st, decided)):
                decide(conn, tid, self.seats_of)
        self.forget(tid)  # whatever it stored, the pages see it at once

    def step(self, tid: int) -> None:
        """One look at ``tid`` (:meth:`look`, then :meth:`write` if anything is due). A look
        with nothing due writes nothing and takes no lock — most ticks; on SQLite the
        rooms' commits waited behind every tick's lock before (docs/benchmarks.md)."""
        for attempt in range(5):
            try:
                got = self.look(tid)
                if got is not None:
                    self.write(*got)
                return
            except IntegrityError:  # another process decided this round first
                return
            except Exception as exc:  # noqa: BLE001 - a lost race (deadlock, locked): again
                if attempt == 4:
                    raise
                log.debug("tournament %s: retrying after %s", tid, exc)

    def store_seen(self) -> None:
        """Store when each player's page was last open (see ``_seen``), in one transaction."""
        with self._snapshots_lock:
            seen, self._seen = self._seen, {}
        if not seen:
            return
        with self.engine.begin() as conn:
            conn.execute(update(TOURNAMENT_ENTRIES).where(
                TOURNAMENT_ENTRIES.c.tournament_id == bindparam("t"),
                TOURNAMENT_ENTRIES.c.player_id == bindparam("p")).values(seen=bindparam("at")),
                [{"t": t, "p": p, "at": at} for (t, p), at in seen.items()])

    def missing_rooms(self, tid: int) -> list[JSONObject]:
        """The unfinished games of ``tid`` whose rooms are not made yet. Only those rows are
        read (the whole tournament, read here twice a tick, was the web process's largest
        cost while a 200-player round was played)."""
        rooms = RoomRow.__table__
        with self.reader.connect() as conn:
            games = [dict(g) for g in conn.execute(select(TOURNAMENT_GAMES).where(
                TOURNAMENT_GAMES.c.tournament_id == tid,
                TOURNAMENT_GAMES.c.room_id.is_not(None),
                TOURNAMENT_GAMES.c.points.is_(None))).mappings()]
            if not games:
                return []
            ids = [str(g["room_id"]) for g in games]
            have = set(conn.execute(select(rooms.c.id).where(rooms.c.id.in_(ids))).scalars())
            games = [g for g in games if g["room_id"] not in have]
            if not games:
                return []
            row = conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tid)
                               ).mappings().first()
        if row is None:
            return []
        for g in games:
            g["players"] = json.loads(g["players"])
            g["keys"] = json.loads(g["keys"]) if g["keys"] else None
        return [{**g, "row": dict(row)} for g in games]

    async def make_rooms(self, tid: int) -> None:
        """Make the rooms of ``tid``'s paired games that have none: the fresh ones (paired
        by this process's step a moment ago) first, then those older than
        ``MISSING_ROOM_AFTER`` (a process that paired them stopped before making them)."""
        missing = await run_in_threadpool(self.missing_rooms, tid)
        missing.sort(key=lambda g: now() - _parse(str(g["created"])) > MISSING_ROOM_AFTER)
        for g in missing:
            await self.make_room(g, g["row"])

    async def make_room(self, g: JSONObject, row: JSONObject) -> None:
        """Create one paired game's room (nothing if another task or process just did)."""
        game = self.get_game(str(row["game"]))
        names = await run_in_threadpool(self._names, [int(p) for p in g["players"]])
        seats: list[JSONObject] = [{"kind": "human", "level": None, "name": n}
                                   for n in names]
        with contextlib.suppress(IntegrityError):  # made by another process meanwhile
            await self.hub().create(
                game, game.validate_options(json.loads(str(row["options"]))), seats,
                casual=bool(row["casual"]),
                clock=json.loads(str(row["clock"])) if row["clock"] else None,
                room_id=str(g["room_id"]), keys=dict(enumerate(g["keys"])))

    def pending_game(self, room_id: str) -> tuple[JSONObject, JSONObject] | None:
        """The unfinished tournament game stored under ``room_id`` and its tournament's row."""
        with self.reader.connect() as conn:
            g = conn.execute(select(TOURNAMENT_GAMES).where(
                TOURNAMENT_GAMES.c.room_id == room_id,
                TOURNAMENT_GAMES.c.points.is_(None))).mappings().first()
            if g is None:
                return None
            row = conn.execute(select(TOURNAMENTS).where(
                TOURNAMENTS.c.id == g["tournament_id"])).mappings().first()
        if row is None:
            return None
        game = dict(g)
        game["players"] = json.loads(game["players"])
        game["keys"] = json.loads(game["keys"]) if game["keys"] else None
        return game, dict(row)

    async def ensure_room(self, room_id: str) -> bool:
        """A player may open his game the moment its pairing shows, before the driver has
        created its room (a round of 100 games is created one room at a time): the room
        is created then, on his request. True if ``room_id`` is a paired game's room."""
        found = await run_in_threadpool(self.pending_game, room_id)
        if found is None:
            return False
        await self.make_room(*found)
        return True

    def _names(self, pids: list[int]) -> list[str]:
        with self.reader.connect() as conn:
            got = dict(conn.execute(select(TOURNAMENT_ENTRIES.c.player_id,
                                           TOURNAMENT_ENTRIES.c.name)
                                    .where(TOURNAMENT_ENTRIES.c.player_id.in_(pids))).all())
        return [str(got.get(p, ""))[:40] for p in pids]

    async def tick(self) -> None:
        """One look at every open and running tournament (tests call it)."""
        await run_in_threadpool(self.store_seen)
        for tid in await run_in_threadpool(self.running):
            await run_in_threadpool(self.step, tid)
            await self.make_rooms(tid)

    async def driver(self) -> None:
        """The pairing driver: run it as a task for the app's life."""
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the driver never dies; the next tick tries again
                log.exception("tournament driver")
            await asyncio.sleep(TICK)


def tournament_routes(engine: Engine, hub: Callable[[], Hub],
                      get_game: Callable[[str], Game], web_dir: object) -> TournamentWeb:
    """The tournaments' part: its routes and the driver (start it in the app's lifespan:
    ``driver()``). The app keeps it at ``AppContext.tournaments``, where the handlers read it."""
    return TournamentWeb(engine, hub, get_game, web_dir)


def tweb(request: Request) -> TournamentWeb:
    """The app's tournaments part, from a request."""
    from .routes.context import ctx

    got = ctx(request).tournaments
    assert got is not None, "create_app sets it"
    return got


# ---- the handlers (module level: each reads the app's TournamentWeb) -------------------------
async def player(request: Request) -> tuple[int, str, str]:
    from .progression_routes import COOKIE

    tw = tweb(request)
    me = await tw.in_page_thread(tw.me_of, request.cookies.get(COOKIE))
    if me is None:
        raise ClientError("not_signed_in", "sign in (or play as a guest) first", status=401)
    return me


async def viewer(request: Request) -> tuple[int, str, str] | None:
    """Who is looking (None: nobody signed in)."""
    from .progression_routes import COOKIE

    tw = tweb(request)
    return await tw.in_page_thread(tw.me_of, request.cookies.get(COOKIE))


def tid_of(request: Request) -> int:
    return int(request.path_params["tournament"])


async def body(request: Request) -> JSONObject:
    raw = await request.body()  # checked against its model (tournament_schema)
    data = json.loads(raw) if raw.strip() else {}
    assert isinstance(data, dict)
    return data


async def create(request: Request) -> Response:
    pid, _name, kind = await player(request)
    if kind != "human":
        raise ClientError("need_account", "register to create tournaments", status=403)
    data = await body(request)
    made = await run_in_threadpool(tweb(request).make, data, pid)
    return JSONResponse({"tournament": made}, status_code=201)


async def list_(request: Request) -> Response:
    return JSONResponse({"tournaments": await run_in_threadpool(tweb(request).listing)})


async def one(request: Request) -> Response:
    me = await viewer(request)
    tw = tweb(request)
    text_ = await tw.in_page_thread(tw.read, tid_of(request), me[0] if me else None, True)
    return Response(text_, media_type="application/json")


async def _stream(request: Request, tw: TournamentWeb, tid: int, mine: int | None,
                  first: str) -> AsyncIterator[str]:
    """The event stream of :func:`events`: the first snapshot, then each change."""
    last = first
    yield f"data: {last}\n\n"
    beats = 0
    while True:
        await asyncio.sleep(STREAM_EVERY)
        beats += 1
        if await request.is_disconnected():
            return
        try:
            text_ = await tw.in_page_thread(tw.read, tid, mine, beats % 10 == 0)
        except ClientError:
            return
        if text_ != last:
            last = text_
            yield f"data: {text_}\n\n"
        elif beats % 15 == 0:
            yield ": alive\n\n"


async def events(request: Request) -> Response:
    """Server-sent events: the snapshot now and each time it changes (the pairing
    announced to the player's open page); an open stream keeps its player present."""
    tw = tweb(request)
    tid = tid_of(request)
    me = await viewer(request)
    mine = me[0] if me else None
    first = await tw.in_page_thread(tw.read, tid, mine, True)
    return StreamingResponse(_stream(request, tw, tid, mine, first),
                             media_type="text/event-stream",
                             headers={"cache-control": "no-cache",
                                      "x-accel-buffering": "no"})


async def join(request: Request) -> Response:
    pid, name, kind = await player(request)
    return JSONResponse(await run_in_threadpool(tweb(request).enter, tid_of(request), pid,
                                                name, kind))


async def withdraw(request: Request) -> Response:
    pid, _name, _kind = await player(request)
    return JSONResponse(await run_in_threadpool(tweb(request).leave, tid_of(request), pid))


async def page_list(request: Request) -> Response:
    return FileResponse(tweb(request).pages / "tournaments.html",
                        headers={"cache-control": "no-cache"})


async def page_one(request: Request) -> Response:
    return FileResponse(tweb(request).pages / "tournament.html",
                        headers={"cache-control": "no-cache"})


def route_table() -> list[BaseRoute]:
    """The tournaments' routes, in their order (the app places them before the game files)."""
    return [
        Route("/tournaments", page_list),
        Route("/t/{tournament}", page_one),
        Route("/api/tournaments", list_, methods=["GET"]),
        Route("/api/tournaments", create, methods=["POST"]),
        Route("/api/tournaments/{tournament}", one, methods=["GET"]),
        Route("/api/tournaments/{tournament}/events", events, methods=["GET"]),
        Route("/api/tournaments/{tournament}/join", join, methods=["POST"]),
        Route("/api/tournaments/{tournament}/withdraw", withdraw, methods=["POST"]),
    ]
