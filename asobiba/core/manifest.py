"""A game is one manifest: everything a game package brings, declared once.

Each game package (``asobiba/games/<id>/__init__.py``, or any importable package for a
plug-in) exports ``MANIFEST``, a :class:`GameManifest`. The registry (``asobiba.games``)
resolves it once per game, and every lookup of the platform goes through it: the rules
(``game``), the bots (``bots``, reached by ``Game.make_bot``), the progression hooks, the RL encoding, the record formats, the print-and-play
paper, the CLI extras, the tutorial (named by the progression hooks, found in ``package``) and
the browser renderer and its words (``web``, a folder of the package). Nothing guesses a
package from ``type(game).__module__`` any more.

The contributions that need an optional extra (paper: reportlab, encoding: numpy) or that are
heavy to import are **references**, ``"module:attribute"`` strings — a module name starting
with ``.`` is relative to ``package`` — imported on first use by :meth:`GameManifest.load`. So
``pip install asobiba`` without extras imports every game's rules, and a game without a
contribution simply leaves its field ``None`` (that feature then refuses the game with a
message naming it).

The layers above say what each reference must hold (core imports nothing else of asobiba):
``progression`` a :class:`~asobiba.core.hooks.GameProgression`, ``encoding`` a
``asobiba.envs.codec.Codec`` subclass, ``formats`` a tuple of
``asobiba.formats.RecordFormat``, ``paper`` an ``asobiba.paper.GamePaper``; ``cli`` is a
module (``asobiba <id> ...``, ``solve``, ``puzzle``). ``web`` is a folder holding ``renderer.js`` (served as ``/static/games/<id>.js``) and
``words.json`` (``{"en": {...}, "ja": {...}}``, served as ``/static/games/<id>.words.json``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Protocol, cast

from .bot import Bot
from .hooks import GameProgression

if TYPE_CHECKING:
    from .protocol import Game


class BotFactory(Protocol):
    """What a manifest's ``bots`` reference names: the bot of a level, seeded."""

    def __call__(self, level: str, seed: int = 0) -> Bot: ...

_BY_TYPE: dict[type, GameManifest] = {}


class ManifestError(TypeError):
    """A manifest that does not say what it must (a programming error of the game)."""


@dataclass(frozen=True)
class GameManifest:
    """Everything one game brings to the platform (see the module docstring)."""

    package: str
    """The game's package (``__name__`` of its ``__init__.py``): relative references and the
    files of the game (tutorial, web) are found in it."""
    game: Game
    """The rules: the game's :class:`~asobiba.core.Game` instance."""
    bots: str | None = None
    """A :class:`BotFactory`, ``make_bot(level, seed)``: ``Game.make_bot`` reaches the
    game's bots only through this reference, so the rules module never imports its bots
    (which import the rules: issue 26, no ``game.py`` ↔ ``bots.py`` cycle)."""
    progression: str | None = None
    """``GameProgression`` hooks: tutorial, move feedback, ladder, dailies, tie-break."""
    encoding: str | None = None
    """The ``Codec`` class of the RL bindings (``envs`` layer)."""
    formats: str | None = None
    """A tuple of ``RecordFormat``: notations for ``asobiba export`` / ``import``."""
    paper: str | None = None
    """The ``GamePaper`` of print-and-play (``paper`` extra)."""
    cli: str | None = None
    """A module (no attribute: ``".cli"``): its typer ``app`` becomes ``asobiba <id> ...``,
    its ``solve`` / ``puzzle`` functions serve ``asobiba solve`` / ``asobiba puzzle``."""
    gym_name: str | None = None
    """The Gymnasium id's name (``asobiba/<gym_name>-v0``); default: the id in CamelCase
    (``memory_matrix`` → ``MemoryMatrix``)."""
    learning: str | None = None
    """What ``asobiba train`` learns from: an ``asobiba.learn.spec.LearningSpec`` (NumPy;
    docs/learning.md)."""
    web: str | None = None
    """A folder of the package holding ``renderer.js`` and ``words.json``; ``None``: the
    generic renderer draws the game."""

    def __post_init__(self) -> None:
        if self.cli is not None and (":" in self.cli or not self.cli.strip(".")):
            raise ManifestError(f"{self.package}.MANIFEST.cli = {self.cli!r}: write a module "
                                "name ('.cli')")
        for name in ("bots", "progression", "encoding", "formats", "paper", "learning"):
            ref = getattr(self, name)
            if ref is not None and (":" not in ref or not ref.partition(":")[0]):
                raise ManifestError(f"{self.package}.MANIFEST.{name} = {ref!r}: write "
                                    "'module:attribute' ('.paper:PAPER')")
        _BY_TYPE[type(self.game)] = self

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def gym_id(self) -> str:
        """The game's Gymnasium id (``asobiba/Reversi-v0``)."""
        name = self.gym_name or "".join(p[:1].upper() + p[1:] for p in self.id.split("_"))
        return f"asobiba/{name}-v0"

    def module_of(self, field_name: str) -> str | None:
        """The absolute module name a reference lives in (nothing is imported)."""
        ref = getattr(self, field_name)
        if ref is None:
            return None
        module = str(ref).partition(":")[0]
        return self.package + module if module.startswith(".") else module

    def load(self, field_name: str) -> object | None:
        """The object a reference names, imported now (``None`` when the game has none). An
        import error inside the game's module is raised, never taken for "none"."""
        module_name = self.module_of(field_name)
        if module_name is None:
            return None
        attr = str(getattr(self, field_name)).partition(":")[2]
        module = importlib.import_module(module_name)
        if field_name == "cli":
            return module
        try:
            found: object = getattr(module, attr)
        except AttributeError:
            raise ManifestError(f"{self.package}.MANIFEST.{field_name}: {module_name} "
                                f"defines no {attr}") from None
        return found

    def bot_factory(self) -> BotFactory | None:
        """The game's bot factory (``None``: the manifest names no bots)."""
        found = self.load("bots")
        if found is None:
            return None
        if not callable(found):
            raise ManifestError(f"{self.package}.MANIFEST.bots must name a function "
                                f"make_bot(level, seed), not {type(found).__name__}")
        return cast(BotFactory, found)

    def hooks(self) -> GameProgression:
        """The progression hooks (an empty ``GameProgression`` when the game has none), with
        ``package`` set to the game's package."""
        found = self.load("progression")
        if found is None:
            return GameProgression(package=self.package)
        if not isinstance(found, GameProgression):
            raise ManifestError(f"{self.package}.MANIFEST.progression must name a "
                                f"GameProgression, not {type(found).__name__}")
        return replace(found, package=self.package)

    def web_file(self, name: str) -> Traversable | None:
        """A file of the game's web folder (``renderer.js``, ``words.json``) or None."""
        if self.web is None:
            return None
        path = resources.files(self.package).joinpath(self.web).joinpath(name)
        return path if path.is_file() else None


def manifest_of(game: Game) -> GameManifest:
    """The manifest that declared ``game`` (its package was imported: the registry or a
    direct import of the game's package)."""
    found = _BY_TYPE.get(type(game))
    if found is None:
        raise ManifestError(f"game {game.id!r} ({type(game).__name__}) has no manifest: its "
                            "package must define MANIFEST = GameManifest(...)")
    return found
