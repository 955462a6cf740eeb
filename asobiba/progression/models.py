"""The progression tables (all prefixed ``prog_``) on their own declarative ``Base``, so the
web app can put them in its database with ``create_all(engine)`` without sharing metadata.

Plain column types only (JSON as text, times as ISO-8601 UTC text that sorts), like
``asobiba.server.db``, so SQLite and PostgreSQL take the same schema.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    """A rated entity: a human account, a guest, a bot level, or a puzzle (rated like lichess)."""

    __tablename__ = "prog_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | guest | bot | puzzle
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    game: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bots, puzzles
    level: Mapped[str | None] = mapped_column(String(40), nullable=True)  # bots
    created: Mapped[str] = mapped_column(String(40), default=utcnow)
    last_seen: Mapped[str] = mapped_column(String(40), default=utcnow)


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


def create_all(engine: Engine) -> None:
    """Create the ``prog_`` tables (idempotent)."""
    Base.metadata.create_all(engine)
