"""The database schema of the whole platform: every table, on one SQLAlchemy metadata.

One module defines them all — the rooms of the web platform (``rooms``, ``seats``, ``moves``,
``match_sets``, ``match_set_rooms``, ``records``), the progression tables (``prog_…``:
accounts, sessions, ratings, games, ladder, dailies, trophies, secrets) and the web's links
between the two (``web_…``) — so that the Alembic migrations (``asobiba/server/migrations``)
are checked against one target: :data:`Base.metadata`. The store (``server.db``) and the
progression layer (``progression.models``) import their tables from here.

Plain column types only (JSON as text), so SQLite and PostgreSQL take the same schema.
Every stored time is written by :func:`utcnow` (or :func:`stamp` for a computed time): ISO
8601 in UTC with milliseconds, ``2026-12-01T03:04:05.678+00:00``, text that sorts in time
order. Rows written before this one clock (progression's times had whole seconds,
``…:05+00:00``) read the same (:func:`datetime.fromisoformat` takes both) and still sort
in order, except against a millisecond time of the very same second (docs/web.md,
"Schema migrations").
"""

from __future__ import annotations

from datetime import UTC, datetime

try:  # the 'web' extra; without it, say which extra to install
    from sqlalchemy import (
        BigInteger,
        Boolean,
        Column,
        Float,
        ForeignKey,
        Index,
        Integer,
        String,
        Table,
        Text,
        UniqueConstraint,
    )
    from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
except ModuleNotFoundError as _exc:
    from .core.extras import explain

    raise explain(_exc, "asobiba.tables (the platform's database)") from _exc


def stamp(when: datetime) -> str:
    """A time as it is stored: ISO 8601, UTC, milliseconds."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds")


def now() -> datetime:
    """The one clock of every stored time (an aware UTC datetime)."""
    return datetime.now(UTC)


def utcnow() -> str:
    """Now, as stored (:func:`stamp` of :func:`now`)."""
    return stamp(now())


class Base(DeclarativeBase):
    """The one declarative base: ``Base.metadata`` holds every table of the platform."""


# ---- rooms (asobiba.server.db) -------------------------------------------------------------
class RoomRow(Base):
    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rules_version: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    casual: Mapped[bool] = mapped_column(Boolean, default=True)
    hotseat: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[str | None] = mapped_column(Text, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[str] = mapped_column(String(40))
    updated: Mapped[str] = mapped_column(String(40))


class SeatRow(Base):
    __tablename__ = "seats"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    key_hash: Mapped[str | None] = mapped_column(String(128), nullable=True)


class MoveRow(Base):
    __tablename__ = "moves"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)  # no length cap: PostgreSQL would enforce one
    at: Mapped[str] = mapped_column(String(40))


class MatchSetRow(Base):
    """A reverse match or best-of-N series between the two seats of consecutive rooms."""

    __tablename__ = "match_sets"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    state: Mapped[str] = mapped_column(Text)  # {"match": Match.to_json(), "forfeit": ...}
    updated: Mapped[str] = mapped_column(String(40))


class SetRoomRow(Base):
    """Which game of which set a room plays; a set's game number is taken once."""

    __tablename__ = "match_set_rooms"
    __table_args__ = (UniqueConstraint("set_id", "game_index"),)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    set_id: Mapped[str] = mapped_column(ForeignKey("match_sets.id"), index=True)
    game_index: Mapped[int] = mapped_column(Integer)


class RecordRow(Base):
    __tablename__ = "records"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    record: Mapped[str] = mapped_column(Text)
    saved: Mapped[str] = mapped_column(String(40))


