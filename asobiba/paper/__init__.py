"""Print-and-play material, generated from the engines (``asobiba print``, GET /api/print).

Each game brings its own paper in ``asobiba/games/<id>/paper.py``: a module-level ``PAPER``
(:class:`GamePaper`) that draws the blank material for the game's options (boards, sheets,
score sheets, puzzles) and one position (for records). This layer finds it through the game
registry, parses the print options, and lays out records; it names no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

from ..core import AsobibaError, Record
from ..core.jsontypes import JSONMapping, JSONObject, OptionValue
from ..games import get as get_game
from ..games import manifest
from .doc import LANGS, PAPERS, Document
from .errors import PaperError

__all__ = ["Document", "GamePaper", "PaperError", "PrintOption", "PrintRequest", "hook",
           "parse_request", "print_game", "print_record", "LANGS", "PAPERS"]


@dataclass(frozen=True)
class PrintOption:
    """An option of the printed material only (the game's own options are accepted too)."""

    name: str
    default: OptionValue
    kind: str = "choice"  # choice | int
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    description: str = ""

    def parse(self, raw: str) -> OptionValue:
        if self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise PaperError(f"option {self.name!r}: {raw!r} is not a whole number",
                                 option=self.name) from None
            if (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum):
                raise PaperError(f"option {self.name!r}: {value} is outside "
                                 f"{self.minimum}–{self.maximum}", option=self.name)
            return value
        if raw not in [str(c) for c in self.choices]:
            raise PaperError(f"option {self.name!r}: {raw!r} is not allowed; allowed values: "
                             + ", ".join(map(str, self.choices)), option=self.name)
        return next(c for c in self.choices if str(c) == raw)


class GamePaper(Protocol):
    """What a game's ``paper.py`` exposes as ``PAPER``."""

    options: Sequence[PrintOption]

    def blank(self, doc: Document, request: PrintRequest) -> None:
        """Draw the material to play away from the screen, one or more pages."""

    def position(self, doc: Document, view: JSONMapping, x: float, y: float,
                 width: float) -> float:
        """Draw a public view (a record's final position) at (x, y); return the y below."""


@dataclass(frozen=True)
class PrintRequest:
    game: str
    options: JSONMapping  # the game's own, validated
    extra: JSONMapping  # the paper module's own print options
    seed: int
    paper: str = "a4"
    lang: str = "en"
    seed_given: bool = False
    raw: Mapping[str, str] = field(default_factory=dict)


def hook(game_id: str) -> GamePaper:
    """The game's paper (its manifest's ``paper``), or a PaperError naming the game."""
    try:
        found = manifest(game_id).load("paper")
    except AsobibaError as exc:
        raise PaperError(str(exc), option="game") from exc
    if found is None:
        raise PaperError(f"game {game_id!r} has no print material", option="game")
    return cast("GamePaper", found)


def parse_request(game_id: str, raw: Mapping[str, str], seed: int | None = None,
                  paper: str = "a4", lang: str = "en") -> PrintRequest:
    """Split ``--name value`` pairs into the game's options and the print options; any
    unknown name is an error that lists both."""
    printer = hook(game_id)  # first: an unknown game is a PaperError naming the games
    game = get_game(game_id)
    own = {o.name: o for o in printer.options}
    game_names = {o.name for o in game.options} if game else set()
    game_raw: JSONObject = {}
    extra = {o.name: o.default for o in printer.options}
    for name, value in raw.items():
        key = name.replace("-", "_")
        if key in own:
            extra[key] = own[key].parse(value)
        elif key in game_names:
            game_raw[key] = value
        else:
            allowed = sorted(own) + sorted(game_names - set(own))
            raise PaperError(f"unknown print option {name!r} for {game_id}; options: "
                             + ", ".join(allowed), option=name)
    if paper not in PAPERS:
        raise PaperError(f"option 'paper': {paper!r} is not allowed; allowed values: "
                         + ", ".join(PAPERS), option="paper")
    if lang not in LANGS:
        raise PaperError(f"option 'lang': {lang!r} is not allowed; allowed values: "
                         + ", ".join(LANGS), option="lang")
    options = game.validate_options(game_raw)
    return PrintRequest(game_id, options, extra, game.default_seed if seed is None else seed,
                        paper, lang, seed is not None, dict(raw))


def print_game(request: PrintRequest) -> bytes:
    """The PDF of a game's blank material."""
    game = get_game(request.game)
    doc = Document(request.paper, request.lang, f"{game.title_en} — asobiba")
    hook(request.game).blank(doc, request)
    return doc.finish()


def print_record(record: Record, paper: str = "a4", lang: str = "en") -> bytes:
    """The PDF of a finished (or unfinished) game: final position, moves, result."""
    from .record import draw_record

    game = get_game(record.game)
    doc = Document(paper, lang, f"{game.title_en} record — asobiba")
    draw_record(doc, record, hook(record.game))
    return doc.finish()
