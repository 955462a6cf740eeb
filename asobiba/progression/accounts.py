"""Local accounts, guests and session tokens.

Passwords are hashed with argon2id (``argon2.PasswordHasher``, memory-hard, with its own
salt and parameters inside the hash), rehashed on login when the parameters change. A login
returns a random token; only its SHA-256 is stored. A guest is a player without a password
who can later claim a name and keep their history.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..tables import now, stamp
from .errors import AccountError, AuthError
from .models import PlayerRow, SessionRow, utcnow

DEFAULT_HASHER = PasswordHasher()
SESSION_DAYS = 30
NAME_RE = re.compile(r"^[^\W][\w\-.]{2,23}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
RESERVED_PREFIXES = ("guest-", "bot:", "puzzle:")


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    name: str
    kind: str

    @classmethod
    def of(cls, row: PlayerRow) -> PlayerInfo:
        return cls(row.id, row.name, row.kind)


def _check_name_form(name: str) -> str:
    """The name's form (no database): refused before any work, the same for every name."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise AccountError(
            "a name is 3–24 letters, digits, '_', '-' or '.', starting with a letter or digit"
        )
    if name.lower().startswith(RESERVED_PREFIXES):
        raise AccountError(f"names starting with {', '.join(RESERVED_PREFIXES)} are reserved")
    return name


def _check_name_free(session: Session, name: str) -> None:
    taken = session.scalar(select(PlayerRow.id).where(PlayerRow.name == name))
    if taken is not None:
        raise AccountError(f"the name {name!r} is already taken")


def _new_password_hash(session: Session, name: str, password: str,
                       hasher: PasswordHasher) -> str:
    """Check a new account's name and password and hash the password — the same work
    (form checks, zxcvbn, one argon2 hash, one name lookup) whether or not the name is
    taken, so the answer's timing does not tell (docs/fair-play.md: that a name is taken is
    said in words, as usernames are public; the time taken says nothing more)."""
    _check_name_form(name)
    _check_password(password, name)
    password_hash = hasher.hash(password)
    _check_name_free(session, name)
    return password_hash


def _check_password(password: str, name: str) -> None:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if password.lower() == name.lower():
        raise AccountError("the password must differ from the name")
    weak = password_weakness(password, name)
    if weak:
        raise AccountError(weak)


MIN_STRENGTH = 2
"""zxcvbn's score (0–4) a password needs: 0–1 are found within about 10⁶ guesses (common
passwords, keyboard walks, dates, the name itself), as its frequency lists tell."""


def password_weakness(password: str, name: str = "") -> str | None:
    """Why ``password`` is too easy to guess (zxcvbn against its common-password, name and
    word lists, with the account name as a hint), or None. Only the first 100 characters
    are scored (zxcvbn's cost grows with length; a longer password is not weak)."""
    from zxcvbn import zxcvbn

    result = zxcvbn(password[:100], user_inputs=[name] if name else [])
    if int(result["score"]) >= MIN_STRENGTH:
        return None
    warning = (result.get("feedback") or {}).get("warning") or "it is too easy to guess"
    return f"choose a harder password: {warning.rstrip('.').lower()} (try a few unusual words)"


_DUMMY: dict[int, str] = {}


def _dummy_hash(hasher: PasswordHasher) -> str:
    """A hash made with ``hasher``'s parameters, verified for unknown names so that their
    answer costs the same argon2 time as a wrong password (no probing for names by timing)."""
    key = id(hasher)
    if key not in _DUMMY:
        _DUMMY[key] = hasher.hash(secrets.token_urlsafe(16))
    return _DUMMY[key]


def register(session: Session, name: str, password: str,
             hasher: PasswordHasher = DEFAULT_HASHER) -> PlayerInfo:
    """A new account (flushed, not committed: the caller owns the transaction)."""
    password_hash = _new_password_hash(session, name, password, hasher)
    row = PlayerRow(name=name, kind="human", password_hash=password_hash)
    session.add(row)
    session.flush()
    return PlayerInfo.of(row)


def guest(session: Session) -> tuple[PlayerInfo, str]:
    """A guest player and its session token (guests play and keep a history, unranked
    until they claim a name)."""
    row = PlayerRow(name=f"guest-{secrets.token_hex(6)}", kind="guest")
    session.add(row)
    session.flush()
    return PlayerInfo.of(row), _new_token(session, row.id)