# ---- progression (asobiba.progression; every table prefixed prog_) -------------------------
class PlayerRow(Base):
    """A rated entity: a human account, a guest, a bot level, or a puzzle (rated like lichess)."""

    __tablename__ = "prog_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    # a person's name's look-alike key (progression.names.skeleton): one account per
    # skeleton, by this unique index — "аdmin" (Cyrillic а) or "ＡＤＭＩＮ" is "admin"'s;
    # NULL for guests, bots and puzzles (their names are made by the server)
    skeleton: Mapped[str | None] = mapped_column(String(200), nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | guest | bot | puzzle
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    game: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bots, puzzles
    level: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bots
    created: Mapped[str] = mapped_column(String(40), default=utcnow)
    last_seen: Mapped[str] = mapped_column(String(40), default=utcnow)

    __table_args__ = (Index("ix_prog_players_skeleton", "skeleton", unique=True),)


class SessionRow(Base):
    """A login. Only the SHA-256 of the token is stored, so a leaked table opens nothing."""

    __tablename__ = "prog_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), index=True)
    created: Mapped[str] = mapped_column(String(40), default=utcnow)
    expires: Mapped[str] = mapped_column(String(40))


class RatingRow(Base):
    """One player's rating in one pool (a game, or a game's multi-player/pair form)."""

    __tablename__ = "prog_ratings"
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), primary_key=True)
    pool: Mapped[str] = mapped_column(String(60), primary_key=True)
    system: Mapped[str] = mapped_column(String(12))  # glicko2 | openskill
    rating: Mapped[float] = mapped_column(Float)  # shown value: Glicko-2 rating or ordinal
    deviation: Mapped[float] = mapped_column(Float, default=0.0)
    volatility: Mapped[float] = mapped_column(Float, default=0.0)
    mu: Mapped[float] = mapped_column(Float, default=0.0)
    sigma: Mapped[float] = mapped_column(Float, default=0.0)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[str] = mapped_column(String(40), default=utcnow)

    __table_args__ = (Index("ix_prog_ratings_pool_rating", "pool", "rating"),)


class GameRow(Base):
    """A finished game as seen by progression: its record and what it counted for."""

    __tablename__ = "prog_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    pool: Mapped[str] = mapped_column(String(60))
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    context: Mapped[str] = mapped_column(String(16), default="casual")  # casual|ladder|exam|daily|match|arena
    match_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    options: Mapped[str] = mapped_column(Text, default="{}")
    seed: Mapped[str] = mapped_column(String(24), default="0")  # 64-bit seeds, portable
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    result: Mapped[str] = mapped_column(Text)
    finished: Mapped[str] = mapped_column(String(40), default=utcnow, index=True)


