"""People (issue 28 item 3): challenges to a named player, follows and blocks.

- **Challenges.** A signed-in player challenges another account by name to a two-player game
  (options, clock, rated or casual, and a colour: first, second or drawn). The room's id and
  the challenger's seat key are fixed when the challenge is made: the key is answered once to
  the challenger (the page keeps it, as it keeps every seat key) and only its hash is stored,
  so accepting makes the room with nothing secret at rest. The challenged player accepts
  (gets the other seat's key) or declines with a reason code; the challenger may cancel.
  Settling is a compare-and-set on the row's status (``created`` → ``accepting``), so two
  answers, at one process or two, give one room or one refusal. Both seats are bound to the
  two accounts before the room exists, so a rated challenge is recorded and rated without a
  claim.
- **Follows.** The follower sees whether the followed player is online (seen in the last
  :data:`ONLINE_FOR` seconds: every page of a signed-in player asks for its notices) and
  their live games (the lobby's list, every process's in the scaled mode).
- **Blocks.** Either way, a block stops challenges and open-game pairing between the two
  (:meth:`People.blocked`, used by the lobby). The refusal does not say who blocked whom.

Limits (docs/fair-play.md): at most :data:`MAX_PENDING` challenges waiting per challenger and
:data:`MAX_PER_HOUR` made per hour; a challenge waits :data:`EXPIRES_AFTER` at most. Rated
challenges need two registered accounts and a clock (the same rule as every rated game), and
their games count toward the same limits as any rated game.

Every refusal is a code with arguments (docs/web.md); every route is in
:data:`asobiba.server.api_schema.OPS`, whose models check the request first.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine, RowMapping
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core import Game, OptionError
from ..core.jsontypes import JSONObject
from ..tables import BLOCKS, CHALLENGES, FOLLOWS, SEAT_PLAYERS, PlayerRow, now, stamp, utcnow
from . import fairplay
from .api_schema import ChallengeAnswer, ChallengeMake
from .clock import ClockError, check_clock
from .db import reader
from .rooms import ClientError, Hub, hash_key, new_key
from .security import parse_json

MAX_PENDING = 5
"""Challenges one player may have waiting at once."""
MAX_PER_HOUR = 30
"""Challenges one player may make in an hour."""
MAX_FOLLOWS = 500
EXPIRES_AFTER = timedelta(hours=24)
"""A challenge nobody answered is void after this (a correspondence challenge too)."""
ONLINE_FOR = 120
"""Seen within this many seconds: online."""
SEEN_EVERY = 30
"""A player's ``last_seen`` is written at most this often (a write per notice poll would
be one per open page every few seconds)."""
MAX_TURNS = 50
"""The unfinished games of one player looked at for "your turn" (the most recent first)."""
RECENT = timedelta(hours=1)
"""Settled challenges stay in the challenger's notices this long (so the page can say)."""
DECLINE_REASONS = ("generic", "later", "too_fast", "too_slow", "rated_only", "casual_only",
                   "other_game")
"""A decline's reason codes (the page words them; lichess offers the same kind of list)."""

Me = tuple[int, str, str]  # id, name, kind
Live = Callable[[], Awaitable[list[JSONObject]]]


