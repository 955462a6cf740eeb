"""Patapata Kamipen (パタパタ紙ペン): see :mod:`.game` and docs/rules/patapata.md."""

from ...core.manifest import GameManifest
from .game import GAME, Patapata, PatapataState, Sheet

#: Everything this game brings to the platform (docs/architecture.md, "A game is one manifest").
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    bots=".bots:make_bot",
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    paper=".paper:PAPER",
    cli=".cli",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "Patapata", "PatapataState", "Sheet"]