class GameSeatRow(Base):
    __tablename__ = "prog_game_seats"
    game_id: Mapped[int] = mapped_column(ForeignKey("prog_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), index=True)
    team: Mapped[int] = mapped_column(Integer, default=0)
    rank: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    points: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)


class LadderRow(Base):
    """One player's ladder progress in one game, as the JSON of ``ladder.LadderProgress``."""

    __tablename__ = "prog_ladder"
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    state: Mapped[str] = mapped_column(Text)
    updated: Mapped[str] = mapped_column(String(40), default=utcnow)


class DailyRow(Base):
    __tablename__ = "prog_daily"
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    cleared: Mapped[bool] = mapped_column(Boolean, default=False)
    cleared_at: Mapped[str | None] = mapped_column(String(40), nullable=True)


class TrophyRow(Base):
    __tablename__ = "prog_trophies"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("prog_players.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(20))  # daily-month
    period: Mapped[str] = mapped_column(String(10))  # YYYY-MM
    earned: Mapped[str] = mapped_column(String(40), default=utcnow)

    __table_args__ = (UniqueConstraint("player_id", "game", "kind", "period"),)


class SecretRow(Base):
    """A server secret (hex), created on first start: the daily challenges' seed key."""

    __tablename__ = "prog_secrets"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


# ---- the web's links between rooms and progression (asobiba.server.progression_routes) -----
SEAT_PLAYERS = Table(
    "web_seat_players", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, nullable=False),
)
"""Which signed-in player holds which seat of a room (claimed with the seat's key)."""
ROOM_RATINGS = Table(
    "web_room_ratings", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("result", Text, nullable=False),
)
"""What recording a finished room gave (rating changes, ladder events), for the room page."""
ROOM_CONTEXT = Table(
    "web_room_context", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("player_id", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # "ladder", "exam" or "daily"
    Column("game", String(40), nullable=False),
    Column("level", String(40), nullable=False),
    Column("tier", String(16)),
    Column("seat", Integer, nullable=False),
)
"""Rooms started from the ladder page: whose ladder game or exam game it is."""
LADDER_SETS = Table(
    "web_ladder_sets", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("before", Text, nullable=False),  # the reverse-match set before this room's game
    Column("after", Text),  # ... and after it, once it ended
    Column("next_room", String(32)),
)
"""Reverse-match sets of the ladder (Lv.5 up): one room per game of the set."""
DAILY_ROOMS = Table(
    "web_daily_rooms", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("day", String(10), nullable=False),  # the challenge's date, 2026-11-29
)
"""Rooms playing a daily challenge: which day's challenge (the result clears that day)."""

# ---- the Bot API (asobiba.server.bot_api, docs/bot-api.md) ---------------------------------
API_TOKENS = Table(
    "web_api_tokens", Base.metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the token: never the token
    Column("player_id", Integer, nullable=False, index=True),
    Column("scopes", String(200), nullable=False),  # space-separated, e.g. "bot:play"
    Column("label", String(80), nullable=False),
    Column("created", String(40), nullable=False),
)
"""Personal API tokens, each shown once to the account that made it."""
BOT_ACCOUNTS = Table(
    "web_bot_accounts", Base.metadata,
    Column("player_id", Integer, primary_key=True),
    Column("upgraded", String(40), nullable=False),
)
"""Accounts upgraded to BOT accounts (for good): played by a program through the Bot API."""
BOT_CHALLENGES = Table(
    "web_bot_challenges", Base.metadata,
    Column("id", String(16), primary_key=True),
    Column("bot_id", Integer, nullable=False, index=True),
    Column("challenger_id", Integer),  # the person's account, if signed in
    Column("challenger", String(80), nullable=False),  # the name shown (may be "")
    Column("room_id", String(32), nullable=False),  # fixed in advance; made on accept
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("bot_seat", Integer, nullable=False),
    Column("key_hash", String(64)),  # the challenger's seat key (hash)
    Column("status", String(16), nullable=False),  # created | accepting | accepted | declined
    Column("reason", String(40)),
    Column("created", String(40), nullable=False),
)
"""Challenges to BOT accounts (and their games against the server's CPU, accepted at once)."""
ACCOUNT_SETTINGS = Table(
    "web_account_settings", Base.metadata,
    Column("player_id", Integer, primary_key=True),
    Column("settings", Text, nullable=False),  # a small JSON object (api_schema.Settings)
)
"""A signed-in player's settings (the settings page, issue 27 item 5): one JSON object."""

# ---- people: challenges to a named player, follows and blocks (asobiba.server.social) --------
CHALLENGES = Table(
    "web_challenges", Base.metadata,
    Column("id", String(16), primary_key=True),
    Column("from_id", Integer, nullable=False, index=True),
    Column("to_id", Integer, nullable=False, index=True),
    Column("room_id", String(32), nullable=False),  # fixed in advance; made on accept
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON, validated when made
    Column("clock", Text),  # JSON clock control, or NULL (untimed)
    Column("casual", Boolean, nullable=False),
    Column("from_seat", Integer, nullable=False),  # the challenger's seat (colour chosen or drawn)
    Column("key_hash", String(64), nullable=False),  # the challenger's seat key (hash)
    # created | accepting | accepted | declined | cancelled | expired
    Column("status", String(16), nullable=False),
    Column("reason", String(40)),  # a decline's reason code
    Column("created", String(40), nullable=False),
    Column("expires", String(40), nullable=False),
)
"""Challenges from one account to another named one (issue 28 item 3)."""
FOLLOWS = Table(
    "web_follows", Base.metadata,
    Column("follower_id", Integer, primary_key=True),
    Column("followed_id", Integer, primary_key=True, index=True),
    Column("created", String(40), nullable=False),
)
"""Who follows whom: the follower sees the followed player online and their live games."""
BLOCKS = Table(
    "web_blocks", Base.metadata,
    Column("blocker_id", Integer, primary_key=True),
    Column("blocked_id", Integer, primary_key=True, index=True),
    Column("created", String(40), nullable=False),
)
"""Blocks: no challenges and no pairing between the two, either way."""
# ---- the opening explorer (asobiba.explorer, docs/explorer.md) -----------------------------
EXPLORER_MOVES = Table(
    "explorer_moves", Base.metadata,
    Column("explorer", String(20), primary_key=True),  # reversi, flipflop-3x3, ...
    Column("position", String(120), primary_key=True),  # the canonical key (symmetry-reduced)
    Column("move", String(24), primary_key=True),  # in the canonical frame
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),  # for the side to move
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("rating_sum", Float, nullable=False),  # the games' mean ratings before, summed
    Column("rated", Integer, nullable=False),  # games with a rating (rating_sum's count)
    Column("last_played", String(40), nullable=False),
)
"""Per explorer, position and move: the finished games that played it (asobiba.explorer)."""

# --- s10-puzzles: the puzzle trainer (asobiba.progression.puzzle_trainer, docs/puzzles.md) ---
PUZZLE_ATTEMPTS = Table(
    "prog_puzzle_attempts", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, nullable=False, index=True),
    Column("puzzle_set", String(40), nullable=False),
    Column("puzzle_id", String(60), nullable=False),
    Column("mode", String(12), nullable=False),  # rated | daily | streak
    Column("rated", Boolean, nullable=False),
    Column("status", String(10), nullable=False),  # open | solved | failed
    Column("step", Integer, nullable=False),  # plies of the line done
    Column("run", Integer, nullable=True),  # streak mode: the run's first attempt id
    Column("started", String(40), nullable=False),
    Column("finished", String(40), nullable=True),
    Column("rating_before", Float, nullable=True),
    Column("rating_after", Float, nullable=True),
    Column("puzzle_before", Float, nullable=True),
    Column("puzzle_after", Float, nullable=True),
    # s11-puzzles2: step-by-step moves since the last move of the line ("\n"-separated;
    # Patapata's writes, flaps and turns towards a clear; NULL = none), migration 0010
    Column("pending", Text, nullable=True),
)
"""Every puzzle attempt: the player's progress through the solution (checked on the server)
and, for a rated one, the two ratings before and after (pool ``<set>:puzzle``)."""
PUZZLE_SEEN = Table(
    "prog_puzzle_seen", Base.metadata,
    Column("player_id", Integer, primary_key=True),
    Column("puzzle_set", String(40), primary_key=True),
    Column("puzzle_id", String(60), primary_key=True),
    Column("attempt_id", Integer, nullable=False),
)
"""The first attempt of each player at each puzzle (the key makes it one, also under races):
only that attempt can be rated; repeats are practice."""
# ---- tournaments (asobiba.server.tournament_routes, docs/tournaments.md) -------------------
TOURNAMENTS = Table(
    "web_tournaments", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(8), nullable=False),  # "swiss" | "arena" | "tables"
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("clock", Text),  # JSON object or NULL
    Column("casual", Boolean, nullable=False),
    Column("rounds", Integer, nullable=False),  # Swiss / tables: the rounds; Arena: 0
    Column("minutes", Integer, nullable=False),  # Arena: its length; else 0
    Column("starts", String(40), nullable=False),
    Column("ends", String(40)),  # Arena: starts + minutes; set when it finishes
    Column("status", String(12), nullable=False),  # open | running | finished | cancelled
    Column("creator_id", Integer),  # NULL: scheduled by an operator
    Column("created", String(40), nullable=False, index=True),
)
"""Tournaments: one row each."""
TOURNAMENT_ENTRIES = Table(
    "web_tournament_entries", Base.metadata,
    Column("tournament_id", Integer, primary_key=True),
    Column("player_id", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("rating", Float, nullable=False),  # at joining: the seeding
    Column("status", String(12), nullable=False),  # active | withdrawn
    Column("joined", String(40), nullable=False),
    Column("seen", String(40), nullable=False),  # last time a page of theirs was open
)
"""Who plays in a tournament (withdrawn players stay, with their games)."""
TOURNAMENT_ROUNDS = Table(
    "web_tournament_rounds", Base.metadata,
    Column("tournament_id", Integer, primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("created", String(40), nullable=False),
)
"""One row per pairing decision (a Swiss or tables round, an Arena wave): the primary key
is what makes it one decision with several web processes."""
TOURNAMENT_GAMES = Table(
    "web_tournament_games", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, nullable=False, index=True),
    Column("round", Integer, nullable=False),
    Column("room_id", String(32), index=True),  # NULL: a bye
    Column("players", Text, nullable=False),  # JSON list of player ids in seat order
    Column("keys", Text),  # JSON list of the seats' keys, given only to their own players
    Column("points", Text),  # JSON list of each seat's tournament points once it ended
    Column("created", String(40), nullable=False),
)
"""The games (and byes) of tournaments; a game is an ordinary stored room, replayable."""
# --- s11-analysis2: the analysis board's CPU budget (docs/analysis.md) ---------------------
ANALYSIS_CPU = Table(
    "web_analysis_cpu", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("who", String(80), nullable=False),  # "account:<id>" or "address:<ip>"
    Column("at", Float, nullable=False),  # wall-clock seconds (time.time()) of the step
    Column("cpu", Float, nullable=False),  # CPU seconds the step took
    Index("ix_web_analysis_cpu_who_at", "who", "at"),
)
"""Each analysis step's CPU time, charged to an account or an address, so that every web
process counts one budget (without Redis; with Redis the same counts live there). Rows older
than the window are deleted as the budget is read."""
# ---- chat and moderation (asobiba.server.chat, docs/web.md "Chat", docs/fair-play.md) ------
CHAT_LINES = Table(
    "web_chat_lines", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("place", String(48), nullable=False, index=True),  # "room:<id>" | "tour:<id>"
    Column("channel", String(12), nullable=False),  # players | spectators | tournament
    Column("author_id", Integer, nullable=False, index=True),
    Column("author", String(80), nullable=False),
    Column("seat", Integer),  # the players' channel: the author's seat
    Column("text", Text, nullable=False),
    Column("created", String(40), nullable=False),
    Column("removed", Boolean, nullable=False, default=False),
)
"""Chat lines, each kept (a reload shows them; a report points at one)."""
CHAT_ROOMS = Table(
    "web_chat_rooms", Base.metadata,
    Column("room_id", String(32), primary_key=True),
    Column("players", Boolean, nullable=False),
)
"""The players' chat chosen at a room's creation (no row: on when casual, off when rated)."""
CHAT_REPORTS = Table(
    "web_chat_reports", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, nullable=False, index=True),
    Column("target_id", Integer, nullable=False),
    Column("line_id", Integer),  # NULL: the player was reported, not a line
    Column("reason", String(16), nullable=False),
    Column("status", String(12), nullable=False),  # open | resolved
    Column("created", String(40), nullable=False),
)
"""Reports: the operator's queue (``asobiba admin reports``)."""
MODERATION = Table(
    "web_moderation", Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("target_id", Integer, index=True),  # the player acted on (NULL: a report only)
    Column("action", String(16), nullable=False),  # mute unmute ban unban resolve remove
    Column("until", String(40)),  # a mute's end
    Column("report_id", Integer),
    Column("line_id", Integer),
    Column("reason", Text, nullable=False),
    Column("by", String(80), nullable=False),
    Column("created", String(40), nullable=False),
)
"""Every moderation action, who did it, when and why (the audit; rows are never changed)."""
