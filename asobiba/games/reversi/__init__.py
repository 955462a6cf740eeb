"""Classic Reversi/Othello, the reference game."""

from ...core.manifest import GameManifest
from .game import GAME, Reversi, ReversiState

#: Everything this game brings to the platform (docs/architecture.md, "A game is one manifest").
MANIFEST = GameManifest(
    package=__name__,
    game=GAME,
    bots=".bots:make_bot",
    progression=".progression:PROGRESSION",
    encoding=".encoding:Codec",
    formats=".formats:FORMATS",
    paper=".paper:PAPER",
    cli=".cli",
    gym_name="Reversi",
    learning=".learning:SPEC",
    web="web",
)

__all__ = ["GAME", "MANIFEST", "Reversi", "ReversiState"]