def claim_guest(session: Session, guest_id: int, name: str, password: str,
                hasher: PasswordHasher = DEFAULT_HASHER) -> PlayerInfo:
    """Turn a guest into an account, keeping its games, ratings and ladder."""
    row = session.get(PlayerRow, guest_id)
    if row is None or row.kind != "guest":
        raise AccountError(f"player {guest_id} is not a guest")
    password_hash = _new_password_hash(session, name, password, hasher)
    row.name, row.kind, row.password_hash = name, "human", password_hash
    session.flush()
    return PlayerInfo.of(row)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token(session: Session, player_id: int, days: int = SESSION_DAYS) -> str:
    token = secrets.token_urlsafe(32)
    expires = stamp(now() + timedelta(days=days))
    session.add(SessionRow(token_hash=_hash_token(token), player_id=player_id, expires=expires))
    session.flush()
    return token


def new_session(session: Session, player_id: int) -> str:
    """A session token for a player just registered (no second password check)."""
    return _new_token(session, player_id)


def renew_sessions(session: Session, player_id: int) -> str:
    """End every session of the player and return a new one: when a guest becomes an
    account, a token made before (perhaps planted in the browser by someone else: session
    fixation) must not be logged in as the account."""
    session.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
    return _new_token(session, player_id)


def login(session: Session, name: str, password: str,
          hasher: PasswordHasher = DEFAULT_HASHER) -> tuple[PlayerInfo, str]:
    """Check the password; return the player and a new session token."""
    row = session.scalar(select(PlayerRow).where(PlayerRow.name == name))
    # same message and the same argon2 work for an unknown name and a wrong password: no
    # probing for names by the answer or its time
    if row is None or row.kind != "human" or not row.password_hash:
        try:
            hasher.verify(_dummy_hash(hasher), password)
        except (VerificationError, InvalidHashError):
            pass
        raise AuthError("wrong name or password")
    try:
        hasher.verify(row.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise AuthError("wrong name or password") from None
    if hasher.check_needs_rehash(row.password_hash):
        row.password_hash = hasher.hash(password)
    row.last_seen = utcnow()
    return PlayerInfo.of(row), _new_token(session, row.id)


def player_for_token(session: Session, token: str) -> PlayerInfo:
    """The player a session token belongs to; AuthError if unknown or expired."""
    if not isinstance(token, str) or not token:
        raise AuthError("no session token")
    row = session.get(SessionRow, _hash_token(token))
    if row is None:
        raise AuthError("unknown session; please log in again")
    if row.expires < utcnow():
        session.delete(row)
        raise AuthError("the session has expired; please log in again")
    player = session.get(PlayerRow, row.player_id)
    assert player is not None
    return PlayerInfo.of(player)


def logout(session: Session, token: str) -> None:
    session.execute(delete(SessionRow).where(SessionRow.token_hash == _hash_token(token)))


def change_password(session: Session, player_id: int, old: str, new: str,
                    hasher: PasswordHasher = DEFAULT_HASHER) -> None:
    """Change a password (old one required); every other session is logged out."""
    row = session.get(PlayerRow, player_id)
    if row is None or not row.password_hash:
        raise AuthError("no such account")
    try:
        hasher.verify(row.password_hash, old)
    except (VerificationError, InvalidHashError):
        raise AuthError("wrong password") from None
    _check_password(new, row.name)
    row.password_hash = hasher.hash(new)
    session.execute(delete(SessionRow).where(SessionRow.player_id == player_id))


def bot_player(session: Session, game_id: str, level: str) -> PlayerInfo:
    """The rated entity of one bot level of one game (created on first use)."""
    name = f"bot:{game_id}:{level}"
    row = session.scalar(select(PlayerRow).where(PlayerRow.name == name))
    if row is None:
        row = PlayerRow(name=name, kind="bot", game=game_id, level=level)
        session.add(row)
        session.flush()
    return PlayerInfo.of(row)


def puzzle_player(session: Session, game_id: str, puzzle_id: str) -> PlayerInfo:
    """A puzzle as a rated opponent (lichess rates puzzles as games against the puzzle)."""
    name = f"puzzle:{game_id}:{puzzle_id}"
    row = session.scalar(select(PlayerRow).where(PlayerRow.name == name))
    if row is None:
        row = PlayerRow(name=name, kind="puzzle", game=game_id, level=puzzle_id)
        session.add(row)
        session.flush()
    return PlayerInfo.of(row)
