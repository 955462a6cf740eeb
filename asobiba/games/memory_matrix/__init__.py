"""Memory Matrix (メモマト, 「記憶の碁」; Hiro OTA, 2009): reversi for any number of
colours where a flipped piece shows white and only memory keeps the colour beneath."""

from ...core.manifest import GameManifest
from .game import MemoryMatrixGame
from .state import MemoryMatrixState

GAME = MemoryMatrixGame()
MemoryMatrixState.game = GAME

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

__all__ = ["GAME", "MANIFEST", "MemoryMatrixGame", "MemoryMatrixState"]
