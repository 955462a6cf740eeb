"""Typed errors. Every error speaks to the person: it names the move, option or record
field at fault and the rule it breaks. Raising one never leaves a state half-changed,
because states are immutable (see :mod:`asobiba.core.protocol`)."""

from __future__ import annotations

from typing import ClassVar


class AsobibaError(Exception):
    """Base class of every error asobiba raises on purpose. ``code`` is the stable,
    machine-readable name an API answers with (``{"error": {"code", "message"}}``) and
    ``status`` its HTTP status: each class states its own, nobody matches class names."""

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400


class OptionError(AsobibaError, ValueError):
    """An unknown option, or a value outside the allowed ones."""

    code: ClassVar[str] = "bad_options"

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class MoveError(AsobibaError, ValueError):
    """A move that cannot be played. ``move`` is the text given."""

    code: ClassVar[str] = "illegal"

    def __init__(self, message: str, *, move: str | None = None) -> None:
        super().__init__(message)
        self.move = move


class MalformedMoveError(MoveError):
    """The text is not a move in the game's notation at all."""

    code: ClassVar[str] = "malformed"


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid here; the message names the rule."""

    code: ClassVar[str] = "illegal"


class AmbiguousMoveError(MoveError):
    """The text names more than one legal move."""

    code: ClassVar[str] = "ambiguous"


class NotYourTurnError(IllegalMoveError):
    """A seat tried to act while it is not its turn (or the game is over)."""

    code: ClassVar[str] = "not_your_turn"


class RecordError(AsobibaError, ValueError):
    """A game record that is corrupt, tampered with, or does not replay."""

    code: ClassVar[str] = "bad_record"


class UnknownGameError(AsobibaError, KeyError):
    """A game id that is not in the registry."""

    code: ClassVar[str] = "unknown_game"
    status: ClassVar[int] = 404

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
