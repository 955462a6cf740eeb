"""Chat with moderation (issue 28 item 4; docs/web.md "Chat", docs/fair-play.md "Chat").

**Where.** Each room has two channels: ``players`` (written by the seats' connections, read
by everyone at the table) and ``spectators`` (written by signed-in watchers, read by
watchers, and by the players only when the game allows it — below). A tournament has one
channel, ``tournament`` (written by its entrants, read by anyone: spectators read only).
Lines are stored (``web_chat_lines``): a page that reloads, or joins late, gets them again.

**Who.** Writing needs an account (a guest account is enough): mutes and bans are on
accounts. A room's players' chat is on by default in casual games and off in rated ones;
the creator may choose either (``chat`` in ``POST /api/rooms``, kept in ``web_chat_rooms``).

**Hidden information and kibitzing.** While a game is active and it is a game of hidden
information (``Game.perfect_information`` false: Memory Matrix, Algo) or rated, the
spectators' lines reach no player: not a socket holding a seat, nor a second socket of an
account bound to a seat, nor an anonymous socket (it might be a player's). After the game,
everyone may read them. A socket receives chat only after it asked (``chat_join``): a page
that hides chat never receives any.

**Moderation.** Each line is checked before it is stored, in this order (each refusal a
code): signed in (``chat_sign_in``), not banned (``chat_banned``), not muted
(``chat_muted``, with ``until``), the channel open to this socket (``chat_off``,
``chat_not_player``, ``chat_not_spectator``, ``chat_not_entrant``), not empty after
control and format characters are removed (``chat_empty``), at most :data:`MAX_LENGTH`
characters (``chat_too_long``), the word filter (``chat_filtered``: the line is refused,
not masked, so nobody reads it), and at most :data:`RATE_LINES` lines per
:data:`RATE_WINDOW` seconds per account, across every room and process
(``chat_too_fast``, with ``retry_after``). Mutes and bans live in the database
(``web_moderation``, the audit: every operator action with who, when and why) and are read
on every line sent, so they hold at every process at once. A player's blocks
(:mod:`.social`) hide the blocked player's lines from the blocker.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Literal
from weakref import WeakKeyDictionary

from sqlalchemy import and_, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine, RowMapping
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.jsontypes import JSONObject
from ..tables import (
    BLOCKS,
    CHAT_LINES,
    CHAT_REPORTS,
    CHAT_ROOMS,
    MODERATION,
    SEAT_PLAYERS,
    TOURNAMENT_ENTRIES,
    TOURNAMENTS,
    PlayerRow,
    now,
    stamp,
    utcnow,
)
from .db import reader
from .rooms import ClientError, Conn, Hub, Room

MAX_LENGTH = 300
"""Characters a line may have (after normalisation)."""
RATE_LINES = 5
RATE_WINDOW = 10.0
"""At most this many lines per account in this many seconds (every place, every process)."""
HISTORY = 200
"""The newest lines a join (or a tournament page) gets."""
REPORTS_PER_DAY = 20
REPORT_REASONS = ("abuse", "spam", "cheating", "other")
LOCK = 0x636874  # PostgreSQL advisory lock class ("cht"), with the author's id
Channel = Literal["players", "spectators", "tournament"]
Me = tuple[int, str, str]  # id, name, kind

# ---- normalising and filtering ------------------------------------------------------------
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                       "@": "a", "$": "s"})
_WORD = re.compile(r"[^\W\d_]+")


def clean(line: str) -> str:
    """The stored form of a line: NFKC, control and format characters removed (bidi
    overrides, zero-width joiners, NULs), runs of white space made one space."""
    text_ = unicodedata.normalize("NFKC", line)
    kept = "".join(" " if ch in "\t\n\r" else ch for ch in text_
                   if unicodedata.category(ch) not in ("Cc", "Cf") or ch in "\t\n\r")
    return " ".join(kept.split())


def _kana(s: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in s)


def _fold(s: str) -> str:
    """NFKC, case-folded, katakana as hiragana, stand-in digits and symbols as letters."""
    return _kana(unicodedata.normalize("NFKC", s).casefold()).translate(_LEET)


def _skeleton(s: str) -> str:
    from ..progression.names import skeleton

    return skeleton(s)


@dataclass(frozen=True)
class WordFilter:
    """Entries from ``chat_words.txt``: squashed substrings and whole words (both also as
    UTS #39 skeletons, so look-alike letters of other scripts match)."""

    inside: tuple[str, ...]
    whole: frozenset[str]
    inside_skel: tuple[str, ...] = ()
    whole_skel: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def load(cls, lines: Iterable[str]) -> WordFilter:
        inside: list[str] = []
        whole: set[str] = set()
        for raw in lines:
            entry = raw.strip()
            if not entry or entry.startswith("#"):
                continue
            if entry.startswith("="):
                whole.add(_fold(entry[1:]))
            else:
                inside.append(_squash(_fold(entry)))
        return cls(tuple(inside), frozenset(whole), tuple(_skeleton(w) for w in inside),
                   frozenset(_skeleton(w) for w in whole))

    def matches(self, line: str) -> bool:
        folded = _fold(line)
        squashed = _squash(folded)
        words = _words(folded)
        if any(w in squashed for w in self.inside) or words & self.whole:
            return True
        skel = _skeleton(squashed)
        if any(w in skel for w in self.inside_skel):
            return True
        return bool({_skeleton(w) for w in words} & self.whole_skel)


def _words(folded: str) -> set[str]:
    """The words of a folded line, and each run of one-letter words as one word ("k y s")."""
    tokens = _WORD.findall(folded)
    words = set(tokens)
    run: list[str] = []
    for tok in [*tokens, ""]:
        if len(tok) == 1:
            run.append(tok)
            continue
        if len(run) > 1:
            words.add("".join(run))
        run = []
    return words


def _squash(s: str) -> str:
    """Only the letters and digits of ``s`` (spaces and punctuation between letters gone)."""
    return "".join(ch for ch in s if ch.isalnum())


WORDS_FILE = Path(__file__).with_name("chat_words.txt")


@functools.cache
def word_filter() -> WordFilter:
    return WordFilter.load(WORDS_FILE.read_text(encoding="utf-8").splitlines())


def check_text(raw: str) -> str:
    """The line to store, or a refusal (empty, too long, filtered)."""
    line = clean(raw)
    if not line:
        raise ClientError("chat_empty", "the line is empty")
    if len(line) > MAX_LENGTH:
        raise ClientError("chat_too_long", f"a line may have at most {MAX_LENGTH} characters",
                          args={"max": str(MAX_LENGTH)})
    if word_filter().matches(line):
        raise ClientError("chat_filtered", "the line has a word the chat does not allow")
    return line


# ---- the store ------------------------------------------------------------------------------
_author_locks: dict[int, threading.Lock] = {}
_author_locks_guard = threading.Lock()


def _author_lock(author: int) -> threading.Lock:
    with _author_locks_guard:
        return _author_locks.setdefault(author, threading.Lock())


def player_for_token(engine: Engine, token: str | None) -> Me | None:
    if not token:
        return None
    from sqlalchemy.orm import Session

    from ..progression import accounts
    from ..progression.errors import AuthError

    with Session(reader(engine)) as s:
        try:
            info = accounts.player_for_token(s, token)
        except AuthError:
            return None
        return int(info.id), str(info.name), str(info.kind)


def sanction(conn: Connection, player: int) -> tuple[str, str | None] | None:
    """``("ban", None)``, ``("mute", until)`` or None: what holds against ``player`` now (the
    latest ban/unban and the latest mute/unmute decide)."""
    def latest(actions: tuple[str, str]) -> RowMapping | None:
        return conn.execute(select(MODERATION.c.action, MODERATION.c.until).where(
            MODERATION.c.target_id == player, MODERATION.c.action.in_(actions))
            .order_by(MODERATION.c.id.desc()).limit(1)).mappings().first()

    ban = latest(("ban", "unban"))
    if ban is not None and ban["action"] == "ban":
        return "ban", None
    mute = latest(("mute", "unmute"))
    if mute is not None and mute["action"] == "mute" and (mute["until"] or "") > utcnow():
        return "mute", str(mute["until"])
    return None


def _public(row: RowMapping) -> JSONObject:
    return {"id": int(row["id"]), "channel": str(row["channel"]), "author": str(row["author"]),
            "seat": row["seat"], "text": str(row["text"]), "at": str(row["created"])}


def store_line(engine: Engine, place: str, channel: Channel, me: Me, seat: int | None,
               raw: str) -> JSONObject:
    """Check and store one line (the checks of the module's docstring), or refuse it."""
    author = me[0]
    with reader(engine).connect() as conn:
        held = sanction(conn, author)
    if held is not None and held[0] == "ban":
        raise ClientError("chat_banned", "this account may not chat", status=403)
    if held is not None:
        raise ClientError("chat_muted", f"this account is muted until {held[1]}", status=403,
                          args={"until": str(held[1])})
    line = check_text(raw)
    with _author_lock(author), engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # one author's lines counted one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(:k, :a)"), {"k": LOCK, "a": author})
        since = now() - timedelta(seconds=RATE_WINDOW)
        recent = conn.execute(select(CHAT_LINES.c.created).where(
            CHAT_LINES.c.author_id == author, CHAT_LINES.c.created > stamp(since))
            .order_by(CHAT_LINES.c.id)).scalars().all()
        if len(recent) >= RATE_LINES:
            raise ClientError("chat_too_fast", f"at most {RATE_LINES} lines in "
                              f"{RATE_WINDOW:g} seconds", status=429,
                              args={"lines": str(RATE_LINES), "seconds": f"{RATE_WINDOW:g}"})
        at = utcnow()
        lid = conn.execute(insert(CHAT_LINES).values(
            place=place, channel=channel, author_id=author, author=me[1], seat=seat,
            text=line, created=at, removed=False).returning(CHAT_LINES.c.id)).scalar_one()
    return {"id": int(lid), "channel": channel, "author": me[1], "seat": seat, "text": line,
            "at": at, "author_id": author}


def blocked_by(engine: Engine, viewer: int | None) -> frozenset[int]:
    """The accounts ``viewer`` blocks: their lines are not shown to ``viewer``."""
    if viewer is None:
        return frozenset()
    with reader(engine).connect() as conn:
        return frozenset(int(x) for x in conn.execute(
            select(BLOCKS.c.blocked_id).where(BLOCKS.c.blocker_id == viewer)).scalars())


def lines(engine: Engine, place: str, channels: Iterable[str], hide: frozenset[int],
          after: int = 0) -> list[JSONObject]:
    with reader(engine).connect() as conn:
        rows = conn.execute(select(CHAT_LINES).where(
            CHAT_LINES.c.place == place, CHAT_LINES.c.channel.in_(list(channels)),
            CHAT_LINES.c.id > after, CHAT_LINES.c.removed.is_(False))
            .order_by(CHAT_LINES.c.id.desc()).limit(HISTORY)).mappings().all()
    return [_public(r) for r in reversed(rows) if int(r["author_id"]) not in hide]


def room_players_chat(engine: Engine, room_id: str, casual: bool) -> bool:
    with reader(engine).connect() as conn:
        got = conn.execute(select(CHAT_ROOMS.c.players)
                           .where(CHAT_ROOMS.c.room_id == room_id)).scalar()
    return casual if got is None else bool(got)


def set_room_chat(engine: Engine, room_id: str, players: bool) -> None:
    """The creator's choice of players' chat for a new room."""
    with engine.begin() as conn:
        conn.execute(insert(CHAT_ROOMS).values(room_id=room_id, players=players))


def seated_accounts(engine: Engine, room_id: str) -> frozenset[int]:
    with reader(engine).connect() as conn:
        return frozenset(int(x) for x in conn.execute(
            select(SEAT_PLAYERS.c.player_id).where(SEAT_PLAYERS.c.room_id == room_id))
            .scalars())


# ---- the room's side ------------------------------------------------------------------------
@dataclass
class Reader:
    """A socket that joined the chat: who it is, whom it blocks, whether it is a player."""

    me: Me | None
    hide: frozenset[int]
    player: bool


_tokens: WeakKeyDictionary[Conn, str] = WeakKeyDictionary()
_readers: WeakKeyDictionary[Conn, Reader] = WeakKeyDictionary()


def remember(conn: Conn, token: str | None) -> None:
    """The session cookie of a room socket (read when it chats; never sent anywhere)."""
    if token:
        _tokens[conn] = token


def restricted(room: Room) -> bool:
    """Spectators' lines reach no player now (hidden information, or rated, while active)."""
    return room.status == "active" and (not room.game.perfect_information
                                        or not room.data.casual)


def reads(room: Room, channel: str, reader: Reader) -> bool:
    if channel == "players":
        return True
    if reader.player:
        return not restricted(room)
    return reader.me is not None or not restricted(room)


async def _reader(engine: Engine, room: Room, conn: Conn) -> Reader:
    me = await run_in_threadpool(player_for_token, engine, _tokens.get(conn))
    seated = await run_in_threadpool(seated_accounts, engine, room.id) if me else frozenset()
    hide = await run_in_threadpool(blocked_by, engine, me[0] if me else None)
    reader = Reader(me, hide, bool(conn.keys) or (me is not None and me[0] in seated))
    _readers[conn] = reader
    return reader


async def join(engine: Engine, room: Room, conn: Conn) -> None:
    """A socket asks for the chat: it gets the lines it may read, and later ones as sent."""
    reader = await _reader(engine, room, conn)
    channels = [c for c in ("players", "spectators") if reads(room, c, reader)]
    got = await run_in_threadpool(lines, engine, f"room:{room.id}", channels, reader.hide)
    on = await run_in_threadpool(room_players_chat, engine, room.id, room.data.casual)
    await conn.send({"type": "chat_lines", "lines": got, "players_chat": on,
                     "signed_in": reader.me is not None, "player": reader.player,
                     "spectators_hidden": reader.player and restricted(room)})


async def send(hub: Hub, engine: Engine, room: Room, conn: Conn, channel: str,
               raw: str) -> None:
    """A line from a room socket: checked, stored, relayed here and to other processes."""
    reader = _readers.get(conn) or await _reader(engine, room, conn)
    reader.player = reader.player or bool(conn.keys)
    if reader.me is None:
        raise ClientError("chat_sign_in", "sign in (or play as a guest) to chat", status=401)
    seat: int | None = None
    if channel == "players":
        if not conn.keys:
            raise ClientError("chat_not_player", "only the players write here", status=403)
        if not await run_in_threadpool(room_players_chat, engine, room.id, room.data.casual):
            raise ClientError("chat_off", "the players' chat is off in this game", status=403)
        seat = min(conn.keys)
    elif reader.player:
        raise ClientError("chat_not_spectator", "players do not write in the spectators' "
                          "chat", status=403)
    line = await run_in_threadpool(store_line, engine, f"room:{room.id}",
                                   "players" if channel == "players" else "spectators",
                                   reader.me, seat, raw)
    await relay(room, line)
    hub.bus.publish({"kind": "chat", "room": room.id, "line": line})


async def relay(room: Room, line: JSONObject) -> None:
    author = int(str(line.get("author_id")))
    out = {k: v for k, v in line.items() if k != "author_id"}
    for conn in list(room.conns):
        reader = _readers.get(conn)
        if reader is None or author in reader.hide:
            continue
        if reader.player or conn.keys:
            reader.player = True
        if reads(room, str(line["channel"]), reader):
            await conn.send({"type": "chat", "line": out})


async def on_event(room: Room, event: JSONObject) -> None:
    """A line sent at another process (the room bus): to this process's readers."""
    line = event.get("line")
    if isinstance(line, dict):
        await relay(room, line)


# ---- tournaments ------------------------------------------------------------------------------
def _tournament(conn: Connection, tid: int) -> None:
    if conn.execute(select(TOURNAMENTS.c.id).where(TOURNAMENTS.c.id == tid)).first() is None:
        raise ClientError("no_tournament", "there is no such tournament", status=404)


def tournament_lines(engine: Engine, tid: int, me: Me | None, after: int) -> JSONObject:
    with reader(engine).connect() as conn:
        _tournament(conn, tid)
        entrant = me is not None and conn.execute(select(TOURNAMENT_ENTRIES.c.player_id).where(
            TOURNAMENT_ENTRIES.c.tournament_id == tid,
            TOURNAMENT_ENTRIES.c.player_id == me[0])).first() is not None
    got = lines(engine, f"tour:{tid}", ("tournament",), blocked_by(engine, me[0] if me else None),
                after)
    return {"lines": got, "can_write": entrant, "signed_in": me is not None}


def tournament_post(engine: Engine, tid: int, me: Me | None, raw: str) -> JSONObject:
    if me is None:
        raise ClientError("chat_sign_in", "sign in (or play as a guest) to chat", status=401)
    with reader(engine).connect() as conn:
        _tournament(conn, tid)
        if conn.execute(select(TOURNAMENT_ENTRIES.c.player_id).where(
                TOURNAMENT_ENTRIES.c.tournament_id == tid,
                TOURNAMENT_ENTRIES.c.player_id == me[0])).first() is None:
            raise ClientError("chat_not_entrant", "only the tournament's players write here",
                              status=403)
    line = store_line(engine, f"tour:{tid}", "tournament", me, None, raw)
    return {k: v for k, v in line.items() if k != "author_id"}


def room_lines(engine: Engine, room_id: str, me: Me | None) -> JSONObject:
    """A finished room's stored lines, both channels (the replay's chat): after the game every
    reader at the table gets them all, so the replay shows the same, minus removed lines and
    the lines of accounts ``me`` blocks."""
    hide = blocked_by(engine, me[0] if me else None)
    return {"lines": lines(engine, f"room:{room_id}", ("players", "spectators"), hide)}


# ---- reports and moderation ---------------------------------------------------------------
def report(engine: Engine, me: Me, line_id: int | None, name: str | None,
           reason: str) -> int:
    """File a report of a line (or of a player by name) in the operator's queue."""
    with engine.begin() as conn:
        if line_id is not None:
            target = conn.execute(select(CHAT_LINES.c.author_id)
                                  .where(CHAT_LINES.c.id == line_id)).scalar()
            if target is None:
                raise ClientError("no_line", "there is no such chat line", status=404)
        else:
            target = conn.execute(select(PlayerRow.id).where(PlayerRow.name == (name or ""),
                                  PlayerRow.kind.in_(("human", "guest")))).scalar()
            if target is None:
                raise ClientError("no_player", f"there is no player {name!r}", status=404,
                                  args={"name": (name or "")[:40]})
        if int(target) == me[0]:
            raise ClientError("report_self", "you cannot report yourself")
        day = conn.execute(select(func.count()).select_from(CHAT_REPORTS).where(
            CHAT_REPORTS.c.reporter_id == me[0],
            CHAT_REPORTS.c.created > stamp(now() - timedelta(days=1)))).scalar_one()
        if day >= REPORTS_PER_DAY:
            raise ClientError("too_many_reports", f"at most {REPORTS_PER_DAY} reports a day",
                              status=429, args={"max": str(REPORTS_PER_DAY)})
        same = conn.execute(select(CHAT_REPORTS.c.id).where(
            CHAT_REPORTS.c.reporter_id == me[0], CHAT_REPORTS.c.target_id == int(target),
            CHAT_REPORTS.c.line_id.is_(None) if line_id is None
            else CHAT_REPORTS.c.line_id == line_id, CHAT_REPORTS.c.status == "open")).scalar()
        if same is not None:
            return int(same)
        rid = conn.execute(insert(CHAT_REPORTS).values(
            reporter_id=me[0], target_id=int(target), line_id=line_id, reason=reason,
            status="open", created=utcnow()).returning(CHAT_REPORTS.c.id)).scalar_one()
        return int(rid)


def _id_of(conn: Connection, name: str) -> int:
    got = conn.execute(select(PlayerRow.id).where(PlayerRow.name == name)).scalar()
    if got is None:
        raise ClientError("no_player", f"there is no player {name!r}", status=404,
                          args={"name": name[:40]})
    return int(got)


def moderate(engine: Engine, action: str, name: str, by: str, reason: str,
             hours: float | None = None) -> JSONObject:
    """An operator's ``mute`` (for ``hours``), ``unmute``, ``ban`` or ``unban`` of a player,
    written to the audit (who, when, why); it holds at once at every process."""
    if action not in ("mute", "unmute", "ban", "unban"):
        raise ClientError("bad_action", f"unknown action {action!r}")
    if not by.strip() or not reason.strip():
        raise ClientError("moderation_unexplained", "say who acts and why")
    until = stamp(now() + timedelta(hours=hours)) if action == "mute" and hours else None
    if action == "mute" and until is None:
        raise ClientError("bad_hours", "a mute needs its hours")
    with engine.begin() as conn:
        target = _id_of(conn, name)
        conn.execute(insert(MODERATION).values(target_id=target, action=action, until=until,
                                               reason=reason, by=by, created=utcnow()))
    return {"player": name, "action": action, "until": until}


def reports(engine: Engine, status: str = "open") -> list[JSONObject]:
    names: dict[int, str] = {}
    with reader(engine).connect() as conn:
        rows = conn.execute(select(CHAT_REPORTS, CHAT_LINES.c.text, CHAT_LINES.c.place)
                            .outerjoin(CHAT_LINES, CHAT_LINES.c.id == CHAT_REPORTS.c.line_id)
                            .where(CHAT_REPORTS.c.status == status if status != "all"
                                   else CHAT_REPORTS.c.id > 0)
                            .order_by(CHAT_REPORTS.c.id)).mappings().all()
        ids = {int(r["reporter_id"]) for r in rows} | {int(r["target_id"]) for r in rows}
        if ids:
            names = {int(a): str(b) for a, b in conn.execute(select(PlayerRow.id, PlayerRow.name)
                                      .where(PlayerRow.id.in_(ids))).all()}
    return [{"id": int(r["id"]), "reporter": names.get(int(r["reporter_id"]), "?"),
             "target": names.get(int(r["target_id"]), "?"), "line": r["line_id"],
             "text": r["text"], "place": r["place"], "reason": str(r["reason"]),
             "status": str(r["status"]), "created": str(r["created"])} for r in rows]


def resolve(engine: Engine, report_id: int, by: str, reason: str,
            remove_line: bool = False) -> None:
    """Close a report (audited); ``remove_line``: the reported line is shown no more."""
    if not by.strip() or not reason.strip():
        raise ClientError("moderation_unexplained", "say who acts and why")
    with engine.begin() as conn:
        row = conn.execute(select(CHAT_REPORTS).where(CHAT_REPORTS.c.id == report_id)
                           ).mappings().first()
        if row is None:
            raise ClientError("no_report", f"there is no report {report_id}", status=404)
        conn.execute(update(CHAT_REPORTS).where(CHAT_REPORTS.c.id == report_id)
                     .values(status="resolved"))
        conn.execute(insert(MODERATION).values(target_id=row["target_id"], action="resolve",
                                               report_id=report_id, line_id=row["line_id"],
                                               reason=reason, by=by, created=utcnow()))
        if remove_line and row["line_id"] is not None:
            conn.execute(update(CHAT_LINES).where(CHAT_LINES.c.id == row["line_id"])
                         .values(removed=True))
            conn.execute(insert(MODERATION).values(
                target_id=row["target_id"], action="remove", report_id=report_id,
                line_id=row["line_id"], reason=reason, by=by, created=utcnow()))


def audit(engine: Engine, name: str | None = None) -> list[JSONObject]:
    with reader(engine).connect() as conn:
        q = select(MODERATION, PlayerRow.name).outerjoin(
            PlayerRow, PlayerRow.id == MODERATION.c.target_id).order_by(MODERATION.c.id)
        if name is not None:
            q = q.where(and_(PlayerRow.name == name))
        rows = conn.execute(q).mappings().all()
    return [{"id": int(r["id"]), "player": r["name"], "action": str(r["action"]),
             "until": r["until"], "report": r["report_id"], "line": r["line_id"],
             "reason": str(r["reason"]), "by": str(r["by"]), "at": str(r["created"])}
            for r in rows]


# ---- HTTP -------------------------------------------------------------------------------------
def _engine(request: Request) -> Engine:
    """The rooms' database engine, from the app's context (``AppContext.store``)."""
    from .routes.context import ctx

    return ctx(request).store.engine


async def me_of(request: Request) -> Me | None:
    from .progression_routes import COOKIE

    return await run_in_threadpool(player_for_token, _engine(request),
                                   request.cookies.get(COOKIE))


def tid_of(request: Request) -> int:
    return int(request.path_params["tournament"])


async def read(request: Request) -> Response:
    try:
        after = max(0, int(request.query_params.get("after") or 0))
    except ValueError:
        raise ClientError("bad_field", "after: a number") from None
    got = await run_in_threadpool(tournament_lines, _engine(request), tid_of(request),
                                  await me_of(request), after)
    return JSONResponse(got)


async def post(request: Request) -> Response:
    from .api_schema import ChatPost, parsed

    me = await me_of(request)
    body = await parsed(request, ChatPost)
    line = await run_in_threadpool(tournament_post, _engine(request), tid_of(request), me,
                                   body.text)
    return JSONResponse({"line": line}, status_code=201)


async def report_route(request: Request) -> Response:
    from .api_schema import ChatReport, parsed

    me = await me_of(request)
    if me is None:
        raise ClientError("not_signed_in", "sign in (or play as a guest) first",
                          status=401)
    body = await parsed(request, ChatReport)
    if (body.line is None) == (body.player is None):
        raise ClientError("bad_report", "report a line or a player")
    rid = await run_in_threadpool(report, _engine(request), me, body.line, body.player,
                                  body.reason)
    return JSONResponse({"report": rid}, status_code=201)


async def room_read(request: Request) -> Response:
    """``GET /api/rooms/{room}/chat``: a finished room's chat, when its record is given out
    (the same rule as the record's: not while the game is on, not under an embargo)."""
    from .routes.context import ctx
    from .routes.rooms import released

    room_id = request.path_params["room"]
    await released(ctx(request), room_id, "replay's chat")
    got = await run_in_threadpool(room_lines, _engine(request), room_id, await me_of(request))
    return JSONResponse(got)


def chat_routes() -> list[BaseRoute]:
    """``GET``/``POST /api/tournaments/{id}/chat``, ``GET /api/rooms/{room}/chat`` (a finished
    room's, for its replay) and ``POST /api/chat/reports``: module-level
    handlers on the app's database (``AppContext.store``, read with :func:`_engine`)."""
    from . import chat_schema

    chat_schema.register()
    return [Route("/api/tournaments/{tournament}/chat", read, methods=["GET"]),
            Route("/api/rooms/{room}/chat", room_read, methods=["GET"]),
            Route("/api/tournaments/{tournament}/chat", post, methods=["POST"]),
            Route("/api/chat/reports", report_route, methods=["POST"])]
