"""Typed errors. Every error speaks to the person: it names the move, option or record
field at fault and the rule it breaks. Raising one never leaves a state half-changed,
because states are immutable (see :mod:`asobiba.core.protocol`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

WhyArg = str | int
"""A value a code's argument takes (a square, a colour, a seat letter, a count)."""


@dataclass(frozen=True)
class Why:
    """A coded reason (issue 26 item 2): a stable ``code``, its ``args``, and the English
    ``text`` made from them for logs, the CLI and records. The front end never shows
    ``text``: it renders ``code`` + ``args`` from its one i18n table (``asobiba/web/js/
    i18n.js``, key ``why:<code>`` for a refused move's rule, ``reason:<code>`` for an end
    of game), in English and Japanese. Game codes are ``<game>.<name>``."""

    code: str
    args: Mapping[str, WhyArg] = field(default_factory=dict)
    text: str = ""

    def to_json(self) -> dict[str, str | dict[str, WhyArg]]:
        return {"code": self.code, "args": dict(self.args)}


def why(table: Mapping[str, str], code: str, *, en: Mapping[str, WhyArg] | None = None,
        **args: WhyArg) -> Why:
    """The reason ``code`` with ``args``, its English text filled from ``table`` (the game's
    own English templates, ``{name}`` slots; every code a game emits is a key of it).
    ``en`` overrides arguments in the English text only (``White`` for ``colour="white"``)."""
    return Why(code, args, table[code].format(**{**args, **(en or {})}))


class AsobibaError(Exception):
    """Base class of every error asobiba raises on purpose. ``code`` is the stable,
    machine-readable name an API answers with (``{"error": {"code", "message"}}``) and
    ``status`` its HTTP status: each class states its own, nobody matches class names.
    ``why`` is the specific coded reason (a rule of a game, with its arguments); it defaults
    to the class's code without arguments."""

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400

    def __init__(self, message: str = "", *, why: Why | None = None) -> None:
        super().__init__(message)
        self.why = why if why is not None else Why(self.code, {}, message)

    def detail(self) -> dict[str, str]:
        """The specific code and its arguments, flattened to text for a refusal's ``args``:
        ``{"why": code, **args}`` (a refusal's own ``code`` stays the class's category)."""
        return {"why": self.why.code, **{k: str(v) for k, v in self.why.args.items()}}


OPTION_WHY: dict[str, str] = {
    "option.unknown": "unknown option '{option}'; the options are: {allowed}",
    "option.bad_value": "option '{option}': {value} is not allowed; allowed values: {allowed}",
    "option.pair": "option '{option}' must look like name=value",
    "option.seed": "the seed must be an integer, not {value}",
    "option.invalid": "option '{option}' is not valid here",
    "option.needs": "option '{option}' is needed when {other} is {value}",
    "option.unused": "option '{option}' is only used when {other} is {value}",
    "option.conflict": "option '{option}' does not go with option '{other}'",
    # s11-jsgames: the games' own cross-checks
    "option.must_be": "option '{option}' must be {value} when {other} is {when}",
    "option.range": "option '{option}' must be from {min} to {max}, not {value}",
    "option.at_least": "option '{option}' must be at least {min}, not {value}",
    "option.deal_over": "option '{option}': {hand} cards each for {players} players need more "
                        "than the {total} cards in play",
    "option.no_pile": "option '{option}': {hand} cards each for {players} players deal all "
                      "{total} cards and leave no pile; deal at most {most} each",
    "option.too_few_cells": "option '{option}': {colours} colours need at least {need} cells, "
                            "and this board has {cells}",
    "option.start_pieces": "option '{option}': {per} start pieces leave a colour of {share} "
                           "pieces nothing to place",
    "option.mask": "option '{option}' must be rows of the same length of '#' (cell) and '.' "
                   "(hole) separated by '/'",
    "option.mask_size": "option '{option}': the board must be {min} to {max} cells wide and "
                        "high",
    "option.too_many_actions": "option '{option}': the encoding cannot number {n} actions "
                               "(at most {max})",
    "option.position": "option '{option}': the position {position} cannot be set up",
    "option.view": "not a {game} view: it lacks {keys}",
    "option.seat_view": "a seat's view is needed here, not a spectator's",
}
"""The English of an :class:`OptionError`'s codes (``why:<code>`` in the front end's table,
shared by every game): the option at fault, its value, and what is allowed."""

