"""Game options declared as data: name, default, allowed values, description.

Each game lists its :class:`Option` objects once; :func:`validate_options` checks a
mapping of raw values (strings from a command line or JSON values from a record) and
returns a complete, typed dict, or raises :class:`OptionError` naming the option and the
allowed values.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import OptionError, option_why
from .jsontypes import JSONMapping, JSONObject, OptionValue


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``kind`` is ``"choice"`` (``choices`` lists the values), ``"int"`` (``minimum`` and
    ``maximum`` bound it), ``"bool"`` or ``"str"`` (free text, checked by the game).
    """

    name: str
    default: OptionValue
    kind: str = "choice"
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""
    description_ja: str = ""
    #: Values a record may leave out; ``None`` default means "decided by the game".
    nullable: bool = field(default=False)
    #: A value other than the default is allowed only in casual (unrated) games — learning
    #: aids that show a seat more than the rules let a player know.
    casual_only: bool = field(default=False)
    #: The value is a seat number (from 0): a form offers only the seats the table has.
    seat: bool = field(default=False)

    def allowed(self) -> str:
        """Human text for the allowed values, used in error messages and ``asobiba games``."""
        if self.kind == "choice":
            return ", ".join(str(c) for c in self.choices)
        if self.kind == "int":
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            return f"an integer {lo}..{hi}".rstrip(".") if hi else f"an integer >= {lo}"
        if self.kind == "bool":
            return "true, false"
        return "text"

    def convert(self, raw: object) -> OptionValue:
        """Convert and check one raw value; raise :class:`OptionError` if it is not allowed."""
        if raw is None and self.nullable:
            return None
        bad = OptionError(
            f"option {self.name!r}: {raw!r} is not allowed; allowed values: {self.allowed()}",
            option=self.name,
            why=option_why("option.bad_value", option=self.name, value=str(raw)[:40],
                           allowed=self.allowed()),
        )
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(raw, str) and raw.lower() in ("false", "no", "off", "0"):
                return False
            raise bad
        if self.kind == "int":
            if isinstance(raw, bool):
                raise bad
            if isinstance(raw, int):
                value = raw
            elif isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
                value = int(raw)
            else:
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise bad
            return value
        if self.kind == "choice":
            for choice in self.choices:
                if raw == choice or (isinstance(raw, str) and str(choice) == raw):
                    return choice
            raise bad
        if not isinstance(raw, str):
            raise bad
        return raw


def validate_options(specs: Iterable[Option], raw: JSONMapping | None) -> JSONObject:
    """Complete and check ``raw`` against ``specs``; unknown names are refused."""
    specs = list(specs)
    by_name = {spec.name: spec for spec in specs}
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(by_name))
    if unknown:
        names = ", ".join(by_name) or "none"
        raise OptionError(
            f"unknown option {unknown[0]!r}; this game's options are: {names}", option=unknown[0],
            why=option_why("option.unknown", option=unknown[0][:40], allowed=names),
        )
    return {spec.name: spec.convert(raw[spec.name]) if spec.name in raw else spec.default
            for spec in specs}


def rated_violations(specs: Iterable[Option], options: JSONMapping) -> list[str]:
    """Messages for options set to a value that rated play does not allow (empty if none)."""
    return [
        f"option {spec.name!r} must stay {spec.default!r} in rated games (it is a learning aid)"
        for spec in specs
        if spec.casual_only and options.get(spec.name, spec.default) != spec.default
    ]


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """Parse ``k=v`` strings from a command line."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} must look like name=value", option=pair,
                              why=option_why("option.pair", option=pair[:40]))
        out[key.strip()] = value.strip()
    return out
