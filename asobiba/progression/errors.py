"""Typed errors of the progression layer; each names what is wrong and what is allowed."""

from __future__ import annotations

from typing import ClassVar

from ..core.errors import AsobibaError


class ProgressionError(AsobibaError, ValueError):
    """Base class of every progression error (bad input; nothing was changed)."""

    code: ClassVar[str] = "bad_request"


class AccountError(ProgressionError):
    """A name or password that cannot be used, or a name already taken."""

    code: ClassVar[str] = "bad_account"


class NameTakenError(AccountError):
    """The name, or one that looks like it (the same UTS #39 skeleton), has an owner.
    ``existing``: the owner's name as stored."""

    code: ClassVar[str] = "name_taken"

    def __init__(self, message: str, *, name: str, existing: str) -> None:
        super().__init__(message)
        self.name, self.existing = name, existing


class AuthError(ProgressionError):
    """Wrong name/password, or an unknown/expired session token."""

    code: ClassVar[str] = "auth"
    status: ClassVar[int] = 401


class MatchError(ProgressionError):
    """A match result that does not fit the match (it is over, wrong seats...)."""

    code: ClassVar[str] = "bad_match"


class LadderError(ProgressionError):
    """A ladder action that the ladder rules do not allow now (no exam due, level locked)."""

    code: ClassVar[str] = "ladder_refused"