RECORD_WHY: dict[str, str] = {
    "record.too_large": "the record is larger than {max} bytes",
    "record.not_json": "the record is not valid JSON",
    "record.shape": "the record is not an asobiba record: '{field}' is missing or of the wrong kind",
    "record.version": "record_version {version} is not supported (this is {current})",
    "record.unknown_game": "the record names an unknown game ({game})",
    "record.rules_version": "the record was made under {game} rules version {version}; "
                            "this build plays version {current}",
    "record.options": "the record's options are not valid",
    "record.seats": "the record lists {n} seats; the game has {seats}",
    "record.move": "move {number} ({move}) cannot be played",
    "record.result": "the record's result does not match what its moves produce",
    "record.format": "this is not a {format} record",
    "record.line": "{format}, line {line}: not understood",
    "record.game_mismatch": "a {format} record holds {expected}, not {game}",
    "record.invalid": "the record cannot be read",
    # s11-jsgames: the games' own record formats
    "record.entry": "{format}, entry {number} ({entry}) is not understood",
    "record.header": "{format}: the header line {text} is not understood",
    "record.header_count": "{format}: the header counts {stated}; the moves give {actual}",
    "record.no_players": "{format}: the players line is missing",
    "record.no_rule": "{format}: the line {rule} between the header and the moves is missing",
    "record.unsupported": "{format}: {tag}[{value}] is not supported",
}
"""The English of a :class:`RecordError`'s codes (``why:<code>``, shared by every format)."""


class OptionError(AsobibaError, ValueError):
    """An unknown option, or a value outside the allowed ones. Its ``why`` is one of
    :data:`OPTION_WHY` with its arguments (``option.bad_value`` with ``option``, ``value``,
    ``allowed``); a raise that gives none is ``option.invalid`` naming the option."""

    code: ClassVar[str] = "bad_options"

    def __init__(self, message: str, *, option: str | None = None,
                 why: Why | None = None) -> None:
        if why is None:
            why = Why("option.invalid", {"option": option or "?"}, message)
        super().__init__(message, why=why)
        self.option = option


def option_why(code: str, **args: WhyArg) -> Why:
    """An option's coded reason (:data:`OPTION_WHY`), its English text filled in."""
    return Why(code, args, OPTION_WHY[code].format(**args))


def record_why(code: str, **args: WhyArg) -> Why:
    """A record's coded reason (:data:`RECORD_WHY`), its English text filled in."""
    return Why(code, args, RECORD_WHY[code].format(**args))


class MoveError(AsobibaError, ValueError):
    """A move that cannot be played. ``move`` is the text given."""

    code: ClassVar[str] = "illegal"

    def __init__(self, message: str, *, move: str | None = None,
                 why: Why | None = None) -> None:
        super().__init__(message, why=why)
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
    """A game record that is corrupt, tampered with, or does not replay. Its ``why`` is one
    of :data:`RECORD_WHY` with its arguments (``record.result``, ``record.line`` with
    ``format`` and ``line`` …); a raise that gives none is ``record.invalid``."""

    code: ClassVar[str] = "bad_record"

    def __init__(self, message: str = "", *, why: Why | None = None) -> None:
        super().__init__(message, why=why if why is not None else Why("record.invalid", {},
                                                                      message))


class UnknownGameError(AsobibaError, KeyError):
    """A game id that is not in the registry."""

    code: ClassVar[str] = "unknown_game"
    status: ClassVar[int] = 404

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""