class People:
    """The routes of challenges, follows and blocks. ``hub`` gives the rooms, ``get_game``
    the games, ``live`` every process's live games (the lobby's list) and ``limit`` the
    room-creation limit (awaited when a challenge is accepted: it makes a room)."""

    def __init__(self, engine: Engine, hub: Callable[[], Hub], get_game: Callable[[str], Game],
                 live: Live, limit: Callable[[Request], Awaitable[None]]) -> None:
        self.engine = engine
        self.hub = hub
        self.get_game = get_game
        self.live = live
        self.limit = limit

    # ---- who is asking -------------------------------------------------------------------------
    def _player(self, token: str) -> Me | None:
        from sqlalchemy.orm import Session

        from ..progression import accounts
        from ..progression.errors import AuthError

        with Session(reader(self.engine)) as s:
            try:
                info = accounts.player_for_token(s, token)
            except AuthError:
                return None
            return info.id, info.name, info.kind

    async def me(self, request: Request) -> Me:
        from .progression_routes import COOKIE

        token = request.cookies.get(COOKIE)
        got = await run_in_threadpool(self._player, token) if token else None
        if got is None:
            raise ClientError("not_signed_in", "sign in (or play as a guest) first", status=401)
        return got

    def _named(self, conn: Connection, name: str) -> tuple[int, str, str]:
        row = conn.execute(select(PlayerRow.id, PlayerRow.name, PlayerRow.kind).where(
            PlayerRow.name == name, PlayerRow.kind.in_(("human", "guest")))).first()
        if row is None:
            raise ClientError("no_player", f"there is no player {name!r}", status=404,
                              args={"name": name[:40]})
        return int(row[0]), str(row[1]), str(row[2])

    @staticmethod
    def _blocked(conn: Connection, a: int, b: int) -> bool:
        return conn.execute(select(func.count()).select_from(BLOCKS).where(or_(
            and_(BLOCKS.c.blocker_id == a, BLOCKS.c.blocked_id == b),
            and_(BLOCKS.c.blocker_id == b, BLOCKS.c.blocked_id == a)))).scalar_one() > 0

    def blocked_names(self, a: str, b: str) -> bool:
        """Whether either of two players (by name) blocks the other (the lobby asks)."""
        if not a or not b or a == b:
            return False
        with reader(self.engine).connect() as conn:
            ids = dict(conn.execute(select(PlayerRow.name, PlayerRow.id)
                                    .where(PlayerRow.name.in_((a, b)))).all())
            if len(ids) < 2:
                return False
            return self._blocked(conn, int(ids[a]), int(ids[b]))

    async def blocked(self, a: str, b: str) -> bool:
        return await run_in_threadpool(self.blocked_names, a, b)

    # ---- challenges ----------------------------------------------------------------------------
    async def challenge(self, request: Request) -> Response:
        me_id, me_name, me_kind = await self.me(request)
        body = parse_json(await request.body(), empty={})  # checked by ChallengeMake
        req = ChallengeMake.model_validate(body)
        game = self._game(req.game)
        try:
            options = game.validate_options(dict(req.options))
        except OptionError as exc:
            raise ClientError("bad_options", str(exc), args=exc.detail()) from None
        if game.num_seats(options) != 2 or game.simultaneous:
            raise ClientError("bad_challenge", f"challenges are for two players taking "
                              f"turns; {game.id} with these options is not",
                              args={"game": game.id})
        try:
            clock = check_clock(req.clock.model_dump(exclude_none=True) if req.clock else None)
        except ClockError as exc:
            raise ClientError("bad_clock", str(exc), args=exc.details) from None
        fairplay.check_rated_timing(game, [{"kind": "human"}] * 2, req.casual, clock)
        from_seat = {"first": 0, "second": 1}.get(req.colour, secrets.randbelow(2))
        key = new_key()
        cid = secrets.token_urlsafe(9)
        room_id = secrets.token_urlsafe(6)

        def store() -> JSONObject:
            with self.engine.begin() as conn:
                to_id, to_name, to_kind = self._named(conn, req.to)
                if to_id == me_id:
                    raise ClientError("challenge_self", "you cannot challenge yourself")
                if not req.casual and "guest" in (me_kind, to_kind):
                    raise ClientError("guest_casual", "guest accounts play casual games only",
                                      status=403)
                if self._blocked(conn, me_id, to_id):
                    raise ClientError("cannot_challenge", f"{to_name} cannot be challenged "
                                      "by you", status=403, args={"name": to_name})
                self._expire(conn)
                pending = conn.execute(select(func.count()).select_from(CHALLENGES).where(
                    CHALLENGES.c.from_id == me_id,
                    CHALLENGES.c.status == "created")).scalar_one()
                if pending >= MAX_PENDING:
                    raise ClientError("too_many_challenges", f"at most {MAX_PENDING} "
                                      "challenges may wait at once", status=429,
                                      args={"max": str(MAX_PENDING)})
                hour = conn.execute(select(func.count()).select_from(CHALLENGES).where(
                    CHALLENGES.c.from_id == me_id,
                    CHALLENGES.c.created > stamp(now() - timedelta(hours=1)))).scalar_one()
                if hour >= MAX_PER_HOUR:
                    raise ClientError("too_many_challenges", f"at most {MAX_PER_HOUR} "
                                      "challenges an hour", status=429,
                                      args={"max": str(MAX_PER_HOUR)})
                conn.execute(insert(CHALLENGES).values(
                    id=cid, from_id=me_id, to_id=to_id, room_id=room_id, game=game.id,
                    options=json.dumps(options), clock=json.dumps(clock) if clock else None,
                    casual=req.casual, from_seat=from_seat, key_hash=hash_key(key),
                    status="created", reason=None, created=utcnow(),
                    expires=stamp(now() + EXPIRES_AFTER)))
                row = conn.execute(select(CHALLENGES).where(CHALLENGES.c.id == cid)
                                   ).mappings().one()
                return self._public(row, me_id, {me_id: me_name, to_id: to_name})
        out = await run_in_threadpool(store)
        return JSONResponse({"challenge": out, "keys": [{"seat": from_seat, "key": key}]},
                            status_code=201)

    def _game(self, name: str) -> Game:
        try:
            return self.get_game(name)
        except Exception:
            raise ClientError("unknown_game", f"unknown game {name!r}",
                              args={"game": name[:40]}) from None

    @staticmethod
    def _expire(conn: Connection) -> None:
        conn.execute(update(CHALLENGES).where(CHALLENGES.c.status == "created",
                                              CHALLENGES.c.expires < utcnow())
                     .values(status="expired"))

    @staticmethod
    def _public(row: RowMapping, viewer: int, names: dict[int, str]) -> JSONObject:
        mine = int(row["from_id"]) == viewer
        seat = int(row["from_seat"]) if mine else 1 - int(row["from_seat"])
        out: JSONObject = {
            "id": row["id"], "from": names.get(int(row["from_id"]), ""),
            "to": names.get(int(row["to_id"]), ""), "game": row["game"],
            "options": json.loads(row["options"]),
            "clock": json.loads(row["clock"]) if row["clock"] else None,
            "casual": bool(row["casual"]), "seat": seat, "status": row["status"],
            "reason": row["reason"], "expires": row["expires"]}
        if row["status"] == "accepted":
            out["room"] = row["room_id"]
            out["url"] = f"/r/{row['room_id']}"
        elif mine:  # the challenger's page keeps the key under the room's id from the start
            out["room"] = row["room_id"]
        return out

    def _settle(self, cid: str, me_id: int, side: str, status: str,
                reason: str | None) -> RowMapping:
        """Move a challenge from ``created`` to ``status``, once: ``side`` is the column
        that must be the asker (``to_id`` answers, ``from_id`` cancels)."""
        with self.engine.begin() as conn:
            self._expire(conn)
            row = conn.execute(select(CHALLENGES).where(CHALLENGES.c.id == cid)
                               ).mappings().first()
            if row is None or int(row[side]) != me_id:
                raise ClientError("no_challenge", "there is no such challenge for you",
                                  status=404)
            done = conn.execute(update(CHALLENGES).where(
                CHALLENGES.c.id == cid, CHALLENGES.c.status == "created").values(
                status=status, reason=reason)).rowcount
            if not done:
                raise ClientError("challenge_settled", f"this challenge was {row['status']} "
                                  "already", status=409, args={"status": str(row["status"])})
            if status == "accepting" and self._blocked(conn, int(row["from_id"]), me_id):
                raise ClientError("cannot_challenge", "this challenge cannot be accepted",
                                  status=403)
            return row

    async def accept(self, request: Request) -> Response:
        me_id, me_name, _kind = await self.me(request)
        await self.limit(request)
        cid = request.path_params["challenge"]
        row = await run_in_threadpool(self._settle, cid, me_id, "to_id", "accepting", None)
        game = self.get_game(str(row["game"]))
        from_seat = int(row["from_seat"])
        to_seat = 1 - from_seat
        from_name = await run_in_threadpool(self._name_of, int(row["from_id"]))
        seats: list[JSONObject] = [{"kind": "human", "level": None, "name": ""}
                                   for _ in range(2)]
        seats[from_seat]["name"] = from_name
        seats[to_seat]["name"] = me_name
        key = new_key()
        # both seats are bound before the room exists: a rated game is recorded without claims
        await run_in_threadpool(self._bind, str(row["room_id"]),
                                {from_seat: int(row["from_id"]), to_seat: me_id})
        try:
            clock = json.loads(row["clock"]) if row["clock"] else None
            await self.hub().create(game, json.loads(row["options"]), seats,
                                    casual=bool(row["casual"]), clock=clock,
                                    room_id=str(row["room_id"]),
                                    key_hashes={from_seat: str(row["key_hash"]),
                                                to_seat: hash_key(key)})
        except BaseException:
            await run_in_threadpool(self._undo, cid, str(row["room_id"]))
            raise
        await run_in_threadpool(self._mark, cid, "accepted")
        return JSONResponse({"room": row["room_id"], "url": f"/r/{row['room_id']}",
                             "keys": [{"seat": to_seat, "key": key}]}, status_code=201)

    def _name_of(self, pid: int) -> str:
        with reader(self.engine).connect() as conn:
            return str(conn.execute(select(PlayerRow.name).where(PlayerRow.id == pid))
                       .scalar() or "")

    def _bind(self, room_id: str, held: dict[int, int]) -> None:
        with self.engine.begin() as conn:
            for seat, player in held.items():
                conn.execute(insert(SEAT_PLAYERS).values(room_id=room_id, seat=seat,
                                                         player_id=player))

    def _undo(self, cid: str, room_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(SEAT_PLAYERS).where(SEAT_PLAYERS.c.room_id == room_id))
            conn.execute(update(CHALLENGES).where(CHALLENGES.c.id == cid)
                         .values(status="created"))

    def _mark(self, cid: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(CHALLENGES).where(CHALLENGES.c.id == cid).values(status=status))

    async def decline(self, request: Request) -> Response:
        me_id, _name, _kind = await self.me(request)
        body = parse_json(await request.body(), empty={})  # checked by ChallengeAnswer
        reason = ChallengeAnswer.model_validate(body).reason
        await run_in_threadpool(self._settle, request.path_params["challenge"], me_id,
                                "to_id", "declined", reason)
        return JSONResponse({"status": "declined", "reason": reason})

    async def cancel(self, request: Request) -> Response:
        me_id, _name, _kind = await self.me(request)
        await run_in_threadpool(self._settle, request.path_params["challenge"], me_id,
                                "from_id", "cancelled", None)
        return JSONResponse({"status": "cancelled", "reason": None})

    def _notices(self, me_id: int) -> JSONObject:
        with self.engine.begin() as conn:
            self._expire(conn)
            seen = conn.execute(select(PlayerRow.last_seen).where(PlayerRow.id == me_id)
                                ).scalar()
            if seen is None or seen < stamp(now() - timedelta(seconds=SEEN_EVERY)):
                conn.execute(update(PlayerRow).where(PlayerRow.id == me_id)
                             .values(last_seen=utcnow()))
            recent = stamp(now() - RECENT)
            rows = conn.execute(select(CHALLENGES).where(or_(
                and_(CHALLENGES.c.to_id == me_id, CHALLENGES.c.status == "created"),
                and_(CHALLENGES.c.from_id == me_id, or_(
                    CHALLENGES.c.status == "created", CHALLENGES.c.created > recent))))
                .order_by(CHALLENGES.c.created)).mappings().all()
            ids = {int(r["from_id"]) for r in rows} | {int(r["to_id"]) for r in rows}
            names = {int(i): str(n) for i, n in conn.execute(
                select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(ids))).all()}
        return {"incoming": [self._public(r, me_id, names) for r in rows
                             if int(r["to_id"]) == me_id],
                "outgoing": [self._public(r, me_id, names) for r in rows
                             if int(r["from_id"]) == me_id]}

    async def notices(self, request: Request) -> Response:
        me_id, _name, _kind = await self.me(request)
        return JSONResponse(await run_in_threadpool(self._notices, me_id))

    # ---- your turn, across all your games (issue 28 item 2) ----------------------------------
    def _my_rooms(self, me_id: int) -> list[tuple[str, int]]:
        from ..tables import RoomRow

        with reader(self.engine).connect() as conn:
            return [(str(r), int(seat)) for r, seat in conn.execute(
                select(SEAT_PLAYERS.c.room_id, SEAT_PLAYERS.c.seat)
                .join(RoomRow, RoomRow.id == SEAT_PLAYERS.c.room_id)
                .where(SEAT_PLAYERS.c.player_id == me_id, RoomRow.status == "active")
                .order_by(RoomRow.updated.desc()).limit(MAX_TURNS)).all()]

    async def turns(self, request: Request) -> Response:
        """The player's unfinished games (seats held by the account) where it is their turn,
        the closest deadline first: each with the time left to move, if it has a clock.
        Reading a room loads it, so a deadline already passed ends it here and now."""
        me_id, _name, _kind = await self.me(request)
        out: list[JSONObject] = []
        for room_id, seat in await run_in_threadpool(self._my_rooms, me_id):
            room = await self.hub().get(room_id)
            if room is None or room.status != "active" or seat not in room.state.acting_seats:
                continue
            clock = room.clock_view()
            left = float(clock["remaining"][seat]) if clock else None
            out.append({"room": room.id, "url": f"/r/{room.id}", "game": room.game.id,
                        "seat": seat, "ply": len(room.moves),
                        "opponents": [s.name for s in room.seats if s.seat != seat],
                        "remaining": left,
                        "correspondence": bool(room.data.clock
                                               and "per_move" in room.data.clock)})
        out.sort(key=lambda t: (t["remaining"] is None, t["remaining"] or 0.0))
        return JSONResponse({"turns": out})

    # ---- follows and blocks --------------------------------------------------------------------
    def _people(self, me_id: int) -> tuple[list[tuple[int, str, str]], list[str]]:
        with reader(self.engine).connect() as conn:
            following = [(int(i), str(n), str(s)) for i, n, s in conn.execute(
                select(PlayerRow.id, PlayerRow.name, PlayerRow.last_seen)
                .join(FOLLOWS, FOLLOWS.c.followed_id == PlayerRow.id)
                .where(FOLLOWS.c.follower_id == me_id).order_by(PlayerRow.name)).all()]
            blocked = [str(n) for n in conn.execute(
                select(PlayerRow.name).join(BLOCKS, BLOCKS.c.blocked_id == PlayerRow.id)
                .where(BLOCKS.c.blocker_id == me_id).order_by(PlayerRow.name)).scalars()]
        return following, blocked

    async def people(self, request: Request) -> Response:
        me_id, _name, _kind = await self.me(request)
        following, blocked = await run_in_threadpool(self._people, me_id)
        live = await self.live()
        online_since = stamp(now() - timedelta(seconds=ONLINE_FOR))
        out = []
        for pid, name, seen in following:
            games = [{"room": str(g["room"]), "game": str(g["game"])} for g in live
                     if any(isinstance(s, dict) and s.get("name") == name
                            for s in g.get("seats", []))]
            out.append({"id": pid, "name": name, "online": seen >= online_since or bool(games),
                        "live": games})
        return JSONResponse({"following": out, "blocked": blocked})

    def _relate(self, me_id: int, name: str, table: str, on: bool) -> None:
        with self.engine.begin() as conn:
            other, _n, _k = self._named(conn, name)
            if other == me_id:
                raise ClientError("not_yourself", "that is you")
            if table == "follow":
                t, a, b = FOLLOWS, FOLLOWS.c.follower_id, FOLLOWS.c.followed_id
            else:
                t, a, b = BLOCKS, BLOCKS.c.blocker_id, BLOCKS.c.blocked_id
            had = conn.execute(select(func.count()).select_from(t).where(
                a == me_id, b == other)).scalar_one() > 0
            if on and not had:
                if table == "follow":
                    count = conn.execute(select(func.count()).select_from(FOLLOWS).where(
                        FOLLOWS.c.follower_id == me_id)).scalar_one()
                    if count >= MAX_FOLLOWS:
                        raise ClientError("too_many_follows", f"at most {MAX_FOLLOWS}",
                                          status=429, args={"max": str(MAX_FOLLOWS)})
                conn.execute(insert(t).values({a.name: me_id, b.name: other,
                                               "created": utcnow()}))
                if table == "block":  # a block ends following both ways, and waiting
                    conn.execute(delete(FOLLOWS).where(or_(
                        and_(FOLLOWS.c.follower_id == me_id, FOLLOWS.c.followed_id == other),
                        and_(FOLLOWS.c.follower_id == other, FOLLOWS.c.followed_id == me_id))))
                    conn.execute(update(CHALLENGES).where(
                        CHALLENGES.c.status == "created", or_(
                            and_(CHALLENGES.c.from_id == me_id, CHALLENGES.c.to_id == other),
                            and_(CHALLENGES.c.from_id == other, CHALLENGES.c.to_id == me_id)))
                        .values(status="cancelled"))
            elif not on and had:
                conn.execute(delete(t).where(a == me_id, b == other))

    async def relate(self, request: Request) -> Response:
        me_id, _name, _kind = await self.me(request)
        what = request.path_params["what"]
        table, on = {"follow": ("follow", True), "unfollow": ("follow", False),
                     "block": ("block", True), "unblock": ("block", False)}[what]
        name = request.path_params["player"]
        if table == "follow" and on:
            def check() -> None:
                with reader(self.engine).connect() as conn:
                    other, _n, _k = self._named(conn, name)
                    if self._blocked(conn, me_id, other):
                        raise ClientError("cannot_follow", "this player cannot be followed",
                                          status=403)
            await run_in_threadpool(check)
        await run_in_threadpool(self._relate, me_id, name, table, on)
        return JSONResponse({"player": name, "done": what})

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/challenges", self.notices, methods=["GET"]),
            Route("/api/challenges", self.challenge, methods=["POST"]),
            Route("/api/challenges/{challenge}/accept", self.accept, methods=["POST"]),
            Route("/api/challenges/{challenge}/decline", self.decline, methods=["POST"]),
            Route("/api/challenges/{challenge}/cancel", self.cancel, methods=["POST"]),
            Route("/api/turns", self.turns, methods=["GET"]),
            Route("/api/people", self.people, methods=["GET"]),
            Route("/api/people/{player}/{what}", self.relate, methods=["POST"]),
        ]


__all__ = ["DECLINE_REASONS", "People"]
