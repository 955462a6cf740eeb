"""Accounts, guests and sessions."""

from __future__ import annotations

import pytest

from asobiba.progression import accounts
from asobiba.progression.errors import AccountError, AuthError
from asobiba.progression.models import PlayerRow


def test_password_is_stored_as_argon2id_never_plain(session, hasher) -> None:
    p = accounts.register(session, "hanako", "sakura-2026", hasher)
    row = session.get(PlayerRow, p.id)
    assert row.password_hash.startswith("$argon2id$")
    assert "sakura-2026" not in row.password_hash


def test_login_gives_a_token_that_names_the_player(session, hasher) -> None:
    accounts.register(session, "hanako", "sakura-2026", hasher)
    player, token = accounts.login(session, "hanako", "sakura-2026", hasher)
    assert accounts.player_for_token(session, token) == player
    accounts.logout(session, token)
    with pytest.raises(AuthError):
        accounts.player_for_token(session, token)


def test_wrong_password_and_unknown_name_get_the_same_message(session, hasher) -> None:
    accounts.register(session, "hanako", "sakura-2026", hasher)
    with pytest.raises(AuthError) as e1:
        accounts.login(session, "hanako", "wrong-pass", hasher)
    with pytest.raises(AuthError) as e2:
        accounts.login(session, "nobody", "wrong-pass", hasher)
    assert str(e1.value) == str(e2.value)


@pytest.mark.parametrize("name,password,msg", [
    ("ab", "long enough", "3–24"), ("a b c", "long enough", "3–24"),
    ("guest-12", "long enough", "reserved"), ("taro", "short", "8 to"),
    ("taro", "TARO", "8 to"), ("taroo123", "taroo123", "differ"),
])
def test_bad_names_and_passwords_are_refused(session, hasher, name, password, msg) -> None:
    with pytest.raises(AccountError, match=msg):
        accounts.register(session, name, password, hasher)
    assert session.query(PlayerRow).count() == 0


def test_names_are_unique_and_may_be_japanese(session, hasher) -> None:
    accounts.register(session, "太郎さん", "long enough", hasher)
    with pytest.raises(AccountError, match="taken"):
        accounts.register(session, "太郎さん", "other password", hasher)


def test_guest_plays_then_claims_a_name_keeping_its_id(session, hasher) -> None:
    g, token = accounts.guest(session)
    assert g.kind == "guest" and accounts.player_for_token(session, token) == g
    with pytest.raises(AuthError):
        accounts.login(session, g.name, "", hasher)
    claimed = accounts.claim_guest(session, g.id, "jiro", "long enough", hasher)
    assert claimed.id == g.id and claimed.kind == "human"
    assert accounts.login(session, "jiro", "long enough", hasher)[0].id == g.id


def test_change_password_logs_out_other_sessions(session, hasher) -> None:
    p = accounts.register(session, "hanako", "sakura-2026", hasher)
    _, token = accounts.login(session, "hanako", "sakura-2026", hasher)
    accounts.change_password(session, p.id, "sakura-2026", "momiji-2026", hasher)
    with pytest.raises(AuthError):
        accounts.player_for_token(session, token)
    accounts.login(session, "hanako", "momiji-2026", hasher)


def test_expired_session_is_refused(session, hasher) -> None:
    accounts.register(session, "hanako", "sakura-2026", hasher)
    _, token = accounts.login(session, "hanako", "sakura-2026", hasher)
    from asobiba.progression.models import SessionRow
    for row in session.query(SessionRow):
        row.expires = "2000-01-01T00:00:00+00:00"
    with pytest.raises(AuthError, match="expired"):
        accounts.player_for_token(session, token)


class _CountingHasher:
    """The test hasher, counting the argon2 work each registration does."""

    def __init__(self, inner) -> None:
        self.inner, self.hashes, self.verifies = inner, 0, 0

    def hash(self, password: str) -> str:
        self.hashes += 1
        return self.inner.hash(password)

    def verify(self, hashed: str, password: str) -> bool:
        self.verifies += 1
        return self.inner.verify(hashed, password)

    def check_needs_rehash(self, hashed: str) -> bool:
        return self.inner.check_needs_rehash(hashed)


def test_registration_does_the_same_work_for_a_taken_and_a_free_name(session, hasher) -> None:
    """Issue 14 item 5 (docs/fair-play.md, "Usernames"): a taken name is said in words
    (names are public), but its answer costs the same argon2 hash as a new account's, so
    the time taken tells nothing more — before, only a free name was hashed."""
    accounts.register(session, "hanako", "sakura-2026", hasher)
    counting = _CountingHasher(hasher)
    with pytest.raises(AccountError, match="taken"):
        accounts.register(session, "hanako", "other password", counting)  # type: ignore[arg-type]
    taken = (counting.hashes, counting.verifies)
    counting.hashes = counting.verifies = 0
    accounts.register(session, "hanako2", "other password", counting)  # type: ignore[arg-type]
    assert taken == (counting.hashes, counting.verifies) == (1, 0)
    # a guest claiming a name: the same on both paths too
    g, _ = accounts.guest(session)
    counting.hashes = 0
    with pytest.raises(AccountError, match="taken"):
        accounts.claim_guest(session, g.id, "hanako", "other password", counting)  # type: ignore[arg-type]
    assert counting.hashes == 1
    counting.hashes = 0
    accounts.claim_guest(session, g.id, "hanako3", "other password", counting)  # type: ignore[arg-type]
    assert counting.hashes == 1
